package solver

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/lanl/clp"
)

// program is a linear program built column by column and minimised by CLP's dual simplex: the one way the
// solvers of this package talk to CLP. Columns are collected in Go and handed to CLP at once, sized exactly:
// CLP's packed matrix reallocates on every column appended beyond what was reserved.
type program struct {
	rows    []clp.Bounds
	starts  []int // where each column's nonzeros begin in nonzeros
	entries []clp.Nonzero
	columns []clp.Bounds
	costs   []float64
	// primal solves with the primal simplex, for a program from whose start the dual simplex is far from
	// feasible; the dual simplex is the default.
	primal bool
}

func newProgram() *program { return &program{} }

// reserve makes room for the given numbers of columns and nonzeros, so that building a large program does not
// leave a trail of outgrown slices for the garbage collector.
func (p *program) reserve(columns, nonzeros int) {
	p.starts = slices.Grow(p.starts, columns)
	p.columns = slices.Grow(p.columns, columns)
	p.costs = slices.Grow(p.costs, columns)
	p.entries = slices.Grow(p.entries, nonzeros)
}

// row adds a row with the given bounds and returns its index.
func (p *program) row(lower, upper float64) int {
	p.rows = append(p.rows, clp.Bounds{Lower: lower, Upper: upper})
	return len(p.rows) - 1
}

// column adds a column with its nonzeros, bounds and cost, and returns its index.
func (p *program) column(entries []clp.Nonzero, lower, upper, cost float64) int {
	p.starts = append(p.starts, len(p.entries))
	p.entries = append(p.entries, entries...)
	p.columns = append(p.columns, clp.Bounds{Lower: lower, Upper: upper})
	p.costs = append(p.costs, cost)
	return len(p.costs) - 1
}

// matrix is the program's constraint matrix in CLP's form.
func (p *program) matrix() *clp.PackedMatrix {
	m := clp.NewPackedMatrix()
	m.Reserve(len(p.columns), len(p.entries), false)
	for i, start := range p.starts {
		end := len(p.entries)
		if i+1 < len(p.starts) {
			end = p.starts[i+1]
		}
		m.AppendColumn(p.entries[start:end])
	}
	// The columns' nonzeros say how many rows there are only up to the last row one of them touches; rows after
	// it, which no column touches (a seed's bound on the moves of shoots that cannot move), would be missing, and
	// CLP refuses row bounds the matrix has no rows for.
	m.SetDimensions(len(p.rows), len(p.columns))
	return m
}

// maxCost bounds a column's cost. CLP takes a cost of 1e15 or more (its largeValue) for an infinite one, never
// uses the column and reports a window part that needs it infeasible; from 1e25 it fails an assertion, which ends
// the whole process.
const maxCost = 1e15

// ErrCostRange is the error of a program whose costs CLP cannot take: large weights times large region distances
// times the penalties that grow with a part's seeds can reach maxCost.
var ErrCostRange = errors.New("costs beyond CLP's range")

// checkCosts refuses a program with a cost CLP cannot take, before CLP sees it.
func (p *program) checkCosts() error {
	for i, cost := range p.costs {
		if !(math.Abs(cost) < maxCost) { // NaN too
			return fmt.Errorf("%w: column %d costs %g, CLP takes less than %g", ErrCostRange, i, cost, maxCost)
		}
	}
	return nil
}

// lpStatus is how a solve ended.
type lpStatus int

const (
	lpOptimal lpStatus = iota
	lpInfeasible
	// lpStopped: CLP ran out of its time budget.
	lpStopped
)

// lpSolution is the outcome of a solve: the column values, the row duals and the objective when optimal.
type lpSolution struct {
	status    lpStatus
	values    []float64
	duals     []float64
	objective float64
}

// solve minimises the program. A non-zero deadline becomes CLP's time budget: CLP cannot be interrupted, and its
// limit is process CPU time, which all threads advance, so the time left is budgeted on every core — a solve
// beside others on every core is not stopped early, and one the caller has stopped waiting for ends at that
// limit. Callers that wait for it themselves call solveWithin. Any end other than optimal, infeasible or out of
// time is an error naming what.
func (p *program) solve(deadline time.Time, what string) (lpSolution, error) {
	if err := p.checkCosts(); err != nil {
		return lpSolution{}, fmt.Errorf("%w on %s", err, what)
	}
	simplex := p.loaded(deadline)
	simplexMethod := simplex.Dual
	if p.primal {
		simplexMethod = simplex.Primal
	}
	status := simplexMethod(clp.NoValuesPass, clp.NoStartFinishOptions)
	defer runtime.KeepAlive(simplex) // and the matrix it holds
	switch {
	case status == clp.SimplexStatus(3) && simplex.SecondaryStatus() == clp.SecondaryStoppedOnTime:
		return lpSolution{status: lpStopped}, nil
	case status == clp.Infeasible:
		return lpSolution{status: lpInfeasible}, nil
	case status != clp.Optimal:
		return lpSolution{}, fmt.Errorf("CLP ended with status %d (secondary %d) on %s", status, simplex.SecondaryStatus(), what)
	}
	return lpSolution{status: lpOptimal, values: simplex.PrimalColumnSolution(), duals: simplex.DualRowSolution(), objective: simplex.ObjectiveValue()}, nil
}

// loaded is CLP's simplex of the program, to be minimised within the budget of deadline (none for the zero time).
func (p *program) loaded(deadline time.Time) *clp.Simplex {
	simplex := clp.NewSimplex()
	simplex.LoadProblem(p.matrix(), p.columns, p.costs, p.rows, nil)
	simplex.SetOptimizationDirection(clp.Minimize)
	if !deadline.IsZero() {
		simplex.SetMaxSeconds(clpSeconds(time.Until(deadline), runtime.GOMAXPROCS(0)))
	}
	return simplex
}

// clpSeconds is CLP's budget for a solve with left to its deadline on as many processors: CLP's clock is the
// process's user CPU time, which every processor advances (CLP stops when it reaches the time at which the budget
// was set plus the budget), and a budget of nothing would be none at all.
func clpSeconds(left time.Duration, processors int) float64 {
	return max(left.Seconds(), 0.001) * float64(processors)
}

// solveWithin is solve for a caller that waits for it: it answers lpStopped at the deadline by the wall clock,
// where CLP's limit alone would let a solve by itself run on up to as many times the time left as there are
// cores; the abandoned solve ends at that limit.
func (p *program) solveWithin(deadline time.Time, what string) (lpSolution, error) {
	if deadline.IsZero() {
		return p.solve(deadline, what) // nothing to stop waiting at
	}
	type answer struct {
		solution lpSolution
		err      error
	}
	answered := make(chan answer, 1)
	go func() {
		solution, err := p.solve(deadline, what)
		answered <- answer{solution, err}
	}()
	reached, release := deadlineReached(deadline)
	defer release()
	select {
	case a := <-answered:
		return a.solution, a.err
	case <-reached:
		return lpSolution{status: lpStopped}, nil
	}
}
