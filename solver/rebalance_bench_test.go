package solver_test

import (
	"cmp"
	"context"
	"slices"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/solver"
)

// naiveDescheduler is the baseline the Kubernetes descheduler stands for: take the most utilized seed above the
// limit, evict its shoots (by name) until it is within the limit, and place each evicted shoot greedily on the
// least utilized seed it may move to; an evicted shoot without such a seed is stranded (evicted for nothing).
func naiveDescheduler(r *model.Rebalancing) (moves, stranded int) {
	load := make([]int, len(r.Seeds))
	for i, l := range r.Seeds {
		load[i] = l.Load
	}
	room := func(seed int) bool {
		l := r.Seeds[seed]
		return l.Room == model.Unlimited || load[seed] < l.Limit && l.Drain == ""
	}
	utilization := func(seed int) float64 {
		if a, ok := model.Allocatable(r.Snapshot.Seeds[seed]); ok && a > 0 {
			return float64(load[seed]) / float64(a)
		}
		return 0
	}
	order := make([]int, len(r.Seeds))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(utilization(b), utilization(a)) })
	for _, seed := range order {
		for _, b := range r.Shoots {
			if b.Seed != seed || b.Unmovable != "" || r.Seeds[seed].Excess() == 0 && b.Leave == "" {
				continue
			}
			if b.Leave == "" && load[seed] <= r.Seeds[seed].Limit {
				continue
			}
			best := -1
			for _, a := range b.Destinations {
				if room(a.Seed) && (best < 0 || utilization(a.Seed) < utilization(best)) {
					best = a.Seed
				}
			}
			load[seed]--
			if best < 0 {
				stranded++
				continue
			}
			load[best]++
			moves++
		}
	}
	return moves, stranded
}

// BenchmarkRebalanceCapacityDrop is the scenario "overload after capacity drop": a generated landscape of 200
// seeds and 6,000 running shoots in which every fourth seed loses a third of its capacity. It reports the LP's
// moves against the lower bound and against the naive descheduler's moves and stranded shoots.
func BenchmarkRebalanceCapacityDrop(b *testing.B) {
	objs, err := generator.Generate(generator.Config{Seeds: 200, Existing: 6000, Shoots: 4000, Seed: 7, Providers: []string{"aws", "gcp"}, Mix: generator.RealisticMix()})
	if err != nil {
		b.Fatal(err)
	}
	usage := model.SeedUsage(objs.Shoots)
	for i, s := range objs.Seeds {
		if allocatable, ok := model.Allocatable(s); ok && i%4 == 0 {
			s.Status.Allocatable[gardencorev1beta1.ResourceShoots] = *resource.NewQuantity(min(allocatable, int64(usage[s.Name]*2/3)), resource.DecimalSI)
		}
	}
	snap, err := model.NewSnapshot(objs)
	if err != nil {
		b.Fatal(err)
	}
	var plan *solver.Rebalance
	var r *model.Rebalancing
	for b.Loop() {
		if r, err = model.NewRebalancing(snap, model.Options{}, model.RebalanceOptions{TargetUtilization: 0.9}); err != nil {
			b.Fatal(err)
		}
		if plan, err = (solver.Rebalancer{Weights: solver.DefaultWeights()}).Plan(context.Background(), r); err != nil {
			b.Fatal(err)
		}
	}
	naiveMoves, naiveStranded := naiveDescheduler(r)
	b.ReportMetric(float64(len(plan.Moves)), "moves")
	b.ReportMetric(float64(plan.LowerBound), "lower-bound")
	b.ReportMetric(float64(plan.Unresolved), "unresolved")
	b.ReportMetric(float64(naiveMoves), "naive-moves")
	b.ReportMetric(float64(naiveStranded), "naive-stranded")
}
