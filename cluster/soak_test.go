package cluster_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	eventsv1 "k8s.io/api/events/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/bench"
	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/internal/gardentest"
)

// Soak parameters: make test runs the short version, make soak the long one.
const (
	soakDurationEnv = "SEEDPLAN_SOAK_DURATION" // default 20s
	soakRateEnv     = "SEEDPLAN_SOAK_RATE"     // shoots created per second, default 10
	soakLifetime    = 5 * time.Second          // a bound shoot is deleted this long after it was seen bound
	// Every soakUnschedulableEvery-th shoot asks for a seed label no seed has: the loop's failure path, a
	// SchedulingFailed event and lastOperation per attempt and retries with backoff, until the shoot is deleted
	// soakLifetime after the test saw it reported.
	soakUnschedulableEvery = 20
)

// TestLoopSoak runs seedplan's loop (seedplan run) on the real control plane while shoots are created at a
// steady rate and deleted a few seconds after they are bound, so the landscape stays the same size; one in
// soakUnschedulableEvery no seed may take, deleted a few seconds after it is reported. Every other shoot must be
// bound, exactly once, each unschedulable one reported and never bound, no shoot left pending; the heap (after GC,
// sampled every second) must stay flat, and the goroutines end where they began. It logs the scheduling latency
// from creation to binding and the loop's bind time per window.
func TestLoopSoak(t *testing.T) {
	duration, rate := 20*time.Second, 10.0
	if v := os.Getenv(soakDurationEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("%s: %v", soakDurationEnv, err)
		}
		if d < 5*time.Second {
			t.Fatalf("%s: %s is too short to tell a flat heap (one sample per second, in thirds); at least 5s", soakDurationEnv, d)
		}
		duration = d
	}
	if v := os.Getenv(soakRateEnv); v != "" {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || r <= 0 {
			t.Fatalf("%s: want a positive number, got %q", soakRateEnv, v)
		}
		rate = r
	}
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "soak", []int64{1000, 1000, 1000, 1000}, 0, "soak")
	c := loopConfig(t, cp, "soak")
	loop := startLoop(t, cp.Config, c, "soak")
	// The goroutines are counted where the test has none of its own at work: once the loop leads, before the first
	// shoot, and once the last is gone. Sampled through the soak, they would count the test's creates waiting on the
	// API server too, two goroutines each, which pile up with the host's load rather than with a leak.
	waitFor(t, 30*time.Second, "the loop leads with its informers synced", func() bool {
		leader, ok := sample(get(loop.address, "/metrics"), "seedplan_leader")
		return ok && leader == 1 && get(loop.address, "/readyz") == "ok"
	})
	routinesBefore := runtime.NumGoroutine()

	// The heap sampled is the test's as well as the loop's, so what the test keeps is sized before the soak starts
	// and forgets a shoot once it is gone: bookkeeping that grew with every shoot created would grow the heap
	// by itself, and hide a leak of the loop's of its size.
	most := int(duration.Seconds()*rate) + 1
	shootName := func(i int) string { return fmt.Sprintf("shoot-%d", i) }
	shootNumber := func(name string) int {
		i, err := strconv.Atoi(strings.TrimPrefix(name, "shoot-"))
		if err != nil || i < 0 || i >= most {
			t.Fatalf("shoot %s: not one the test created", name)
		}
		return i
	}
	unschedulable := func(i int) bool { return i%soakUnschedulableEvery == soakUnschedulableEvery-1 }
	var (
		mu        sync.Mutex
		createdAt = make([]time.Time, most) // when shoot-N was created; zero if it was not
		created   int                       // shoots created
		failing   int                       // of them, the unschedulable ones
		settled   = map[string]time.Time{}  // shoots the last listing held bound, or reported unschedulable: since when
		deleted   = map[string]bool{}       // shoots the last listing held that the test has deleted
		everBound int
		unbound   int                                               // shoots without a seed in the last listing
		heap      = make([]float64, 0, int(duration/time.Second)+1) // MiB after GC, one sample per second
		creating  sync.WaitGroup
		deleting  sync.WaitGroup
	)
	observe := func() {
		var shoots gardencorev1beta1.ShootList
		if err := cp.Client.List(ctx, &shoots, client.InNamespace(namespace)); err != nil {
			t.Error(err)
			return
		}
		now := time.Now()
		var expired []*gardencorev1beta1.Shoot
		listed := make(map[string]bool, len(shoots.Items))
		mu.Lock()
		unbound = 0
		for i := range shoots.Items {
			shoot := &shoots.Items[i]
			listed[shoot.Name] = true
			number, pending := shootNumber(shoot.Name), shoot.Spec.SeedName == nil
			if pending {
				unbound++
				if !unschedulable(number) || shoot.Status.LastOperation == nil {
					continue // not bound yet, or not reported yet (a loaded loop can take seconds to try it)
				}
			}
			since, seen := settled[shoot.Name]
			if !seen {
				since = now
				settled[shoot.Name] = now
				if !pending {
					if unschedulable(number) {
						t.Errorf("shoot %s: bound to %s, which its seed selector rules out", shoot.Name, *shoot.Spec.SeedName)
					}
					everBound++ // a shoot gone from the garden is never listed again
				}
			}
			if now.Sub(since) > soakLifetime && !deleted[shoot.Name] {
				deleted[shoot.Name] = true
				expired = append(expired, shoot)
			}
		}
		maps.DeleteFunc(settled, func(name string, _ time.Time) bool { return !listed[name] })
		maps.DeleteFunc(deleted, func(name string, _ bool) bool { return !listed[name] })
		mu.Unlock()
		for _, shoot := range expired {
			deleting.Go(func() { // off the polling, which must not lag
				if err := cp.Client.Delete(ctx, shoot); client.IgnoreNotFound(err) != nil {
					t.Error(err)
				}
			})
		}
	}

	start := time.Now()
	// The creator creates at the rate, on its own so that polling never holds it up.
	creating.Go(func() {
		tick := time.NewTicker(time.Duration(float64(time.Second) / rate))
		defer tick.Stop()
		for i := 0; i < most && time.Since(start) < duration; i++ {
			<-tick.C
			name, region := shootName(i), fmt.Sprintf("soak-%d", 1+i%2)
			creating.Go(func() { // a create can take longer than the interval
				shoot := gardentest.Shoot(namespace, name, "soak", "aws", region, region+"a")
				shoot.Spec.SchedulerName = &c.SchedulerName
				if unschedulable(i) {
					gardentest.Unschedulable(shoot)
				}
				if err := cp.Create(ctx, shoot); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				createdAt[i] = time.Now() // latency counts from when the API server has the shoot
				created++
				if unschedulable(i) {
					failing++
				}
				mu.Unlock()
			})
		}
	})
	poll := time.NewTicker(100 * time.Millisecond)
	sample := time.NewTicker(time.Second)
	for time.Since(start) < duration {
		select {
		case <-poll.C:
			observe()
		case <-sample.C:
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			heap = append(heap, float64(m.HeapAlloc)/(1<<20))
		}
	}
	sample.Stop()
	creating.Wait()
	createdIn := time.Since(start)
	waitFor(t, 60*time.Second, "every shoot created is bound, and every unschedulable one deleted", func() bool {
		<-poll.C
		observe()
		mu.Lock()
		defer mu.Unlock()
		return everBound == created-failing && unbound == 0
	})
	poll.Stop()
	deleting.Wait()
	var metrics string
	waitFor(t, 5*time.Second, "no shoot is pending", func() bool {
		metrics = get(loop.address, "/metrics")
		return metricValue(t, metrics, "seedplan_pending_shoots") == 0
	})
	// A tenth and 20 more than before, for connections opened under load; a goroutine leaked a binding never
	// settles. A leaked goroutine's stack is not in the heap, so the heap alone would not tell.
	routinesAfter := runtime.NumGoroutine()
	if !waitUntil(5*time.Second, func() bool {
		routinesAfter = runtime.NumGoroutine()
		return float64(routinesAfter) <= float64(routinesBefore)*1.1+20
	}) {
		t.Errorf("the goroutines grew from %d to %d", routinesBefore, routinesAfter)
	}
	loop.stop(t)

	// Bound exactly once, by the loop.
	var events eventsv1.EventList
	if err := cp.Client.List(ctx, &events, client.InNamespace(namespace)); err != nil {
		t.Fatal(err)
	}
	scheduled, failed := map[string]int{}, map[string]int{}
	boundAt := map[string]time.Time{} // the binding's event time
	for _, e := range events.Items {
		switch e.Reason {
		case bind.ReasonSchedulingSuccessful:
			scheduled[e.Regarding.Name]++
			boundAt[e.Regarding.Name] = e.EventTime.Time
		case bind.ReasonSchedulingFailed:
			failed[e.Regarding.Name]++
		}
	}
	var latencies []float64
	failures := 0
	for i, at := range createdAt {
		name := shootName(i)
		switch {
		case at.IsZero():
		case unschedulable(i):
			if scheduled[name] != 0 || failed[name] == 0 {
				t.Errorf("shoot %s: %d SchedulingSuccessful and %d SchedulingFailed events, want none and some", name, scheduled[name], failed[name])
			}
			failures += failed[name]
		case scheduled[name] != 1:
			t.Errorf("shoot %s: %d SchedulingSuccessful events, want 1", name, scheduled[name])
		default:
			latencies = append(latencies, boundAt[name].Sub(at).Seconds())
		}
	}
	// The loop timed every binding once.
	if timed := metricValue(t, metrics, "seedplan_scheduling_duration_seconds_count"); timed != created-failing {
		t.Errorf("seedplan_scheduling_duration_seconds_count %d, want %d", timed, created-failing)
	}

	// The heap stays flat (thirds): by a tenth and 1 MiB, several times what the floors of a flat one differ by.
	fromHeap, toHeap := thirds(t, heap)
	if toHeap > fromHeap*1.1+1 {
		t.Errorf("the heap grew from %.1f MiB to %.1f MiB (samples %v)", fromHeap, toHeap, heap)
	}
	if created == 0 {
		t.Fatal("no shoot was created")
	}
	quantile := func(q float64) time.Duration {
		return time.Duration(bench.Quantile(latencies, q) * float64(time.Second)).Round(time.Millisecond)
	}
	t.Logf("soak: %s at %.0f shoots/s (%.1f/s achieved): %d shoots created, every one of the %d schedulable bound once, the %d others "+
		"never (%d SchedulingFailed events); creation→binding p50 %s, p99 %s, max %s "+
		"(window maxWait %s: 0 means closed by work); heap after GC %.1f → %.1f MiB (middle → last third, floors), goroutines %d → %d (before the first shoot → after the last)\n%s",
		duration, rate, float64(created)/createdIn.Seconds(), created, created-failing, failing, failures,
		quantile(0.5), quantile(0.99), quantile(1), c.Window.MaxWait.Duration, fromHeap, toHeap, routinesBefore, routinesAfter,
		grep(metrics, "seedplan_bind_duration_seconds_sum", "seedplan_model_duration_seconds_sum", "seedplan_solve_duration_seconds_sum", "seedplan_window_shoots_sum", "seedplan_window_shoots_count", "seedplan_bindings_total",
			"seedplan_scheduling_duration_seconds_sum"))
}

// thirds returns the floors (the least samples) of the middle and the last third of samples taken through a
// soak, the first third left to warm up. A leak lifts the floor: it draws them apart by a third of all it leaks.
// What is in flight at a sample — a window, a burst of events, the work of the package's other tests in the same
// process — lifts single samples by a few MiB, and medians with them when a third happens to catch more of it
// (10.8 → 12.9 MiB, nothing leaked, in a race run of the whole package). A bound on the maxima, or one relative
// to what is sampled, would let a leak grow the heap to several times its size unnoticed.
func thirds(t *testing.T, samples []float64) (middle, last float64) {
	t.Helper()
	third := len(samples) / 3
	if third == 0 {
		t.Fatalf("only %d samples; the soak was too short to tell", len(samples))
	}
	return slices.Min(samples[third : 2*third]), slices.Min(samples[2*third:])
}
