package solver

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/lanl/clp"
	"golang.org/x/sys/unix"
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

// CLP's budget is the time left on every processor, and at least a millisecond of it.
func TestCLPSecondsAreTheTimeLeftOnEveryProcessor(t *testing.T) {
	for _, tc := range []struct {
		left       time.Duration
		processors int
		want       float64
	}{
		{time.Millisecond, 64, 0.064},
		{time.Minute, 2, 120},
		{time.Microsecond, 2, 0.002},
		{0, 2, 0.002},
		{-time.Second, 1, 0.001},
	} {
		if got := clpSeconds(tc.left, tc.processors); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%v left on %d processors: %g s, want %g s", tc.left, tc.processors, got, tc.want)
		}
	}
}

// solve hands CLP the time left on every processor, not the wall clock's: with 64 processors and a second left,
// about 64 s of process CPU time; without a deadline, no limit (CLP's -1). CLP keeps its limit as the process's
// user CPU time at which to stop, so the budget is that less the time the process had used.
func TestSolveBudgetsTheTimeLeftOnEveryProcessor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(64))
	for _, tc := range []struct {
		name string
		left time.Duration
	}{
		{"a second left", time.Second},
		{"a millisecond left", time.Millisecond},
		{"deadline passed", -time.Second},
	} {
		start, used := time.Now(), userCPU(t)
		limit := transportation(3).loaded(start.Add(tc.left)).MaxSeconds()
		elapsed, usedMeanwhile := time.Since(start), userCPU(t)-used
		least, most := clpSeconds(tc.left-elapsed, 64), clpSeconds(tc.left, 64)+usedMeanwhile
		if budget := limit - used; budget < least-1e-6 || budget > most+1e-6 {
			t.Errorf("%s: CLP's budget %g s, want %g to %g", tc.name, budget, least, most)
		}
	}
	if limit := transportation(3).loaded(time.Time{}).MaxSeconds(); limit != -1 {
		t.Errorf("no deadline: CLP's limit %g, want none (-1)", limit)
	}
}

// userCPU is the process's user CPU time in seconds, CLP's clock.
func userCPU(t *testing.T) float64 {
	t.Helper()
	var usage unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &usage); err != nil {
		t.Fatal(err)
	}
	return time.Duration(usage.Utime.Nano()).Seconds()
}

// solveWithin keeps the deadline by the wall clock, where solve's limit is CLP's budget of process CPU time: with
// 64 processors, a program of some 25 ms with 1 ms left has 64 ms of CLP's budget, yet solveWithin answers it
// stopped at the millisecond (the abandoned solve runs on to that budget); with time enough, or no deadline, it
// is solved. solve stops where that budget ends: on one processor with its deadline passed, after a millisecond.
// No case here needs a solve to end within a time: only to take longer than a millisecond.
func TestSolveWithinKeepsTheDeadline(t *testing.T) {
	solve, within := (*program).solve, (*program).solveWithin
	for _, tc := range []struct {
		name       string
		solve      func(*program, time.Time, string) (lpSolution, error)
		processors int
		left       time.Duration
		want       lpStatus
	}{
		{"solveWithin, 64 processors, 1 ms left", within, 64, time.Millisecond, lpStopped},
		{"solveWithin, a minute left", within, 64, time.Minute, lpOptimal},
		{"solveWithin, no deadline", within, 64, 0, lpOptimal},
		{"solve, one processor, deadline passed", solve, 1, -time.Second, lpStopped},
		{"solve, no deadline", solve, 1, 0, lpOptimal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(tc.processors))
			var deadline time.Time
			if tc.left != 0 {
				deadline = time.Now().Add(tc.left)
			}
			solution, err := tc.solve(transportation(150), deadline, "150 × 150 transportation")
			if err != nil || solution.status != tc.want {
				t.Errorf("status %v, error %v; want %v", solution.status, err, tc.want)
			}
		})
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
