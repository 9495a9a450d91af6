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
