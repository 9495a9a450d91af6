package cluster_test

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/go-logr/logr"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/cluster"
	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/fixture"
	"github.com/seedplan/seedplan/internal/gardentest"
	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

var garden gardentest.Shared

// TestMain gives controller-runtime (the loop's cache) the default logger, as the seedplan command gives it its
// own: without one it drops its records and, 30 s into the tests, writes a stack trace saying so.
func TestMain(m *testing.M) {
	crlog.SetLogger(logr.FromSlogHandler(slog.Default().Handler()))
	garden.Run(m)
}

// The shoots of a test's landscape are placed only by a scheduler named like the test (schedulerOf).

// snapshot reads everything from the API server.
func snapshot(t testing.TB, c client.Client) *model.Snapshot {
	t.Helper()
	l, err := ingest.LoadCluster(context.Background(), c, ingest.ListPageSize)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := model.NewSnapshot(l.Objects)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// verifyBindings is the independent check: it lists everything after the fact and verifies, against the
// landscape as it was before, every binding made meanwhile of the namespace's shoots — every predicate and every
// seed's capacity — with model.Verify. It returns the number of shoots bound.
func verifyBindings(t testing.TB, c client.Client, before *model.Snapshot, namespace string) int {
	t.Helper()
	after := snapshot(t, c)
	plan := &model.Plan{}
	opts := model.Options{SchedulerName: schedulerOf(namespace)}
	for _, shoot := range before.Pending(opts.SchedulerName) {
		if shoot.Namespace != namespace {
			continue
		}
		now := after.Shoot(shoot.Namespace + "/" + shoot.Name)
		if now != nil && now.Spec.SeedName != nil {
			plan.Placements = append(plan.Placements, model.Placement{Shoot: shoot.Namespace + "/" + shoot.Name, Seed: *now.Spec.SeedName})
		}
	}
	if err := model.Verify(before, opts, plan); err != nil {
		t.Fatalf("bindings found afterwards violate the landscape's constraints: %v", err)
	}
	return len(plan.Placements)
}

// schedulerOf is the scheduler name of a test's shoots: the test's name, its namespace without "garden-".
func schedulerOf(namespace string) string { return strings.TrimPrefix(namespace, "garden-") }

func newScheduler(t testing.TB, c client.Client, namespace string, dryRun bool) *cluster.Scheduler {
	t.Helper()
	weights := solver.DefaultWeights()
	return &cluster.Scheduler{
		Reader: c, PageSize: ingest.ListPageSize,
		Binder:  &bind.Binder{Client: c, Concurrency: 8, Instance: "test"},
		Metrics: metrics.NewMetrics(false), DryRun: dryRun,
		Policy: plan.Policy{Options: model.Options{SchedulerName: schedulerOf(namespace)},
			Solver: solver.LP{Weights: weights, Timeout: 10 * time.Second}, Weights: weights},
	}
}

// The schedule job binds every shoot it can place and nothing beyond capacity; the independent check agrees.
func TestJobBindsPendingShoots(t *testing.T) {
	cp := garden.Get(t)
	// Seeds 0 and 2 in region 1 (8 slots for its 7 shoots), seed 1 in region 2 (4 slots for 7 shoots).
	namespace := cp.Landscape(t, "job", []int64{4, 4, 4}, 14, "job")
	before := snapshot(t, cp.Client)
	report, err := newScheduler(t, cp.Client, namespace, false).RunJob(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if report.Bindings[model.Bound] != 11 || len(report.Unschedulable) != 3 {
		t.Fatalf("bindings %v, unschedulable %d; want 11 bound, 3 unschedulable", report.Bindings, len(report.Unschedulable))
	}
	if n := verifyBindings(t, cp.Client, before, namespace); n != 11 {
		t.Fatalf("%d shoots bound afterwards, want 11", n)
	}
	// Running again binds nothing more and changes no binding.
	report, err = newScheduler(t, cp.Client, namespace, false).RunJob(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if report.Bindings[model.Bound] != 0 {
		t.Fatalf("second run bound %d shoots, want 0", report.Bindings[model.Bound])
	}
}

// --dry-run reads and plans but writes nothing: every object keeps its resourceVersion, no event is written.
func TestJobDryRunWritesNothing(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "dryrun", []int64{2}, 4, "dryrun")
	versions := func() map[string]string {
		out := map[string]string{}
		var shoots gardencorev1beta1.ShootList
		var seeds gardencorev1beta1.SeedList
		if err := cp.Client.List(ctx, &shoots, client.InNamespace(namespace)); err != nil {
			t.Fatal(err)
		}
		if err := cp.Client.List(ctx, &seeds); err != nil {
			t.Fatal(err)
		}
		for _, s := range shoots.Items {
			out["shoot "+s.Name] = s.ResourceVersion
		}
		for _, s := range seeds.Items {
			out["seed "+s.Name] = s.ResourceVersion
		}
		return out
	}
	before := versions()
	report, err := newScheduler(t, cp.Client, namespace, true).RunJob(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if report.Bindings != nil || len(report.Placements) == 0 {
		t.Fatalf("dry run: %d placements planned, bindings %v; want a plan and no bindings", len(report.Placements), report.Bindings)
	}
	after := versions()
	for key, version := range before {
		if after[key] != version {
			t.Errorf("%s: resourceVersion %s → %s during a dry run", key, version, after[key])
		}
	}
	var events eventsv1.EventList
	if err := cp.Client.List(ctx, &events, client.InNamespace(namespace)); err != nil {
		t.Fatal(err)
	}
	if len(events.Items) != 0 {
		t.Fatalf("dry run wrote %d events", len(events.Items))
	}
}

// A second writer changes a shoot at the moment seedplan binds it. A change to its spec makes the binding a
// conflict, and the job's next window (which reads the shoot afresh) binds it; a change to its labels, which no
// predicate reads, has the binding made again at once, in the same window.
func TestJobRetriesConflictInNextWindow(t *testing.T) {
	for _, tc := range []struct {
		name, landscape   string
		change            func(*gardencorev1beta1.Shoot)
		conflicts, rounds int
	}{
		{"its spec", "conflict", func(s *gardencorev1beta1.Shoot) { s.Spec.Provider.Workers[0].Maximum++ }, 1, 2},
		{"a label", "relabel", func(s *gardencorev1beta1.Shoot) { metav1.SetMetaDataLabel(&s.ObjectMeta, "changed-by", "someone-else") }, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cp := garden.Get(t)
			namespace := cp.Landscape(t, tc.landscape, []int64{10, 10}, 3, tc.landscape)
			before := snapshot(t, cp.Client)
			writer, changed := changingShoot1(t, cp.Client, tc.change)
			report, err := newScheduler(t, writer, namespace, false).RunJob(context.Background(), 3)
			if err != nil {
				t.Fatal(err)
			}
			if !changed.Load() {
				t.Fatal("the second writer never changed shoot-1 as it was bound")
			}
			if report.Bindings[model.Conflict] != tc.conflicts || report.Bindings[model.Bound] != 3 || report.Rounds != tc.rounds {
				t.Fatalf("bindings %v in %d rounds; want %d conflicts, all 3 bound in %d rounds", report.Bindings, report.Rounds, tc.conflicts, tc.rounds)
			}
			if n := verifyBindings(t, cp.Client, before, namespace); n != 3 {
				t.Fatalf("%d shoots bound, want 3", n)
			}
		})
	}
}

// changingShoot1 is a client that, the first time shoot-1 is bound, has a second writer change it just before;
// changed says whether it did.
func changingShoot1(t *testing.T, c client.Client, change func(*gardencorev1beta1.Shoot)) (writer client.Client, changed *atomic.Bool) {
	var once sync.Once
	changed = &atomic.Bool{}
	return interceptor.NewClient(c.(client.WithWatch), interceptor.Funcs{
		SubResourceUpdate: func(ctx context.Context, c client.Client, subResource string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			if subResource == "binding" && obj.GetName() == "shoot-1" {
				once.Do(func() {
					shoot := &gardencorev1beta1.Shoot{}
					if err := c.Get(ctx, client.ObjectKeyFromObject(obj), shoot); err != nil {
						t.Error(err)
						return
					}
					change(shoot)
					if err := c.Update(ctx, shoot); err != nil {
						t.Error(err)
						return
					}
					changed.Store(true)
				})
			}
			return c.SubResource(subResource).Update(ctx, obj, opts...)
		},
	}), changed
}

// The loop warns of a malformed region ConfigMap entry when it first meets it, not again for every window while it
// holds, and again when it comes back after it was gone.
func TestLoopWarnsOfLandscapeProblemsOnce(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "lwarn", []int64{100, 100}, 1, "lwarn") // a seed in each of the shoots' two regions
	logged := newRecordLog(slog.LevelWarn)
	defer fixture.RestoreLogging()()
	slog.SetDefault(slog.New(logged))
	regions := func() *corev1.ConfigMap {
		return gardentest.RegionConfig("lwarn-regions", "lwarn-profile", map[string]string{"lwarn-1": "lwarn-2: far"})
	}
	c := loopConfig(t, cp, "lwarn") // makes sure namespace garden exists
	if err := cp.Client.Create(ctx, regions()); err != nil {
		t.Fatal(err)
	}
	loop := startLoop(t, cp.Config, c, "lwarn")
	defer loop.stop(t)
	warned := func() int {
		n := 0
		for _, w := range logged.warnings() {
			if strings.Contains(w, "region ConfigMap garden/lwarn-regions") {
				n++
			}
		}
		return n
	}
	bind := func(from, to int) { // a window for each shoot: the loop plans them as they come
		for i := from; i < to; i++ {
			cp.CreateShoots(t, namespace, "lwarn", i, i+1, "lwarn")
			waitFor(t, 60*time.Second, fmt.Sprintf("the loop binds shoot %d", i), func() bool { return boundCount(t, cp.Client, namespace) == i+1 })
		}
	}
	waitFor(t, 60*time.Second, "the loop binds the first shoot", func() bool { return boundCount(t, cp.Client, namespace) == 1 })
	bind(1, 4)
	if n := warned(); n != 1 {
		t.Fatalf("warned %d times over 4 windows, want once:\n%q", n, logged.warnings())
	}
	if err := cp.Client.Delete(ctx, regions()); err != nil {
		t.Fatal(err)
	}
	bind(4, 6) // the cache may show the deletion a window late
	if err := cp.Client.Create(ctx, regions()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cp.Client.Delete(context.Background(), regions()) })
	bind(6, 8)
	if n := warned(); n != 2 {
		t.Fatalf("warned %d times, want again once the entry came back:\n%q", n, logged.warnings())
	}
}

