package bench

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// RebalanceScenario is a landscape whose current placement must be rebalanced. Its size is SHOOTSxSEEDS: the
// shoots the gardener-scheduler's rule placed before the disturbance, and the seeds.
type RebalanceScenario struct {
	Name        string
	Description string
	// Target is the target utilization of the rebalancing.
	Target float64
	// disturb changes the settled landscape and returns the seeds to drain.
	disturb func(*model.Objects) (drain []string)
}

// RebalanceScenarios are the rebalancing scenarios.
func RebalanceScenarios() []RebalanceScenario {
	return []RebalanceScenario{
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

// Rebalancing methods of a run.
const (
	// MethodLP is solver.Rebalancer.
	MethodLP = "lp"
	// MethodNaive is NaiveDescheduler.
	MethodNaive = "naive"
)

// RebalanceResult is one method on one rebalancing scenario and size.
type RebalanceResult struct {
	Scenario string `json:"scenario"`
	Size     string `json:"size"`
	Shoots   int    `json:"shoots"`
	Seeds    int    `json:"seeds"`
	Method   string `json:"method"`

	// LowerBound is the fewest moves any plan needs (model.Rebalancing.LowerBound).
	LowerBound int `json:"lowerBound"`
	// Moves are shoots rebound to another seed; Evictions are the shoots the method chose to move, with or
	// without a seed to go to; Stranded are those without.
	Moves     int `json:"moves"`
	Evictions int `json:"evictions"`
	Stranded  int `json:"stranded"`
	// Unresolved is Σ model.Unresolved.Count after the moves; SeedsAboveTarget counts the seeds it leaves
	// above their limit, including seeds the method filled above it.
	Unresolved       int `json:"unresolved"`
	SeedsAboveTarget int `json:"seedsAboveTarget"`
	// MovesAboveTarget are moves into a seed that then hosts more than its limit, counting the shoots still
	// migrating away from it as Gardener does: the LP makes none.
	MovesAboveTarget int     `json:"movesAboveTarget"`
	MeanMoveDistance float64 `json:"meanMoveDistance"`
	// Optimal is true when CLP proved the LP's moves optimal.
	Optimal bool `json:"optimal"`
	// ModelP50 is NewRebalancing's median seconds (the same for both methods); SolveP50 and SolveP99 are the
	// method's, over the repeats.
	ModelP50 float64 `json:"modelP50"`
	SolveP50 float64 `json:"solveP50"`
	SolveP99 float64 `json:"solveP99"`
}

// NaiveDescheduler is the baseline a Kubernetes-descheduler-like tool stands for: take the seeds by utilization,
// most utilized first; from each, evict the shoots that must leave and then shoots by name until, by its count,
// the seed is at its limit; re-place each evicted shoot with the gardener-scheduler's rule, on the least utilized
// seed it may move to that is below its allocatable (the scheduler knows nothing of the target; the destinations
// are those model.Rebalancing allows, so no drained seed). Like Gardener it counts a moving shoot on both seeds
// until its migration ends, so an eviction frees no room for others. An evicted shoot with no such seed would be
// a pending pod in Kubernetes; a shoot cannot leave its seed without a destination, so it stays, stranded: the
// eviction was for nothing. A seed the baseline filled above its limit is itself relieved when its turn comes.
// It returns the moves, the stranded count and the moves into a seed then above its limit.
func NaiveDescheduler(r *model.Rebalancing) (moves []model.Move, stranded, aboveTarget int) {
	hosting := make([]int, len(r.Seeds)) // Gardener's count while migrations run
	counted := make([]int, len(r.Seeds)) // the descheduler's count: evicted shoots are gone
	for i, l := range r.Seeds {
		hosting[i], counted[i] = l.Load, l.Load
	}
	utilization := func(seed int) float64 {
		if a, ok := model.Allocatable(r.Snapshot.Seeds[seed]); ok && a > 0 {
			return float64(hosting[seed]) / float64(a)
		}
		return 0
	}
	belowAllocatable := func(seed int) bool {
		a, ok := model.Allocatable(r.Snapshot.Seeds[seed])
		return !ok || int64(hosting[seed]) < a
	}
	order := make([]int, len(r.Seeds))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(utilization(b), utilization(a)) })
	for _, seed := range order {
		limit := r.Seeds[seed].Limit
		for _, b := range r.Shoots {
			over := limit != model.Unlimited && counted[seed] > limit
			if b.Seed != seed || b.Unmovable != "" || b.Leave == "" && !over {
				continue
			}
			best := -1
			for _, a := range b.Destinations {
				if belowAllocatable(a.Seed) && (best < 0 || utilization(a.Seed) < utilization(best)) {
					best = a.Seed
				}
			}
			counted[seed]--
			if best < 0 {
				stranded++
				continue
			}
			reason := b.LeaveReason
			if reason == "" {
				reason = model.LeaveOverloaded
			}
			distance := b.Destinations[slices.IndexFunc(b.Destinations, func(a model.Arc) bool { return a.Seed == best })].Distance
			moves = append(moves, model.Move{Shoot: model.ShootKey(b.Shoot), From: r.Snapshot.Seeds[seed].Name,
				To: r.Snapshot.Seeds[best].Name, Distance: distance, Reason: reason})
			counted[best]++
			hosting[best]++
			if l := r.Seeds[best].Limit; l != model.Unlimited && hosting[best] > l {
				aboveTarget++
			}
		}
	}
	return moves, stranded, aboveTarget
}

