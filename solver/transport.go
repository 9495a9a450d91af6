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
		upper := (k + 1) * capacity / 10
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
