package solver

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// capacityInstance is a capacity question in few words: existing seeds' room (Unlimited allowed), templates'
// seeds per new seed, and groups of shoots with the seeds they may use — existing seeds by index, templates as
// len(room)+t.
type capacityInstance struct {
	room    []int
	perSeed []int
	groups  []capacityGroup
}

type capacityGroup struct {
	shoots int
	seeds  []int
}

// planning is the instance as the solver takes it: the existing seeds first, then a candidate per template.
func (in capacityInstance) planning() *CapacityPlanning {
	q := &CapacityPlanning{Window: &Window{}, Room: slices.Clone(in.room)}
	for t, perSeed := range in.perSeed {
		q.Templates = append(q.Templates, Template{Candidate: len(in.room) + t, PerSeed: perSeed})
		q.Room = append(q.Room, 0)
	}
	q.Window.Seeds = make([]Seed, len(q.Room))
	for g, group := range in.groups {
		var arcs []Arc
		for _, s := range slices.Sorted(slices.Values(group.seeds)) {
			arcs = append(arcs, Arc{Seed: s})
		}
		q.Window.Groups = append(q.Window.Groups, Group{Arcs: arcs})
		for range group.shoots {
			q.Window.Shoots = append(q.Window.Shoots, g)
		}
	}
	return q
}

// search is the branch and bound's state for the instance, before it runs, without a deadline.
func (in capacityInstance) search() *capacitySearch {
	return newCapacitySearch(Capacity{}, in.planning())
}

// A cover cut counts, for the templates some shoots may use, the shoots that may use no others, less the room of
// the existing seeds they may use, in seeds of the largest of those templates, rounded up.
func TestCoverCuts(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   capacityInstance
		want string
	}{
		{"shoots of one template, beyond an existing seed's room",
			capacityInstance{room: []int{4}, perSeed: []int{10}, groups: []capacityGroup{{25, []int{0, 1}}}},
			"[{[0] 3}]"},
		{"a set of templates also counts the shoots of its subsets, in seeds of its largest template",
			capacityInstance{room: []int{4}, perSeed: []int{10, 4}, groups: []capacityGroup{{25, []int{0, 1}}, {5, []int{1, 2}}}},
			"[{[0 1] 3} {[0] 3}]"},
		{"room enough on existing seeds: no cut",
			capacityInstance{room: []int{30}, perSeed: []int{10}, groups: []capacityGroup{{25, []int{0, 1}}}},
			"[]"},
		{"an existing seed without a limit takes them all: no cut",
			capacityInstance{room: []int{0, Unlimited}, perSeed: []int{10}, groups: []capacityGroup{{25, []int{1, 2}}}},
			"[]"},
		{"shoots without a template count for none",
			capacityInstance{room: []int{1}, perSeed: []int{10}, groups: []capacityGroup{{25, []int{0}}, {3, []int{1}}}},
			"[{[0] 1}]"},
	} {
		if got := fmt.Sprint(tc.in.search().coverCuts()); got != tc.want {
			t.Errorf("%s: cuts %s, want %s", tc.name, got, tc.want)
		}
	}
}

// Trimming takes away every new seed whose shoots fit elsewhere, and none that any placed shoot needs.
func TestTrim(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      capacityInstance
		y, want []int
	}{
		{"a seed too many", capacityInstance{perSeed: []int{4}, groups: []capacityGroup{{8, []int{0}}}},
			[]int{3}, []int{2}},
		{"shoots that may use either template fit on the other's spare room",
			capacityInstance{perSeed: []int{8, 8}, groups: []capacityGroup{{3, []int{0}}, {3, []int{1}}, {2, []int{0, 1}}}},
			[]int{1, 1}, []int{1, 1}},
		{"shoots that may use either template, and spare room for them on one",
			capacityInstance{perSeed: []int{8, 8}, groups: []capacityGroup{{6, []int{0}}, {2, []int{0, 1}}}},
			[]int{1, 1}, []int{1, 0}},
		{"existing room takes what a new seed would have",
			capacityInstance{room: []int{5}, perSeed: []int{4}, groups: []capacityGroup{{5, []int{0, 1}}}},
			[]int{2}, []int{0}},
		{"shoots that fit nowhere do not keep seeds open",
			capacityInstance{room: []int{1}, perSeed: []int{4}, groups: []capacityGroup{{3, []int{0}}, {4, []int{1}}}},
			[]int{2}, []int{1}},
	} {
		got := tc.in.search().trim(tc.y, make([]float64, len(tc.y)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: trim(%v) = %v, want %v", tc.name, tc.y, got, tc.want)
		}
	}
}

