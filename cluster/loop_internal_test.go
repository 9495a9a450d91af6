package cluster

import (
	"testing"
	"time"
)

// The backoff of a shoot a window could not place is the gardener-scheduler's per-item rate limiter.
func TestRetryDelay(t *testing.T) {
	cases := []struct {
		failures int
		want     time.Duration
	}{
		{1, 5 * time.Millisecond},
		{2, 10 * time.Millisecond},
		{11, 5120 * time.Millisecond},
		{18, 655360 * time.Millisecond},
		{19, 1000 * time.Second}, // 1310.72 s, capped
		{64, 1000 * time.Second},
	}
	for _, tc := range cases {
		if got := retryDelay(tc.failures); got != tc.want {
			t.Errorf("retryDelay(%d) = %s, want %s", tc.failures, got, tc.want)
		}
	}
}
