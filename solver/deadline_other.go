//go:build !linux

package solver

import "time"

// deadlineSignal returns a channel that is closed when the deadline has passed, and a function that releases it.
func deadlineSignal(deadline time.Time) (<-chan struct{}, func()) { return timerSignal(deadline) }