// Without the LP, a class's shoots go to the largest new seeds it may use and, among equally large ones, to those
// of the template its cheapest arc reaches (a class's arcs are cheapest first): the nearer region, not the one
// listed first. Here two shoots may use templates 0 (distance 3) and 1 (distance 1), both of two shoots a seed,
// and two other shoots only template 1: one new seed of template 1 takes all four.
func TestWithoutLPPrefersTheNearerOfEquallyLargeTemplates(t *testing.T) {
	q := &CapacityPlanning{Window: &Window{Seeds: make([]Seed, 2)}, Room: []int{0, 0},
		Templates: []Template{{Candidate: 0, PerSeed: 4}, {Candidate: 1, PerSeed: 4}}}
	q.Window.Groups = []Group{{Arcs: []Arc{{Seed: 0, Distance: 3}, {Seed: 1, Distance: 1}}}, {Arcs: []Arc{{Seed: 1}}}}
	q.Window.Shoots = []int{0, 0, 1, 1}
	if got := newCapacitySearch(Capacity{}, q).withoutLP().y; !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("without the LP: %v new seeds per template, want [0 1]", got)
	}
}

// Without the LP, seeds are shared between classes that may use several templates: two shoots that may use
// templates 0 (five a seed) and 1 (four a seed), and two that may use only 1, fit on one new seed of template 1,
// where putting each class on the largest template it may use opens one of each.
func TestWithoutLPSharesSeedsBetweenClasses(t *testing.T) {
	in := capacityInstance{perSeed: []int{5, 4}, groups: []capacityGroup{{2, []int{0, 1}}, {2, []int{1}}}}
	s := in.search()
	if got := s.byLargest(s.leftByExisting()); !slices.Equal(got, []int{1, 1}) {
		t.Fatalf("each class on its largest template: %v new seeds per template, want [1 1]", got)
	}
	if got := s.withoutLP().y; !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("without the LP: %v new seeds per template, want [0 1]", got)
	}
}

// TestCapacityIsMinimal is the property test of the capacity search on small random questions against an
// exhaustive one: the answer places as many shoots as any number of new seeds could, with the fewest new seeds
// that do; its bound is never above that number, and it is proven minimal here, where the search finishes. The
// answer without the LP places as many, with no fewer seeds, and its bound is never above them either.
func TestCapacityIsMinimal(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 19))
		in := randomCapacityInstance(rng)
		plan, err := Capacity{}.Plan(context.Background(), in.planning())
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		wantPlaced, wantSeeds := exhaustiveCapacity(in)
		placed := 0
		for _, s := range plan.Seed {
			if s >= 0 {
				placed++
			}
		}
		if placed != wantPlaced || total(plan.NewSeeds) != wantSeeds || plan.LowerBound != wantSeeds || !plan.Optimal {
			t.Fatalf("seed %d: %+v: placed %d with %v new seeds (bound %d, optimal %v), want %d placed with %d",
				seed, in, placed, plan.NewSeeds, plan.LowerBound, plan.Optimal, wantPlaced, wantSeeds)
		}
		s := in.search()
		greedy := s.withoutLP()
		if placed := maxPlaced(in, greedy.y); placed != wantPlaced || total(greedy.y) < wantSeeds || greedy.lowerBound > wantSeeds {
			t.Fatalf("seed %d: %+v: without the LP placed %d with %v new seeds (bound %d), want %d placed with at least %d",
				seed, in, placed, greedy.y, greedy.lowerBound, wantPlaced, wantSeeds)
		}
		left := s.leftByExisting()
		for name, y := range map[string][]int{"byLargest": s.byLargest(left), "byCover": s.byCover(left)} {
			if placed := maxPlaced(in, y); placed != wantPlaced || total(greedy.y) > total(y) {
				t.Fatalf("seed %d: %+v: %s placed %d with %v new seeds, want %d placed, and no fewer seeds than withoutLP's %v",
					seed, in, name, placed, y, wantPlaced, greedy.y)
			}
		}
	}
}

