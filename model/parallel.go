package model

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// OnEveryProcessor calls do(i) for every i below n on as many goroutines as there are processors, each taking the
// next i when it is done with one. do must not touch what another i touches. The window's evaluation and the
// decoding of landscape files (ingest) share it.
//
// One goroutine's work — one i, or one processor — is done in the caller's goroutine: starting and waking another
// costs more than a small file's decoding, and a directory may hold thousands.
//
// The goroutines fault as their caller does: when it asked for a panic on a memory fault (debug.SetPanicOnFault),
// as the reader of a mapped file does, so do they, and the first such panic is raised again in the caller, as a
// *Fault, once they have stopped, where its recover sees it. Other panics crash the program where they happen,
// as always.
func OnEveryProcessor(n int, do func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			do(i)
		}
		return
	}
	panicOnFault := debug.SetPanicOnFault(false)
	debug.SetPanicOnFault(panicOnFault)
	faults := make([]*Fault, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			if panicOnFault {
				debug.SetPanicOnFault(true)
				defer func() {
					if r := recover(); r != nil {
						faults[w] = faultOf(r)
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

// A Fault is a memory fault that one of OnEveryProcessor's goroutines ran into, raised again in its caller: the
// runtime's error, the address that faulted, and the stack of the goroutine where it happened, which a crash in
// the caller would not show.
type Fault struct {
	Err   runtime.Error
	At    uintptr
	Stack []byte
}

// Addr is the address that faulted, as the runtime's error of a fault tells it.
func (f *Fault) Addr() uintptr { return f.At }

// RuntimeError marks a Fault as the runtime error it carries.
func (f *Fault) RuntimeError() {}

// Error is the fault, where in memory it happened, and the stack of the goroutine it happened in.
func (f *Fault) Error() string {
	return fmt.Sprintf("%v at %#x in another goroutine:\n%s", f.Err, f.At, f.Stack)
}

// faultOf is the Fault a panic recovered in the goroutine where it happened stands for; a panic that is not a
// memory fault goes on there. The fault's address is read at once: the runtime keeps it only until recovery ends.
func faultOf(r any) *Fault {
	err, isRuntime := r.(runtime.Error)
	addressed, fault := r.(interface{ Addr() uintptr })
	if !isRuntime || !fault {
		panic(r)
	}
	return &Fault{Err: err, At: addressed.Addr(), Stack: debug.Stack()}
}
