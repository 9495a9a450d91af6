package solver

import (
	"iter"
	"math"
)

// The transport core: what the window LP and rebalancing share. Both are transportation problems of classes of
// interchangeable shoots onto seeds with convex utilization costs; they differ in their rows, not in how costs are
// bounded, how a seed's room becomes segments, or how an LP's counts become shoots.

// maxExactDistance bounds the distances the LPs weigh as they are: a float adds a utilization slope to a distance
// exactly only while the distance stays far below 2^53, and CLP's tolerances need far less. Region ConfigMaps
// may hold any int, as Gardener's do.
const maxExactDistance = 1 << 30

// arcExtremes are the largest absolute distance, as the LPs weigh it, and the most soft violations among some
// arcs. When some distance is beyond ±maxExactDistance, the LPs weigh every distance of the problem scaled down
// in proportion, so that the largest is maxExactDistance: distances keep their proportions to each other and
// still dwarf the utilization slopes, as distances that large do.
type arcExtremes struct {
	distance       float64
	softViolations int
	// scale multiplies every distance; 0 means 1.
	scale float64
}

// extremesOf are the extremes of the arc lists.
func extremesOf(lists iter.Seq[[]Arc]) arcExtremes {
	var e arcExtremes
	var largest uint64
	for arcs := range lists {
		for _, a := range arcs {
			largest = max(largest, absolute(a.Distance))
			e.softViolations = max(e.softViolations, a.SoftViolations)
		}
	}
	e.distance = float64(largest)
	if largest > maxExactDistance {
		e.scale = maxExactDistance / e.distance
		e.distance = maxExactDistance
	}
	return e
}

// absolute is |d|, also for the smallest int.
func absolute(d int) uint64 {
	if d < 0 {
		return uint64(-(d + 1)) + 1
	}
	return uint64(d)
}

// weighed is a distance as the LPs weigh it.
func (e arcExtremes) weighed(distance int) float64 {
	if e.scale == 0 {
		return float64(distance)
	}
	return float64(distance) * e.scale
}

// maxArcCost bounds what one shoot along any arc within the extremes costs: distance, the steepest utilization
// slope and its soft violations.
func (wt Weights) maxArcCost(e arcExtremes, distanceWeight float64) float64 {
	return distanceWeight*e.distance + wt.Balance*utilizationSlopes[len(utilizationSlopes)-1] +
		wt.SoftViolation*float64(e.softViolations)
}

// dominating is a cost larger than any augmenting path or cycle of the flow through the given number of seeds
// can cost or save when each of its arcs costs at most maxArc: such a path or cycle touches every seed at most
// twice. What costs this much is worth more than any rearrangement of what costs less.
func dominating(maxArc float64, seeds int) float64 {
	return maxArc*float64(2*seeds+2) + 1
}

// utilizationSegments splits the room of a seed into the tenths of its utilization, starting at its usage: a
// seed without a limit gets a last segment of unlimited width. The segments never hold more than room (which
// integer rounding of the tenths, usage above capacity or a bound on moves can make smaller), and empty ones are
// left out.
func utilizationSegments(usage, room, capacity int, limited bool) []segment {
	if !limited {
		capacity = max(capacity, 1)
	}
	var segments []segment
	taken := usage
	for k := range 10 {
		upper := (k+1)*(capacity/10) + (k+1)*(capacity%10)/10 // ⌊(k+1)·capacity/10⌋ without overflow
		if width := upper - taken; width > 0 {
			segments = append(segments, segment{width: width, slope: utilizationSlopes[k]})
			taken = upper
		}
	}
	if !limited {
		segments = append(segments, segment{width: Unlimited, slope: utilizationSlopes[10]})
	}
	if room == Unlimited {
		return segments
	}
	clamped := segments[:0]
	for _, s := range segments {
		if room == 0 {
			break
		}
		if s.width == Unlimited || s.width > room {
			s.width = room
		}
		clamped = append(clamped, s)
		room -= s.width
	}
	return clamped
}

// handOut gives a class's shoots, first first, to its arcs as an LP's counts say, each count rounded down (a
// value within integralityTolerance of an integer counts as that integer). place puts a shoot on an arc's seed,
// or reports that the seed takes no more. It returns whether every count was integral.
func handOut(counts []float64, arcs []Arc, shoots []int, place func(shoot int, arc Arc) bool) bool {
	integral, next := true, 0
	for a, value := range counts {
		n := math.Round(value)
		if math.Abs(value-n) > integralityTolerance {
			integral, n = false, math.Floor(value)
		}
		for range int(n) {
			if next == len(shoots) || !place(shoots[next], arcs[a]) {
				break
			}
			next++
		}
	}
	return integral
}

// repair gives each of the shoots that needs it the first arc whose seed takes it; it returns how many it placed.
func repair(shoots []int, arcs []Arc, needs func(shoot int) bool, place func(shoot int, arc Arc) bool) int {
	placed := 0
	for _, shoot := range shoots {
		if !needs(shoot) {
			continue
		}
		for _, a := range arcs {
			if place(shoot, a) {
				placed++
				break
			}
		}
	}
	return placed
}

// tieBreakShoots is the largest part of a window whose utilization cost tieBreak makes strictly convex: larger
// parts spread over the tenths of utilization, and unit segments for them would cost the LP more than they save.
const tieBreakShoots = 64

// tieBreak is what each shoot a seed already hosts adds to the cost of one more, in a part of n shoots on seeds
// hosting at most u. It makes the utilization cost strictly convex from zero, so that among seeds that are
// otherwise as good the one with the fewest shoots is taken — the gardener-scheduler's least-utilized rule —
// and a stream of small windows spreads shoots as evenly as that rule does. All tie costs of a part together
// stay below one half, less than any difference integral weights make, so it only ever breaks ties: it is 0 for
// weights that are not integral, and for parts larger than tieBreakShoots.
func (wt Weights) tieBreak(n, u int) float64 {
	if n > tieBreakShoots || !isWhole(wt.Distance) || !isWhole(wt.Balance) || !isWhole(wt.SoftViolation) {
		return 0
	}
	return 1 / float64(2*(n+1)*(u+n+1))
}

func isWhole(f float64) bool { return f == math.Trunc(f) }

// strictlyConvex splits the first units shoots of a seed's segments into single shoots, each costing tie more
// for every shoot the seed hosts before it (starting at usage); the rest of each segment costs as the first
// shoot after those.
func strictlyConvex(segments []segment, usage, units int, tie float64) []segment {
	if tie == 0 || units == 0 {
		return segments
	}
	out := make([]segment, 0, len(segments)+units)
	taken := usage
	for _, s := range segments {
		for ; units > 0 && s.width != 0; units-- {
			unit := s
			unit.width, unit.extra = 1, tie*float64(taken)
			out = append(out, unit)
			taken++
			if s.width != Unlimited {
				s.width--
			}
		}
		if s.width == 0 {
			continue
		}
		s.extra = tie * float64(taken)
		out = append(out, s)
		if s.width != Unlimited {
			taken += s.width
		}
	}
	return out
}