// A search stopped at a limit proves no more than its open nodes need: on small random questions whose root LP
// leaves a gap in some, stopped after each of a few numbers of nodes, the bound is never above the exhaustive
// answer's new seeds nor below the bound of a search stopped sooner, and the count never below the exhaustive
// one; proven, count and bound are the exhaustive answer's. Whatever number of nodes it solves at once, a search
// that is not stopped proves the exhaustive answer and places as many shoots. So does Plan, which searches the
// question's parts each by itself and adds them up (width 0 below).
func TestStoppedCapacitySearchBoundsTheAnswer(t *testing.T) {
	unproven := 0
	for seed := range uint64(150) {
		rng := rand.New(rand.NewPCG(seed, 29))
		in := randomContestedCapacityInstance(rng)
		wantPlaced, wantSeeds := exhaustiveCapacity(in)
		for _, width := range []int{0, 1, 2, 3} {
			sooner := 0
			for _, nodes := range []int{1, 2, 3, 5, 8, math.MaxInt} {
				best := branchOf(t, in, Capacity{MaxNodes: nodes}, width)
				seeds := total(best.y)
				if best.lowerBound > wantSeeds || seeds < wantSeeds || best.lowerBound < sooner ||
					best.complete && seeds != wantSeeds || nodes == math.MaxInt && !best.complete {
					t.Fatalf("seed %d: %+v: %d at once, stopped after %d nodes, %d new seeds, bound %d (sooner: %d), complete %v; the fewest are %d",
						seed, in, width, nodes, seeds, best.lowerBound, sooner, best.complete, wantSeeds)
				}
				if placed := maxPlaced(in, best.y); placed != wantPlaced {
					t.Fatalf("seed %d: %+v: %d at once, after %d nodes: %v new seeds place %d shoots, want %d",
						seed, in, width, nodes, best.y, placed, wantPlaced)
				}
				sooner = best.lowerBound
				if !best.complete {
					unproven++
				}
			}
		}
	}
	if unproven == 0 {
		t.Fatal("every search was proven before its limit: the test proves nothing")
	}
}

// branchOf is the answer of the instance's whole question, its root and then, where the root leaves a gap, its
// branch and bound solving width nodes at once; with width 0, Plan's answer.
func branchOf(t *testing.T, in capacityInstance, cp Capacity, width int) *capacityBest {
	t.Helper()
	if width == 0 {
		plan, err := cp.Plan(context.Background(), in.planning())
		if err != nil {
			t.Fatal(err)
		}
		return &capacityBest{y: plan.NewSeeds, lowerBound: plan.LowerBound, complete: plan.Optimal}
	}
	s := newCapacitySearch(cp, in.planning())
	best, root, err := s.root()
	if err != nil {
		t.Fatal(err)
	}
	if total(best.y) > best.lowerBound {
		if err := s.branch(context.Background(), best, root, width); err != nil {
			t.Fatal(err)
		}
	}
	return best
}

