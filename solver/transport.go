package solver

import "math"

// The transport core: what the window LP and rebalancing share. Both are transportation problems of classes of
// interchangeable shoots onto seeds with convex utilization costs; they differ in their rows, not in how costs are
// bounded, how a seed's room becomes segments, or how an LP's counts become shoots.

// arcExtremes are the largest absolute distance and the most soft violations among some arcs.
type arcExtremes struct{ distance, softViolations int }

// include widens the extremes to the arcs.
func (e *arcExtremes) include(arcs []Arc) {
	for _, a := range arcs {
		e.distance = max(e.distance, a.Distance, -a.Distance)
		e.softViolations = max(e.softViolations, a.SoftViolations)
	}
}

// maxArcCost bounds what one shoot along any arc within the extremes costs: distance, the steepest utilization
// slope and its soft violations.
func (wt Weights) maxArcCost(e arcExtremes, distanceWeight float64) float64 {
	return distanceWeight*float64(e.distance) + wt.Balance*UtilizationSlopes[len(UtilizationSlopes)-1] +
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
			segments = append(segments, segment{width: width, slope: UtilizationSlopes[k]})
			taken = upper
		}
	}
	if !limited {
		segments = append(segments, segment{width: Unlimited, slope: UtilizationSlopes[10]})
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
			out = append(out, segment{width: 1, slope: s.slope, extra: tie * float64(taken)})
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
