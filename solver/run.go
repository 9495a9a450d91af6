package solver

import (
	"context"
	"fmt"
	"runtime"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/model"
)

// Outcome is a solved and verified window with the figures reports need.
type Outcome struct {
	Window *model.Window
	Plan   *model.Plan
	// Solver is the name of the solver whose plan this is.
	Solver string
	// Fallback says why another solver's plan was used instead ("" when none was).
	Fallback string
	// Optimal is true only when the solver proved the plan optimal.
	Optimal bool
	// Objective is the plan's cost (PlanCost) under the weights given; GreedyObjective that of the greedy
	// plan of the same window, for comparison.
	Objective, GreedyObjective float64
	// Weights are the weights the objectives were computed with.
	Weights Weights
	// ModelTime is the time to build the window, CollectTime the garbage collection before a solver with a time
	// budget, SolveTime the solver's, VerifyTime model.Verify's.
	ModelTime, CollectTime, SolveTime, VerifyTime time.Duration
}

// budgeted is a solver with a time budget: its plan must come back within the budget even when it falls back.
type budgeted interface{ budget() time.Duration }

// PlanWindow builds the window of the given pending shoots, solves it and verifies the plan independently. A
// plan that fails verification is an error: it is never returned.
//
// Before a solver with a time budget runs, it collects garbage. Reading the garden and building the window leave
// the most garbage of a run; a collection they start would run on into the solve, and on 2 cores its mark workers
// come before every goroutine, so the fallback at the deadline came back up to tens of milliseconds late. A
// solve itself leaves little garbage (3 MB at 10,000 × 500), so after a collection it rarely starts another.
func PlanWindow(ctx context.Context, snap *model.Snapshot, opts model.Options, pending []*gardencorev1beta1.Shoot, s Solver, weights Weights) (*Outcome, error) {
	start := time.Now()
	w, err := model.NewWindow(snap, opts, pending)
	if err != nil {
		return nil, fmt.Errorf("building the window: %w", err)
	}
	modelTime := time.Since(start)

	var collectTime time.Duration
	if b, ok := s.(budgeted); ok && b.budget() > 0 {
		start = time.Now()
		runtime.GC()
		collectTime = time.Since(start)
	}

	start = time.Now()
	solution, err := s.Solve(ctx, w)
	if err != nil {
		return nil, fmt.Errorf("solver %s: %w", s.Name(), err)
	}
	solveTime := time.Since(start)
	start = time.Now()
	if err := model.Verify(snap, w.Options, solution.Plan); err != nil {
		return nil, fmt.Errorf("solver %s produced an infeasible plan, refusing it: %w", s.Name(), err)
	}
	verifyTime := time.Since(start)
	greedy := solution.Greedy
	if greedy == nil {
		if greedy, err = (Greedy{}).plan(ctx, newDecider(w)); err != nil {
			return nil, err
		}
	}
	return &Outcome{
		Window: w, Plan: solution.Plan, Solver: s.Name(), Fallback: solution.Fallback, Optimal: solution.Optimal,
		Objective: PlanCost(w, solution.Plan, weights), GreedyObjective: PlanCost(w, greedy, weights), Weights: weights,
		ModelTime: modelTime, CollectTime: collectTime, SolveTime: solveTime, VerifyTime: verifyTime,
	}, nil
}

// Config selects and tunes a solver.
type Config struct {
	// Name is "lp" (the default) or "greedy".
	Name string
	// Timeout bounds the LP; when it runs out the greedy plan is used (fallback "timeout").
	Timeout time.Duration
	Weights Weights
}

// New returns the configured solver.
func New(cfg Config) (Solver, error) {
	switch cfg.Name {
	case "lp", "":
		return LP{Weights: cfg.Weights, Timeout: cfg.Timeout}, nil
	case (Greedy{}).Name():
		return Greedy{}, nil
	}
	return nil, fmt.Errorf("unknown solver %q (lp or greedy)", cfg.Name)
}
