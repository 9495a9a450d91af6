package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/fixture"
	"github.com/seedplan/seedplan/internal/scenario"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
)

// The rebalancing scenarios at a small size: the LP never strands a shoot or fills a seed above its target,
// accounts for the lower bound, and, when the baseline kept to the targets too, resolves at least as much with
// no more moves.
func TestRebalanceScenarios(t *testing.T) {
	var names []string
	for _, sc := range scenario.Rebalances() {
		names = append(names, sc.Name)
	}
	jobs, err := Jobs(names, []Size{{1500, 60}})
	if err != nil {
		t.Fatal(err)
	}
	results, err := Run(context.Background(), Config{Jobs: jobs, Repeats: 1, Seed: 2, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(results.Windows) != 0 || len(results.Rebalances) != 2*len(names) {
		t.Fatalf("%d window and %d rebalance results, want 0 and %d", len(results.Windows), len(results.Rebalances), 2*len(names))
	}
	for i := 0; i < len(results.Rebalances); i += 2 {
		lp, naive := results.Rebalances[i], results.Rebalances[i+1]
		t.Run(lp.Scenario, func(t *testing.T) {
			if lp.Method != MethodLP || naive.Method != MethodNaive || lp.Shoots != naive.Shoots || lp.LowerBound != naive.LowerBound {
				t.Fatalf("not a comparable pair: %+v / %+v", lp, naive)
			}
			if lp.LowerBound == 0 || lp.Moves == 0 {
				t.Fatalf("the scenario needs no moves: %+v", lp)
			}
			if lp.Stranded != 0 || lp.Evictions != lp.Moves || lp.MovesAboveTarget != 0 || !lp.Optimal {
				t.Errorf("lp: %+v", lp)
			}
			if lp.Moves+lp.Unresolved < lp.LowerBound {
				t.Errorf("lp: %d moves and %d unresolved beat the lower bound %d", lp.Moves, lp.Unresolved, lp.LowerBound)
			}
			if naive.Evictions != naive.Moves+naive.Stranded {
				t.Errorf("naive: %d evictions, %d moves, %d stranded", naive.Evictions, naive.Moves, naive.Stranded)
			}
			if naive.MovesAboveTarget == 0 && (lp.Unresolved > naive.Unresolved || lp.Unresolved == naive.Unresolved && lp.Moves > naive.Moves) {
				t.Errorf("the baseline kept to the targets and did better: lp %d unresolved with %d moves, naive %d with %d",
					lp.Unresolved, lp.Moves, naive.Unresolved, naive.Moves)
			}
			t.Logf("lower bound %d; lp %d moves, %d unresolved; naive %d moves, %d stranded, %d above target, %d unresolved",
				lp.LowerBound, lp.Moves, lp.Unresolved, naive.Moves, naive.Stranded, naive.MovesAboveTarget, naive.Unresolved)
		})
	}
}

func TestNaiveDescheduler(t *testing.T) {
	seed := func(name string, allocatable int64, opts ...SeedOption) *gardencorev1beta1.Seed {
		return Seed(name, append([]SeedOption{Allocatable(allocatable), WithBackup()}, opts...)...)
	}
	hosting := func(seed, prefix string, n int) []*gardencorev1beta1.Shoot {
		var shoots []*gardencorev1beta1.Shoot
		for i := range n {
			shoots = append(shoots, Shoot(fmt.Sprintf("%s-%d", prefix, i+1), BoundTo(seed), Running()))
		}
		return shoots
	}
	tests := []struct {
		name                  string
		seeds                 []*gardencorev1beta1.Seed
		shoots                [][]*gardencorev1beta1.Shoot
		routes                map[string]int
		stranded, aboveTarget int
	}{
		{
			name:   "evicts down to the limit onto the least utilized seed",
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10), seed("c", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 10), hosting("b", "on-b", 2), hosting("c", "on-c", 2)},
			routes: map[string]int{"a→b": 1, "a→c": 1},
		},
		{
			name:   "knows nothing of the target: fills up to allocatable",
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 10), hosting("b", "on-b", 7)},
			// b takes one below its target of 8 and one above (Gardener's capacity is 10); b is then above its
			// target itself and evicts one, which has nowhere to go: a was full from the start.
			routes: map[string]int{"a→b": 2}, aboveTarget: 1, stranded: 1,
		},
		{
			name:     "evicts shoots that have nowhere to go",
			seeds:    []*gardencorev1beta1.Seed{seed("a", 10), Seed("b", Allocatable(10))},
			shoots:   [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 9)},
			routes:   map[string]int{},
			stranded: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var shoots []*gardencorev1beta1.Shoot
			for _, s := range tc.shoots {
				shoots = append(shoots, s...)
			}
			r, err := model.NewRebalancing(fixture.Landscape(t, tc.seeds, shoots), model.Options{}, model.RebalanceOptions{TargetUtilization: 0.8})
			if err != nil {
				t.Fatal(err)
			}
			moves, stranded, aboveTarget := NaiveDescheduler(r)
			routes := map[string]int{}
			for _, m := range moves {
				routes[m.From+"→"+m.To]++
			}
			if fmt.Sprint(routes) != fmt.Sprint(tc.routes) || stranded != tc.stranded || aboveTarget != tc.aboveTarget {
				t.Errorf("routes %v, %d stranded, %d above target; want %v, %d, %d", routes, stranded, aboveTarget, tc.routes, tc.stranded, tc.aboveTarget)
			}
		})
	}
}
