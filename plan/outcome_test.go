package plan_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/utils/ptr"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/internal/generated"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// An outcome's figures add up: its region distance is the sum of its placements' distances, and the greedy
// figures an LP outcome sets beside its own are those of the greedy solver's outcome of the same window — what
// --solver greedy prints — also where the LP's fallback decides by the purposes' priority first.
func TestOutcomeFiguresAddUp(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			for _, purposes := range [][]string{nil, config.DefaultPurposes()} {
				t.Run(fmt.Sprintf("seed=%d/%s/purposes=%d", seed, strategy, len(purposes)), func(t *testing.T) {
					snap := generated.Snapshot(t, generator.Config{
						Seeds: 25, Shoots: 150, Existing: 100, Contention: 1.1, Seed: seed, Mix: generator.StressMix(),
					})
					outcome := func(s solver.Solver) *plan.Outcome {
						o, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), plan.Policy{
							Options: model.Options{Strategy: strategy}, Solver: s, Weights: solver.DefaultWeights(), Target: 0.8, Purposes: purposes})
						if err != nil {
							t.Fatal(err)
						}
						return o
					}
					figuresAddUp(t, outcome(solver.LP{Weights: solver.DefaultWeights()}), outcome(solver.Greedy{}))
				})
			}
		}
	}
}

// figuresAddUp checks an LP outcome's figures against its own placements and the greedy solver's outcome.
func figuresAddUp(t *testing.T, lp, greedy *plan.Outcome) {
	t.Helper()
	for _, o := range []*plan.Outcome{lp, greedy} {
		if sum := placementDistances(o.Plan); o.Distance != sum {
			t.Errorf("%s: distance %d, its placements' distances sum to %d", o.Solver, o.Distance, sum)
		}
	}
	got := [3]int{lp.GreedyPlaced, lp.GreedyDistance, lp.GreedyAboveTarget}
	want := [3]int{len(greedy.Plan.Placements), greedy.Distance, greedy.AboveTarget}
	if got != want {
		t.Errorf("the LP's greedy figures (placed, distance, above target) are %v, the greedy solver's %v", got, want)
	}
	if lp.GreedyObjective != greedy.Objective {
		t.Errorf("the LP's greedy objective is %v, the greedy solver's %v", lp.GreedyObjective, greedy.Objective)
	}
	if len(lp.Plan.Placements) < lp.GreedyPlaced {
		t.Errorf("the LP placed %d, greedy %d", len(lp.Plan.Placements), lp.GreedyPlaced)
	}
}

// The comparison with the gardener-scheduler's plan is made even after the context has ended, as it may while a
// window is verified: a plan solved and verified is not lost to the figures it is compared with.
func TestGreedyCostOutlivesTheContext(t *testing.T) {
	snap := generated.Snapshot(t, generator.Config{Seeds: 25, Shoots: 150, Existing: 100, Contention: 1.1, Seed: 1, Mix: generator.StressMix()})
	w, err := model.NewWindow(snap, model.Options{}, snap.Pending("default-scheduler"))
	if err != nil {
		t.Fatal(err)
	}
	// The comparison is made after the solve only when the purposes reorder the window: a later shoot of an
	// earlier purpose.
	rank := func(s *gardencorev1beta1.Shoot) int {
		return slices.Index(config.DefaultPurposes(), string(ptr.Deref(s.Spec.Purpose, "evaluation")))
	}
	if slices.IsSortedFunc(w.Shoots, func(a, b *gardencorev1beta1.Shoot) int { return rank(a) - rank(b) }) {
		t.Fatal("the window is in priority order: the comparison would be the fallback's, made before the context ended")
	}
	weights := solver.DefaultWeights()
	ctx, cancel := context.WithCancel(context.Background())
	lp, err := plan.Solve(ctx, w, plan.Policy{Solver: solver.LP{Weights: weights}, Weights: weights, Purposes: config.DefaultPurposes()})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	greedy, err := plan.Solve(context.Background(), w, plan.Policy{Solver: solver.Greedy{}, Weights: weights})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := lp.GreedyCost(ctx, weights); err != nil || got != greedy.Cost(weights) {
		t.Errorf("after the context ended: greedy cost %v, %v; want %v", got, err, greedy.Cost(weights))
	}
}

// placementDistances is the sum of the region distances of a plan's placements.
func placementDistances(p *model.Plan) int {
	sum := 0
	for _, pl := range p.Placements {
		sum += pl.Distance
	}
	return sum
}
