// Package scenario builds the rebalancing scenarios that the benchmark harness measures and the property tests
// check: landscapes the gardener-scheduler's rule filled, then disturbed.
package scenario

import (
	"context"
	"fmt"
	"math"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// Rebalance is a landscape whose current placement must be rebalanced. Its size is SHOOTSxSEEDS: the
// shoots the gardener-scheduler's rule placed before the disturbance, and the seeds.
type Rebalance struct {
	Name        string
	Description string
	// Target is the target utilization of the rebalancing.
	Target float64
	// disturb changes the settled landscape and returns the seeds to drain.
	disturb func(*model.Objects) (drain []string)
}

// Rebalances are the rebalancing scenarios.
func Rebalances() []Rebalance {
	return []Rebalance{
		{Name: "capacity-drop", Target: 0.9, disturb: capacityDrop,
			Description: "overload after capacity drop: a landscape the gardener-scheduler's rule filled, each seed sized to run at 70 %, then the allocatable of every fourth seed of each region cut to three quarters of its load; target 0.9"},
		{Name: "seed-retirement", Target: 0.9, disturb: retireSeeds,
			Description: "every tenth seed in name order is retired (--drain) from a landscape the gardener-scheduler's rule filled, each seed sized to run at 70 %; target 0.9"},
	}
}

// capacityDrop cuts the allocatable of every fourth seed of each region (the first, the fifth, …) to three
// quarters of its load.
func capacityDrop(objs *model.Objects) []string {
	usage := model.SeedUsage(objs.Shoots)
	inRegion := map[string]int{}
	for _, s := range objs.Seeds {
		region := s.Spec.Provider.Type + "/" + s.Spec.Provider.Region
		inRegion[region]++
		if allocatable, ok := model.Allocatable(s); ok && inRegion[region]%4 == 1 {
			s.Status.Allocatable[gardencorev1beta1.ResourceShoots] = *resource.NewQuantity(min(allocatable, int64(usage[s.Name]*3/4)), resource.DecimalSI)
		}
	}
	return nil
}

// retireSeeds drains every tenth seed in name order (the first, the eleventh, …), which spreads the retired seeds
// over the regions.
func retireSeeds(objs *model.Objects) []string {
	var names []string
	for _, s := range objs.Seeds {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	var drain []string
	for i, name := range names {
		if i%10 == 0 {
			drain = append(drain, name)
		}
	}
	return drain
}

// Sizing of the settled landscape of a rebalancing scenario.
const (
	settledUtilization = 0.7
	minimumAllocatable = 10
)

// Landscape builds a rebalancing scenario at a size (shoots placed before the disturbance, seeds): a generated
// landscape whose pending shoots are
// placed by the gardener-scheduler's rule (solver.Greedy) and bound, every seed then sized to run at 70 % (at
// least 10 shoots allocatable), then disturbed. It returns the objects and the rebalancing options.
func Landscape(ctx context.Context, sc Rebalance, shoots, seeds int, seed uint64) (model.Objects, model.RebalanceOptions, error) {
	objs, err := generator.Generate(generator.Config{Seeds: seeds, Shoots: shoots, Contention: 0.8, Seed: seed, Providers: []string{"aws", "gcp"}, Mix: generator.RealisticMix()})
	if err != nil {
		return model.Objects{}, model.RebalanceOptions{}, err
	}
	snap, err := model.NewSnapshot(objs)
	if err != nil {
		return model.Objects{}, model.RebalanceOptions{}, err
	}
	settled, err := plan.Schedule(ctx, snap, snap.Pending(v1beta1constants.DefaultSchedulerName), plan.Policy{Solver: solver.Greedy{}, Weights: solver.DefaultWeights()})
	if err != nil {
		return model.Objects{}, model.RebalanceOptions{}, fmt.Errorf("settling the landscape: %w", err)
	}
	placed := map[string]string{}
	for _, p := range settled.Plan.Placements {
		placed[p.Shoot] = p.Seed
	}
	for _, shoot := range objs.Shoots {
		if seedName, ok := placed[model.ShootKey(shoot)]; ok {
			shoot.Spec.SeedName, shoot.Status.SeedName = new(seedName), new(seedName)
		}
	}
	// The operator sized every seed to run at settledUtilization.
	usage := model.SeedUsage(objs.Shoots)
	for _, s := range objs.Seeds {
		if _, ok := model.Allocatable(s); ok {
			allocatable := max(int64(math.Ceil(float64(usage[s.Name])/settledUtilization)), minimumAllocatable)
			s.Status.Allocatable[gardencorev1beta1.ResourceShoots] = *resource.NewQuantity(allocatable, resource.DecimalSI)
		}
	}
	drain := sc.disturb(&objs)
	return objs, model.RebalanceOptions{TargetUtilization: sc.Target, Drain: drain}, nil
}
