// Package plan holds seedplan's use cases: Schedule a window of pending shoots, Rebalance bound shoots, plan
// Capacity. Each builds its problem from the model, hands it to a solver, turns the answer back into Gardener's
// terms and verifies it independently: no result leaves this package unverified. cmd/ and cluster/ call it.
package plan

import (
	"fmt"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/solver"
)

// Policy is how seedplan plans: the model's options, the window's solver, the weights every objective is
// measured in, and the time budget of rebalancing and capacity planning.
type Policy struct {
	Options model.Options
	Solver  solver.Solver
	Weights solver.Weights
	Budget  solver.Budget
}

// NewPolicy is the policy of a validated configuration.
func NewPolicy(c *config.SeedPlanConfiguration) (Policy, error) {
	strategy, err := model.ParseStrategy(c.Strategy)
	if err != nil {
		return Policy{}, fmt.Errorf("strategy: %w", err)
	}
	p := Policy{
		Options: model.Options{Strategy: strategy, SchedulerName: c.SchedulerName, StrictNetworks: c.StrictNetworks},
		Budget:  solver.Budget{Timeout: c.Solver.Timeout.Duration},
	}
	switch c.Solver.Weights {
	case config.WeightsBalanced, "":
		p.Weights = solver.DefaultWeights()
	case config.WeightsCompat:
		p.Weights = solver.CompatWeights()
	default:
		return Policy{}, fmt.Errorf("solver.weights: unknown weighting %q", c.Solver.Weights)
	}
	switch c.Solver.Name {
	case config.SolverLP, "":
		p.Solver = solver.LP{Weights: p.Weights, Timeout: p.Budget.Timeout}
	case config.SolverGreedy:
		p.Solver = solver.Greedy{}
	default:
		return Policy{}, fmt.Errorf("solver.name: unknown solver %q", c.Solver.Name)
	}
	return p, nil
}
