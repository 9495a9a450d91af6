package main

import (
	"os"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// startingHeap is how much a command that plans once and ends may allocate before its first garbage collection.
// Reading a landscape and planning it leave little garbage — most of what they allocate lives to the end — so the
// runtime's default, a first collection at 4 MB and one at every doubling after it, marks the same objects again
// and again; a 1,000 × 200 plan ran seven collections, one or two of them inside its window. A plan of 10,000
// shoots ends before it reaches startingHeap; a larger one collects once there, and the runtime paces it from
// then on. (A smaller start moved the first collection of a 10,000-shoot plan into its window.)
const startingHeap = 256 << 20

// plansOnce is the PreRun of the commands that plan once and end — schedule, explain, rebalance, capacity — not of
// the loop, whose heap lives on: it defers the process's first collection (deferFirstCollection).
func plansOnce(*cobra.Command, []string) { deferFirstCollection() }

// deferFirstCollection lets the process allocate startingHeap before its first collection, then hands the
// collector its settings back, as cmd/compile sets a starting heap for itself. GOGC and GOMEMLIMIT in the
// environment are the operator's choice, and are left as they are; so is a collector already off, for whatever
// reason (a second call).
func deferFirstCollection() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	percent := debug.SetGCPercent(-1)
	if percent < 0 {
		debug.SetGCPercent(percent)
		return
	}
	limit := debug.SetMemoryLimit(startingHeap)
	// The first collection finds the sentinel unreachable and runs its finalizer. The sentinel is too large for
	// the tiny allocator, whose blocks may keep a finalizer from ever running.
	type sentinel struct{ _ [32]byte }
	runtime.SetFinalizer(new(sentinel), func(*sentinel) {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}
