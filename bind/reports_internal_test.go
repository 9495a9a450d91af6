package bind

import (
	"sync/atomic"
	"testing"
	"time"
)

// Events of bindings wait while an Apply binds, and are all written once none does; while bindings go on, a queue
// that reaches what may be held is written down below it, so that a garden that is never idle still gets its events
// and the queue stays bounded.
func TestReportsWaitForBindings(t *testing.T) {
	cases := []struct {
		name     string
		queued   int
		released bool // the Apply in progress ends
		want     int  // written, once every writer has stopped
	}{
		{"no apply in progress", 3, true, 3},
		{"an apply in progress", 3, false, 0},
		{"an apply in progress, the queue full", maxHeldReports + 5, false, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r reports
			var written atomic.Int64
			r.hold(maxHeldReports)
			for range tc.queued {
				r.add(func() { written.Add(1) })
			}
			r.start()
			if tc.released {
				r.release()
			}
			waitForWriters(t, &r)
			if got := int(written.Load()); got != tc.want {
				t.Fatalf("%d of %d events written, want %d", got, tc.queued, tc.want)
			}
			if !tc.released {
				r.release()
				r.pending.Wait()
				if got := int(written.Load()); got != tc.queued {
					t.Fatalf("after the apply: %d of %d events written", got, tc.queued)
				}
			}
		})
	}
}

// waitForWriters returns once no writer runs.
func waitForWriters(t *testing.T, r *reports) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r.mu.Lock()
		writers := r.writers
		r.mu.Unlock()
		if writers == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("writers still running after 10 s")
		}
		time.Sleep(time.Millisecond)
	}
}