// The search takes the open nodes of least bound, of equal ones the last opened (the one rounded up), as many as
// it solves at once while they can improve on its answer; a stopped search proves the least bound of its open
// nodes, less what the shoots the root leaves unplaced cost.
func TestBestBoundFirst(t *testing.T) {
	bounds := func(nodes []openNode) []float64 {
		var b []float64
		for _, n := range nodes {
			b = append(b, n.bound)
		}
		return b
	}
	tied := 5.5 + integralityTolerance/2
	for _, tc := range []struct {
		name            string
		n               int
		improvesBelow   float64
		taken, leftOpen []float64
	}{
		{"one: the last of the least", 1, 100, []float64{tied}, []float64{7, 5.5, 9}},
		{"two: both of the least, the last first", 2, 100, []float64{tied, 5.5}, []float64{7, 9}},
		{"all, least first", 5, 100, []float64{tied, 5.5, 7, 9}, nil},
		{"only those that can improve", 5, 8, []float64{tied, 5.5, 7}, []float64{9}},
		{"none can improve: none", 2, 5, nil, []float64{7, 5.5, 9, tied}},
	} {
		open := []openNode{{bound: 7}, {bound: 5.5}, {bound: 9}, {bound: tied}}
		taken, left := takeLeastBound(open, tc.n, func(bound float64) bool { return bound >= tc.improvesBelow })
		if !slices.Equal(bounds(taken), tc.taken) || !slices.Equal(bounds(left), tc.leftOpen) {
			t.Errorf("%s: took %v, left %v; want %v, left %v", tc.name, bounds(taken), bounds(left), tc.taken, tc.leftOpen)
		}
	}
	for _, tc := range []struct {
		bounds   []float64
		unplaced float64
		want     int
	}{
		{[]float64{7, 5.5, 9}, 0, 6},
		{[]float64{7, 5.0000000001}, 0, 5},
		{[]float64{26.2, 27}, 0, 27},
		{[]float64{36.2, 37}, 1, 27}, // one shoot no seed takes costs unplacedCost in every node
	} {
		var open []openNode
		for _, b := range tc.bounds {
			open = append(open, openNode{bound: b})
		}
		if got := provenSeeds(open, &capacityLP{unplaced: tc.unplaced}); got != tc.want {
			t.Errorf("provenSeeds(%v, %v unplaced) = %d, want %d", tc.bounds, tc.unplaced, got, tc.want)
		}
	}
}

// Two questions that share no seed asked as one are answered as each is alone: as many shoots placed and as few
// new seeds as the exhaustive answers of the two add up to, proven minimal.
func TestCapacityOfDisjointQuestionsAddsUp(t *testing.T) {
	for seed := range uint64(150) {
		rng := rand.New(rand.NewPCG(seed, 23))
		a, b := randomCapacityInstance(rng), randomCapacityInstance(rng)
		in := disjoint(a, b)
		plan, err := Capacity{}.Plan(context.Background(), in.planning())
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		placedA, seedsA := exhaustiveCapacity(a)
		placedB, seedsB := exhaustiveCapacity(b)
		placed := 0
		for _, s := range plan.Seed {
			if s >= 0 {
				placed++
			}
		}
		if placed != placedA+placedB || total(plan.NewSeeds) != seedsA+seedsB || plan.LowerBound != seedsA+seedsB || !plan.Optimal {
			t.Fatalf("seed %d: %+v: placed %d with %v new seeds (bound %d, optimal %v), want %d+%d placed with %d+%d",
				seed, in, placed, plan.NewSeeds, plan.LowerBound, plan.Optimal, placedA, placedB, seedsA, seedsB)
		}
	}
}

// disjoint is the question of a and b together, b's seeds after a's: the existing seeds of a, then b's, then the
// templates of a, then b's.
func disjoint(a, b capacityInstance) capacityInstance {
	in := capacityInstance{room: slices.Concat(a.room, b.room), perSeed: slices.Concat(a.perSeed, b.perSeed)}
	existing := len(in.room)
	add := func(from capacityInstance, existingAt, templatesAt int) {
		for _, g := range from.groups {
			moved := capacityGroup{shoots: g.shoots}
			for _, s := range g.seeds {
				if s < len(from.room) {
					moved.seeds = append(moved.seeds, existingAt+s)
				} else {
					moved.seeds = append(moved.seeds, existing+templatesAt+s-len(from.room))
				}
			}
			in.groups = append(in.groups, moved)
		}
	}
	add(a, 0, 0)
	add(b, len(a.room), len(a.perSeed))
	return in
}

