// Package plan holds seedplan's use cases: Schedule a window of pending shoots, Rebalance bound shoots, plan
// Capacity. Each builds its problem from the model, hands it to a solver, turns the answer back into Gardener's
// terms and verifies it independently: no result leaves this package unverified. cmd/ and cluster/ call it.
package plan

import (
	"fmt"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/solver"
)

// Policy is how seedplan plans: the model's options, the window's solver, the weights every objective is
// measured in, the time budget of rebalancing and capacity planning, and the target utilization that schedule,
// rebalance and capacity share.
type Policy struct {
	Options model.Options
	Solver  solver.Solver
	Weights solver.Weights
	Budget  solver.Budget
	// Target is the highest utilization a seed should end at: schedule places a shoot above it only when no
	// seed the shoot may use has room at or below it; rebalance and capacity aim at it. 0: none (fill to
	// allocatable).
	Target float64
	// Purposes are spec.purpose values from the highest priority down: under scarcity the LP places shoots of
	// earlier purposes first (see solver.Group.Priority).
	Purposes []string
}

// NewPolicy is the policy of a validated configuration.
func NewPolicy(c *config.SeedPlanConfiguration) (Policy, error) {
	strategy, err := model.ParseStrategy(c.Strategy)
	if err != nil {
		return Policy{}, fmt.Errorf("strategy: %w", err)
	}
	p := Policy{
		Options:  model.Options{Strategy: strategy, SchedulerName: c.SchedulerName, StrictNetworks: c.StrictNetworks},
		Budget:   solver.Budget{Timeout: c.Solver.Timeout.Duration},
		Target:   c.Placement.TargetUtilization,
		Purposes: c.Placement.Priority.Purposes,
	}
	if p.Weights, err = weightsOf(c.Placement.Weights); err != nil {
		return Policy{}, err
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

// priority is the shoot's rank under scarcity: the position of its purpose in Purposes (a shoot without one has
// Gardener's default, evaluation), after all of them when it is not listed.
func (p Policy) priority(shoot *gardencorev1beta1.Shoot) int {
	purpose := string(gardencorev1beta1.ShootPurposeEvaluation)
	if shoot.Spec.Purpose != nil {
		purpose = string(*shoot.Spec.Purpose)
	}
	if i := slices.Index(p.Purposes, purpose); i >= 0 {
		return i
	}
	return len(p.Purposes)
}

// weightsOf are the configured weights: the preset's, with the numbers given instead of its own.
func weightsOf(c config.WeightsConfiguration) (solver.Weights, error) {
	var w solver.Weights
	switch c.Preset {
	case config.WeightsCompat, "":
		w = solver.CompatWeights()
	case config.WeightsBalanced:
		w = solver.DefaultWeights()
	default:
		return w, fmt.Errorf("placement.weights.preset: unknown preset %q", c.Preset)
	}
	for _, override := range []struct {
		value *float64
		field *float64
	}{{c.Distance, &w.Distance}, {c.Utilization, &w.Balance}, {c.SoftTaint, &w.SoftViolation}} {
		if override.value != nil {
			*override.field = *override.value
		}
	}
	if c.DistanceFirst != nil {
		w.Lexicographic = *c.DistanceFirst
	}
	return w, nil
}
