package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/lanl/clp"
)

// Rebalancer computes the fewest moves of bound shoots that bring every seed to at most its target utilization
// and empty every seed that must be drained, as one LP on CLP: shoots that are interchangeable (same seed, same
// destinations) form classes; each class's shoots stay or move to a destination with room below its target; a
// seed above its target pays a penalty per shoot it stays above, larger than any number of moves could cost;
// every move costs more than any difference in distance and balance. So the LP first resolves as much as the
// landscape allows, then with the fewest moves, then with the nearest moves, then the best balance: the weights'
// distance always comes before balance here, whatever Weights.Lexicographic says.
type Rebalancer struct {
	Weights Weights
	// MaxMoves bounds the number of moves (0: no bound).
	MaxMoves int
	// MaxMovesPerSeed bounds the moves off any one seed and the moves onto any one seed (0: no bound).
	MaxMovesPerSeed int
	// Timeout bounds the solve (0: no bound); when it runs out the moves are found greedily (Optimal false).
	Timeout time.Duration
}

// Rebalancing is the problem of moving bound shoots so that every seed ends at most at its limit.
type Rebalancing struct {
	Seeds []LoadedSeed
	// Shoots are the bound shoots, in the order moves are listed in.
	Shoots []BoundShoot
}

// LoadedSeed is a seed as rebalancing sees it.
type LoadedSeed struct {
	// Load is the number of shoots on the seed.
	Load int
	// Limit is the most shoots it may end with (0 for a seed to drain), or Unlimited.
	Limit int
	// Room is how many shoots it may receive, or Unlimited.
	Room int
	// Allocatable and Limited are the seed's capacity for the utilization cost (as in Seed).
	Allocatable int64
	Limited     bool
}

// Excess is how far the seed is above its limit.
func (l LoadedSeed) Excess() int {
	if l.Limit == Unlimited {
		return 0
	}
	return max(l.Load-l.Limit, 0)
}

// BoundShoot is a shoot on a seed.
type BoundShoot struct {
	// Seed is its seed's index.
	Seed int
	// MustLeave: the shoot has to leave its seed whatever the load.
	MustLeave bool
	// Unmovable: the shoot must not be moved.
	Unmovable bool
	// Destinations are the seeds it may move to, ascending by seed; Distance is the move's distance.
	Destinations []Arc
}

// Move takes a bound shoot (by index) along one of its destinations.
type Move struct {
	Shoot int
	To    Arc
}

// Moves are a rebalancing plan, by shoot index.
type Moves struct {
	Moves []Move
	// Optimal is true when CLP proved the moves optimal (then no plan resolves more, or as much with fewer moves).
	Optimal bool
	// Fallback says why the moves were found greedily instead, as a window's fallback does: FallbackTimeout when
	// CLP ran out of time, FallbackRange when the program's costs were beyond CLP's range; "" when CLP found them.
	Fallback string
}

// MovesFallbackReasons are every reason Moves.Fallback may give.
func MovesFallbackReasons() []string { return []string{FallbackTimeout, FallbackRange} }

// moveClass is a set of interchangeable movable shoots: on the same seed, with the same destinations, all
// obliged to leave or none.
type moveClass struct {
	seed   int
	leave  bool
	shoots []int // indexes into Rebalancing.Shoots, by namespace/name
	arcs   []Arc
}

// Plan computes the moves.
func (rb Rebalancer) Plan(ctx context.Context, r *Rebalancing) (*Moves, error) {
	deadline := Budget{Timeout: rb.Timeout}.Deadline()
	classes := moveClasses(r)
	counts, fallback, err := rb.solve(ctx, r, classes, deadline)
	if err != nil {
		return nil, err
	}
	moves, integral := rb.assign(r, classes, counts)
	return &Moves{Moves: moves, Optimal: fallback == "" && integral, Fallback: fallback}, nil
}