// A seed that the gardener-apiserver lets a garden hold, however odd, stops no window: the loop binds the garden's
// shoots, the seed read as the gardener-scheduler reads it, and warns once of what it reads otherwise than written.
// Each failed every window before: a taint-effects annotation that does not parse, an allocatable that is no whole
// number of shoots (a seed status is not validated), a region longer than any region ConfigMap key.
func TestLoopBindsBesideAnOddSeed(t *testing.T) {
	for _, tc := range []struct {
		prefix string
		change func(ctx context.Context, c client.Client, seed *gardencorev1beta1.Seed) error
		warns  string // a warning of the seed, logged once; "": none (the garden is shared with other tests' seeds)
	}{
		{"ltaint", func(ctx context.Context, c client.Client, seed *gardencorev1beta1.Seed) error {
			metav1.SetMetaDataAnnotation(&seed.ObjectMeta, model.AnnotationTaintEffects, "retiring=Sometimes")
			return c.Update(ctx, seed)
		}, `seed ltaint-seed0: metadata.annotations[seedplan.gardener.cloud/taint-effects]: taint "retiring" has unknown effect "Sometimes"`},
		{"lalloc", func(ctx context.Context, c client.Client, seed *gardencorev1beta1.Seed) error {
			seed.Status.Allocatable[gardencorev1beta1.ResourceShoots] = resource.MustParse("2500m")
			return c.Status().Update(ctx, seed)
		}, `seed lalloc-seed0: status.allocatable.shoots is 2500m, not a whole number of shoots from 0 to 2^63-1: it is read as 3`},
		{"lregion", func(ctx context.Context, c client.Client, seed *gardencorev1beta1.Seed) error {
			seed.Spec.Provider.Region = strings.Repeat("r", 300) // the shoots' regions keep a seed each
			return c.Update(ctx, seed)
		}, ""},
	} {
		t.Run(tc.prefix, func(t *testing.T) {
			cp := garden.Get(t)
			ctx := context.Background()
			namespace := cp.Landscape(t, tc.prefix, []int64{100, 100, 100}, 3, tc.prefix)
			logged := newRecordLog(slog.LevelWarn)
			defer fixture.RestoreLogging()()
			slog.SetDefault(slog.New(logged))
			seed := &gardencorev1beta1.Seed{}
			if err := cp.Client.Get(ctx, client.ObjectKey{Name: tc.prefix + "-seed0"}, seed); err != nil {
				t.Fatal(err)
			}
			if err := tc.change(ctx, cp.Client, seed); err != nil {
				t.Fatal(err)
			}
			loop := startLoop(t, cp.Config, loopConfig(t, cp, tc.prefix), tc.prefix)
			defer loop.stop(t)
			waitFor(t, 60*time.Second, "the loop binds the pending shoots", func() bool { return boundCount(t, cp.Client, namespace) == 3 })
			cp.CreateShoots(t, namespace, tc.prefix, 3, 4, tc.prefix)
			waitFor(t, 60*time.Second, "the loop binds a shoot of a later window", func() bool { return boundCount(t, cp.Client, namespace) == 4 })
			warned, want := 0, 1
			if tc.warns == "" {
				want = 0
			}
			for _, w := range logged.warnings() {
				if strings.Contains(w, cmp.Or(tc.warns, "seed "+tc.prefix+"-seed0")) {
					warned++
				}
			}
			if warned != want {
				t.Fatalf("warned of the seed %d times, want %d:\n%q", warned, want, logged.warnings())
			}
			// The gauge counts the garden's every warning, and the garden is shared: at least this one.
			if gauge := metricValue(t, get(loop.address, "/metrics"), "seedplan_landscape_warnings"); gauge < want {
				t.Errorf("seedplan_landscape_warnings %d, want at least %d", gauge, want)
			}
			if errs := logged.errors(); len(errs) > 0 {
				t.Fatalf("the loop logged errors: %q", errs)
			}
		})
	}
}

