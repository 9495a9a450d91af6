package plan_test

import (
	"context"
	"runtime/metrics"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// Schedule collects garbage before a solver with a time budget, and only then, so that a collection started by
// reading and modelling does not run into the deadline.
func TestScheduleCollectsBeforeABudgetedSolve(t *testing.T) {
	snap := fixture.Landscape(t, []*gardencorev1beta1.Seed{Seed("a", Allocatable(1))}, []*gardencorev1beta1.Shoot{Shoot("s1"), Shoot("s2")})
	forced := func() uint64 {
		sample := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	for _, tc := range []struct {
		solver      solver.Solver
		collections uint64
	}{
		{solver.LP{Weights: solver.DefaultWeights(), Timeout: time.Second}, 1},
		{solver.LP{Weights: solver.DefaultWeights()}, 0},
		{solver.Greedy{}, 0},
	} {
		before := forced()
		outcome, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), plan.Policy{Solver: tc.solver, Weights: solver.DefaultWeights()})
		if err != nil {
			t.Fatal(err)
		}
		if got := forced() - before; got != tc.collections || (outcome.CollectTime > 0) != (tc.collections > 0) {
			t.Errorf("%s: %d forced collections taking %v, want %d", tc.solver.Name(), got, outcome.CollectTime, tc.collections)
		}
		if len(outcome.Plan.Placements) != 1 {
			t.Errorf("%s: placed %d, want 1", tc.solver.Name(), len(outcome.Plan.Placements))
		}
	}
}
