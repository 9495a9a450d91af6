package solver

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/lanl/clp"
)

// A program whose costs CLP cannot take is refused before CLP sees it: from 1e15 CLP takes a cost for infinite,
// from 1e25 it aborts the process.
func TestProgramRefusesCostsBeyondCLPsRange(t *testing.T) {
	for _, tc := range []struct {
		cost    float64
		refused bool
	}{
		{0, false}, {9.9e14, false}, {-9.9e14, false},
		{1e15, true}, {-1e15, true}, {1e25, true}, {math.Inf(1), true}, {math.NaN(), true},
	} {
		p := newProgram()
		row := p.row(1, 1)
		p.column([]clp.Nonzero{{Index: row, Value: 1}}, 0, 1, tc.cost)
		p.column([]clp.Nonzero{{Index: row, Value: 1}}, 0, 1, 1)
		solution, err := p.solve(time.Time{}, "two columns")
		if refused := errors.Is(err, ErrCostRange); refused != tc.refused || !tc.refused && (err != nil || solution.status != lpOptimal) {
			t.Errorf("cost %g: error %v, status %v (want refused %v)", tc.cost, err, solution.status, tc.refused)
		}
	}
}

// Rows no column touches - a bound on the moves off a seed none of whose shoots can move - count as rows of the
// program wherever they are, the last ones too (CLP refused the program when they came last, and the process
// ended): a bound they cannot break is no constraint, one that excludes 0 makes the program infeasible.
func TestProgramRowsNoColumnTouches(t *testing.T) {
	for _, tc := range []struct {
		name         string
		lower, upper float64
		want         lpStatus
	}{
		{"at most 1", math.Inf(-1), 1, lpOptimal},
		{"exactly 0", 0, 0, lpOptimal},
		{"at least 1", 1, math.Inf(1), lpInfeasible},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProgram()
			row := p.row(1, 1)
			p.row(tc.lower, tc.upper) // in the middle
			p.column([]clp.Nonzero{{Index: row, Value: 1}}, 0, 1, 1)
			p.row(tc.lower, tc.upper) // last
			solution, err := p.solve(time.Time{}, "a column and two rows of none")
			if err != nil || solution.status != tc.want {
				t.Fatalf("status %v, error %v; want status %v", solution.status, err, tc.want)
			}
		})
	}
}

// solveWithin keeps the deadline by the wall clock, where solve's limit is CLP's of process CPU time, the time left
// on every core: with 64 cores, a program of some 25 ms with 1 ms left is answered as stopped by solveWithin and
// solved by solve, whose caller abandons it itself; with time enough, or no deadline, both solve it.
func TestSolveWithinKeepsTheDeadline(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(64))
	solve, within := (*program).solve, (*program).solveWithin
	for _, tc := range []struct {
		name  string
		solve func(*program, time.Time, string) (lpSolution, error)
		left  time.Duration
		want  lpStatus
	}{
		{"solveWithin, 1 ms left", within, time.Millisecond, lpStopped},
		{"solve, 1 ms left", solve, time.Millisecond, lpOptimal},
		{"solveWithin, a minute left", within, time.Minute, lpOptimal},
		{"solveWithin, no deadline", within, 0, lpOptimal},
	} {
		var deadline time.Time
		if tc.left > 0 {
			deadline = time.Now().Add(tc.left)
		}
		solution, err := tc.solve(transportation(150), deadline, "150 × 150 transportation")
		if err != nil || solution.status != tc.want {
			t.Errorf("%s: status %v, error %v; want %v", tc.name, solution.status, err, tc.want)
		}
	}
}

// transportation is an n × n transportation program with random costs from a fixed seed: each source sends its
// unit to the sinks, each sink takes at most one.
func transportation(n int) *program {
	p := newProgram()
	sources, sinks := make([]int, n), make([]int, n)
	for i := range n {
		sources[i], sinks[i] = p.row(1, 1), p.row(math.Inf(-1), 1)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		for j := range n {
			p.column([]clp.Nonzero{{Index: sources[i], Value: 1}, {Index: sinks[j], Value: 1}}, 0, 1, float64(rng.IntN(1024)))
		}
	}
	return p
}
