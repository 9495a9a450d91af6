package solver_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/solver"
)

// BenchmarkWindow measures one window (pending × seeds) of a generated landscape at contention 1.0: model time
// (building the window), solve time, shoots placed by LP and greedy in the same run, and the LP's objective as
// a fraction of greedy's. Run: go test ./solver -run '^$' -bench Window -benchtime 5x
func BenchmarkWindow(b *testing.B) {
	for _, size := range []struct{ pending, seeds int }{{1000, 200}, {10000, 500}, {50000, 1000}} {
		b.Run(fmt.Sprintf("%dx%d", size.pending, size.seeds), func(b *testing.B) {
			objs, err := generator.Generate(generator.Config{
				Seeds: size.seeds, Shoots: size.pending, Existing: size.pending / 2, Contention: 1.0, Seed: 1, Mix: generator.RealisticMix(),
			})
			if err != nil {
				b.Fatal(err)
			}
			snap, err := model.NewSnapshot(objs)
			if err != nil {
				b.Fatal(err)
			}
			pending := snap.Pending("default-scheduler")
			weights := solver.DefaultWeights()
			lp := solver.LP{Weights: weights}
			var modelTime, solveTime, greedyTime time.Duration
			var w *model.Window
			var solution *solver.Solution
			for b.Loop() {
				start := time.Now()
				w, err = model.NewWindow(snap, model.Options{}, pending)
				if err != nil {
					b.Fatal(err)
				}
				modelTime += time.Since(start)
				start = time.Now()
				solution, err = lp.Solve(context.Background(), w)
				if err != nil {
					b.Fatal(err)
				}
				solveTime += time.Since(start)
			}
			start := time.Now()
			greedy, err := solver.Greedy{}.Solve(context.Background(), w)
			if err != nil {
				b.Fatal(err)
			}
			greedyTime = time.Since(start)
			if err := model.Verify(snap, w.Options, solution.Plan); err != nil {
				b.Fatal(err)
			}
			if !solution.Optimal {
				b.Fatalf("not optimal (fallback %q)", solution.Fallback)
			}
			classes := map[*model.Evaluation]bool{}
			for _, ev := range w.Evaluations {
				classes[ev] = true
			}
			n := float64(b.N)
			b.ReportMetric(modelTime.Seconds()/n, "model-s")
			b.ReportMetric(solveTime.Seconds()/n, "solve-s")
			b.ReportMetric(greedyTime.Seconds(), "greedy-s")
			b.ReportMetric(float64(len(classes)), "classes")
			b.ReportMetric(float64(len(solution.Plan.Placements)), "placed")
			b.ReportMetric(float64(len(greedy.Plan.Placements)), "greedy-placed")
			b.ReportMetric(solver.PlanCost(w, solution.Plan, weights)/solver.PlanCost(w, greedy.Plan, weights), "objective/greedy")
		})
	}
}
