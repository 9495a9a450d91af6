package solver

import (
	"iter"
	"slices"
)

// Unlimited is the room of a seed without a limit.
const Unlimited = -1

// Seed is a seed as the solvers see it: indexes stand for seeds everywhere in this package.
type Seed struct {
	// Usage is the number of shoots the seed hosts.
	Usage int
	// Free is how many more shoots it may take, or Unlimited.
	Free int
	// AboveTarget is how many of those would end the seed above the placement target utilization (0: none; a
	// seed with Unlimited Free has no target). Optimising solvers place a shoot there only when no seed the shoot
	// may use has room at or below its target.
	AboveTarget int
	// Allocatable is the seed's capacity in shoots; Limited is false for a seed without one, for which the
	// utilization cost assumes Weights.NominalCapacity.
	Allocatable int64
	Limited     bool
}

// Rank orders the arcs of a group by the gardener-scheduler's preference: its rule takes, among the arcs with
// room of the lowest rank, the seed with the fewest shoots.
type Rank struct {
	Tier, Distance int
}

// less orders ranks: lower tier first, then the shorter distance.
func (r Rank) less(o Rank) bool {
	return r.Tier < o.Tier || r.Tier == o.Tier && r.Distance < o.Distance
}

// Arc is a seed a group's shoots may be placed on.
type Arc struct {
	// Seed is the seed's index.
	Seed int
	// Distance is the placement's region distance (0 in the shoot's own region).
	Distance int
	// SoftViolations counts the soft constraints the placement breaks; optimising solvers pay a penalty for each.
	SoftViolations int
	// Rank is the greedy rule's preference for the arc.
	Rank Rank
}

// Exclusion says when a group's shoots stay unplaced whatever their arcs.
type Exclusion int

const (
	// NotExcluded shoots go where their arcs allow.
	NotExcluded Exclusion = iota
	// Excluded shoots are never placed.
	Excluded
	// ExcludedWhenCandidateHasRoom shoots are never placed, but fail for capacity when every candidate is full.
	ExcludedWhenCandidateHasRoom
)

// Group is a set of shoots the rules cannot tell apart.
type Group struct {
	// Candidates are the seeds whose room decides whether the shoots fail for capacity: when none has room, the
	// cause is CandidatesFull whatever else holds. Ascending.
	Candidates []int
	// Arcs are the seeds the shoots may go to, ascending by seed.
	Arcs      []Arc
	Exclusion Exclusion
	// Priority orders groups under scarcity, lowest first: the LP places as many shoots as it can and, among
	// plans that place as many, those of lower Priority first, then the earlier ones in window order.
	Priority int
}

// Window is a placement problem: shoots in groups, seeds with room.
type Window struct {
	Seeds  []Seed
	Groups []Group
	// Shoots[i] is the group of the i-th shoot, in the order the greedy rule decides them.
	Shoots []int
}

// byPriority compares the window's a-th and b-th shoots by their groups' priorities, lowest first.
func (w *Window) byPriority(a, b int) int {
	return w.Groups[w.Shoots[a]].Priority - w.Groups[w.Shoots[b]].Priority
}

// InPriorityOrder reports whether the shoots come in priority order already: the greedy rule by priority first
// (Greedy.ByPriority) then decides them in window order, as the gardener-scheduler does.
func (w *Window) InPriorityOrder() bool {
	for i := 1; i < len(w.Shoots); i++ {
		if w.byPriority(i-1, i) > 0 {
			return false
		}
	}
	return true
}

// arc returns the group's arc to the seed, or the zero Arc.
func (g *Group) arc(seed int) Arc {
	i, found := slices.BinarySearchFunc(g.Arcs, seed, func(a Arc, seed int) int { return a.Seed - seed })
	if !found {
		return Arc{}
	}
	return g.Arcs[i]
}

// free is the seeds' room, by index.
func (w *Window) free() []int {
	free := make([]int, len(w.Seeds))
	for i, s := range w.Seeds {
		free[i] = s.Free
	}
	return free
}

// take counts one shoot placed on a seed with the given room.
func take(room *int) {
	if *room != Unlimited {
		*room--
	}
}

// Cause is why a shoot stays unplaced.
type Cause int

const (
	// Placed: the shoot has a seed.
	Placed Cause = iota
	// CauseExcluded: the shoot's group is excluded (Group.Exclusion).
	CauseExcluded
	// CauseCandidatesFull: none of the group's candidates has room.
	CauseCandidatesFull
	// CauseNoArcWithRoom: some candidate has room, but none of the group's arcs does.
	CauseNoArcWithRoom
)

// Assignment is a plan for a window: per shoot its seed, or -1 and the cause.
type Assignment struct {
	Seed  []int
	Cause []Cause
}

// Placed counts the shoots with a seed.
func (a *Assignment) Placed() int {
	n := 0
	for _, s := range a.Seed {
		if s >= 0 {
			n++
		}
	}
	return n
}

// placedArcs yields the arc of every placed shoot of the window.
func (a *Assignment) placedArcs(w *Window) iter.Seq[Arc] {
	return func(yield func(Arc) bool) {
		for i, seed := range a.Seed {
			if seed >= 0 && !yield(w.Groups[w.Shoots[i]].arc(seed)) {
				return
			}
		}
	}
}

// placedPerSeed counts the shoots the assignment places on each seed.
func (a *Assignment) placedPerSeed(seeds int) []int {
	placed := make([]int, seeds)
	for _, s := range a.Seed {
		if s >= 0 {
			placed[s]++
		}
	}
	return placed
}
