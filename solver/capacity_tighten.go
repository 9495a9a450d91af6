package solver

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/lanl/clp"
)

// The capacity LP alone spreads fractions of new seeds over templates: its bound on the count is loose, and its
// answer rounded up opens a seed for every fraction. Two things tighten them, each valid for every answer that
// places all the shoots it can (an answer places every shoot that has a template to go to, since a new seed
// costs less than a shoot left unplaced): cover cuts raise the bound, trimming lowers the answer.

// cover says that the templates together need at least seeds new seeds.
type cover struct {
	templates []int
	seeds     float64
}

// coverCuts are, for each set of templates that some class's shoots may use as new seeds, the new seeds of them
// that any answer opens: the shoots whose kinds of new seed are all in the set, less the room of every existing
// seed they may use, in seeds of the set's largest template, rounded up — the rounding is what the LP cannot see.
func (s *capacitySearch) coverCuts() []cover {
	sets := map[string][]int{}
	for _, templates := range s.templates {
		if len(templates) > 0 {
			sets[fmt.Sprint(templates)] = templates
		}
	}
	var cuts []cover
	for _, key := range slices.Sorted(maps.Keys(sets)) {
		if c, ok := s.coverOf(sets[key]); ok {
			cuts = append(cuts, c)
		}
	}
	return cuts
}

// coverOf is the cut of a set of templates; ok is false when it cuts nothing.
func (s *capacitySearch) coverOf(set []int) (c cover, ok bool) {
	shoots, reachable := 0, map[int]bool{}
	for class, cl := range s.classes {
		if len(s.templates[class]) == 0 || !isSubset(s.templates[class], set) {
			continue
		}
		shoots += len(cl.shoots)
		for _, a := range cl.arcs {
			if s.isCandidate[a.Seed] == 0 {
				reachable[a.Seed] = true
			}
		}
	}
	for seed := range reachable {
		if s.q.Room[seed] == Unlimited {
			return cover{}, false
		}
		shoots -= s.q.Room[seed]
	}
	largest := 0
	for _, t := range set {
		largest = max(largest, s.q.Templates[t].PerSeed)
	}
	if shoots <= 0 || largest <= 0 {
		return cover{}, false
	}
	return cover{templates: set, seeds: float64((shoots + largest - 1) / largest)}, true
}

// isSubset reports whether every element of the sorted a is in the sorted b.
func isSubset(a, b []int) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}

// coverRows adds the cuts' rows to prog and returns, per template, its entries in them.
func (s *capacitySearch) coverRows(prog *program) [][]clp.Nonzero {
	entries := make([][]clp.Nonzero, len(s.q.Templates))
	for _, c := range s.covers {
		row := prog.row(c.seeds, math.Inf(1))
		for _, t := range c.templates {
			entries[t] = append(entries[t], clp.Nonzero{Index: row, Value: 1})
		}
	}
	return entries
}

// placement is a maximum flow of the pending shoots onto the existing seeds' room and y new seeds per template.
// The classes without a template go first: of all the maximum flows it is one that leaves shoots unplaced only
// where new seeds could take them, which is what withoutLP counts.
func (s *capacitySearch) placement(y []int) *flow {
	room := slices.Clone(s.q.Room)
	for t, tmpl := range s.q.Templates {
		room[tmpl.Candidate] = tmpl.PerSeed * y[t]
	}
	f := newFlow(room, s.classes, everyClass(len(s.classes)))
	for _, withTemplate := range []bool{false, true} {
		for c, cl := range s.classes {
			if (len(s.templates[c]) > 0) == withTemplate {
				f.place(c, len(cl.shoots))
			}
		}
	}
	return f
}

// trim takes new seeds away from an answer y one at a time while as many shoots still fit, until no seed can go
// or the deadline passes. It tries first the templates whose seeds the LP the answer was rounded from needed
// least (the most above its relaxed values), then those with the most room left unused. Its answer is y's or
// better, and the same whenever trim finishes.
func (s *capacitySearch) trim(y []int, relaxed []float64) []int {
	y = slices.Clone(y)
	f := s.placement(y)
	for {
		var order []int
		for t, n := range y {
			if n > 0 {
				order = append(order, t)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int {
			return cmp.Or(cmp.Compare(float64(y[b])-relaxed[b], float64(y[a])-relaxed[a]),
				cmp.Compare(f.room[s.q.Templates[b].Candidate], f.room[s.q.Templates[a].Candidate]))
		})
		trimmed := false
		for _, t := range order {
			if s.pastDeadline() {
				return y
			}
			saved := f.save()
			if f.shrink(s.q.Templates[t].Candidate, s.q.Templates[t].PerSeed) {
				y[t]--
				trimmed = true
				break
			}
			f.restore(saved)
		}
		if !trimmed {
			return y
		}
	}
}
