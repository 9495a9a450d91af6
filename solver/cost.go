package solver

import (
	"fmt"
	"math"
)

// Weights set how the objective trades region distance against seed balance.
type Weights struct {
	// Distance is the cost of one unit of region distance per placed shoot.
	Distance float64
	// Balance scales the utilization cost: a shoot placed while its seed's utilization is in the k-th tenth
	// (0-based) costs Balance × utilizationSlopes[k].
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

// utilizationSlopes are the marginal costs of one more shoot on a seed whose utilization is in the 1st, 2nd, …
// 10th tenth, and, for seeds without allocatable, beyond their nominal capacity. They rise convexly, so the
// cheapest way to place shoots fills the emptiest seeds first, and the problem stays a network problem.
var utilizationSlopes = [...]float64{1, 2, 4, 7, 11, 16, 23, 32, 45, 64, 128}

// segment is a range of additional shoots on a seed with one marginal cost: Balance × slope, plus extra.
type segment struct {
	width int // Unlimited for the last segment of a seed without allocatable
	slope float64
	// extra is the window LP's tie-breaking cost (tieBreak), not part of the objective.
	extra float64
	// above marks shoots that would end the seed above the placement target: each costs the above-target penalty.
	above bool
}

// String shows a segment as {width slope extra}, with "above" for shoots above the target.
func (s segment) String() string {
	if s.above {
		return fmt.Sprintf("{%d %v %v above}", s.width, s.slope, s.extra)
	}
	return fmt.Sprintf("{%d %v %v}", s.width, s.slope, s.extra)
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
		out[i] = aboveTarget(weights.segments(s.Usage, s.Free, s.Allocatable, s.Limited), s.Free, s.AboveTarget)
	}
	return out
}

// aboveTarget marks the last aboveTarget shoots of a seed's room (free, not Unlimited) as above its target,
// splitting the segment the target falls in.
func aboveTarget(segments []segment, free, aboveTarget int) []segment {
	if aboveTarget <= 0 || free == Unlimited {
		return segments
	}
	headroom := max(free-aboveTarget, 0)
	out := make([]segment, 0, len(segments)+1)
	for _, s := range segments {
		if headroom > 0 && s.width > headroom {
			out = append(out, segment{width: headroom, slope: s.slope, extra: s.extra})
			s.width -= headroom
			headroom = 0
		} else if headroom > 0 {
			headroom -= s.width
			out = append(out, s)
			continue
		}
		s.above = true
		out = append(out, s)
	}
	return out
}

// aboveCount is how many of n more shoots on a seed with the given segments end it above its target.
func aboveCount(segments []segment, n int) int {
	return int(fill(segments, n, func(s segment) float64 {
		if s.above {
			return 1
		}
		return 0
	}))
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
	return fill(segments, n, func(s segment) float64 { return s.slope })
}

// fill sums, over the next n shoots placed on a seed with the given segments (filled in order), what each costs
// in the segment it falls in.
func fill(segments []segment, n int, each func(segment) float64) float64 {
	total := 0.0
	for _, s := range segments {
		if n == 0 {
			break
		}
		take := n
		if s.width != Unlimited {
			take = min(n, s.width)
		}
		total += float64(take) * each(s)
		n -= take
	}
	return total
}

// distanceWeight is the weight of a distance unit in a window part touching the given number of seeds: the
// configured weight, or for lexicographic weights one larger than any balance change a reassignment among
// those seeds could make.
func (wt Weights) distanceWeight(seeds int) float64 {
	if !wt.Lexicographic {
		return wt.Distance
	}
	return wt.Balance*utilizationSlopes[len(utilizationSlopes)-1]*float64(seeds+1) + 1
}

// PlanCost is the objective value of an assignment: weighted distance, utilization cost and a penalty per
// unplaced shoot larger than any placement could cost, computed the same way for every solver so they can be
// compared.
func PlanCost(w *Window, a *Assignment, weights Weights) float64 {
	segments := seedSegments(w, weights)
	distanceWeight := weights.distanceWeight(len(w.Seeds))
	extremes := windowArcExtremes(w)
	abovePenalty, unplacedPenalty := penalties(extremes, weights, distanceWeight, len(w.Seeds), targeted(w.Seeds))
	total := float64(len(a.Seed)-a.Placed()) * unplacedPenalty
	for arc := range a.placedArcs(w) {
		total += distanceWeight*extremes.weighed(arc.Distance) + weights.SoftViolation*float64(arc.SoftViolations)
	}
	for seed, n := range a.placedPerSeed(len(w.Seeds)) {
		total += weights.Balance*balanceCost(segments[seed], n) + abovePenalty*float64(aboveCount(segments[seed], n))
	}
	return total
}

// TotalDistance is the sum of the region distances of an assignment's placements.
func TotalDistance(w *Window, a *Assignment) int {
	total := 0
	for arc := range a.placedArcs(w) {
		total += arc.Distance
	}
	return total
}

// AboveTarget counts the shoots an assignment places above their seeds' targets (Seed.AboveTarget).
func AboveTarget(w *Window, a *Assignment) int {
	n := 0
	for seed, placed := range a.placedPerSeed(len(w.Seeds)) {
		if s := w.Seeds[seed]; s.AboveTarget > 0 && s.Free != Unlimited {
			n += max(placed-max(s.Free-s.AboveTarget, 0), 0)
		}
	}
	return n
}

// penalties are what a shoot above its seed's target and an unplaced shoot cost in a part of the window through
// the given number of seeds. The first is more than any augmenting path of placements can cost, so that no
// shoot ends a seed above its target while a path to room at or below a target exists; the second is more than
// any path including those, so that placing one more shoot always lowers the objective. Without targets, the
// above-target penalty is 0 and the unplaced one is what it always was.
func penalties(extremes arcExtremes, weights Weights, distanceWeight float64, seeds int, targeted bool) (above, unplaced float64) {
	maxArc := weights.maxArcCost(extremes, distanceWeight)
	if targeted {
		above = dominating(maxArc, seeds)
	}
	return above, dominating(maxArc+above, seeds)
}

// targeted reports whether any of the seeds has room above its target.
func targeted(seeds []Seed) bool {
	for _, s := range seeds {
		if s.AboveTarget > 0 && s.Free != Unlimited {
			return true
		}
	}
	return false
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
	Distance float64 `json:"distance"`
	// Utilization is the marginal utilization cost at the seed's fill level.
	Utilization float64 `json:"utilization"`
	// Soft is the penalty for the soft constraints the placement breaks.
	Soft float64 `json:"soft"`
	// AboveTarget is set when the shoot ends its seed above the target; the LP then adds a penalty larger than
	// any distance and utilization (not part of Total).
	AboveTarget bool `json:"aboveTarget"`
}

// Total is the cost of the placement.
func (c CostTerms) Total() float64 { return c.Distance + c.Utilization + c.Soft }

// PlacementCost is what a shoot costs on the arc's seed when it is the n-th shoot the window places there (n ≥ 1).
func PlacementCost(w *Window, weights Weights, arc Arc, n int) CostTerms {
	s := w.Seeds[arc.Seed]
	segments := aboveTarget(weights.segments(s.Usage, s.Free, s.Allocatable, s.Limited), s.Free, s.AboveTarget)
	return CostTerms{
		Distance:    weights.distanceWeight(len(w.Seeds)) * float64(arc.Distance),
		Utilization: weights.Balance * (balanceCost(segments, n) - balanceCost(segments, n-1)),
		Soft:        weights.SoftViolation * float64(arc.SoftViolations),
		AboveTarget: aboveCount(segments, n) > aboveCount(segments, n-1),
	}
}
