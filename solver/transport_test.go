package solver

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// strictlyConvex splits the first shoots into single ones, each dearer by the tie for every shoot hosted before.
func TestStrictlyConvex(t *testing.T) {
	for _, tc := range []struct {
		name     string
		segments []segment
		usage    int
		units    int
		tie      float64
		want     string
	}{
		{"no tie: unchanged", []segment{{width: 3, slope: 1}}, 5, 2, 0, "[{3 1 0}]"},
		{"two single shoots, then the rest", []segment{{width: 3, slope: 1}, {width: 2, slope: 2}}, 5, 2, 0.5,
			"[{1 1 2.5} {1 1 3} {1 1 3.5} {2 2 4}]"},
		{"more units than the first segment", []segment{{width: 1, slope: 1}, {width: 2, slope: 2}}, 0, 2, 1,
			"[{1 1 0} {1 2 1} {1 2 2}]"},
		{"an unlimited segment", []segment{{width: Unlimited, slope: 128}}, 4, 2, 1,
			fmt.Sprintf("[{1 128 4} {1 128 5} {%d 128 6}]", Unlimited)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmt.Sprint(strictlyConvex(tc.segments, tc.usage, tc.units, tc.tie)); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// In a window of one shoot, seeds that are otherwise as good (same distance, same tenth of utilization) are told
// apart by their shoots: the LP takes the one with the fewest, as the gardener-scheduler's rule does, whichever
// index it has; the tie never outweighs a real difference such as distance.
func TestLPBreaksTiesByFewestShoots(t *testing.T) {
	seed := func(usage int) Seed { return Seed{Usage: usage, Free: 100 - usage, Allocatable: 100, Limited: true} }
	for _, tc := range []struct {
		name  string
		seeds []Seed
		arcs  []Arc
		want  int
	}{
		{"the emptiest seed, last by index", []Seed{seed(5), seed(3), seed(2)}, []Arc{{Seed: 0}, {Seed: 1}, {Seed: 2}}, 2},
		{"the emptiest seed, in the middle", []Seed{seed(4), seed(1), seed(2)}, []Arc{{Seed: 0}, {Seed: 1}, {Seed: 2}}, 1},
		{"distance outweighs the tie", []Seed{seed(7), seed(0)}, []Arc{{Seed: 0}, {Seed: 1, Distance: 1}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Window{Seeds: tc.seeds, Groups: []Group{{Candidates: []int{0, 1, 2}[:len(tc.seeds)], Arcs: tc.arcs}}, Shoots: []int{0}}
			solution, err := (LP{Weights: DefaultWeights()}).Solve(context.Background(), w)
			if err != nil {
				t.Fatal(err)
			}
			if !solution.Optimal || solution.Seed[0] != tc.want {
				t.Errorf("placed on seed %d (optimal %v), want %d", solution.Seed[0], solution.Optimal, tc.want)
			}
		})
	}
}

// A seed's tenths of utilization are exact whatever its capacity, up to 2^63−1.
func TestUtilizationSegments(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		usage, room, capacity int
		want                  string
	}{
		{"tenths of 20 from 3 shoots, room 5", 3, 5, 20, "[{1 2 0} {2 4 0} {2 7 0}]"},
		{"2^63−1: the first tenth holds the room", 0, 5, math.MaxInt64, "[{5 1 0}]"},
		{"2^63−1, hosting just below the last tenth", math.MaxInt64 / 10 * 9, 2, math.MaxInt64, "[{2 45 0}]"},
		{"2^63−1, hosting in the last tenth", math.MaxInt64 - 3, 2, math.MaxInt64, "[{2 64 0}]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmt.Sprint(utilizationSegments(tc.usage, tc.room, tc.capacity, true)); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// Distances anywhere in the int range, as a region ConfigMap may hold them, leave the LP solvable and optimal;
// a distance far beyond the other outweighs balance, as it does when weighed exactly.
func TestLPExtremeDistances(t *testing.T) {
	seed := Seed{Free: 10, Allocatable: 20, Limited: true}
	for _, tc := range []struct {
		name      string
		near, far int
		allOnNear bool
	}{
		{"the int extremes", math.MinInt64, math.MaxInt64, true},
		{"zero and the largest int", 0, math.MaxInt64, true},
		{"neighbours at the top", math.MaxInt64 - 1, math.MaxInt64, false},
		{"neighbours at the bottom", math.MinInt64, math.MinInt64 + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Window{Seeds: []Seed{seed, seed}, Shoots: []int{0, 0, 0},
				Groups: []Group{{Candidates: []int{0, 1}, Arcs: []Arc{{Seed: 0, Distance: tc.far}, {Seed: 1, Distance: tc.near}}}}}
			solution, err := (LP{Weights: DefaultWeights()}).Solve(context.Background(), w)
			if err != nil {
				t.Fatal(err)
			}
			onNear := solution.placedPerSeed(2)[1]
			if !solution.Optimal || solution.Placed() != 3 || tc.allOnNear && onNear != 3 {
				t.Fatalf("optimal %v, placed %d, %d on the near seed", solution.Optimal, solution.Placed(), onNear)
			}
		})
	}
}

// The shoots of a seed's room beyond its target are marked, splitting the segment the target falls in.
func TestAboveTarget(t *testing.T) {
	for _, tc := range []struct {
		name              string
		segments          []segment
		free, aboveTarget int
		want              string
	}{
		{"no target", []segment{{width: 4, slope: 1}}, 4, 0, "[{4 1 0}]"},
		{"the target inside a segment", []segment{{width: 3, slope: 1}, {width: 2, slope: 2}}, 5, 3, "[{2 1 0} {1 1 0 above} {2 2 0 above}]"},
		{"the target between segments", []segment{{width: 3, slope: 1}, {width: 2, slope: 2}}, 5, 2, "[{3 1 0} {2 2 0 above}]"},
		{"already above the target", []segment{{width: 2, slope: 64}}, 2, 5, "[{2 64 0 above}]"},
		{"unlimited room has no target", []segment{{width: Unlimited, slope: 128}}, Unlimited, 3, fmt.Sprintf("[{%d 128 0}]", Unlimited)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmt.Sprint(aboveTarget(tc.segments, tc.free, tc.aboveTarget)); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