// moveClasses are the classes of the shoots a move of which can resolve something: those that must leave, and
// the others on seeds whose excess exceeds the shoots that must leave them (elsewhere the shoots that must leave
// are what stays unresolved, and moving another shoot changes nothing).
func moveClasses(r *Rebalancing) []moveClass {
	leaving := make([]int, len(r.Seeds))
	for _, b := range r.Shoots {
		if b.MustLeave {
			leaving[b.Seed]++
		}
	}
	var grouper arcGrouper
	var classes []moveClass
	var arcs []Arc
	for i, b := range r.Shoots {
		if b.Unmovable || !b.MustLeave && r.Seeds[b.Seed].Excess() <= leaving[b.Seed] {
			continue
		}
		leave := b.MustLeave
		tag := 2 * b.Seed // shoots of one class share their seed and whether they must leave
		if leave {
			tag++
		}
		arcs = append(arcs[:0], b.Destinations...)
		c, kept := grouper.group(tag, arcs)
		if kept != nil {
			classes = append(classes, moveClass{seed: b.Seed, leave: leave, arcs: kept})
		}
		classes[c].shoots = append(classes[c].shoots, i)
	}
	return classes
}

// room is how many shoots a seed may receive under the per-seed bound.
func (rb Rebalancer) room(l LoadedSeed) int {
	room := l.Room
	if rb.MaxMovesPerSeed > 0 && (room == Unlimited || room > rb.MaxMovesPerSeed) {
		room = rb.MaxMovesPerSeed
	}
	return room
}

// solve returns, per class and per arc, how many of its shoots move there, or nil counts and why the moves are
// to be found greedily (FallbackTimeout, FallbackRange).
func (rb Rebalancer) solve(ctx context.Context, r *Rebalancing, classes []moveClass, deadline time.Time) ([][]float64, string, error) {
	if len(classes) == 0 {
		return nil, "", nil
	}
	lp := rb.newRebalanceLP(r, classes)
	lp.addRows(rb, r, classes)
	lp.addColumns(rb, r, classes)
	if err := ctx.Err(); err != nil {
		return nil, "", fmt.Errorf("rebalance: %w", err)
	}
	solution, err := lp.prog.solveWithin(deadline, fmt.Sprintf("%d classes of shoots", len(classes)))
	switch {
	case errors.Is(err, ErrCostRange):
		return nil, FallbackRange, nil
	case err != nil:
		return nil, "", fmt.Errorf("rebalance: %w", err)
	case solution.status == lpStopped:
		return nil, FallbackTimeout, nil
	case solution.status != lpOptimal:
		// Never: every class may stay, and staying above the limit only costs.
		return nil, "", fmt.Errorf("rebalance: infeasible on %d classes of shoots", len(classes))
	}
	return lp.counts(solution), "", nil
}

// rebalanceLP is the rebalancing's LP: rows for classes, destination seeds, stay rows of seeds that may end above
// their limit and the bounds on moves; columns for moves, staying, and the destinations' utilization segments.
type rebalanceLP struct {
	prog                                 *program
	distanceWeight, moveCost, excessCost float64
	extremes                             arcExtremes
	// within is, per seed, how many of its movable shoots that may stay can stay at no cost; mayStayOn how many
	// of its movable shoots may stay at all.
	within, mayStayOn        []int
	classRow                 []int
	destRow, stayRow, outRow map[int]int
	totalRow                 int
	// moveColumns[c][a] is the column of class c's move along arc a, -1 when the destination has no room.
	moveColumns [][]int
}

