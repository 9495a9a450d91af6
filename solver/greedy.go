// Package solver places shoots on seeds. It knows nothing of Gardener or Kubernetes: seeds, shoots and arcs are
// indexes with room, distances and ranks, and every result is typed data that the caller words. Every solver
// is deterministic.
package solver

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// Solver places a window's shoots.
type Solver interface {
	// Name is the solver's name in outputs and metrics.
	Name() string
	// Solve returns an assignment for the window. It stops with ctx's error when ctx is done.
	Solve(ctx context.Context, w *Window) (*Solution, error)
}

// Budgeted is a solver with a time budget: its assignment must come back within the budget, falling back when
// it has to.
type Budgeted interface {
	Budget() Budget
}

// Improver is a solver with a time budget that improves on the greedy assignment of a window. The caller makes
// the greedy assignment within the budget (from its Deadline on), and may prepare it for use, while Improve
// starts on the window, and sends it on incumbent (nil when it could not make one): when the budget runs out,
// Improve returns it. Improve receives from incumbent before it returns, unless ctx ends first.
type Improver interface {
	Solver
	Budgeted
	Improve(ctx context.Context, w *Window, incumbent <-chan *Assignment, deadline time.Time) (*Solution, error)
}

// Solution is a solver's assignment and what the solver knows about it.
type Solution struct {
	Assignment
	// Optimal is true only when the solver proved the assignment optimal for its objective.
	Optimal bool
	// Fallback says why the assignment is another solver's (one of FallbackReasons), or is empty.
	Fallback string
	// Greedy is the greedy assignment of the same window when the solver computed it (as its incumbent).
	Greedy *Assignment
}

// Greedy is the gardener-scheduler's decision rule (spec §2.10c, §3, §3.4): one shoot at a time in window order,
// among the arcs with room of the lowest rank the seed with the fewest shoots (ties: the lowest index, that is
// the first by name), and the placement counted before the next shoot is decided. It is seedplan's
// compatibility mode, its fallback, and the incumbent every other solver must beat.
type Greedy struct {
	// ByPriority decides the shoots by Group.Priority first, window order within it: the fallback of a policy
	// with priorities. Without it the window order alone counts, as in the gardener-scheduler.
	ByPriority bool
}

// Name implements Solver.
func (Greedy) Name() string { return "greedy" }

// Solve implements Solver.
func (g Greedy) Solve(ctx context.Context, w *Window) (*Solution, error) {
	a, err := greedy(ctx, w, g.ByPriority)
	if err != nil {
		return nil, err
	}
	return &Solution{Assignment: *a, Greedy: a}, nil
}

// greedy decides the window's shoots one at a time, in window order or, byPriority, by priority first.
func greedy(ctx context.Context, w *Window, byPriority bool) (*Assignment, error) {
	free := w.free()
	usage := make([]int, len(w.Seeds))
	for i, s := range w.Seeds {
		usage[i] = s.Usage
	}
	order := make([]int, len(w.Shoots))
	for i := range order {
		order[i] = i
	}
	if byPriority {
		slices.SortStableFunc(order, w.byPriority)
	}
	a := &Assignment{Seed: make([]int, len(w.Shoots)), Cause: make([]Cause, len(w.Shoots))}
	for n, i := range order {
		g := w.Shoots[i]
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("greedy stopped after %d of %d shoots: %w", n, len(w.Shoots), err)
			}
		}
		seed, cause := decide(&w.Groups[g], free, usage)
		a.Seed[i], a.Cause[i] = seed, cause
		if cause == Placed {
			usage[seed]++
			take(&free[seed])
		}
	}
	return a, nil
}

// decide is the greedy rule for one shoot of the group with the seeds' room and usage: the chosen seed, or -1
// and why there is none.
func decide(g *Group, free, usage []int) (int, Cause) {
	if g.Exclusion == Excluded {
		return -1, CauseExcluded
	}
	if !slices.ContainsFunc(g.Candidates, func(s int) bool { return free[s] != 0 }) {
		return -1, CauseCandidatesFull
	}
	if g.Exclusion == ExcludedWhenCandidateHasRoom {
		return -1, CauseExcluded
	}
	best := -1
	var bestRank Rank
	for _, a := range g.Arcs {
		if free[a.Seed] == 0 {
			continue
		}
		if best < 0 || a.Rank.less(bestRank) || a.Rank == bestRank && usage[a.Seed] < usage[best] {
			best, bestRank = a.Seed, a.Rank
		}
	}
	if best < 0 {
		return -1, CauseNoArcWithRoom
	}
	return best, Placed
}
