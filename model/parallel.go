package model

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// onEveryProcessor calls do(i) for every i below n on as many goroutines as there are processors, each taking the
// next i when it is done with one. do must not touch what another i touches.
func onEveryProcessor(n int, do func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				do(i)
			}
		})
	}
	wg.Wait()
}
