package solver

import (
	"context"
	"testing"
)

// The rebalancing LP's costs grow with the seeds a rebalancing involves (each tier of its lexicographic objective
// dominates the one below over all of them): a thousand destinations at distances up to 10,000, with default
// weights, are beyond CLP's range. Such a rebalancing is answered as one whose budget ran out - the moves found
// greedily, the reason said - rather than with an error (which is all rebalance answered before); ten are
// optimal, with no reason.
func TestRebalancerFallsBackBeyondCLPsRange(t *testing.T) {
	for _, tc := range []struct {
		destinations int
		want         string
	}{
		{10, ""},
		{1000, FallbackRange},
	} {
		// A seed to drain of as many shoots as there are destinations, each of which may take any of them.
		seeds := []LoadedSeed{{Load: tc.destinations, Limit: 0, Room: 0, Allocatable: 10, Limited: true}}
		var arcs []Arc
		for i := 1; i <= tc.destinations; i++ {
			seeds = append(seeds, LoadedSeed{Load: 0, Limit: 8, Room: 8, Allocatable: 10, Limited: true})
			arcs = append(arcs, Arc{Seed: i, Distance: 10 * i, SoftViolations: i % 3})
		}
		shoots := make([]BoundShoot, tc.destinations)
		for i := range shoots {
			shoots[i] = BoundShoot{Seed: 0, MustLeave: true, Destinations: arcs}
		}
		moves, err := Rebalancer{Weights: DefaultWeights()}.Plan(context.Background(), &Rebalancing{Seeds: seeds, Shoots: shoots})
		if err != nil {
			t.Fatalf("%d destinations: %v", tc.destinations, err)
		}
		if len(moves.Moves) != tc.destinations || moves.Fallback != tc.want || moves.Optimal != (tc.want == "") {
			t.Errorf("%d destinations: %d moves, fallback %q, optimal %v; want every shoot moved, fallback %q",
				tc.destinations, len(moves.Moves), moves.Fallback, moves.Optimal, tc.want)
		}
	}
}
