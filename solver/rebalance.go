package solver

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/lanl/clp"

	"github.com/seedplan/seedplan/model"
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

// Rebalance is a rebalancing plan.
type Rebalance struct {
	Moves []model.Move
	// LowerBound is the fewest moves any plan needs (model.Rebalancing.LowerBound).
	LowerBound int
	// Unresolved counts, over all seeds, the shoots a seed stays above its limit after the moves or the shoots
	// that had to leave it and could not.
	Unresolved int
	// Optimal is true when CLP proved the moves optimal (then no plan resolves more, or as much with fewer moves).
	Optimal bool
	// Problems say, per seed left above its limit, why.
	Problems []string
}

// Complete reports whether every seed ends at most at its limit.
func (r *Rebalance) Complete() bool { return r.Unresolved == 0 }

// moveClass is a set of interchangeable movable shoots: on the same seed, with the same destinations, all
// obliged to leave or none.
type moveClass struct {
	seed   int
	leave  bool
	shoots []int // indexes into Rebalancing.Shoots, by namespace/name
	arcs   []model.Arc
}

// Plan computes the moves. The result passes model.VerifyMoves, or Plan fails.
func (rb Rebalancer) Plan(ctx context.Context, r *model.Rebalancing) (*Rebalance, error) {
	var deadline time.Time
	if rb.Timeout > 0 {
		deadline = time.Now().Add(rb.Timeout)
	}
	classes := moveClasses(r)
	counts, optimal, err := rb.solve(ctx, r, classes, deadline)
	if err != nil {
		return nil, err
	}
	moves := rb.assign(r, classes, counts)
	result := &Rebalance{Moves: moves, LowerBound: r.LowerBound(), Optimal: optimal}
	result.Unresolved, result.Problems = rb.unresolved(r, moves)
	if err := model.VerifyMoves(r.Snapshot, r.Options, r.Target, moves); err != nil {
		return nil, fmt.Errorf("rebalance produced moves that fail verification, refusing them: %w", err)
	}
	return result, nil
}

