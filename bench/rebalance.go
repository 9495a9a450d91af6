package bench

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/seedplan/seedplan/internal/scenario"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

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
			if b.Seed != seed || b.Unmovable != "" || !b.Leave.Required() && !over {
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
			distance := b.Destinations[slices.IndexFunc(b.Destinations, func(a model.Arc) bool { return a.Seed == best })].Distance
			moves = append(moves, model.Move{Shoot: model.ShootKey(b.Shoot), From: r.Snapshot.Seeds[seed].Name,
				To: r.Snapshot.Seeds[best].Name, Distance: distance, Reason: b.MoveReason()})
			counted[best]++
			hosting[best]++
			if l := r.Seeds[best].Limit; l != model.Unlimited && hosting[best] > l {
				aboveTarget++
			}
		}
	}
	return moves, stranded, aboveTarget
}

// runRebalance plans one rebalancing job with the LP and the naive descheduler.
func runRebalance(ctx context.Context, cfg Config, sc scenario.Rebalance, size Size, progress func(string)) ([]RebalanceResult, error) {
	objs, target, err := scenario.Landscape(ctx, sc, size.Pending, size.Seeds, cfg.Seed)
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
		res.SolveP50, res.SolveP99 = Quantile(solveTimes, 0.5), Quantile(solveTimes, 0.99)
		results = append(results, res)
	}
	for i := range results {
		results[i].ModelP50 = Quantile(modelTimes, 0.5)
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
