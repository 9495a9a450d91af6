package solver

import (
	"testing"
	"time"
)

// The deadline signal of the LP's time budget fires once its deadline has passed, never before, and not at all
// once released.
func TestDeadlineSignal(t *testing.T) {
	for name, signal := range map[string]func(time.Time) (<-chan struct{}, func()){
		"platform": deadlineSignal,
		"timer":    timerSignal,
	} {
		t.Run(name, func(t *testing.T) {
			for _, in := range []time.Duration{-time.Second, 0, 20 * time.Millisecond} {
				deadline := time.Now().Add(in)
				reached, release := signal(deadline)
				select {
				case <-reached:
					if now := time.Now(); now.Before(deadline) {
						t.Errorf("deadline in %v: signalled %v before it", in, deadline.Sub(now))
					}
				case <-time.After(in + 5*time.Second):
					t.Errorf("deadline in %v: no signal 5 s after it", in)
				}
				release()
			}

			reached, release := signal(time.Now().Add(10 * time.Millisecond))
			release()
			select {
			case <-reached:
				t.Errorf("a released signal fired")
			case <-time.After(50 * time.Millisecond):
			}
		})
	}
}
