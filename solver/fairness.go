package solver

import (
	"cmp"
	"slices"
)

// The sets of a part's shoots that can be placed together form a matroid (a gammoid: each shoot reaches the
// seeds' room through its arcs). Taking shoots in priority order — lower Group.Priority first — each if it and
// the shoots taken so far can still all be placed, therefore yields a largest placeable set, and among the
// largest the one that prefers higher priority lexicographically. Within a priority the classes go in the order of
// their oldest shoot and each class's shoots oldest first, so the older go first within a class and nearly so
// across classes (exactly when classes do not interleave in age). That is what the LP must place; where to put
// them stays its question.

// fairPlaced is, per class of the component (in comp.classes order), how many of its shoots — its first ones —
// a fair plan places. It grows a flow of classes to seeds' room along shortest augmenting paths, each carrying as
// many shoots as the path allows, so that the work grows with the paths, not with the shoots.
func fairPlaced(w *Window, classes []class, comp component) []int {
	order := make([]int, len(comp.classes)) // class positions by priority, then by their oldest shoot
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ca, cb := classes[comp.classes[a]], classes[comp.classes[b]]
		return cmp.Or(cmp.Compare(ca.priority, cb.priority), cmp.Compare(ca.shoots[0], cb.shoots[0]))
	})
	f := newFlow(w, classes, comp)
	for _, c := range order {
		for want := len(classes[comp.classes[c]].shoots); want > 0; {
			pushed := f.augment(c, want)
			if pushed == 0 {
				break
			}
			want -= pushed
		}
	}
	return f.placed
}

// flow is a placement of a component's classes (by position in comp.classes) on its seeds' room.
type flow struct {
	arcs [][]Arc
	// placed per class; on per class and arc; room per seed (Unlimited stays so).
	placed []int
	on     [][]int
	room   map[int]int
	// using lists, per seed, the class and arc pairs that reach it.
	using map[int][]flowEdge
}

// flowEdge is a class's arc.
type flowEdge struct{ class, arc int }

// pathStep says how an augmenting path reached a class: along an arc it has flow on, from the arc's seed
// (seed -1: the class the path starts at).
type pathStep struct {
	arc, seed int
}

func newFlow(w *Window, classes []class, comp component) *flow {
	f := &flow{placed: make([]int, len(comp.classes)), on: make([][]int, len(comp.classes)), room: map[int]int{}, using: map[int][]flowEdge{}}
	for _, s := range comp.seeds {
		f.room[s] = w.Seeds[s].Free
	}
	for i, c := range comp.classes {
		f.arcs = append(f.arcs, classes[c].arcs)
		f.on[i] = make([]int, len(classes[c].arcs))
		for a, arc := range classes[c].arcs {
			f.using[arc.Seed] = append(f.using[arc.Seed], flowEdge{i, a})
		}
	}
	return f
}

// augment places up to want more shoots of class c along one shortest path to room, moving shoots of other
// classes to other seeds on the way, and returns how many it placed (0: no path exists).
func (f *flow) augment(c, want int) int {
	reached := map[int]pathStep{c: {arc: -1, seed: -1}} // class → how the path reached it
	enteredBy := map[int]flowEdge{}                     // seed → the class and arc the path entered it by
	for queue := []int{c}; len(queue) > 0; queue = queue[1:] {
		from := queue[0]
		for a, arc := range f.arcs[from] {
			s := arc.Seed
			if _, seen := enteredBy[s]; seen {
				continue
			}
			enteredBy[s] = flowEdge{from, a}
			if r := f.room[s]; r == Unlimited || r > 0 {
				return f.push(s, reached, enteredBy, want)
			}
			for _, e := range f.using[s] {
				if _, seen := reached[e.class]; !seen && f.on[e.class][e.arc] > 0 {
					reached[e.class] = pathStep{arc: e.arc, seed: s}
					queue = append(queue, e.class)
				}
			}
		}
	}
	return 0
}

// push moves as many shoots as the path to seed end allows, at most want: the room at the end and the shoots
// each moved class has on the seed it leaves bound it.
func (f *flow) push(end int, reached map[int]pathStep, enteredBy map[int]flowEdge, want int) int {
	amount := want
	if r := f.room[end]; r != Unlimited {
		amount = min(amount, r)
	}
	for s := end; ; {
		e := enteredBy[s]
		step := reached[e.class]
		if step.seed < 0 {
			break
		}
		amount = min(amount, f.on[e.class][step.arc])
		s = step.seed
	}
	if r := f.room[end]; r != Unlimited {
		f.room[end] = r - amount
	}
	for s := end; ; {
		e := enteredBy[s]
		f.on[e.class][e.arc] += amount
		step := reached[e.class]
		if step.seed < 0 {
			f.placed[e.class] += amount
			return amount
		}
		f.on[e.class][step.arc] -= amount
		s = step.seed
	}
}