// Two run loops with leader election: only the leader binds; when it stops (releasing the Lease), the other takes
// over and binds what comes next. Every shoot is bound exactly once, and no graceful stop, a standby's or a
// leader's, logs an error.
func TestLoopLeaderElection(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "loop", []int64{100, 100}, 6, "loop")
	logged := newRecordLog(slog.LevelWarn)
	defer fixture.RestoreLogging()() // the loops log to the default logger, as the seedplan command sets it
	slog.SetDefault(slog.New(logged))

	type instance struct {
		name    string
		cancel  context.CancelFunc
		done    chan error
		address string
	}
	start := func(name string) *instance {
		c := loopConfig(t, cp, "loop") // both replicas under one Lease
		c.LeaderElection.LeaseDuration = metav1.Duration{Duration: 4 * time.Second}
		c.LeaderElection.RenewDeadline = metav1.Duration{Duration: 3 * time.Second}
		c.LeaderElection.RetryPeriod = metav1.Duration{Duration: 500 * time.Millisecond}
		listener, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		runCtx, cancel := context.WithCancel(ctx)
		in := &instance{name: name, cancel: cancel, done: make(chan error, 1), address: listener.Addr().String()}
		go func() {
			in.done <- (&cluster.Loop{Config: c, REST: cp.Config, Identity: name, Listener: listener}).Run(runCtx)
		}()
		return in
	}
	first := start("replica-a")
	waitFor(t, 60*time.Second, "the first replica binds the pending shoots", func() bool {
		return boundCount(t, cp.Client, namespace) == 6
	})
	second := start("replica-b")
	defer second.cancel()
	waitFor(t, 10*time.Second, "the standby replica serves /healthz", func() bool {
		return strings.Contains(get(second.address, "/healthz"), "ok")
	})
	waitFor(t, 30*time.Second, "the standby replica's informers are synced (/readyz)", func() bool {
		return get(second.address, "/readyz") == "ok"
	})
	if leader := get(first.address, "/metrics"); !strings.Contains(leader, "seedplan_leader 1") || !strings.Contains(leader, `seedplan_bindings_total{result="bound"} 6`) {
		t.Fatalf("first replica's metrics do not show it leading with 6 bindings:\n%s", grep(leader, "seedplan_leader", "seedplan_bindings_total"))
	}
	if standby := get(second.address, "/metrics"); !strings.Contains(standby, "seedplan_leader 0") {
		t.Fatalf("second replica's metrics do not show it standing by:\n%s", grep(standby, "seedplan_leader"))
	}
	// The Lease is held under the name the leader's logs and events carry.
	holder := func() string {
		var lease coordinationv1.Lease
		if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: "garden", Name: "seedplan-loop"}, &lease); err != nil {
			t.Fatal(err)
		}
		return ptr.Deref(lease.Spec.HolderIdentity, "")
	}
	if got := holder(); got != "replica-a" {
		t.Fatalf("the Lease is held by %q, want replica-a", got)
	}

	// More shoots while both run: the leader binds them, the standby nothing.
	cp.CreateShoots(t, namespace, "loop", 6, 10, "loop")
	waitFor(t, 60*time.Second, "the leader binds the new shoots", func() bool { return boundCount(t, cp.Client, namespace) == 10 })

	// A third replica stands by and stops (a rollout's surplus pod): no error either.
	third := start("replica-c")
	waitFor(t, 30*time.Second, "the third replica's informers are synced (/readyz)", func() bool {
		return get(third.address, "/readyz") == "ok"
	})
	third.cancel()
	if err := <-third.done; err != nil {
		t.Fatalf("third replica: %v", err)
	}

	first.cancel()
	if err := <-first.done; err != nil {
		t.Fatalf("first replica: %v", err)
	}
	cp.CreateShoots(t, namespace, "loop", 10, 14, "loop")
	waitFor(t, 60*time.Second, "the second replica takes over and binds", func() bool { return boundCount(t, cp.Client, namespace) == 14 })
	if got := holder(); got != "replica-b" {
		t.Fatalf("after the takeover the Lease is held by %q, want replica-b", got)
	}
	second.cancel() // a stopping loop writes the events of its last window before it returns
	if err := <-second.done; err != nil {
		t.Fatalf("second replica: %v", err)
	}

	if errs := logged.errors(); len(errs) > 0 {
		t.Errorf("the replicas logged errors: %q", errs)
	}

	// Who bound what, from the events: the first replica shoot-0..9, the second shoot-10..13, each shoot once.
	var events eventsv1.EventList
	if err := cp.Client.List(ctx, &events, client.InNamespace(namespace)); err != nil {
		t.Fatal(err)
	}
	boundBy := map[string][]string{}
	for _, e := range events.Items {
		if e.Reason == bind.ReasonSchedulingSuccessful {
			boundBy[e.Regarding.Name] = append(boundBy[e.Regarding.Name], e.ReportingInstance)
		}
	}
	// Each leader's election is recorded on the Lease, under the same name.
	var leaseEvents eventsv1.EventList
	if err := cp.Client.List(ctx, &leaseEvents, client.InNamespace("garden")); err != nil {
		t.Fatal(err)
	}
	leaders := map[string]bool{}
	for _, e := range leaseEvents.Items {
		if e.Regarding.Kind == "Lease" && e.Regarding.Name == "seedplan-loop" && e.Reason == "LeaderElection" {
			leaders[e.Note] = true
		}
	}
	if !leaders["replica-a became leader"] || !leaders["replica-b became leader"] {
		t.Errorf("the Lease's events say %v, want replica-a and replica-b became leader", slices.Sorted(maps.Keys(leaders)))
	}
	for i := range 14 {
		name := fmt.Sprintf("shoot-%d", i)
		want := "replica-a"
		if i >= 10 {
			want = "replica-b"
		}
		if got := boundBy[name]; len(got) != 1 || got[0] != want {
			t.Errorf("%s bound by %v, want once by %s", name, got, want)
		}
	}
}

