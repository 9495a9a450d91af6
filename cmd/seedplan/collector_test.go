package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// deferFirstCollection turns the collector off up to startingHeap, and its first collection hands the settings
// back; settings in the environment are left alone.
func TestDeferFirstCollection(t *testing.T) {
	collectUntilOn(t) // a command another test ran may have deferred the collection of this process
	t.Run("settings from the environment", func(t *testing.T) {
		t.Setenv("GOGC", "100")
		deferFirstCollection()
		if percent := gcPercent(); percent != 100 {
			t.Fatalf("GOGC set: the collector's percent became %d", percent)
		}
	})
	t.Run("off until the first collection", func(t *testing.T) {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		before := gcPercent()
		deferFirstCollection()
		if percent, limit := gcPercent(), debug.SetMemoryLimit(-1); percent >= 0 || limit != startingHeap {
			t.Fatalf("deferred: percent %d and memory limit %d, want off and %d", percent, limit, startingHeap)
		}
		deferFirstCollection() // off already: a second call changes nothing, and keeps the first's way back
		collectUntilOn(t)
		if percent, limit := gcPercent(), debug.SetMemoryLimit(-1); percent != before || limit != math.MaxInt64 {
			t.Fatalf("after the first collection: percent %d and memory limit %d, want %d and none", percent, limit, before)
		}
	})
}

// collectUntilOn collects garbage until the collector is on: the first collection after deferFirstCollection
// queues the finalizer that turns it on again.
func collectUntilOn(t *testing.T) {
	for deadline := time.Now().Add(10 * time.Second); gcPercent() < 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the collector is still off after ten seconds of collections")
		}
		runtime.GC()
	}
}

// gcPercent reads the collector's percent (a negative SetGCPercent sets it off, so it is set back at once).
func gcPercent() int {
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent
}
