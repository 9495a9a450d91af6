package solver

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// A fractional CLP value is never returned as is: it is rounded down and the shoots it leaves are placed where
// room is left; the assignment is then marked not integral.
func TestAssembleRepairsFractionalSolutions(t *testing.T) {
	w := &Window{
		Seeds:  []Seed{{Free: 1, Allocatable: 1, Limited: true}, {Free: 1, Allocatable: 1, Limited: true}},
		Groups: []Group{{Candidates: []int{0, 1}, Arcs: []Arc{{Seed: 0}, {Seed: 1}}}},
		Shoots: []int{0, 0},
	}
	classes := windowClasses(w)
	components := splitComponents(classes, len(w.Seeds))
	if len(classes) != 1 || len(components) != 1 || len(classes[0].arcs) != 2 {
		t.Fatalf("want one class of two shoots with two arcs in one component, got %d classes, %d components", len(classes), len(components))
	}
	a, integral := assemble(w, classes, components, []componentResult{{counts: [][]float64{{1.5, 0.5}}, optimal: true}})
	if integral {
		t.Fatal("fractional values must mark the assignment not integral")
	}
	if a.Placed() != 2 || a.Seed[0] == a.Seed[1] {
		t.Fatalf("repair should place both shoots, one on each seed, got %+v", a)
	}
}

// Shoots that share no seed form separate parts, solved independently.
func TestSplitComponents(t *testing.T) {
	classes := []class{
		{arcs: []Arc{{Seed: 0}, {Seed: 1}}},
		{arcs: []Arc{{Seed: 2}}},
		{arcs: []Arc{{Seed: 1}}},
		{},
	}
	components := splitComponents(classes, 4)
	if len(components) != 2 {
		t.Fatalf("want 2 components, got %+v", components)
	}
	if got := components[0]; len(got.classes) != 2 || got.classes[1] != 2 || len(got.seeds) != 2 {
		t.Fatalf("first component %+v, want classes [0 2] and seeds [0 1]", got)
	}
	if got := components[1]; len(got.classes) != 1 || got.seeds[0] != 2 {
		t.Fatalf("second component %+v, want class 1 on seed 2", got)
	}
}

// Pricing must find the optimum over every arc: on random windows whose classes reach many seeds, the LP of
// each part started from one arc per class (and the fair placement's) ends at the objective of the LP over all
// arcs, proven optimal.
func TestPricingFindsTheFullOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 40 {
		w := &Window{}
		seeds := 5 + rng.IntN(25)
		for range seeds {
			free := rng.IntN(30)
			w.Seeds = append(w.Seeds, Seed{Usage: rng.IntN(40), Free: free, Allocatable: 100, Limited: true, AboveTarget: rng.IntN(free + 1)})
		}
		for g := range 2 + rng.IntN(8) {
			var group Group
			for s := range seeds {
				if rng.IntN(3) > 0 {
					group.Arcs = append(group.Arcs, Arc{Seed: s, Distance: rng.IntN(6), SoftViolations: rng.IntN(2)})
				}
			}
			group.Priority = g % 2
			w.Groups = append(w.Groups, group)
			for range 1 + rng.IntN(60) {
				w.Shoots = append(w.Shoots, g)
			}
		}
		for _, weights := range []Weights{DefaultWeights(), CompatWeights()} {
			lp := LP{Weights: weights}
			classes := windowClasses(w)
			segments, extremes := seedSegments(w, lp.Weights), windowArcExtremes(w)
			for _, comp := range splitComponents(classes, len(w.Seeds)) {
				placed, fair := fairPlaced(w, classes, comp)
				all := lp.solveComponent(w, classes, comp, segments, extremes, time.Time{}, placed, fair, math.MaxInt)
				priced := lp.solveComponent(w, classes, comp, segments, extremes, time.Time{}, placed, fair, 1)
				if all.err != nil || priced.err != nil || !all.optimal || !priced.optimal {
					t.Fatalf("trial %d: %v %v", trial, all.err, priced.err)
				}
				if math.Abs(all.objective-priced.objective) > 1e-9*(1+math.Abs(all.objective)) {
					t.Fatalf("trial %d: priced objective %v, over all arcs %v", trial, priced.objective, all.objective)
				}
			}
		}
	}
}

// A component of at most wholeUpTo arcs is solved with all of them at once, a larger one by pricing from each
// class's pricedFrom cheapest arcs.
func TestStartArcs(t *testing.T) {
	classOf := func(arcs int) class { return class{arcs: make([]Arc, arcs)} }
	for _, tc := range []struct {
		name string
		arcs []int // per class of the component
		want int
	}{
		{"no arcs", nil, math.MaxInt},
		{"a few classes", []int{3, 20, 80}, math.MaxInt},
		{"wholeUpTo arcs", []int{wholeUpTo / 2, wholeUpTo - wholeUpTo/2}, math.MaxInt},
		{"one arc more", []int{wholeUpTo / 2, wholeUpTo - wholeUpTo/2 + 1}, pricedFrom},
		{"many classes", slices.Repeat([]int{80}, 500), pricedFrom},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var classes []class
			var comp component
			for i, n := range tc.arcs {
				classes = append(classes, classOf(n))
				comp.classes = append(comp.classes, i)
			}
			if got := startArcs(classes, comp); got != tc.want {
				t.Fatalf("startArcs = %d, want %d", got, tc.want)
			}
		})
	}
}

// The grouper gives equal lists under the same tag one number, first seen first, and keeps a new list sorted
// cheapest first: soft violations, then distance, then seed — also for figures too large to pack, which it
// sorts by comparison.
func TestArcGrouperNumbersAndSorts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var g arcGrouper
	type seen struct {
		tag  int
		arcs []Arc
	}
	var lists []seen
	for trial := range 2000 {
		var arcs []Arc
		for s := range 1 + rng.IntN(40) {
			if rng.IntN(2) == 0 {
				continue
			}
			a := Arc{Seed: s, Distance: rng.IntN(4), SoftViolations: rng.IntN(2)}
			switch rng.IntN(200) {
			case 0:
				a.Distance = 1<<24 + rng.IntN(10)
			case 1:
				a.SoftViolations = 1 << 15
			case 2:
				a.Distance = -1
			}
			arcs = append(arcs, a)
		}
		tag := rng.IntN(3)
		if trial%3 == 0 && len(lists) > 0 { // repeat an earlier list
			earlier := lists[rng.IntN(len(lists))]
			tag, arcs = earlier.tag, slices.Clone(earlier.arcs)
		}
		n, kept := g.group(tag, slices.Clone(arcs))
		want := slices.IndexFunc(lists, func(l seen) bool { return l.tag == tag && slices.Equal(l.arcs, arcs) })
		if want < 0 {
			want = len(lists)
			lists = append(lists, seen{tag, arcs})
			sorted := slices.Clone(arcs)
			slices.SortStableFunc(sorted, func(a, b Arc) int {
				return cmp.Or(cmp.Compare(a.SoftViolations, b.SoftViolations), cmp.Compare(a.Distance, b.Distance))
			})
			if !slices.Equal(kept, sorted) {
				t.Fatalf("trial %d: kept %v, want %v", trial, kept, sorted)
			}
		} else if kept != nil {
			t.Fatalf("trial %d: a list seen before is kept again", trial)
		}
		if n != want {
			t.Fatalf("trial %d: number %d, want %d", trial, n, want)
		}
	}
}