// A leader whose Lease another replica holds — taken over while this one could not renew it, for as long as the
// renew deadline — stops with an error, unlike a graceful stop: the process must exit, not bind beside the new
// leader.
func TestLoopEndsInAnErrorWhenItLosesTheLease(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	c := loopConfig(t, cp, "usurped")
	c.LeaderElection.LeaseDuration = metav1.Duration{Duration: 4 * time.Second}
	c.LeaderElection.RenewDeadline = metav1.Duration{Duration: 2 * time.Second}
	c.LeaderElection.RetryPeriod = metav1.Duration{Duration: 500 * time.Millisecond}
	loop := startLoop(t, cp.Config, c, "usurped")
	defer loop.cancel()
	key := client.ObjectKey{Namespace: "garden", Name: c.LeaderElection.ResourceName}
	waitFor(t, 30*time.Second, "the loop leads", func() bool {
		var lease coordinationv1.Lease
		return cp.Client.Get(ctx, key, &lease) == nil && ptr.Deref(lease.Spec.HolderIdentity, "") != "" // the only candidate
	})
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error { // the leader renews it meanwhile
		var lease coordinationv1.Lease
		if err := cp.Client.Get(ctx, key, &lease); err != nil {
			return err
		}
		lease.Spec.HolderIdentity = ptr.To("usurper")
		lease.Spec.LeaseDurationSeconds = ptr.To[int32](600)
		lease.Spec.RenewTime = &metav1.MicroTime{Time: time.Now()}
		return cp.Client.Update(ctx, &lease)
	})
	if err != nil {
		t.Fatal(err)
	}
	ended, err := loop.endsWithin(30 * time.Second)
	switch {
	case !ended:
		t.Fatal("the loop runs on, 30 s after its Lease was taken")
	case err == nil || !strings.Contains(err.Error(), "leader election lost"):
		t.Fatalf("the loop ended with %v, want leader election lost", err)
	}
}

// A loop whose Lease the garden cannot hold — its namespace missing — ends in an error that names the namespace and
// the setting, instead of standing by, ready, and never binding; and it binds nothing.
func TestLoopEndsWhenTheGardenCannotHoldItsLease(t *testing.T) {
	cp := garden.Get(t)
	namespace := cp.Landscape(t, "leaseless", []int64{10}, 2, "leaseless")
	c := loopConfig(t, cp, "leaseless")
	c.LeaderElection.ResourceNamespace = "no-such-namespace"
	loop := startLoop(t, cp.Config, c, "leaseless")
	defer loop.cancel()
	ended, err := loop.endsWithin(60 * time.Second)
	switch {
	case !ended:
		t.Fatal("the loop runs on, 60 s after it started, with a Lease the garden cannot hold")
	case err == nil || !strings.Contains(err.Error(), `no namespace "no-such-namespace" (leaderElection.resourceNamespace)`):
		t.Fatalf("the loop ended with %v, want an error naming the missing namespace and its setting", err)
	}
	if bound := boundCount(t, cp.Client, namespace); bound != 0 {
		t.Errorf("%d shoots bound by a loop that never led", bound)
	}
}