// moveClasses are the classes of the shoots a move of which can resolve something: those that must leave, and
// the others on seeds whose excess exceeds the shoots that must leave them (elsewhere the shoots that must leave
// are what stays unresolved, and moving another shoot changes nothing).
func moveClasses(r *model.Rebalancing) []moveClass {
	leaving := make([]int, len(r.Seeds))
	for _, b := range r.Shoots {
		if b.Leave != "" {
			leaving[b.Seed]++
		}
	}
	var grouper arcGrouper
	var classes []moveClass
	var arcs []model.Arc
	for i, b := range r.Shoots {
		if b.Unmovable != "" || b.Leave == "" && r.Seeds[b.Seed].Excess() <= leaving[b.Seed] {
			continue
		}
		leave := b.Leave != ""
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
func (rb Rebalancer) room(l model.SeedLoad) int {
	room := l.Room
	if rb.MaxMovesPerSeed > 0 && (room == model.Unlimited || room > rb.MaxMovesPerSeed) {
		room = rb.MaxMovesPerSeed
	}
	return room
}

// solve returns, per class and per arc, how many of its shoots move there; optimal is false when CLP ran out
// of time (then counts is nil) or the LP's answer was fractional.
func (rb Rebalancer) solve(ctx context.Context, r *model.Rebalancing, classes []moveClass, deadline time.Time) ([][]float64, bool, error) {
	if len(classes) == 0 {
		return nil, true, nil
	}
	// Which seeds take part; how many of each seed's shoots may move, and how many of those may stay.
	movableOn, mayStayOn := make([]int, len(r.Seeds)), make([]int, len(r.Seeds))
	involved := map[int]bool{}
	extremes := arcExtremes{}
	for _, c := range classes {
		movableOn[c.seed] += len(c.shoots)
		if !c.leave {
			mayStayOn[c.seed] += len(c.shoots)
		}
		involved[c.seed] = true
		for _, a := range c.arcs {
			involved[a.Seed] = true
			extremes.distance = max(extremes.distance, a.Distance)
			extremes.softViolations = max(extremes.softViolations, a.SoftViolations)
		}
	}
	// Lexicographic objective by the augmenting-cycle argument: a cycle of the flow touches at most every
	// involved seed twice, so a move costs more than any cycle's distance and balance, and a shoot above the limit
	// more than any cycle of moves.
	weights := rb.Weights
	weights.Lexicographic = true // near moves first, then balance
	distanceWeight := weights.distanceWeight(len(involved))
	maxArc := distanceWeight*float64(extremes.distance) + rb.Weights.Balance*UtilizationSlopes[len(UtilizationSlopes)-1] +
		rb.Weights.SoftViolation*float64(extremes.softViolations)
	cycle := float64(2*len(involved) + 2)
	moveCost := maxArc*cycle + 1
	excessCost := (moveCost+maxArc)*cycle + 1

	// What a seed leaves unresolved is model.Unresolved.Count: max(L, S − limit) for the L shoots that must
	// leave and do not and the S shoots it ends with. With L = Lm + Lu (movable, unmovable) and S = Lm + Sm + U
	// (Sm movable shoots that may stay, U its shoots that cannot move), that is Lm + Lu + max(0, Sm − within)
	// for within = limit − U + Lu: every staying shoot that must leave costs one unit, and a seed's stay row
	// charges its staying shoots that may stay beyond within. So the LP keeps a network's structure.
	within := make([]int, len(r.Seeds))
	for i, l := range r.Seeds {
		within[i] = l.Limit - (l.Load - movableOn[i])
	}
	for _, b := range r.Shoots {
		if b.Unmovable != "" && b.Leave != "" {
			within[b.Seed]++
		}
	}

	// Rows: classes; destination seeds; stay rows of seeds that may end above their limit; the move bounds.
	prog := newProgram()
	classRow := make([]int, len(classes))
	for i, c := range classes {
		n := float64(len(c.shoots))
		classRow[i] = prog.row(n, n)
	}
	destRow, stayRow, outRow := map[int]int{}, map[int]int{}, map[int]int{}
	for _, c := range classes {
		for _, a := range c.arcs {
			if _, ok := destRow[a.Seed]; !ok && rb.room(r.Seeds[a.Seed]) != 0 {
				destRow[a.Seed] = prog.row(0, 0)
			}
		}
		if _, ok := stayRow[c.seed]; !ok && r.Seeds[c.seed].Limit != model.Unlimited && mayStayOn[c.seed] > within[c.seed] {
			stayRow[c.seed] = prog.row(0, 0)
		}
		if _, ok := outRow[c.seed]; !ok && rb.MaxMovesPerSeed > 0 {
			outRow[c.seed] = prog.row(math.Inf(-1), float64(rb.MaxMovesPerSeed))
		}
	}
	totalRow := -1
	if rb.MaxMoves > 0 {
		totalRow = prog.row(math.Inf(-1), float64(rb.MaxMoves))
	}

	moveColumns := make([][]int, len(classes))
	for i, c := range classes {
		n := float64(len(c.shoots))
		for _, a := range c.arcs {
			row, ok := destRow[a.Seed]
			if !ok {
				moveColumns[i] = append(moveColumns[i], -1)
				continue
			}
			entries := []clp.Nonzero{{Index: classRow[i], Value: 1}, {Index: row, Value: -1}}
			if out, ok := outRow[c.seed]; ok {
				entries = append(entries, clp.Nonzero{Index: out, Value: 1})
			}
			if totalRow >= 0 {
				entries = append(entries, clp.Nonzero{Index: totalRow, Value: 1})
			}
			cost := moveCost + distanceWeight*float64(a.Distance) + rb.Weights.SoftViolation*float64(a.SoftViolations)
			moveColumns[i] = append(moveColumns[i], prog.column(entries, 0, n, cost))
		}
		// Staying: a shoot that must leave pays for it; one that may stay is charged by its seed's stay row.
		stay := []clp.Nonzero{{Index: classRow[i], Value: 1}}
		cost := 0.0
		if row, ok := stayRow[c.seed]; ok && !c.leave {
			stay = append(stay, clp.Nonzero{Index: row, Value: -1})
		}
		if c.leave {
			cost = excessCost
		}
		prog.column(stay, 0, n, cost)
	}
	// Seeds in index order, so that the same input gives the same LP and the same plan.
	for seed, l := range r.Seeds {
		if row, ok := stayRow[seed]; ok {
			prog.column([]clp.Nonzero{{Index: row, Value: 1}}, 0, float64(max(within[seed], 0)), 0)
			prog.column([]clp.Nonzero{{Index: row, Value: 1}}, 0, math.Inf(1), excessCost)
		}
		if row, ok := destRow[seed]; ok {
			for _, seg := range rb.destinationSegments(r, seed, l) {
				prog.column([]clp.Nonzero{{Index: row, Value: 1}}, 0, seg.upper(), rb.Weights.Balance*seg.slope)
			}
		}
	}

	if err := ctx.Err(); err != nil {
		return nil, false, fmt.Errorf("rebalance: %w", err)
	}
	solution, err := prog.solve(deadline, fmt.Sprintf("%d classes of shoots", len(classes)))
	switch {
	case err != nil:
		return nil, false, fmt.Errorf("rebalance: %w", err)
	case solution.status == lpStopped:
		return nil, false, nil
	case solution.status != lpOptimal:
		// Never: every class may stay, and staying above the limit only costs.
		return nil, false, fmt.Errorf("rebalance: infeasible on %d classes of shoots", len(classes))
	}
	counts := make([][]float64, len(classes))
	optimal := true
	for i := range classes {
		counts[i] = make([]float64, len(moveColumns[i]))
		for a, col := range moveColumns[i] {
			if col < 0 {
				continue
			}
			value := solution.values[col]
			counts[i][a] = value
			if math.Abs(value-math.Round(value)) > integralityTolerance {
				optimal = false
			}
		}
	}
	return counts, optimal, nil
}

// destinationSegments are the utilization segments of a destination's room, bounded by the per-seed bound.
func (rb Rebalancer) destinationSegments(r *model.Rebalancing, seed int, l model.SeedLoad) []segment {
	allocatable, limited := model.Allocatable(r.Snapshot.Seeds[seed])
	if !limited {
		allocatable = int64(rb.Weights.NominalCapacity)
	}
	room := rb.room(l)
	segments := utilizationSegments(l.Load, room, int(allocatable), limited)
	if limited || room == model.Unlimited {
		return segments
	}
	// A seed without allocatable is bounded only by the per-seed bound here.
	left := room
	var bounded []segment
	for _, s := range segments {
		if left == 0 {
			break
		}
		if s.width == model.Unlimited || s.width > left {
			s.width = left
		}
		bounded = append(bounded, s)
		left -= s.width
	}
	return bounded
}

// assign turns class counts into moves: each class's shoots, by namespace/name, go to its arcs cheapest first.
// Fractional counts are rounded down; then, and when there are no counts (CLP ran out of time), shoots that must
// leave and shoots above their seed's limit are moved greedily to the cheapest destination with room, within the
// bounds.
func (rb Rebalancer) assign(r *model.Rebalancing, classes []moveClass, counts [][]float64) []model.Move {
	room := make([]int, len(r.Seeds))
	for i, l := range r.Seeds {
		room[i] = rb.room(l)
	}
	outOf := make([]int, len(r.Seeds))
	excess := make([]int, len(r.Seeds))
	for i, l := range r.Seeds {
		excess[i] = l.Excess()
	}
	total := 0
	moved := make([]bool, len(r.Shoots))
	var moves []model.Move
	canMove := func(from, to int) bool {
		return room[to] != 0 && (rb.MaxMoves == 0 || total < rb.MaxMoves) && (rb.MaxMovesPerSeed == 0 || outOf[from] < rb.MaxMovesPerSeed)
	}
	move := func(shoot int, a model.Arc) {
		b := r.Shoots[shoot]
		reason := b.LeaveReason
		if reason == "" {
			reason = model.LeaveOverloaded
		}
		moves = append(moves, model.Move{Shoot: model.ShootKey(b.Shoot), From: r.Snapshot.Seeds[b.Seed].Name,
			To: r.Snapshot.Seeds[a.Seed].Name, Distance: a.Distance, Reason: reason})
		moved[shoot] = true
		if room[a.Seed] != model.Unlimited {
			room[a.Seed]--
		}
		outOf[b.Seed]++
		excess[b.Seed] = max(excess[b.Seed]-1, 0)
		total++
	}
	for i, c := range classes {
		if counts == nil { // CLP ran out of time: only the repair below
			break
		}
		next := 0
		for a, value := range counts[i] {
			for range int(math.Floor(value + integralityTolerance)) {
				if next == len(c.shoots) || !canMove(c.seed, c.arcs[a].Seed) {
					break
				}
				move(c.shoots[next], c.arcs[a])
				next++
			}
		}
	}
	// Repair (and the fallback): what still has to leave, cheapest destination first.
	for _, c := range classes {
		for _, shoot := range c.shoots {
			if moved[shoot] || !c.leave && excess[c.seed] == 0 {
				continue
			}
			for _, a := range c.arcs {
				if canMove(c.seed, a.Seed) {
					move(shoot, a)
					break
				}
			}
		}
	}
	slices.SortFunc(moves, func(a, b model.Move) int { return strings.Compare(a.Shoot, b.Shoot) })
	return moves
}

// unresolved counts what the moves leave unresolved (model.Unresolved.Count) and says why, per seed.
func (rb Rebalancer) unresolved(r *model.Rebalancing, moves []model.Move) (int, []string) {
	out := map[string]int{}
	for _, m := range moves {
		out[m.From]++
	}
	unmovable := make([]int, len(r.Seeds))
	stranded := make([]int, len(r.Seeds)) // movable, but to no seed at all
	blocked := make([]int, len(r.Seeds))  // movable, but only to seeds at their target
	for _, b := range r.Shoots {
		switch {
		case b.Unmovable != "":
			unmovable[b.Seed]++
		case len(b.Destinations) > 0:
		case b.FullSeeds > 0:
			blocked[b.Seed]++
		default:
			stranded[b.Seed]++
		}
	}
	total := 0
	var problems []string
	for i, u := range r.Unresolved(moves) {
		left := u.Count()
		if left <= 0 {
			continue
		}
		total += left
		name := r.Snapshot.Seeds[i].Name
		var why []string
		if unmovable[i] > 0 {
			why = append(why, fmt.Sprintf("%d of its shoots cannot be moved (deleting, migrating, self-hosted or of another scheduler)", unmovable[i]))
		}
		if stranded[i] > 0 {
			why = append(why, fmt.Sprintf("%d of its shoots have no other seed that passes every predicate and the migration rules", stranded[i]))
		}
		if blocked[i] > 0 {
			why = append(why, fmt.Sprintf("%d of its shoots may only move to seeds already at their target", blocked[i]))
		}
		capped := false
		if rb.MaxMoves > 0 && len(moves) == rb.MaxMoves {
			why, capped = append(why, fmt.Sprintf("--max-moves %d is reached", rb.MaxMoves)), true
		}
		if rb.MaxMovesPerSeed > 0 && out[name] == rb.MaxMovesPerSeed {
			why, capped = append(why, fmt.Sprintf("--max-moves-per-seed %d is reached", rb.MaxMovesPerSeed)), true
		}
		if !capped && unmovable[i]+stranded[i]+blocked[i] < left {
			why = append(why, "the seeds its other shoots may move to have no room left below their target")
		}
		limit := r.Seeds[i].Limit
		state := fmt.Sprintf("stays %d above its limit of %d", u.Above, limit)
		if u.Stuck >= u.Above {
			state = fmt.Sprintf("keeps %d shoots that must leave", u.Stuck)
			if u.Above > 0 && limit > 0 { // a drained seed's limit is 0: all its shoots are the ones above it
				state += fmt.Sprintf(", and is %d above its limit of %d", u.Above, limit)
			}
		}
		problems = append(problems, fmt.Sprintf("seed %s %s: %s", name, state, strings.Join(why, "; ")))
	}
	return total, problems
}