// newRebalanceLP sets the costs and the seeds' allowances of the rebalancing's classes.
func (rb Rebalancer) newRebalanceLP(r *Rebalancing, classes []moveClass) *rebalanceLP {
	// Which seeds take part; how many of each seed's shoots may move, and how many of those may stay.
	movableOn, mayStayOn := make([]int, len(r.Seeds)), make([]int, len(r.Seeds))
	involved := map[int]bool{}
	for _, c := range classes {
		movableOn[c.seed] += len(c.shoots)
		if !c.leave {
			mayStayOn[c.seed] += len(c.shoots)
		}
		involved[c.seed] = true
		for _, a := range c.arcs {
			involved[a.Seed] = true
		}
	}
	extremes := extremesOf(func(yield func([]Arc) bool) {
		for _, c := range classes {
			if !yield(c.arcs) {
				return
			}
		}
	})
	// Lexicographic objective by the augmenting-cycle argument: a cycle of the flow touches at most every
	// involved seed twice, so a move costs more than any cycle's distance and balance, and a shoot above the limit
	// more than any cycle of moves.
	weights := rb.Weights
	weights.Lexicographic = true // near moves first, then balance
	lp := &rebalanceLP{prog: newProgram(), distanceWeight: weights.distanceWeight(len(involved)), mayStayOn: mayStayOn, extremes: extremes}
	maxArc := rb.Weights.maxArcCost(extremes, lp.distanceWeight)
	lp.moveCost = dominating(maxArc, len(involved))
	lp.excessCost = dominating(lp.moveCost+maxArc, len(involved))

	// What a seed leaves unresolved is Unresolved.Count of the model: max(L, S − limit) for the L shoots that
	// must leave and do not and the S shoots it ends with. With L = Lm + Lu (movable, unmovable) and S = Lm + Sm
	// + U (Sm movable shoots that may stay, U its shoots that cannot move), that is Lm + Lu + max(0, Sm − within)
	// for within = limit − U + Lu: every staying shoot that must leave costs one unit, and a seed's stay row
	// charges its staying shoots that may stay beyond within. So the LP keeps a network's structure.
	lp.within = make([]int, len(r.Seeds))
	for i, l := range r.Seeds {
		lp.within[i] = l.Limit - (l.Load - movableOn[i])
	}
	for _, b := range r.Shoots {
		if b.Unmovable && b.MustLeave {
			lp.within[b.Seed]++
		}
	}
	return lp
}

// addRows adds the rows: classes; destination seeds; stay rows of seeds that may end above their limit; the
// bounds on moves.
func (lp *rebalanceLP) addRows(rb Rebalancer, r *Rebalancing, classes []moveClass) {
	lp.classRow = make([]int, len(classes))
	for i, c := range classes {
		n := float64(len(c.shoots))
		lp.classRow[i] = lp.prog.row(n, n)
	}
	lp.destRow, lp.stayRow, lp.outRow = map[int]int{}, map[int]int{}, map[int]int{}
	for _, c := range classes {
		for _, a := range c.arcs {
			if _, ok := lp.destRow[a.Seed]; !ok && rb.room(r.Seeds[a.Seed]) != 0 {
				lp.destRow[a.Seed] = lp.prog.row(0, 0)
			}
		}
		if _, ok := lp.stayRow[c.seed]; !ok && r.Seeds[c.seed].Limit != Unlimited && lp.mayStayOn[c.seed] > lp.within[c.seed] {
			lp.stayRow[c.seed] = lp.prog.row(0, 0)
		}
		if _, ok := lp.outRow[c.seed]; !ok && rb.MaxMovesPerSeed > 0 {
			lp.outRow[c.seed] = lp.prog.row(math.Inf(-1), float64(rb.MaxMovesPerSeed))
		}
	}
	lp.totalRow = -1
	if rb.MaxMoves > 0 {
		lp.totalRow = lp.prog.row(math.Inf(-1), float64(rb.MaxMoves))
	}
}