func randomCapacityInstance(rng *rand.Rand) capacityInstance {
	var in capacityInstance
	for range rng.IntN(3) {
		room := rng.IntN(5)
		if rng.IntN(8) == 0 {
			room = Unlimited
		}
		in.room = append(in.room, room)
	}
	for range 1 + rng.IntN(3) {
		in.perSeed = append(in.perSeed, 1+rng.IntN(5))
	}
	in.addRandomGroups(rng, 1+rng.IntN(4), 6, 2)
	return in
}

// addRandomGroups adds n groups of 1 to maxShoots shoots, each of which may use each seed, existing or a
// template's, with a chance of one in oneIn.
func (in *capacityInstance) addRandomGroups(rng *rand.Rand, n, maxShoots, oneIn int) {
	seeds := len(in.room) + len(in.perSeed)
	for range n {
		g := capacityGroup{shoots: 1 + rng.IntN(maxShoots)}
		for s := range seeds {
			if rng.IntN(oneIn) == 0 {
				g.seeds = append(g.seeds, s)
			}
		}
		in.groups = append(in.groups, g)
	}
}

// randomContestedCapacityInstance is a small random question with more templates and classes than
// randomCapacityInstance's, each class able to use fewer seeds, so that the root LP leaves a gap in some, and in
// half of them shoots that only an existing seed too small for them may take, so that some stay unplaced.
func randomContestedCapacityInstance(rng *rand.Rand) capacityInstance {
	var in capacityInstance
	for range rng.IntN(3) {
		in.room = append(in.room, rng.IntN(5))
	}
	for range 3 + rng.IntN(2) {
		in.perSeed = append(in.perSeed, 2+rng.IntN(6))
	}
	in.addRandomGroups(rng, 3+rng.IntN(5), 9, 3)
	if len(in.room) > 0 && rng.IntN(2) == 0 { // shoots only an existing seed may take, more than it may hold
		in.groups = append(in.groups, capacityGroup{shoots: in.room[0] + 1 + rng.IntN(3), seeds: []int{0}})
	}
	return in
}

// exhaustiveCapacity tries every number of new seeds per template up to what all shoots could need, and returns
// the most shoots any of them places and the fewest new seeds that place that many. Whether shoots fit is the
// tests' own maximum flow (maxPlaced), independent of the solver's.
func exhaustiveCapacity(in capacityInstance) (placed, seeds int) {
	shoots := 0
	for _, g := range in.groups {
		shoots += g.shoots
	}
	y := make([]int, len(in.perSeed))
	placed, seeds = -1, 0
	var try func(t int)
	try = func(t int) {
		if t == len(y) {
			p, n := maxPlaced(in, y), total(y)
			if p > placed || p == placed && n < seeds {
				placed, seeds = p, n
			}
			return
		}
		for y[t] = 0; y[t] <= (shoots+in.perSeed[t]-1)/in.perSeed[t]; y[t]++ {
			try(t + 1)
		}
	}
	try(0)
	return placed, seeds
}

// maxPlaced is how many shoots fit with y new seeds per template, by the tests' own maximum flow (maxFlow): the
// existing seeds with their room, then a seed per template with the room of its new seeds, and a class per group.
func maxPlaced(in capacityInstance, y []int) int {
	w := &Window{}
	for _, room := range in.room {
		w.Seeds = append(w.Seeds, Seed{Free: room})
	}
	for t, n := range y {
		w.Seeds = append(w.Seeds, Seed{Free: n * in.perSeed[t]})
	}
	classes, of := make([]class, len(in.groups)), make([]int, len(in.groups))
	for g, group := range in.groups {
		classes[g].shoots = make([]int, group.shoots)
		for _, s := range group.seeds {
			classes[g].arcs = append(classes[g].arcs, Arc{Seed: s})
		}
		of[g] = g
	}
	return maxFlow(w, classes, of)
}

