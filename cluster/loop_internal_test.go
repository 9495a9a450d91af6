package cluster

import (
	"slices"
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

// The loop logs a warning of the landscape when it first holds, not again every window while it holds, and again
// when it comes back after it went away.
func TestWarningsAreFreshOnce(t *testing.T) {
	var w warnings
	for _, step := range []struct {
		now, fresh []string
	}{
		{nil, nil},
		{[]string{"a", "b"}, []string{"a", "b"}},
		{[]string{"b", "a"}, nil},
		{[]string{"a", "c", "c"}, []string{"c"}},
		{nil, nil},
		{[]string{"a"}, []string{"a"}},
	} {
		if got := w.fresh(step.now); !slices.Equal(got, step.fresh) {
			t.Fatalf("after %v: fresh %v, want %v", step.now, got, step.fresh)
		}
	}
}