// Windows are closed by work and capped: five shoots pending when the loop starts, at most two per window, are
// bound in at least three windows, oldest first, and the loop's latency histogram times each binding once.
func TestLoopCapsWindows(t *testing.T) {
	cp := garden.Get(t)
	namespace := cp.Landscape(t, "capped", []int64{100, 100}, 5, "capped")
	c := loopConfig(t, cp, "capped")
	c.Window.MaxShoots = 2
	loop := startLoop(t, cp.Config, c, "capped")
	waitFor(t, 60*time.Second, "the loop binds the five shoots", func() bool { return boundCount(t, cp.Client, namespace) == 5 })
	// A binding lands before the loop has its answer and times it: the metrics are read once all five are timed.
	var metrics string
	waitUntil(10*time.Second, func() bool {
		metrics = get(loop.address, "/metrics")
		timed, ok := sample(metrics, "seedplan_scheduling_duration_seconds_count")
		return ok && timed == 5
	})
	loop.stop(t)
	sum, count := metricValue(t, metrics, "seedplan_window_shoots_sum"), metricValue(t, metrics, "seedplan_window_shoots_count")
	timed := metricValue(t, metrics, "seedplan_scheduling_duration_seconds_count")
	if sum != 5 || count < 3 || timed != 5 {
		t.Fatalf("%d shoots in %d windows, %d bindings timed; want 5 shoots in at least 3 windows of at most 2, 5 timed", sum, count, timed)
	}
}

// A leading loop with nothing to place says it is alive: the time of the last window, which the stale-job alert
// watches, advances with its looks for due shoots (at least every 30 s), not only with windows planned.
func TestIdleLoopSaysItIsAlive(t *testing.T) {
	cp := garden.Get(t)
	c := loopConfig(t, cp, "idle") // no shoot asks for it
	started := float64(time.Now().Unix())
	loop := startLoop(t, cp.Config, c, "idle")
	defer loop.stop(t)
	var metrics string
	waitFor(t, 30*time.Second, "the idle loop leads and marks its look", func() bool {
		metrics = get(loop.address, "/metrics")
		value, ok := sample(metrics, "seedplan_last_window_timestamp_seconds")
		return strings.Contains(metrics, "\nseedplan_leader 1\n") && ok && value >= started
	})
	if windows := grep(metrics, "seedplan_windows_total{"); windows != "" {
		t.Fatalf("the idle loop planned windows:\n%s", windows)
	}
}

// A pending shoot deleted while it backs off leaves the queue at once: seedplan_pending_shoots drops to 0 without
// waiting for the shoot's next retry or the loop's idle look.
func TestLoopForgetsADeletedPendingShoot(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "gone", []int64{10}, 0, "gone")
	c := loopConfig(t, cp, "gone")
	loop := startLoop(t, cp.Config, c, "gone")
	defer loop.stop(t)

	shoot := gardentest.Unschedulable(gardentest.Shoot(namespace, "nowhere", "gone", "aws", "gone-1", "gone-1a"))
	shoot.Spec.SchedulerName = &c.SchedulerName
	if err := cp.Create(ctx, shoot); err != nil {
		t.Fatal(err)
	}
	// After eleven failures the shoot's next retry is over 5 s away (retryDelay), the loop's idle look 30 s.
	waitFor(t, time.Minute, "the shoot failed eleven times", func() bool {
		return eventsByShoot(t, cp.Client, namespace, bind.ReasonSchedulingFailed)[shoot.Name] >= 11
	})
	if pending := metricValue(t, get(loop.address, "/metrics"), "seedplan_pending_shoots"); pending != 1 {
		t.Fatalf("seedplan_pending_shoots %d before the deletion, want 1", pending)
	}
	if err := cp.Client.Delete(ctx, shoot); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Second, "the deleted shoot is no longer pending", func() bool {
		return metricValue(t, get(loop.address, "/metrics"), "seedplan_pending_shoots") == 0
	})
}

