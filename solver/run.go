package solver

import (
	"context"
	"fmt"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/model"
)

// UnscheduledPenalty is the objective's cost of leaving a shoot unplaced: larger than any distance a strategy
// ever accepts, so that placing a shoot always beats leaving it out.
const UnscheduledPenalty = 1_000_000

// Objective is the cost of a plan as seedplan reports it: the sum of the placements' region distances plus
// UnscheduledPenalty for every shoot left unplaced. Lower is better.
func Objective(plan *model.Plan) float64 {
	total := float64(len(plan.Unschedulable)) * UnscheduledPenalty
	for _, p := range plan.Placements {
		total += float64(p.Distance)
	}
	return total
}

// Outcome is a solved and verified window with the figures reports need.
type Outcome struct {
	Window *model.Window
	Plan   *model.Plan
	// Solver is the name of the solver whose plan this is.
	Solver string
	// Fallback says why another solver's plan was used instead ("" when none was).
	Fallback string
	// Optimal is true only when the solver proved the plan optimal.
	Optimal   bool
	Objective float64
	// ModelTime is the time to build the window; SolveTime the time to solve and verify it.
	ModelTime, SolveTime time.Duration
}

// PlanWindow builds the window of the given pending shoots, solves it and verifies the plan independently. A
// plan that fails verification is an error: it is never returned.
func PlanWindow(ctx context.Context, snap *model.Snapshot, opts model.Options, pending []*gardencorev1beta1.Shoot, s Solver) (*Outcome, error) {
	start := time.Now()
	w, err := model.NewWindow(snap, opts, pending)
	if err != nil {
		return nil, fmt.Errorf("building the window: %w", err)
	}
	modelTime := time.Since(start)

	start = time.Now()
	plan, err := s.Solve(ctx, w)
	if err != nil {
		return nil, fmt.Errorf("solver %s: %w", s.Name(), err)
	}
	if err := model.Verify(snap, w.Options, plan); err != nil {
		return nil, fmt.Errorf("solver %s produced an infeasible plan, refusing it: %w", s.Name(), err)
	}
	return &Outcome{
		Window: w, Plan: plan, Solver: s.Name(), Objective: Objective(plan),
		ModelTime: modelTime, SolveTime: time.Since(start),
	}, nil
}

// ByName returns the solver with the given name.
func ByName(name string) (Solver, error) {
	switch name {
	case Greedy{}.Name():
		return Greedy{}, nil
	}
	return nil, fmt.Errorf("unknown solver %q (available: greedy)", name)
}
