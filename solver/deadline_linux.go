package solver

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// deadlineSignal returns a channel that is closed when the deadline has passed, and a function that releases it.
//
// On Linux the deadline is a timerfd read through the network poller. The time budget's promise (the greedy plan
// within the timeout and 10 ms) is at stake exactly when the garbage collector runs: then an idle processor does
// marking instead of checking timers, and an expired Go timer waited up to 14 ms on 2 cores. The mark workers do
// poll the network, so a timerfd is noticed within a fraction of a millisecond.
func deadlineSignal(deadline time.Time) (<-chan struct{}, func()) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return timerSignal(deadline)
	}
	expiry := unix.ItimerSpec{Value: unix.NsecToTimespec(max(time.Until(deadline), time.Nanosecond).Nanoseconds())}
	if err := unix.TimerfdSettime(fd, 0, &expiry, nil); err != nil {
		unix.Close(fd)
		return timerSignal(deadline)
	}
	timer := os.NewFile(uintptr(fd), "solver deadline") // non-blocking, so read through the network poller
	reached := make(chan struct{})
	go func() {
		var expirations [8]byte
		if _, err := timer.Read(expirations[:]); err == nil {
			close(reached)
		}
	}()
	return reached, func() { timer.Close() }
}