// Sizing of the settled landscape of a rebalancing scenario.
const (
	settledUtilization = 0.7
	minimumAllocatable = 10
)

// RebalanceLandscape builds a rebalancing scenario at a size: a generated landscape whose pending shoots are
// placed by the gardener-scheduler's rule (solver.Greedy) and bound, every seed then sized to run at 70 % (at
// least 10 shoots allocatable), then disturbed. It returns the objects and the rebalancing options.
func RebalanceLandscape(ctx context.Context, sc RebalanceScenario, size Size, seed uint64) (model.Objects, model.RebalanceOptions, error) {
	objs, err := generator.Generate(generator.Config{Seeds: size.Seeds, Shoots: size.Pending, Contention: 0.8, Seed: seed, Providers: []string{"aws", "gcp"}, Mix: generator.RealisticMix()})
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

// runRebalance plans one rebalancing job with the LP and the naive descheduler.
func runRebalance(ctx context.Context, cfg Config, sc RebalanceScenario, size Size, progress func(string)) ([]RebalanceResult, error) {
	objs, target, err := RebalanceLandscape(ctx, sc, size, cfg.Seed)
	if err != nil {
		return nil, fmt.Errorf("scenario %s %s: %w", sc.Name, size, err)
	}
	snap, err := model.NewSnapshot(objs)
	if err != nil {
		return nil, fmt.Errorf("scenario %s %s: %w", sc.Name, size, err)
	}
	var results []RebalanceResult
	var modelTimes []float64
	for _, method := range []string{MethodLP, MethodNaive} {
		res := RebalanceResult{Scenario: sc.Name, Size: size.String(), Seeds: len(snap.Seeds), Method: method}
		var solveTimes []float64
		for range cfg.Repeats {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			start := time.Now()
			r, err := model.NewRebalancing(snap, model.Options{}, target)
			if err != nil {
				return nil, fmt.Errorf("scenario %s %s: %w", sc.Name, size, err)
			}
			modelTimes = append(modelTimes, time.Since(start).Seconds())
			start = time.Now()
			var moves []model.Move
			switch method {
			case MethodLP:
				rebalanced, err := plan.SolveRebalancing(ctx, r, solver.Rebalancer{Weights: solver.DefaultWeights(), Timeout: cfg.Timeout})
				if err != nil {
					return nil, fmt.Errorf("scenario %s %s: %w", sc.Name, size, err)
				}
				moves, res.Optimal = rebalanced.Moves, rebalanced.Optimal
			case MethodNaive:
				moves, res.Stranded, res.MovesAboveTarget = NaiveDescheduler(r)
			}
			solveTimes = append(solveTimes, time.Since(start).Seconds())
			measureRebalance(&res, r, moves)
			progress(fmt.Sprintf("%s %s %s", sc.Name, size, method))
		}
		res.SolveP50, res.SolveP99 = percentile(solveTimes, 0.5), percentile(solveTimes, 0.99)
		results = append(results, res)
	}
	for i := range results {
		results[i].ModelP50 = percentile(modelTimes, 0.5)
	}
	return results, nil
}

// measureRebalance fills the quality figures of a result from a method's moves.
func measureRebalance(res *RebalanceResult, r *model.Rebalancing, moves []model.Move) {
	res.Shoots = len(r.Shoots)
	res.LowerBound = r.LowerBound()
	res.Moves, res.Evictions = len(moves), len(moves)+res.Stranded
	res.Unresolved, res.SeedsAboveTarget = 0, 0
	for _, u := range r.Unresolved(moves) {
		if left := u.Count(); left > 0 {
			res.Unresolved += left
			res.SeedsAboveTarget++
		}
	}
	res.MeanMoveDistance = 0
	for _, m := range moves {
		res.MeanMoveDistance += float64(m.Distance) / float64(len(moves))
	}
}