// A shoot waiting for room takes it when it appears, not when its backoff ends, which after a dozen failures is
// over 10 s away (retryDelay; the gardener-scheduler waits it out, up to 1000 s): a seed created in its region,
// and a shoot deleted from its seed, each let the loop place the shoot waiting there within seconds, and only
// that one. The new seed makes both waiting shoots due; a seed's new label makes the one left due again, and a
// failure the same as the one written last is not written again. Room freed makes it due again no sooner than
// 10 s after room last did (roomRetry), so the deletions come after that: one from a seed the waiting shoot may
// not use, which does not make it due, then one from the seed it may.
func TestLoopPlacesWaitingShootsWhenRoomAppears(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "room", []int64{1, 1}, 0, "room") // room-seed0 in room-1, room-seed1 in room-2
	c := loopConfig(t, cp, "room")
	loop := startLoop(t, cp.Config, c, "room")
	defer loop.stop(t)
	create := func(name, region string) *gardencorev1beta1.Shoot {
		shoot := gardentest.Shoot(namespace, name, "room", "aws", region, region+"a")
		shoot.Spec.SchedulerName = &c.SchedulerName
		if err := cp.Create(ctx, shoot); err != nil {
			t.Fatal(err)
		}
		return shoot
	}
	seedOf := func(name string) string {
		shoot := &gardencorev1beta1.Shoot{}
		if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, shoot); err != nil {
			t.Fatal(err)
		}
		return ptr.Deref(shoot.Spec.SeedName, "")
	}
	elsewhere := create("first-1", "room-1")
	leaving := create("first-2", "room-2")
	waitFor(t, 30*time.Second, "the first shoots fill the two seeds", func() bool { return boundCount(t, cp.Client, namespace) == 2 })
	create("waits-1", "room-1")
	create("waits-2", "room-2")
	waitFor(t, time.Minute, "each waiting shoot failed twelve times", func() bool {
		failures := eventsByShoot(t, cp.Client, namespace, bind.ReasonSchedulingFailed)
		return failures["waits-1"] >= 12 && failures["waits-2"] >= 12
	})
	wakes := func() int { return metricValue(t, get(loop.address, "/metrics"), "seedplan_room_wakes_total") }
	woken := wakes()

	if err := cp.CreateSeed(ctx, gardentest.Seed("room-seed2", "aws", "room-1", "room-1a"), 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 4*time.Second, "the shoot waiting in room-1 is placed on the new seed", func() bool { return seedOf("waits-1") == "room-seed2" })
	placed := time.Now()
	if seed := seedOf("waits-2"); seed != "" {
		t.Fatalf("waits-2, whose region has no room, was placed on %s", seed)
	}
	if now := wakes(); now < woken+2 {
		t.Fatalf("seedplan_room_wakes_total %d, want at least %d: both waiting shoots tried when the seed came", now, woken+2)
	}
	// A label on a seed makes waits-2 due again (twice): once its failure is the same as written last, it is not
	// written again, and its backoff is left as it was.
	label := func(value string) {
		woken := wakes()
		seed := &gardencorev1beta1.Seed{}
		if err := cp.Client.Get(ctx, client.ObjectKey{Name: "room-seed1"}, seed); err != nil {
			t.Fatal(err)
		}
		metav1.SetMetaDataLabel(&seed.ObjectMeta, "room.test/label", value)
		if err := cp.Client.Update(ctx, seed); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 4*time.Second, "waits-2 is tried when the seed's labels change", func() bool { return wakes() > woken })
		time.Sleep(time.Second) // the window of the try, and the report it would write
	}
	label("first")
	failed := eventsByShoot(t, cp.Client, namespace, bind.ReasonSchedulingFailed)["waits-2"]
	label("second")
	if now := eventsByShoot(t, cp.Client, namespace, bind.ReasonSchedulingFailed)["waits-2"]; now != failed {
		t.Fatalf("waits-2's failure written again (%d failures, %d before) after a try that found what was written last", now, failed)
	}
	time.Sleep(time.Until(placed.Add(10 * time.Second)))
	// Room freed in room-1 is no room for waits-2, which only room-2's seed may take: it is not tried again.
	woken = wakes()
	if err := cp.Client.Delete(ctx, elsewhere); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second)
	if now := wakes(); now != woken {
		t.Fatalf("seedplan_room_wakes_total %d, %d before: a shoot was tried again when room was freed on a seed of another region", now, woken)
	}
	if err := cp.Client.Delete(ctx, leaving); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 4*time.Second, "the shoot waiting in room-2 takes the deleted shoot's place", func() bool { return seedOf("waits-2") == "room-seed1" })
}

// A shoot that no seed may take for its cloud profile's seed selector is placed within seconds of the operator's
// fixing the profile, not when its backoff ends: the rest of the landscape a placement reads — cloud profiles,
// namespaced ones, projects and region configs — wakes the waiting shoots as a seed does.
func TestLoopPlacesAWaitingShootWhenItsCloudProfileChanges(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "profiled", []int64{5}, 0, "profiled")
	profile := &gardencorev1beta1.CloudProfile{}
	if err := cp.Client.Get(ctx, client.ObjectKey{Name: "profiled"}, profile); err != nil {
		t.Fatal(err)
	}
	profile.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"profiled.test/ok": "true"}}}
	if err := cp.Client.Update(ctx, profile); err != nil {
		t.Fatal(err)
	}
	c := loopConfig(t, cp, "profiled")
	loop := startLoop(t, cp.Config, c, "profiled")
	defer loop.stop(t)
	shoot := gardentest.Shoot(namespace, "waits", "profiled", "aws", "profiled-1", "profiled-1a")
	shoot.Spec.SchedulerName = &c.SchedulerName
	if err := cp.Create(ctx, shoot); err != nil {
		t.Fatal(err)
	}
	waitFor(t, time.Minute, "the shoot failed twelve times", func() bool {
		return eventsByShoot(t, cp.Client, namespace, bind.ReasonSchedulingFailed)["waits"] >= 12
	})
	profile.Spec.SeedSelector = nil
	if err := cp.Client.Update(ctx, profile); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 4*time.Second, "the shoot is placed once its cloud profile admits the seed", func() bool { return boundCount(t, cp.Client, namespace) == 1 })
}

// sample is the value of the sample named exactly so in the exposition text, and whether there is one that parses.
func sample(metrics, name string) (float64, bool) {
	for line := range strings.SplitSeq(metrics, "\n") {
		if value, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(value, 64)
			return f, err == nil
		}
	}
	return 0, false
}

// A loop whose RBAC forbids its lists never syncs its informers: it serves /healthz all the same, says on /readyz
// that it is not ready, and stops when asked. (With the informers inside controller-runtime's manager, /healthz
// came only once they synced, and a stop before then spun at full CPU and never returned.)
func TestLoopStopsBeforeItsInformersSync(t *testing.T) {
	cp := garden.Get(t)
	forbidden, err := cp.UnprivilegedConfig("unsynced")
	if err != nil {
		t.Fatal(err)
	}
	loop := startLoop(t, forbidden, loopConfig(t, cp, "unsynced"), "unsynced")
	loop.stopsUnready(t, "no informer can list")
}

// A loop stopped while it waits for a garden that does not answer (here: no server at all) stops gracefully, as one
// stopped before its informers synced does, having served /healthz meanwhile and not /readyz.
func TestLoopStopsWhileTheGardenDoesNotAnswer(t *testing.T) {
	refused, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nobody := &rest.Config{Host: "https://" + refused.Addr().String()}
	refused.Close() // nothing listens there any longer: every connection is refused
	c := config.Default()
	c.SchedulerName = "nobody"
	loop := startLoop(t, nobody, c, "nobody")
	loop.stopsUnready(t, "the garden does not answer")
}

// unready checks a loop that cannot read the garden (why): it serves /healthz, so that a liveness probe keeps it,
// and not /readyz.
func (l *runningLoop) unready(t *testing.T, why string) {
	t.Helper()
	waitFor(t, 30*time.Second, "/healthz is served while "+why, func() bool { return get(l.address, "/healthz") == "ok" })
	if ready := get(l.address, "/readyz"); ready == "ok" {
		t.Fatalf("/readyz: %q, though %s", ready, why)
	}
}

