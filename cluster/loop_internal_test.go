package cluster

import (
	"slices"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/seedplan/seedplan/config"
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

// The run loop's start record names each setting after the configuration's field, and the LP's time budget and
// weights only where the LP decides: under the greedy rule, which has neither, they would describe nothing.
func TestStartRecordNamesTheSettingsInForce(t *testing.T) {
	for _, tc := range []struct {
		solver string
		keys   []string
	}{
		{config.SolverLP, []string{"instance", "schedulerName", "strategy", "solver", "solverTimeout", "weights", "targetUtilization", "maxShoots", "maxWait", "leaderElection"}},
		{config.SolverGreedy, []string{"instance", "schedulerName", "strategy", "solver", "targetUtilization", "maxShoots", "maxWait", "leaderElection"}},
	} {
		c := config.Default()
		c.Solver.Name = tc.solver
		attrs := startAttrs(c, "host")
		var keys []string
		for i := 0; i < len(attrs); i += 2 {
			keys = append(keys, attrs[i].(string))
		}
		if !slices.Equal(keys, tc.keys) {
			t.Errorf("solver %s: the start record says %v, want %v", tc.solver, keys, tc.keys)
		}
	}
}

// A shoot stays out of windows while a binding is awaited: one of the loop's in flight, or made and not yet in the
// cache; for a shadow, another scheduler's for the shoot it placed, until the shoot's spec changes. Another shoot
// of the name, or one not tracked, is planned.
func TestWaitsForBinding(t *testing.T) {
	pending := &gardencorev1beta1.Shoot{ObjectMeta: metav1.ObjectMeta{UID: "a", Generation: 2}}
	bound := pending.DeepCopy()
	bound.Spec.SeedName = ptr.To("fra")
	for _, tc := range []struct {
		name  string
		state *tracked
		shoot *gardencorev1beta1.Shoot
		want  bool
	}{
		{"not tracked", nil, pending, false},
		{"tracked, nothing awaited", &tracked{uid: "a", generation: 2}, pending, false},
		{"its binding in flight", &tracked{uid: "a", generation: 2, boundTo: "fra", inFlight: true}, pending, true},
		{"bound, the cache behind", &tracked{uid: "a", generation: 2, boundTo: "fra"}, pending, true},
		{"bound, the cache caught up", &tracked{uid: "a", generation: 2, boundTo: "fra"}, bound, false},
		{"placed by a shadow", &tracked{uid: "a", generation: 2, placed: true}, pending, true},
		{"placed by a shadow, its spec changed since", &tracked{uid: "a", generation: 1, placed: true}, pending, false},
		{"another shoot of the name", &tracked{uid: "b", generation: 2, boundTo: "fra", inFlight: true}, pending, false},
	} {
		if got := tc.state.waitsForBinding(tc.shoot); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
