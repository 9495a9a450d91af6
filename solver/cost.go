package solver

import (
	"math"
)

// Weights set how the objective trades region distance against seed balance.
type Weights struct {
	// Distance is the cost of one unit of region distance per placed shoot.
	Distance float64
	// Balance scales the utilization cost: a shoot placed while its seed's utilization is in the k-th tenth
	// (0-based) costs Balance × UtilizationSlopes[k].
	Balance float64
	// NominalCapacity is the capacity assumed, for the balance term only, of seeds without allocatable.
	NominalCapacity int
	// SoftViolation is the cost of each soft constraint a placement breaks (model.Arc.SoftViolations).
	SoftViolation float64
	// Lexicographic makes distance strictly more important than balance (the compat weighting): the distance
	// weight is raised, per window, above anything balance could gain.
	Lexicographic bool
}

// DefaultWeights balance seeds by utilization and accept a farther region only for a clearly emptier seed: a
// shoot goes up to 100 distance units further to avoid a seed above 90 % utilization.
func DefaultWeights() Weights {
	return Weights{Distance: 1, Balance: 1, NominalCapacity: 100, SoftViolation: 200}
}

// CompatWeights follow the gardener-scheduler's intent: the nearest region first, then the emptiest seed.
func CompatWeights() Weights {
	return Weights{Distance: 1, Balance: 1, NominalCapacity: 100, SoftViolation: 200, Lexicographic: true}
}

// UtilizationSlopes are the marginal costs of one more shoot on a seed whose utilization is in the 1st, 2nd, …
// 10th tenth, and, for seeds without allocatable, beyond their nominal capacity. They rise convexly, so the
// cheapest way to place shoots fills the emptiest seeds first, and the problem stays a network problem.
var UtilizationSlopes = []float64{1, 2, 4, 7, 11, 16, 23, 32, 45, 64, 128}

// segment is a range of additional shoots on a seed with one marginal cost: Balance × slope, plus extra.
type segment struct {
	width int // Unlimited for the last segment of a seed without allocatable
	slope float64
	// extra is the window LP's tie-breaking cost (tieBreak), not part of the objective.
	extra float64
}

// upper is the segment's width as a column bound: +Inf for an unlimited segment.
func (s segment) upper() float64 {
	if s.width == Unlimited {
		return math.Inf(1)
	}
	return float64(s.width)
}

// seedSegments are the utilization segments of every seed of the window, by seed index.
func seedSegments(w *Window, weights Weights) [][]segment {
	out := make([][]segment, len(w.Seeds))
	for i, s := range w.Seeds {
		out[i] = weights.segments(s.Usage, s.Free, s.Allocatable, s.Limited)
	}
	return out
}

// segments are the utilization segments of a seed with the given usage, room and allocatable: a seed without
// allocatable (limited false) is assumed to have the nominal capacity.
func (wt Weights) segments(usage, room int, allocatable int64, limited bool) []segment {
	capacity := int(allocatable)
	if !limited {
		capacity = wt.NominalCapacity
	}
	return utilizationSegments(usage, room, capacity, limited)
}

// balanceCost is the utilization cost of placing n more shoots on a seed with the given segments.
func balanceCost(segments []segment, n int) float64 {
	cost := 0.0
	for _, s := range segments {
		if n == 0 {
			break
		}
		take := n
		if s.width != Unlimited {
			take = min(n, s.width)
		}
		cost += float64(take) * s.slope
		n -= take
	}
	return cost
}

// distanceWeight is the weight of a distance unit in a window part touching the given number of seeds: the
// configured weight, or for lexicographic weights one larger than any balance change a reassignment among
// those seeds could make.
func (wt Weights) distanceWeight(seeds int) float64 {
	if !wt.Lexicographic {
		return wt.Distance
	}
	return wt.Balance*UtilizationSlopes[len(UtilizationSlopes)-1]*float64(seeds+1) + 1
}

// PlanCost is the objective value of an assignment: weighted distance, utilization cost and a penalty per
// unplaced shoot larger than any placement could cost, computed the same way for every solver so they can be
// compared.
func PlanCost(w *Window, a *Assignment, weights Weights) float64 {
	segments := seedSegments(w, weights)
	distanceWeight := weights.distanceWeight(len(w.Seeds))
	extremes := windowArcExtremes(w)
	total := float64(len(a.Seed)-a.Placed()) * unplacedPenalty(extremes, weights, distanceWeight, len(w.Seeds))
	for i, seed := range a.Seed {
		if seed < 0 {
			continue
		}
		arc := w.Groups[w.Shoots[i]].arc(seed)
		total += distanceWeight*extremes.weighed(arc.Distance) + weights.SoftViolation*float64(arc.SoftViolations)
	}
	for seed, n := range a.placedPerSeed(len(w.Seeds)) {
		total += weights.Balance * balanceCost(segments[seed], n)
	}
	return total
}

// unplacedPenalty is M: more than any augmenting path through the given number of seeds can cost, so that
// placing one more shoot always lowers the objective.
func unplacedPenalty(extremes arcExtremes, weights Weights, distanceWeight float64, seeds int) float64 {
	return dominating(weights.maxArcCost(extremes, distanceWeight), seeds)
}

// windowArcExtremes are the extremes of every group's arcs.
func windowArcExtremes(w *Window) arcExtremes {
	return extremesOf(func(yield func([]Arc) bool) {
		for _, g := range w.Groups {
			if !yield(g.Arcs) {
				return
			}
		}
	})
}

// CostTerms are the parts of the objective that placing one shoot on a seed adds.
type CostTerms struct {
	// Distance is the weighted region distance.
	Distance float64
	// Utilization is the marginal utilization cost at the seed's fill level.
	Utilization float64
	// Soft is the penalty for the soft constraints the placement breaks.
	Soft float64
}

// Total is the cost of the placement.
func (c CostTerms) Total() float64 { return c.Distance + c.Utilization + c.Soft }

// PlacementCost is what a shoot costs on the arc's seed when it is the n-th shoot the window places there (n ≥ 1).
func PlacementCost(w *Window, weights Weights, arc Arc, n int) CostTerms {
	s := w.Seeds[arc.Seed]
	segments := weights.segments(s.Usage, s.Free, s.Allocatable, s.Limited)
	return CostTerms{
		Distance:    weights.distanceWeight(len(w.Seeds)) * float64(arc.Distance),
		Utilization: weights.Balance * (balanceCost(segments, n) - balanceCost(segments, n-1)),
		Soft:        weights.SoftViolation * float64(arc.SoftViolations),
	}
}
