package solver

import (
	"context"
	"fmt"
	"testing"
)

// The greedy rule, shoot by shoot: exclusions first, then capacity on the candidates, then among the arcs with
// room of the lowest rank the least-used seed, the lowest index on ties; each placement counts for the next shoot.
func TestGreedy(t *testing.T) {
	limited := func(free, usage int) Seed {
		return Seed{Free: free, Usage: usage, Allocatable: int64(free + usage), Limited: true}
	}
	for _, tc := range []struct {
		name   string
		seeds  []Seed
		group  Group
		shoots int
		want   string
	}{
		{"least used first, then the next", []Seed{limited(5, 3), limited(5, 1)},
			Group{Candidates: []int{0, 1}, Arcs: []Arc{{Seed: 0}, {Seed: 1}}}, 4, "[1 1 0 1] [0 0 0 0]"},
		{"ties go to the lowest index", []Seed{limited(2, 0), limited(2, 0)},
			Group{Candidates: []int{0, 1}, Arcs: []Arc{{Seed: 0}, {Seed: 1}}}, 2, "[0 1] [0 0]"},
		{"the lowest rank with room wins over usage", []Seed{limited(1, 0), limited(9, 9)},
			Group{Candidates: []int{0, 1}, Arcs: []Arc{{Seed: 0, Rank: Rank{Tier: 1}}, {Seed: 1, Rank: Rank{Tier: 0, Distance: 5}}}}, 1, "[1] [0]"},
		{"a full seed of the lowest rank gives way to the next rank", []Seed{limited(0, 4), limited(1, 9)},
			Group{Candidates: []int{0, 1}, Arcs: []Arc{{Seed: 0}, {Seed: 1, Rank: Rank{Distance: 1}}}}, 2,
			fmt.Sprintf("[1 -1] [0 %d]", CauseCandidatesFull)},
		{"unlimited room never runs out", []Seed{{Free: Unlimited}},
			Group{Candidates: []int{0}, Arcs: []Arc{{Seed: 0}}}, 3, "[0 0 0] [0 0 0]"},
		{"excluded shoots stay unplaced whatever the room", []Seed{limited(5, 0)},
			Group{Candidates: []int{0}, Arcs: []Arc{{Seed: 0}}, Exclusion: Excluded}, 1, fmt.Sprintf("[-1] [%d]", CauseExcluded)},
		{"a strategy exclusion yields to full candidates", []Seed{limited(0, 5)},
			Group{Candidates: []int{0}, Exclusion: ExcludedWhenCandidateHasRoom}, 1, fmt.Sprintf("[-1] [%d]", CauseCandidatesFull)},
		{"a strategy exclusion holds while a candidate has room", []Seed{limited(1, 0)},
			Group{Candidates: []int{0}, Exclusion: ExcludedWhenCandidateHasRoom}, 1, fmt.Sprintf("[-1] [%d]", CauseExcluded)},
		{"a candidate with room but no arc with room", []Seed{limited(1, 0), limited(0, 3)},
			Group{Candidates: []int{0, 1}, Arcs: []Arc{{Seed: 1}}}, 1, fmt.Sprintf("[-1] [%d]", CauseNoArcWithRoom)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Window{Seeds: tc.seeds, Groups: []Group{tc.group}, Shoots: make([]int, tc.shoots)}
			solution, err := (Greedy{}).Solve(context.Background(), w)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(solution.Seed, " ", solution.Cause); got != tc.want {
				t.Errorf("seeds and causes %s, want %s", got, tc.want)
			}
		})
	}
}

// By priority, the greedy rule decides higher-priority shoots first: the fallback of a policy with priorities
// gives scarce room to them, where the window order alone would give it to the earlier shoot.
func TestGreedyByPriority(t *testing.T) {
	w := &Window{
		Seeds:  []Seed{{Free: 1, Allocatable: 1, Limited: true}},
		Groups: []Group{{Candidates: []int{0}, Arcs: []Arc{{Seed: 0}}, Priority: 3}, {Candidates: []int{0}, Arcs: []Arc{{Seed: 0}}, Priority: 1}},
		Shoots: []int{0, 1}, // the earlier shoot has the lower priority
	}
	for _, tc := range []struct {
		byPriority bool
		want       []int
	}{{false, []int{0, -1}}, {true, []int{-1, 0}}} {
		solution, err := (Greedy{ByPriority: tc.byPriority}).Solve(context.Background(), w)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(solution.Seed) != fmt.Sprint(tc.want) {
			t.Errorf("by priority %v: seeds %v, want %v", tc.byPriority, solution.Seed, tc.want)
		}
	}
}

// A window whose shoots come in priority order already is decided alike by priority first and in window order; one
// that does not is not in priority order.
func TestInPriorityOrder(t *testing.T) {
	for _, tc := range []struct {
		name       string
		priorities []int // of each shoot's group, in window order
		want       bool
	}{
		{"no shoots", nil, true},
		{"one shoot", []int{4}, true},
		{"equal priorities", []int{2, 2, 2}, true},
		{"rising", []int{0, 1, 1, 3}, true},
		{"a later shoot first", []int{1, 0}, false},
		{"out of order at the end", []int{0, 2, 1}, false},
	} {
		w := &Window{Seeds: []Seed{{Free: 1, Allocatable: 1, Limited: true}}}
		for i, p := range tc.priorities {
			w.Groups = append(w.Groups, Group{Candidates: []int{0}, Arcs: []Arc{{Seed: 0}}, Priority: p})
			w.Shoots = append(w.Shoots, i)
		}
		if got := w.InPriorityOrder(); got != tc.want {
			t.Errorf("%s: InPriorityOrder() = %v, want %v", tc.name, got, tc.want)
		}
		if !tc.want {
			continue
		}
		byPriority, _ := (Greedy{ByPriority: true}).Solve(context.Background(), w)
		inOrder, _ := (Greedy{}).Solve(context.Background(), w)
		if fmt.Sprint(byPriority.Seed) != fmt.Sprint(inOrder.Seed) {
			t.Errorf("%s: by priority %v, in window order %v", tc.name, byPriority.Seed, inOrder.Seed)
		}
	}
}
