package model

import (
	"sync/atomic"
	"testing"
)

func TestOnEveryProcessorCallsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 100} {
		calls := make([]atomic.Int32, n)
		OnEveryProcessor(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Errorf("n=%d: do(%d) called %d times, want once", n, i, got)
			}
		}
	}
}