// stopsUnready checks a loop that cannot read the garden (why): it is unready, and a stop ends it gracefully
// within 30 s.
func (l *runningLoop) stopsUnready(t *testing.T, why string) {
	t.Helper()
	l.unready(t, why)
	l.cancel()
	ended, err := l.endsWithin(30 * time.Second)
	switch {
	case !ended:
		t.Fatal("the loop did not stop within 30 s of being asked")
	case err != nil:
		t.Fatalf("the loop stopped with %v", err)
	}
}

// runningLoop is a run loop started in the test's process.
type runningLoop struct {
	address string // of /healthz, /readyz and /metrics
	cancel  context.CancelFunc
	done    chan error

	stopOnce sync.Once
	err      error // how the loop ended
}

// startLoop runs the loop with the configuration until stop.
func startLoop(t testing.TB, rest *rest.Config, c *config.SeedPlanConfiguration, identity string) *runningLoop {
	t.Helper()
	return start(t, &cluster.Loop{Config: c, REST: rest, Identity: identity})
}

// start runs the loop on a listener of its own until it is stopped.
func start(t testing.TB, loop *cluster.Loop) *runningLoop {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	loop.Listener = listener
	ctx, cancel := context.WithCancel(context.Background())
	running := &runningLoop{address: listener.Addr().String(), cancel: cancel, done: make(chan error, 1)}
	go func() { running.done <- loop.Run(ctx) }()
	// A test that fails before it stops its loop leaves none running to log into the tests after it.
	t.Cleanup(func() { _ = running.end() })
	return running
}

// loopConfig is the configuration of a loop test's own scheduler, name: it places the shoots that ask for name and
// leads under the Lease seedplan-<name> in namespace garden, which it makes sure exists, so that no two loop tests
// take each other's shoots or Lease.
func loopConfig(t testing.TB, cp *gardentest.ControlPlane, name string) *config.SeedPlanConfiguration {
	t.Helper()
	if err := cp.EnsureNamespace(context.Background(), "garden"); err != nil {
		t.Fatal(err)
	}
	c := config.Default()
	c.SchedulerName = name
	c.LeaderElection.ResourceName = "seedplan-" + name
	return c
}

// stop stops the loop gracefully; an error of the loop fails the test.
func (l *runningLoop) stop(t testing.TB) {
	t.Helper()
	if err := l.end(); err != nil {
		t.Fatalf("the loop: %v", err)
	}
}

// end stops the loop unless it ended already, and is how the loop ended.
func (l *runningLoop) end() error {
	l.stopOnce.Do(func() {
		l.cancel()
		l.err = <-l.done
	})
	return l.err
}

// endsWithin waits up to timeout for the loop to end, by itself or asked to, and reports whether it did and how.
func (l *runningLoop) endsWithin(timeout time.Duration) (ended bool, err error) {
	select {
	case err := <-l.done:
		l.stopOnce.Do(func() { l.err = err })
		return true, err
	case <-time.After(timeout):
		return false, nil
	}
}

// metricValue is the value of the sample named exactly so in the exposition text.
func metricValue(t testing.TB, metrics, name string) int {
	t.Helper()
	value, ok := sample(metrics, name)
	if !ok {
		t.Fatalf("no sample %s in the metrics", name)
	}
	if value != math.Trunc(value) {
		t.Fatalf("%s %v: not a whole number", name, value)
	}
	return int(value)
}

func boundCount(t testing.TB, c client.Client, namespace string) int {
	t.Helper()
	var shoots gardencorev1beta1.ShootList
	if err := c.List(context.Background(), &shoots, client.InNamespace(namespace)); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range shoots.Items {
		if s.Spec.SeedName != nil {
			n++
		}
	}
	return n
}

// recordLog hands every record its Handler takes on to it, and keeps every record at or above its keep level —
// the warnings and errors a test checks, or at debug level a shadow's decisions — in one list for every handler
// derived from it.
type recordLog struct {
	slog.Handler
	keep    slog.Level
	records *keptRecords
}

type keptRecords struct {
	mu  sync.Mutex
	all []slog.Record
}

// newRecordLog is a recordLog that writes what it hands on as text to standard error, at info level and above.
func newRecordLog(keep slog.Level) *recordLog {
	return &recordLog{Handler: slog.NewTextHandler(os.Stderr, nil), keep: keep, records: &keptRecords{}}
}

// Enabled takes the records it keeps and those its Handler takes.
func (l *recordLog) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= l.keep || l.Handler.Enabled(ctx, level)
}

// Handle keeps a record at or above the keep level and hands it on if the Handler takes its level.
func (l *recordLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= l.keep {
		l.records.mu.Lock()
		l.records.all = append(l.records.all, r.Clone())
		l.records.mu.Unlock()
	}
	if !l.Handler.Enabled(ctx, r.Level) {
		return nil
	}
	return l.Handler.Handle(ctx, r)
}

// WithAttrs keeps the records with attrs in the same list.
func (l *recordLog) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &recordLog{Handler: l.Handler.WithAttrs(attrs), keep: l.keep, records: l.records}
}

// WithGroup keeps the records in the group in the same list.
func (l *recordLog) WithGroup(name string) slog.Handler {
	return &recordLog{Handler: l.Handler.WithGroup(name), keep: l.keep, records: l.records}
}

// errors are the messages of the errors logged so far.
func (l *recordLog) errors() []string {
	return l.messages(func(r slog.Record) bool { return r.Level >= slog.LevelError })
}

// warnings are the messages of the warnings logged so far.
func (l *recordLog) warnings() []string {
	return l.messages(func(r slog.Record) bool { return r.Level == slog.LevelWarn })
}