// The question falls apart into parts whose shoots share no seed, existing or new, with another part's; a part
// whose shoots may use no template opens no new seed and is left out.
func TestParts(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   capacityInstance
		want string // per part, the templates it may open
	}{
		{"shoots that share no seed are parts of their own",
			capacityInstance{perSeed: []int{2, 2}, groups: []capacityGroup{{1, []int{0}}, {1, []int{1}}}},
			"[[true false] [false true]]"},
		{"an existing seed that both may use joins them",
			capacityInstance{room: []int{1}, perSeed: []int{2, 2}, groups: []capacityGroup{{1, []int{0, 1}}, {1, []int{0, 2}}}},
			"[[true true]]"},
		{"a template that both may use joins them",
			capacityInstance{perSeed: []int{2, 2, 2}, groups: []capacityGroup{{1, []int{0, 1}}, {1, []int{1, 2}}}},
			"[[true true true]]"},
		{"shoots that may use existing seeds only are no part",
			capacityInstance{room: []int{5}, perSeed: []int{2}, groups: []capacityGroup{{3, []int{0}}, {1, []int{1}}}},
			"[[true]]"},
	} {
		var opens [][]bool
		for _, part := range tc.in.search().parts() {
			var open []bool
			for _, upper := range part.openUpper() {
				open = append(open, math.IsInf(upper, 1))
			}
			opens = append(opens, open)
		}
		if got := fmt.Sprint(opens); got != tc.want {
			t.Errorf("%s: parts open %s, want %s", tc.name, got, tc.want)
		}
	}
}

// Each part's bound is its own LP's rounded up: three parts of 2⅓ seeds each in the LP need 3 each, which their
// bounds prove at their roots, where the one LP of all three, 7 seeds, would leave two to branch and bound for.
// In each part, two shoots may use only new seeds of 3 shoots, two only new seeds of 2, and two either.
func TestPartsAreBoundedEachByItself(t *testing.T) {
	in := capacityInstance{perSeed: []int{3, 2, 3, 2, 3, 2}}
	for p := range 3 {
		in.groups = append(in.groups, capacityGroup{2, []int{2 * p}}, capacityGroup{2, []int{2*p + 1}}, capacityGroup{2, []int{2 * p, 2*p + 1}})
	}
	plan, err := Capacity{MaxNodes: 1}.Plan(context.Background(), in.planning())
	if err != nil {
		t.Fatal(err)
	}
	if total(plan.NewSeeds) != 9 || plan.LowerBound != 9 || !plan.Optimal {
		t.Fatalf("%v new seeds, bound %d, optimal %v; want 9, bound 9, optimal", plan.NewSeeds, plan.LowerBound, plan.Optimal)
	}
}

// The parts that branch share the time left evenly, as many at once as there are processors; a part that runs
// alone, the last, gets all of it.
func TestShareOf(t *testing.T) {
	now := time.Unix(1000, 0)
	for _, tc := range []struct {
		name        string
		deadline    time.Time
		left, slots int
		want        time.Time
	}{
		{"no deadline", time.Time{}, 3, 2, time.Time{}},
		{"the first of five on two processors: two fifths", now.Add(10 * time.Second), 5, 2, now.Add(4 * time.Second)},
		{"two left on two processors: all of it", now.Add(10 * time.Second), 2, 2, now.Add(10 * time.Second)},
		{"the last: all of it", now.Add(10 * time.Second), 1, 2, now.Add(10 * time.Second)},
		{"deadline passed: passed", now.Add(-time.Second), 4, 2, now.Add(-time.Second / 2)},
	} {
		if got := shareOf(tc.deadline, now, tc.left, tc.slots); !got.Equal(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
