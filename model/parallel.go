package model

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// OnEveryProcessor calls do(i) for every i below n on as many goroutines as there are processors, each taking the
// next i when it is done with one. do must not touch what another i touches. The window's evaluation and the
// decoding of landscape files (ingest) share it.
func OnEveryProcessor(n int, do func(i int)) {
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
