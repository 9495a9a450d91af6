package solver

import "time"

// Budget is the time budget of a solve: the window LP falls back to the greedy assignment when it runs out,
// rebalancing finds its moves greedily, capacity planning returns its best answer unproven.
type Budget struct {
	// Timeout bounds the solve; 0 means no limit.
	Timeout time.Duration
}

// Deadline is the end of a budget that starts now; the zero time when there is no limit.
func (b Budget) Deadline() time.Time {
	if b.Timeout <= 0 {
		return time.Time{}
	}
	return time.Now().Add(b.Timeout)
}

// deadlineReached returns a channel that is closed when the deadline has passed (never for the zero deadline),
// and a function that releases it: what every wait for an LP within its budget selects on.
func deadlineReached(deadline time.Time) (<-chan struct{}, func()) {
	if deadline.IsZero() {
		return nil, func() {}
	}
	return deadlineSignal(deadline)
}

// timerSignal is deadlineSignal on Go's timers: it is exact when the scheduler is free, but while the garbage
// collector marks, an expired timer waits for a processor to look at it (golang/go#45632).
func timerSignal(deadline time.Time) (<-chan struct{}, func()) {
	reached := make(chan struct{})
	timer := time.AfterFunc(time.Until(deadline), func() { close(reached) })
	return reached, func() { timer.Stop() }
}
