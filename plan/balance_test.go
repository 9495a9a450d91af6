package plan_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// A stream of one-shoot windows, as the run loop plans a trickle of new shoots, ends as balanced as the
// gardener-scheduler's least-utilized rule leaves the seeds one shoot at a time, and as one window of all the
// shoots: the LP's utilization cost tells nearly empty seeds apart.
func TestStreamOfSmallWindowsStaysBalanced(t *testing.T) {
	const seeds, arriving = 8, 40
	hosted := []int{3, 0, 5, 1, 0, 2, 4, 1} // shoots each seed hosts before the stream
	landscape := func(placed map[string]string, pending []string) ([]*gardencorev1beta1.Seed, []*gardencorev1beta1.Shoot) {
		var ss []*gardencorev1beta1.Seed
		var shoots []*gardencorev1beta1.Shoot
		for i := range seeds {
			name := fmt.Sprintf("seed-%d", i)
			ss = append(ss, Seed(name, Allocatable(60)))
			for j := range hosted[i] {
				shoots = append(shoots, Shoot(fmt.Sprintf("old-%d-%d", i, j), BoundTo(name), Running()))
			}
		}
		for name, seed := range placed {
			shoots = append(shoots, Shoot(name, BoundTo(seed), Running()))
		}
		for i, name := range pending {
			shoots = append(shoots, Shoot(name, CreatedAfter(time.Duration(i)*time.Second)))
		}
		return ss, shoots
	}
	spread := func(placed map[string]string) int {
		counts := slices.Clone(hosted)
		for _, seed := range placed {
			var i int
			if _, err := fmt.Sscanf(seed, "seed-%d", &i); err != nil {
				t.Fatal(err)
			}
			counts[i]++
		}
		return slices.Max(counts) - slices.Min(counts)
	}
	names := make([]string, arriving)
	for i := range names {
		names[i] = fmt.Sprintf("new-%02d", i)
	}
	policy := func(s solver.Solver) plan.Policy { return plan.Policy{Solver: s, Weights: solver.DefaultWeights()} }
	stream := func(s solver.Solver) map[string]string {
		placed := map[string]string{}
		for _, name := range names {
			seedList, shoots := landscape(placed, []string{name})
			snap := fixture.Landscape(t, seedList, shoots)
			o, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), policy(s))
			if err != nil {
				t.Fatal(err)
			}
			if len(o.Plan.Placements) != 1 {
				t.Fatalf("%s: %s not placed: %+v", s.Name(), name, o.Plan)
			}
			placed[name] = o.Plan.Placements[0].Seed
		}
		return placed
	}
	seedList, shoots := landscape(nil, names)
	snap := fixture.Landscape(t, seedList, shoots)
	window, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), policy(solver.LP{Weights: solver.DefaultWeights()}))
	if err != nil {
		t.Fatal(err)
	}
	oneWindow := map[string]string{}
	for _, p := range window.Plan.Placements {
		oneWindow[p.Shoot] = p.Seed
	}
	lp, gardener := spread(stream(solver.LP{Weights: solver.DefaultWeights()})), spread(stream(solver.Greedy{}))
	if whole := spread(oneWindow); lp > gardener || lp > whole {
		t.Fatalf("shoots per seed spread %d after one-shoot LP windows; the gardener-scheduler's rule leaves %d, one window %d", lp, gardener, whole)
	}
}
