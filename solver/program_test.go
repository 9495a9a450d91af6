package solver

import (
	"errors"
	"math"
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
