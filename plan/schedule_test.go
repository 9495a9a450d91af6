package plan_test

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// Schedule collects garbage before a solver with a time budget solves a window of 100 shoots or more when a
// collection could otherwise start during the solve and be long beside the budget, and only then, so that a
// collection started by reading and modelling does not run into the deadline, while a lone new shoot does not
// wait for a collection. GOGC decides how far the heap's goal is: at 1 % the solve of 1,000 shoots may start a
// collection, at 100,000 % it does not. A budget of a millisecond is short beside any collection, an hour long.
func TestScheduleCollectsBeforeABudgetedSolve(t *testing.T) {
	var shoots []*gardencorev1beta1.Shoot
	for i := range 1000 {
		shoots = append(shoots, Shoot(fmt.Sprintf("s%d", i)))
	}
	snap := fixture.Landscape(t, []*gardencorev1beta1.Seed{Seed("a", Allocatable(1))}, shoots)
	forced := func() uint64 {
		sample := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	budgeted := solver.LP{Weights: solver.DefaultWeights(), Timeout: time.Millisecond}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tc := range []struct {
		solver      solver.Solver
		shoots      int
		gcPercent   int
		collections uint64
	}{
		{budgeted, 1000, 1, 1},
		{budgeted, 1000, 100_000, 0},
		{budgeted, 99, 1, 0},
		{budgeted, 1, 1, 0},
		{solver.LP{Weights: solver.DefaultWeights(), Timeout: time.Hour}, 1000, 1, 0},
		{solver.LP{Weights: solver.DefaultWeights()}, 1000, 1, 0},
		{solver.Greedy{}, 1000, 1, 0},
	} {
		debug.SetGCPercent(tc.gcPercent)
		runtime.GC() // the goal of the GOGC set
		before := forced()
		outcome, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler")[:tc.shoots], plan.Policy{Solver: tc.solver, Weights: solver.DefaultWeights()})
		if err != nil {
			t.Fatal(err)
		}
		if got := forced() - before; got != tc.collections || (outcome.CollectTime > 0) != (tc.collections > 0) {
			t.Errorf("%s, %d shoots, GOGC %d: %d forced collections taking %v, want %d", tc.solver.Name(), tc.shoots,
				tc.gcPercent, got, outcome.CollectTime, tc.collections)
		}
		if len(outcome.Plan.Placements) != 1 {
			t.Errorf("%s: placed %d, want 1", tc.solver.Name(), len(outcome.Plan.Placements))
		}
	}
}

// The greedy plan's own time is measured where it is made beside a solver that improves on it — the earliest a
// fallback can come — and is part of the solve's; a solver that makes no greedy plan beside it has none.
func TestScheduleTimesTheGreedyPlanMadeBesideTheSolver(t *testing.T) {
	snap := fixture.Landscape(t, []*gardencorev1beta1.Seed{Seed("a", Allocatable(2))}, []*gardencorev1beta1.Shoot{Shoot("s1"), Shoot("s2")})
	for _, tc := range []struct {
		solver solver.Solver
		beside bool
	}{
		{solver.LP{Weights: solver.DefaultWeights()}, true},
		{solver.LP{Weights: solver.DefaultWeights(), Timeout: time.Hour}, true},
		{solver.Greedy{}, false},
	} {
		outcome, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), plan.Policy{Solver: tc.solver, Weights: solver.DefaultWeights()})
		if err != nil {
			t.Fatal(err)
		}
		if (outcome.GreedyTime > 0) != tc.beside || outcome.GreedyTime > outcome.SolveTime {
			t.Errorf("%s: greedy plan took %v of a solve of %v; made beside it: %t", tc.solver.Name(), outcome.GreedyTime, outcome.SolveTime, tc.beside)
		}
	}
}