// addColumns adds the columns: per class its moves and its staying, then per seed its stay allowance and
// excess and its utilization segments as a destination.
func (lp *rebalanceLP) addColumns(rb Rebalancer, r *Rebalancing, classes []moveClass) {
	lp.moveColumns = make([][]int, len(classes))
	for i, c := range classes {
		n := float64(len(c.shoots))
		for _, a := range c.arcs {
			row, ok := lp.destRow[a.Seed]
			if !ok {
				lp.moveColumns[i] = append(lp.moveColumns[i], -1)
				continue
			}
			entries := []clp.Nonzero{{Index: lp.classRow[i], Value: 1}, {Index: row, Value: -1}}
			if out, ok := lp.outRow[c.seed]; ok {
				entries = append(entries, clp.Nonzero{Index: out, Value: 1})
			}
			if lp.totalRow >= 0 {
				entries = append(entries, clp.Nonzero{Index: lp.totalRow, Value: 1})
			}
			cost := lp.moveCost + lp.distanceWeight*lp.extremes.weighed(a.Distance) + rb.Weights.SoftViolation*float64(a.SoftViolations)
			lp.moveColumns[i] = append(lp.moveColumns[i], lp.prog.column(entries, 0, n, cost))
		}
		// Staying: a shoot that must leave pays for it; one that may stay is charged by its seed's stay row.
		stay := []clp.Nonzero{{Index: lp.classRow[i], Value: 1}}
		cost := 0.0
		if row, ok := lp.stayRow[c.seed]; ok && !c.leave {
			stay = append(stay, clp.Nonzero{Index: row, Value: -1})
		}
		if c.leave {
			cost = lp.excessCost
		}
		lp.prog.column(stay, 0, n, cost)
	}
	// Seeds in index order, so that the same input gives the same LP and the same plan.
	for seed, l := range r.Seeds {
		if row, ok := lp.stayRow[seed]; ok {
			lp.prog.column([]clp.Nonzero{{Index: row, Value: 1}}, 0, float64(max(lp.within[seed], 0)), 0)
			lp.prog.column([]clp.Nonzero{{Index: row, Value: 1}}, 0, math.Inf(1), lp.excessCost)
		}
		if row, ok := lp.destRow[seed]; ok {
			for _, seg := range rb.destinationSegments(l) {
				lp.prog.column([]clp.Nonzero{{Index: row, Value: 1}}, 0, seg.upper(), rb.Weights.Balance*seg.slope)
			}
		}
	}
}

// counts reads, per class and arc, how many shoots move there.
func (lp *rebalanceLP) counts(solution lpSolution) [][]float64 {
	counts := make([][]float64, len(lp.moveColumns))
	for i, columns := range lp.moveColumns {
		counts[i] = make([]float64, len(columns))
		for a, col := range columns {
			if col >= 0 {
				counts[i][a] = solution.values[col]
			}
		}
	}
	return counts
}

// destinationSegments are the utilization segments of a destination's room, bounded by the per-seed bound.
func (rb Rebalancer) destinationSegments(l LoadedSeed) []segment {
	return rb.Weights.segments(l.Load, rb.room(l), l.Allocatable, l.Limited)
}

// assign turns class counts into moves: each class's shoots, by namespace/name, go to its arcs cheapest first.
// Fractional counts are rounded down; then, and when there are no counts (CLP ran out of time), shoots that must
// leave and shoots above their seed's limit are moved greedily to the cheapest destination with room, within the
// bounds.
func (rb Rebalancer) assign(r *Rebalancing, classes []moveClass, counts [][]float64) ([]Move, bool) {
	room := make([]int, len(r.Seeds))
	for i, l := range r.Seeds {
		room[i] = rb.room(l)
	}
	outOf := make([]int, len(r.Seeds))
	excess := make([]int, len(r.Seeds))
	for i, l := range r.Seeds {
		excess[i] = l.Excess()
	}
	moved := make([]bool, len(r.Shoots))
	var moves []Move
	move := func(shoot int, a Arc) bool {
		b := r.Shoots[shoot]
		if room[a.Seed] == 0 || rb.MaxMoves > 0 && len(moves) == rb.MaxMoves || rb.MaxMovesPerSeed > 0 && outOf[b.Seed] == rb.MaxMovesPerSeed {
			return false
		}
		moves = append(moves, Move{Shoot: shoot, To: a})
		moved[shoot] = true
		take(&room[a.Seed])
		outOf[b.Seed]++
		excess[b.Seed] = max(excess[b.Seed]-1, 0)
		return true
	}
	integral := true
	for i, c := range classes {
		if counts != nil { // nil when the moves are found greedily: only the repair below
			integral = handOut(counts[i], c.arcs, c.shoots, move) && integral
		}
	}
	// Repair (and the fallback): what still has to leave, cheapest destination first.
	for _, c := range classes {
		mustMove := func(shoot int) bool { return !moved[shoot] && (c.leave || excess[c.seed] > 0) }
		repair(c.shoots, c.arcs, mustMove, move)
	}
	slices.SortFunc(moves, func(a, b Move) int { return a.Shoot - b.Shoot })
	return moves, integral
}
