package solver

import "time"

// timerSignal is deadlineSignal on Go's timers: it is exact when the scheduler is free, but while the garbage
// collector marks, an expired timer waits for a processor to look at it (golang/go#45632).
func timerSignal(deadline time.Time) (<-chan struct{}, func()) {
	reached := make(chan struct{})
	timer := time.AfterFunc(time.Until(deadline), func() { close(reached) })
	return reached, func() { timer.Stop() }
}
