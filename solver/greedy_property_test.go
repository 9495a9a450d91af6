package solver_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/solver"
)

// TestGreedyPlansVerify is the property test of the greedy solver: on random landscapes that exercise every
// predicate, under both strategies and at several contention levels, every plan passes model.Verify, places each
// pending shoot at most once, and is the same when solved twice.
func TestGreedyPlansVerify(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			contention := []float64{0, 0.9, 1.1}[seed%3]
			t.Run(fmt.Sprintf("seed=%d/%s/contention=%.1f", seed, strategy, contention), func(t *testing.T) {
				objs, err := generator.Generate(generator.Config{
					Seeds: 25, Shoots: 150, Existing: 100, Contention: contention, Seed: seed, Mix: generator.StressMix(),
				})
				if err != nil {
					t.Fatal(err)
				}
				snap, err := model.NewSnapshot(objs)
				if err != nil {
					t.Fatal(err)
				}
				opts := model.Options{Strategy: strategy}
				pending := snap.Pending("default-scheduler")
				w, err := model.NewWindow(snap, opts, pending)
				if err != nil {
					t.Fatal(err)
				}
				plan, err := solver.Greedy{}.Solve(context.Background(), w)
				if err != nil {
					t.Fatal(err)
				}
				if err := model.Verify(snap, opts, plan); err != nil {
					t.Fatalf("greedy plan violates the landscape:\n%v", err)
				}
				if got := len(plan.Placements) + len(plan.Unschedulable); got != len(pending) {
					t.Fatalf("plan accounts for %d shoots, window has %d", got, len(pending))
				}
				if len(plan.Placements) == 0 {
					t.Fatalf("no shoot placed on a landscape built to place most of them")
				}
				again, err := solver.Greedy{}.Solve(context.Background(), w)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(again) != fmt.Sprint(plan) {
					t.Fatalf("greedy is not deterministic")
				}
			})
		}
	}
}