// attrs are the attributes, as text, of each record kept so far with the message, in order.
func (l *recordLog) attrs(message string) []map[string]string {
	l.records.mu.Lock()
	defer l.records.mu.Unlock()
	var all []map[string]string
	for _, r := range l.records.all {
		if r.Message != message {
			continue
		}
		attrs := map[string]string{}
		r.Attrs(func(a slog.Attr) bool {
			attrs[a.Key] = a.Value.String()
			return true
		})
		all = append(all, attrs)
	}
	return all
}

// messages are the messages of the records kept so far that are wanted, in order.
func (l *recordLog) messages(wanted func(slog.Record) bool) []string {
	l.records.mu.Lock()
	defer l.records.mu.Unlock()
	var messages []string
	for _, r := range l.records.all {
		if wanted(r) {
			messages = append(messages, r.Message)
		}
	}
	return messages
}

func waitFor(t testing.TB, timeout time.Duration, what string, condition func() bool) {
	t.Helper()
	if !waitUntil(timeout, condition) {
		t.Fatalf("timed out after %s waiting until %s", timeout, what)
	}
}

// waitUntil polls condition every 100 ms until it holds or the timeout passes; it reports whether it held.
func waitUntil(timeout time.Duration, condition func() bool) bool {
	deadline := time.Now().Add(timeout)
	for !condition() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
	return true
}

// get is the body of the answer to a GET of path, or the error that came instead. A listener that nothing serves
// yet accepts connections all the same, so the request has a deadline of its own.
func get(address, path string) string {
	res, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://" + address + path)
	if err != nil {
		return err.Error()
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return string(body)
}

func grep(text string, prefixes ...string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(line, p) {
				out = append(out, line)
			}
		}
	}
	return strings.Join(out, "\n")
}

// The loop plans the next window while the previous one binds, and counts the placements still in flight as
// bound (assume, bind, forget on failure): with the bindings of the first window held up, the second is planned
// at once, fills only what is left of the seed, and no seed is overfilled nor any shoot bound twice.
func TestLoopPlansWhileBinding(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "pipelined", []int64{3}, 0, "pipelined")
	for i := range 4 {
		shoot := gardentest.Shoot(namespace, fmt.Sprintf("shoot-%d", i), "pipelined", "aws", "pipelined-1", "pipelined-1a")
		shoot.Spec.SchedulerName = new("pipelined")
		if err := cp.Create(ctx, shoot); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, cp.Client)
	gate := make(chan struct{})
	held := rest.CopyConfig(cp.Config)
	held.WrapTransport = func(next http.RoundTripper) http.RoundTripper {
		return roundTripper(func(req *http.Request) (*http.Response, error) {
			if req.Method == http.MethodPut && strings.HasSuffix(req.URL.Path, "/binding") {
				<-gate
			}
			return next.RoundTrip(req)
		})
	}
	c := loopConfig(t, cp, "pipelined")
	c.Window.MaxShoots = 2
	loop := startLoop(t, held, c, "pipelined")
	seedShoots := `seedplan_seed_shoots{provider="aws",region="pipelined-1",seed="pipelined-seed0"}`
	var metrics string
	waitFor(t, 60*time.Second, "the second window is planned while the first binds", func() bool {
		metrics = get(loop.address, "/metrics")
		return strings.Contains(metrics, "seedplan_window_shoots_count 2\n")
	})
	if bound := boundCount(t, cp.Client, namespace); bound != 0 {
		t.Fatalf("%d shoots bound while every binding is held", bound)
	}
	if got := metricValue(t, metrics, seedShoots); got != 3 {
		t.Fatalf("the second window's plan leaves %d shoots on the seed of 3, want 3: the first window's placements count while they bind", got)
	}
	close(gate)
	waitFor(t, 60*time.Second, "the loop binds three shoots", func() bool { return boundCount(t, cp.Client, namespace) == 3 })
	loop.stop(t)
	if got := verifyBindings(t, cp.Client, before, namespace); got != 3 {
		t.Fatalf("%d shoots bound, want 3", got)
	}
	for shoot, n := range eventsByShoot(t, cp.Client, namespace, bind.ReasonSchedulingSuccessful) {
		if n != 1 {
			t.Errorf("%s bound %d times", shoot, n)
		}
	}
}

// roundTripper is an http.RoundTripper of a function.
type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// Another scheduler binds shoots to the same seeds between seedplan's plan and its bindings (the
// gardener-scheduler, for shoots of its own): the re-check before binding counts them from a fresh read, so
// seedplan binds only what still fits and defers the rest to its next window, and no seed ends above its
// allocatable.
func TestBindingCountsAnotherSchedulersBindings(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	// A seed of 4 slots in each of two regions, 3 of our shoots in each region, and shoots of another scheduler.
	namespace := cp.Landscape(t, "concurrent", []int64{4, 4}, 6, "concurrent")
	cp.CreateShoots(t, namespace, "concurrent", 6, 10, "other")
	s := newScheduler(t, cp.Client, namespace, false)
	planned, err := s.Plan(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(planned.Plan().Placements); n != 6 {
		t.Fatalf("planned %d placements, want 6", n)
	}
	for _, i := range []int{6, 8} { // the other scheduler binds two shoots of region 1 now: 2 of seed0's 4 slots left
		shoot := &gardencorev1beta1.Shoot{}
		if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: fmt.Sprintf("shoot-%d", i)}, shoot); err != nil {
			t.Fatal(err)
		}
		shoot.Spec.SeedName = new("concurrent-seed0")
		if err := cp.Client.SubResource("binding").Update(ctx, shoot); err != nil {
			t.Fatal(err)
		}
	}
	result, err := s.Bind(ctx, planned)
	if err != nil {
		t.Fatal(err)
	}
	got := bind.Summarize(result.Results)
	if got[model.Bound] != 5 || got[model.Deferred] != 1 {
		t.Fatalf("bindings %v; want 5 bound and 1 deferred: the other scheduler took 2 of seed0's 4 slots", got)
	}
	if usage := snapshot(t, cp.Client).Usage("concurrent-seed0"); usage != 4 {
		t.Fatalf("the seed hosts %d shoots, want its allocatable of 4", usage)
	}
}
