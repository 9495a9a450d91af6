package plan_test

import (
	"context"
	"math"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// Allocatable values up to 2^63−1 mean "practically unlimited": every use case must treat them as room, never
// wrap around into none.
func TestHugeAllocatable(t *testing.T) {
	huge := []int64{100, math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64 / 10 * 9, 1 << 62}
	for _, allocatable := range huge {
		seeds := func() []*gardencorev1beta1.Seed {
			return []*gardencorev1beta1.Seed{Seed("big", Allocatable(allocatable), WithBackup()), Seed("small", Allocatable(2), WithBackup())}
		}
		shoots := append(hosting("small", "on", 4), pending("p", 5)...)
		snap := fixture.Landscape(t, seeds(), shoots)
		ctx := context.Background()
		for _, s := range []solver.Solver{solver.LP{Weights: solver.DefaultWeights()}, solver.Greedy{}} {
			o, err := plan.Schedule(ctx, snap, snap.Pending("default-scheduler"), plan.Policy{Solver: s, Weights: solver.DefaultWeights()})
			if err != nil {
				t.Fatalf("allocatable %d, %s: %v", allocatable, s.Name(), err)
			}
			if got := o.Plan.PlacedPerSeed()["big"]; got != 5 {
				t.Errorf("allocatable %d, %s: placed %d of 5 on the big seed: %+v", allocatable, s.Name(), got, o.Plan)
			}
		}
		r, err := plan.Rebalance(ctx, snap, plan.Policy{Weights: solver.DefaultWeights()}, model.RebalanceOptions{TargetUtilization: 0.8}, plan.MoveLimits{})
		if err != nil {
			t.Fatalf("allocatable %d, rebalance: %v", allocatable, err)
		}
		if len(r.Moves) != 3 || !r.Complete() {
			t.Errorf("allocatable %d, rebalance: %d moves, complete %v; want 3 off the overloaded seed onto the big one", allocatable, len(r.Moves), r.Complete())
		}
		c, err := plan.Capacity(ctx, snap, plan.Policy{Target: 0.8})
		if err != nil {
			t.Fatalf("allocatable %d, capacity: %v", allocatable, err)
		}
		if c.OnExisting != 5 || c.Total() != 0 || len(c.Unplaceable) != 0 {
			t.Errorf("allocatable %d, capacity: %d on existing, %d new seeds, %d unplaceable; want 5, 0, 0", allocatable, c.OnExisting, c.Total(), len(c.Unplaceable))
		}
	}
}
