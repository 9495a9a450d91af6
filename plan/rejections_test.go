package plan_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// Every unschedulable shoot's rejections account for every seed of the landscape once, most first, and the
// seeds counted as Capacity are exactly those an independent check (model.Verifier: every predicate and the
// strategy, evaluated afresh) admits the shoot to: the shoot was left out for room alone there.
func TestRejectionsCountEverySeed(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			t.Run(fmt.Sprintf("seed=%d/%s", seed, strategy), func(t *testing.T) {
				snap := generatedSnapshot(t, generator.Config{Seeds: 25, Shoots: 250, Existing: 50, Contention: 1.5, Seed: seed, Mix: generator.StressMix()})
				opts := model.Options{Strategy: strategy}
				outcome, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"),
					plan.Policy{Options: opts, Solver: solver.LP{Weights: solver.DefaultWeights()}, Weights: solver.DefaultWeights()})
				if err != nil {
					t.Fatal(err)
				}
				if len(outcome.Plan.Unschedulable) == 0 {
					t.Fatal("nothing unschedulable: the test checks nothing")
				}
				verifier := model.NewVerifier(snap, opts)
				for _, u := range outcome.Plan.Unschedulable {
					shoot := snap.Shoot(u.Shoot)
					admitting := 0
					for _, s := range snap.Seeds {
						if verifier.Placement(shoot, s) == nil {
							admitting++
						}
					}
					total, capacity := 0, 0
					for _, c := range u.Rejections {
						total += c.Seeds
						if c.Predicate == model.PredicateCapacity {
							capacity = c.Seeds
						}
					}
					sorted := slices.IsSortedFunc(u.Rejections, func(a, b model.SeedCount) int { return b.Seeds - a.Seeds })
					if total != len(snap.Seeds) || capacity != admitting || !sorted {
						t.Fatalf("%s: rejections %v count %d seeds (want %d), Capacity %d (the verifier admits %d), most first %v",
							u.Shoot, u.Rejections, total, len(snap.Seeds), capacity, admitting, sorted)
					}
				}
			})
		}
	}
}
