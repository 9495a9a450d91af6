package main

import (
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"
)

// The commands that plan once and end defer the first collection; the loop and the others keep the runtime's
// pacing.
func TestCommandsThatPlanOnceDeferTheFirstCollection(t *testing.T) {
	plansOnceCommands := []string{"schedule", "explain", "rebalance", "capacity"}
	for _, cmd := range newRootCommand().Commands() {
		deferred := cmd.PreRun != nil && reflect.ValueOf(cmd.PreRun).Pointer() == reflect.ValueOf(plansOnce).Pointer()
		if want := slices.Contains(plansOnceCommands, cmd.Name()); deferred != want {
			t.Errorf("%s: defers the first collection %v, want %v", cmd.Name(), deferred, want)
		}
	}
}

// deferFirstCollection turns the collector off up to startingHeap, and its first collection hands the settings
// back; settings in the environment are left alone.
func TestDeferFirstCollection(t *testing.T) {
	collectUntilOn(t) // a command another test ran may have deferred the collection of this process
	t.Run("settings from the environment", func(t *testing.T) {
		t.Setenv("GOGC", "100")
		before := gcPercent()
		deferFirstCollection()
		if percent := gcPercent(); percent != before {
			t.Fatalf("GOGC set: the collector's percent became %d, was %d", percent, before)
		}
	})
	t.Run("off until the first collection", func(t *testing.T) {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		before, beforeLimit := gcPercent(), debug.SetMemoryLimit(-1) // a negative limit reads it
		deferFirstCollection()
		if percent, limit := gcPercent(), debug.SetMemoryLimit(-1); percent >= 0 || limit != startingHeap {
			t.Fatalf("deferred: percent %d and memory limit %d, want off and %d", percent, limit, startingHeap)
		}
		deferFirstCollection() // off already: a second call changes nothing, and keeps the first's way back
		collectUntilOn(t)
		if percent, limit := gcPercent(), debug.SetMemoryLimit(-1); percent != before || limit != beforeLimit {
			t.Fatalf("after the first collection: percent %d and memory limit %d, want %d and %d", percent, limit, before, beforeLimit)
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
