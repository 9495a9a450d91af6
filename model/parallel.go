package model

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// OnEveryProcessor calls do(i) for every i below n on as many goroutines as there are processors, each taking the
// next i when it is done with one. do must not touch what another i touches. The window's evaluation and the
// decoding of landscape files (ingest) share it.
//
// The goroutines fault as their caller does: when it asked for a panic on a memory fault (debug.SetPanicOnFault),
// as the reader of a mapped file does, so do they, and the first such panic is raised again in the caller once
// they have stopped, where its recover sees it. Other panics crash the program where they happen, as always.
func OnEveryProcessor(n int, do func(i int)) {
	panicOnFault := debug.SetPanicOnFault(false)
	debug.SetPanicOnFault(panicOnFault)
	workers := min(runtime.GOMAXPROCS(0), n)
	faults := make([]any, max(workers, 0))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			if panicOnFault {
				debug.SetPanicOnFault(true)
				defer func() {
					if r := recover(); r != nil {
						if _, fault := r.(interface{ Addr() uintptr }); !fault {
							panic(r)
						}
						faults[w] = r
						next.Store(int64(n)) // the others stop too
					}
				}()
			}
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				do(i)
			}
		})
	}
	wg.Wait()
	for _, fault := range faults {
		if fault != nil {
			panic(fault)
		}
	}
}
