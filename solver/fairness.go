package solver

import (
	"cmp"
	"maps"
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
// a fair plan places, and a placement of them: per class and arc, how many go there. It grows a flow of classes
// to seeds' room along shortest augmenting paths, each carrying as many shoots as the path allows, so that the
// work grows with the paths, not with the shoots.
func fairPlaced(w *Window, classes []class, comp component) (placed []int, on [][]int) {
	order := make([]int, len(comp.classes)) // class positions by priority, then by their oldest shoot
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ca, cb := classes[comp.classes[a]], classes[comp.classes[b]]
		return cmp.Or(cmp.Compare(ca.priority, cb.priority), cmp.Compare(ca.shoots[0], cb.shoots[0]))
	})
	room := make([]int, len(w.Seeds))
	for _, s := range comp.seeds {
		room[s] = w.Seeds[s].Free
	}
	f := newFlow(room, classes, comp)
	for _, c := range order {
		f.place(c, len(classes[comp.classes[c]].shoots))
	}
	return f.placed, f.on
}

// flow is a placement of a component's classes (by position in comp.classes) on its seeds' room.
type flow struct {
	arcs [][]Arc
	// placed per class; on per class and arc; room per seed (Unlimited stays so), by seed index.
	placed []int
	on     [][]int
	room   []int
	// using lists, per seed, the class and arc pairs that reach it.
	using [][]flowEdge
	// reached (by class) and enteredBy (by seed) are augment's search state; an entry counts only when its
	// stamp is the search's, so no search clears what the one before it left. A stamp of dead marks what a
	// failed search reached (markDead).
	reached    []pathStep
	enteredBy  []flowEdge
	classStamp []int
	seedStamp  []int
	search     int
	queue      []int
}

// dead is the stamp of the classes and seeds from which no path leads to room, now or later.
const dead = -1

// flowEdge is a class's arc.
type flowEdge struct{ class, arc int }

// pathStep says how an augmenting path reached a class: along an arc it has flow on, from the arc's seed
// (seed -1: the class the path starts at).
type pathStep struct {
	arc, seed int
}

// newFlow is an empty flow of the component's classes onto room, by seed index (Unlimited: any number); the
// flow takes room as its own.
func newFlow(room []int, classes []class, comp component) *flow {
	seeds := len(room)
	f := &flow{
		placed: make([]int, len(comp.classes)), on: make([][]int, len(comp.classes)),
		room: room, using: make([][]flowEdge, seeds),
		reached: make([]pathStep, len(comp.classes)), classStamp: make([]int, len(comp.classes)),
		enteredBy: make([]flowEdge, seeds), seedStamp: make([]int, seeds),
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

// place places up to want more shoots of class c, along as many augmenting paths as it takes, and returns how
// many it placed.
func (f *flow) place(c, want int) int {
	placed := 0
	for placed < want {
		pushed := f.augment(c, want-placed)
		if pushed == 0 {
			break
		}
		placed += pushed
	}
	return placed
}

// shrink takes amount of a seed's room away — the room left first, then the room of shoots it takes off the
// seed — and places those shoots elsewhere, moving others as it must. It reports whether all of them found a
// place, which is whether the flow, maximum before, is as large with the seed's room smaller. Room only shrinks,
// so what markDead marked stays dead; a caller that undoes a shrink that failed restores a saved flow.
func (f *flow) shrink(seed, amount int) bool {
	if f.room[seed] == Unlimited {
		return true
	}
	taken := amount - f.room[seed]
	f.room[seed] = max(f.room[seed]-amount, 0)
	if taken <= 0 {
		return true
	}
	off := map[int]int{} // shoots taken off, by class
	for _, e := range f.using[seed] {
		k := min(f.on[e.class][e.arc], taken)
		f.on[e.class][e.arc] -= k
		f.placed[e.class] -= k
		off[e.class] += k
		if taken -= k; taken == 0 {
			break
		}
	}
	for _, class := range slices.Sorted(maps.Keys(off)) {
		if f.place(class, off[class]) < off[class] {
			return false
		}
	}
	return true
}

// flowState is what a flow's searches change, saved to be restored.
type flowState struct {
	placed, room, classStamp, seedStamp []int
	on                                  [][]int
}

// save is the flow's state.
func (f *flow) save() flowState {
	on := make([][]int, len(f.on))
	for c := range on {
		on[c] = slices.Clone(f.on[c])
	}
	return flowState{placed: slices.Clone(f.placed), room: slices.Clone(f.room), classStamp: slices.Clone(f.classStamp),
		seedStamp: slices.Clone(f.seedStamp), on: on}
}

// restore returns the flow to a saved state.
func (f *flow) restore(s flowState) {
	f.placed, f.room, f.classStamp, f.seedStamp, f.on = s.placed, s.room, s.classStamp, s.seedStamp, s.on
}

// augment places up to want more shoots of class c along one shortest path to room, moving shoots of other
// classes to other seeds on the way, and returns how many it placed (0: no path exists).
func (f *flow) augment(c, want int) int {
	if f.classStamp[c] == dead {
		return 0
	}
	f.search++
	f.reach(c, pathStep{arc: -1, seed: -1})
	f.queue = append(f.queue[:0], c)
	for head := 0; head < len(f.queue); head++ {
		from := f.queue[head]
		for a, arc := range f.arcs[from] {
			s := arc.Seed
			if f.seedStamp[s] == f.search || f.seedStamp[s] == dead {
				continue
			}
			f.seedStamp[s], f.enteredBy[s] = f.search, flowEdge{from, a}
			if r := f.room[s]; r == Unlimited || r > 0 {
				return f.push(s, want)
			}
			for _, e := range f.using[s] {
				if f.classStamp[e.class] != f.search && f.on[e.class][e.arc] > 0 {
					f.reach(e.class, pathStep{arc: e.arc, seed: s})
					f.queue = append(f.queue, e.class)
				}
			}
		}
	}
	f.markDead()
	return 0
}

// markDead marks dead what the failed search reached: its seeds have no room, every class it reached has all
// its arcs among them, and every shoot on them belongs to such a class. No later push adds room or puts a shoot
// of another class there (that would take room), so no later path leaves this part either. Later searches skip
// it and visit every other class and seed in the order they would have: the paths they find are the same.
func (f *flow) markDead() {
	for _, c := range f.queue {
		f.classStamp[c] = dead
		for _, arc := range f.arcs[c] {
			f.seedStamp[arc.Seed] = dead
		}
	}
}

// reach records how the current search reached a class.
func (f *flow) reach(class int, step pathStep) {
	f.classStamp[class], f.reached[class] = f.search, step
}

// push moves as many shoots as the path to seed end allows, at most want: the room at the end and the shoots
// each moved class has on the seed it leaves bound it.
func (f *flow) push(end int, want int) int {
	amount := want
	if r := f.room[end]; r != Unlimited {
		amount = min(amount, r)
	}
	for s := end; ; {
		e := f.enteredBy[s]
		step := f.reached[e.class]
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
		e := f.enteredBy[s]
		f.on[e.class][e.arc] += amount
		step := f.reached[e.class]
		if step.seed < 0 {
			f.placed[e.class] += amount
			return amount
		}
		f.on[e.class][step.arc] -= amount
		s = step.seed
	}
}
