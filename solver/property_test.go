package solver_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/solver"
)

// TestPlansOnRandomLandscapes is the property test of both solvers: on random landscapes that exercise every
// predicate, under both strategies and at contention from ample to 120 %, every plan passes model.Verify and
// accounts for every pending shoot; solving twice gives the same plan; the LP places at least as many shoots as
// greedy, proves optimality, and its objective is never above greedy's.
func TestPlansOnRandomLandscapes(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			contention := []float64{0, 0.9, 1.0, 1.2}[seed%4]
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
				w, err := model.NewWindow(snap, opts, snap.Pending("default-scheduler"))
				if err != nil {
					t.Fatal(err)
				}
				weights := solver.DefaultWeights()
				if seed%2 == 0 {
					weights = solver.CompatWeights()
				}
				plans := map[string]*model.Plan{}
				for _, s := range []solver.Solver{solver.Greedy{}, solver.LP{Weights: weights}} {
					first, err := s.Solve(context.Background(), w)
					if err != nil {
						t.Fatal(err)
					}
					if err := model.Verify(snap, opts, first.Plan); err != nil {
						t.Fatalf("%s plan violates the landscape:\n%v", s.Name(), err)
					}
					if got := len(first.Plan.Placements) + len(first.Plan.Unschedulable); got != len(w.Shoots) {
						t.Fatalf("%s plan accounts for %d shoots, window has %d", s.Name(), got, len(w.Shoots))
					}
					second, err := s.Solve(context.Background(), w)
					if err != nil {
						t.Fatal(err)
					}
					if fmt.Sprint(first.Plan) != fmt.Sprint(second.Plan) {
						t.Fatalf("%s is not deterministic", s.Name())
					}
					plans[s.Name()] = first.Plan
					if s.Name() == "lp" && (!first.Optimal || first.Fallback != "") {
						t.Fatalf("lp: optimal=%v fallback=%q", first.Optimal, first.Fallback)
					}
				}
				greedy, lp := plans["greedy"], plans["lp"]
				if len(greedy.Placements) == 0 {
					t.Fatal("no shoot placed on a landscape built to place most of them")
				}
				if len(lp.Placements) < len(greedy.Placements) {
					t.Fatalf("lp placed %d, greedy %d", len(lp.Placements), len(greedy.Placements))
				}
				if lpCost, greedyCost := solver.PlanCost(w, lp, weights), solver.PlanCost(w, greedy, weights); lpCost > greedyCost+1e-6 {
					t.Fatalf("lp objective %.1f above greedy's %.1f", lpCost, greedyCost)
				}
			})
		}
	}
}
