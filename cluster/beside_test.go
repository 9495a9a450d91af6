package cluster_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	coordinationv1 "k8s.io/api/coordination/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/cluster"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/fixture"
	"github.com/seedplan/seedplan/internal/gardentest"
	"github.com/seedplan/seedplan/model"
)

// seedWatch is the independent observer of the test beside gardener-scheduler: an informer of every shoot that,
// after each change it delivers (the API server's order), counts the shoots on each of the test's seeds. A
// binding that takes a seed above its allocatable is seedplan's fault unless another scheduler's binding landed
// on that seed within the last second (faster than any cache can tell: a race no check before binding closes);
// it is the other scheduler's otherwise. It also records any shoot whose seed changed once set.
type seedWatch struct {
	allocatable map[string]int
	ours        string // seedplan's scheduler name

	mu        sync.Mutex
	seedOf    map[string]string    // shoot key → seed
	lastBound map[string]time.Time // seed → when its latest binding was seen
	lastBy    map[string]string    // seed → the scheduler of that binding
	faults    []string             // seedplan's bindings above allocatable
	raced     []string             // seedplan's, within a second of another's
	others    []string             // the other scheduler's
	rebound   []string
}

func (w *seedWatch) observe(obj any) {
	shoot, ok := obj.(*gardencorev1beta1.Shoot)
	if !ok || shoot.Spec.SeedName == nil {
		return
	}
	key, seed := shoot.Namespace+"/"+shoot.Name, *shoot.Spec.SeedName
	w.mu.Lock()
	defer w.mu.Unlock()
	previous, known := w.seedOf[key]
	if known && previous != seed {
		w.rebound = append(w.rebound, fmt.Sprintf("%s: %s → %s", key, previous, seed))
	}
	allocatable, ours := w.allocatable[seed]
	if known || !ours {
		w.seedOf[key] = seed
		return
	}
	w.seedOf[key] = seed
	now, last, lastBy := time.Now(), w.lastBound[seed], w.lastBy[seed]
	w.lastBound[seed], w.lastBy[seed] = now, ptr.Deref(shoot.Spec.SchedulerName, "")
	usage := 0
	for _, s := range w.seedOf {
		if s == seed {
			usage++
		}
	}
	if usage <= allocatable {
		return
	}
	finding := fmt.Sprintf("seed %s hosts %d of %d after %s (%s) was bound, %v after the binding before (%s's)",
		seed, usage, allocatable, key, ptr.Deref(shoot.Spec.SchedulerName, ""), now.Sub(last).Round(time.Millisecond), lastBy)
	switch {
	case ptr.Deref(shoot.Spec.SchedulerName, "") != w.ours:
		w.others = append(w.others, finding)
	case now.Sub(last) < time.Second:
		w.raced = append(w.raced, finding)
	default:
		w.faults = append(w.faults, finding)
	}
}

func (w *seedWatch) forget(obj any) {
	if tombstone, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	if shoot, ok := obj.(*gardencorev1beta1.Shoot); ok {
		w.mu.Lock()
		delete(w.seedOf, shoot.Namespace+"/"+shoot.Name)
		w.mu.Unlock()
	}
}

// The real gardener-scheduler places the shoots of its scheduler name while seedplan's run loop places its own
// onto the same seeds, both at full speed, with more shoots than room: no binding of seedplan's ever takes a seed
// above its allocatable (seen continuously by an informer of its own), because its check before binding counts
// live usage; no shoot is bound twice; and every slot is taken in the end. Found: the gardener-scheduler's own
// bindings overfill a seed now and then, milliseconds after its own previous binding there (its workers and
// Gardener's admission count from caches); those are logged, not failed, as no other writer can prevent them.
func TestBesideGardenerScheduler(t *testing.T) {
	cp := garden.Get(t)
	const name, perScheduler = "beside", 30
	seeds := []int64{10, 10, 10, 10} // 40 slots for 60 shoots
	namespace := cp.Landscape(t, name, seeds, 0, name)
	w := &seedWatch{allocatable: map[string]int{}, ours: name, seedOf: map[string]string{}, lastBound: map[string]time.Time{}, lastBy: map[string]string{}}
	for i, allocatable := range seeds {
		w.allocatable[fmt.Sprintf("%s-seed%d", name, i)] = int(allocatable)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	scheme, err := ingest.Scheme()
	if err != nil {
		t.Fatal(err)
	}
	shoots, err := cache.New(cp.Config, cache.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	informer, err := shoots.GetInformer(ctx, &gardencorev1beta1.Shoot{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: w.observe, UpdateFunc: func(_, obj any) { w.observe(obj) }, DeleteFunc: w.forget,
	}); err != nil {
		t.Fatal(err)
	}
	go func() { _ = shoots.Start(ctx) }()
	if !shoots.WaitForCacheSync(ctx) {
		t.Fatal("the observer's informer did not sync")
	}

	stopGardener := startGardenerScheduler(t, cp)
	c := loopConfig(t, cp, name)
	loop := startLoop(t, cp.Config, c, name)

	// Both schedulers' shoots arrive interleaved, six of each at a time.
	for from := 0; from < perScheduler; from += 6 {
		cp.CreateShoots(t, namespace, name, from, from+6, "default-scheduler")
		cp.CreateShoots(t, namespace, name, perScheduler+from, perScheduler+from+6, name)
	}
	full := waitUntil(90*time.Second, func() bool { return boundCount(t, cp.Client, namespace) >= 40 })
	time.Sleep(2 * time.Second) // anything still in flight lands
	loop.stop(t)
	if err := stopGardener(); err != nil {
		t.Error(err)
	}

	bySeed, byScheduler := map[string]int{}, map[string]int{}
	var list gardencorev1beta1.ShootList
	if err := cp.Client.List(ctx, &list); err != nil {
		t.Fatal(err)
	}
	for _, shoot := range list.Items {
		if shoot.Namespace == namespace && shoot.Spec.SeedName != nil {
			bySeed[*shoot.Spec.SeedName]++
			byScheduler[*shoot.Spec.SchedulerName]++
		}
	}
	t.Logf("bound by scheduler %v, per seed %v", byScheduler, bySeed)
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.others)+len(w.raced) > 0 {
		t.Logf("seeds above allocatable through gardener-scheduler's bindings (its decision and Gardener's admission count from caches):\n%s\nthrough races within a second:\n%s",
			strings.Join(w.others, "\n"), strings.Join(w.raced, "\n"))
	}
	if len(w.faults) > 0 || len(w.rebound) > 0 {
		t.Fatalf("seedplan's bindings above allocatable:\n%s\nshoots bound twice:\n%s", strings.Join(w.faults, "\n"), strings.Join(w.rebound, "\n"))
	}
	if !full {
		t.Fatal("not every slot was taken within 90 s")
	}
	for seed, allocatable := range w.allocatable {
		if bySeed[seed] < allocatable {
			t.Errorf("seed %s hosts %d shoots, has room for %d", seed, bySeed[seed], allocatable)
		}
	}
	if byScheduler[name] == 0 || byScheduler["default-scheduler"] == 0 {
		t.Fatalf("one scheduler placed nothing (%v): they did not run side by side", byScheduler)
	}
	var events eventsv1.EventList
	if err := cp.Client.List(ctx, &events, client.InNamespace(namespace)); err != nil {
		t.Fatal(err)
	}
	ours := 0
	for _, e := range events.Items {
		if e.Reason == bind.ReasonSchedulingSuccessful && e.ReportingController == bind.ReportingController {
			ours++
		}
	}
	if ours != byScheduler[name] {
		t.Errorf("seedplan wrote %d SchedulingSuccessful events for its %d bindings", ours, byScheduler[name])
	}
}

// A loop run as a shadow (run --dry-run) beside the real gardener-scheduler plans the shoots the gardener-scheduler
// places and writes nothing — no binding, event, lastOperation or Lease of its own — and compares its decision with
// each binding the gardener-scheduler makes: seedplan_shadow_bindings_total counts every shoot once, by outcome.
func TestShadowBesideGardenerScheduler(t *testing.T) {
	cp := garden.Get(t)
	const name, shoots = "shadow", 12
	namespace := cp.Landscape(t, name, []int64{4, 4, 4, 4}, 0, name)
	logged := newRecordLog(slog.LevelInfo) // the shadow's comparisons, as it logs them
	defer fixture.RestoreLogging()()
	slog.SetDefault(slog.New(logged))
	c := loopConfig(t, cp, name)
	c.SchedulerName = "default-scheduler" // the gardener-scheduler's shoots
	shadow := start(t, &cluster.Loop{Config: c, REST: cp.Config, Identity: name, DryRun: true})
	waitFor(t, 30*time.Second, "the shadow's informers are synced (/readyz)", func() bool { return get(shadow.address, "/readyz") == "ok" })
	compared := func() int {
		metrics := get(shadow.address, "/metrics")
		n := 0
		for _, outcome := range model.ShadowOutcomes() {
			n += metricValue(t, metrics, fmt.Sprintf(`seedplan_shadow_bindings_total{outcome="%s"}`, outcome))
		}
		return n
	}
	before := compared() // the gardener-scheduler also places what earlier tests left pending for it

	stopGardener := startGardenerScheduler(t, cp)
	cp.CreateShoots(t, namespace, name, 0, shoots, "default-scheduler")
	bound := waitUntil(60*time.Second, func() bool { return boundCount(t, cp.Client, namespace) == shoots })
	if err := stopGardener(); err != nil {
		t.Error(err)
	}
	if !bound {
		t.Fatalf("the gardener-scheduler bound %d of %d shoots within a minute", boundCount(t, cp.Client, namespace), shoots)
	}
	waitFor(t, 10*time.Second, "the shadow compared every binding", func() bool { return compared()-before >= shoots })
	metrics := get(shadow.address, "/metrics")
	shadow.stop(t)
	t.Logf("the shadow's comparisons and windows:\n%s", grep(metrics, "seedplan_shadow_", "seedplan_windows_total{"))
	if leader := grep(metrics, "seedplan_leader"); leader != "" {
		t.Errorf("a shadow holds no Lease and binds nothing, yet exports %s", leader)
	}
	if windows := metricValue(t, metrics, `seedplan_windows_total{solver="lp"}`); windows == 0 {
		t.Error("the shadow planned no window")
	}
	// Every binding to another seed is weighed by distance and utilization. Under SameRegion both schedulers keep a
	// shoot in its region, so neither seed is ever the nearer; the region's seeds take 4 shoots each, so the
	// emptiest by count (the gardener-scheduler's rule) is the emptiest for its allocatable too, and the shadow's
	// LP, which fills the emptiest seeds first, never leaves the shoot on the fuller seed of the two in its window.
	byDistance, byUtilization := map[model.ShadowDistance]int{}, map[model.ShadowUtilization]int{}
	total := 0
	for _, distance := range model.ShadowDistances() {
		for _, utilization := range model.ShadowUtilizations() {
			n := metricValue(t, metrics, fmt.Sprintf(`seedplan_shadow_other_seed_total{distance="%s",utilization="%s"}`, distance, utilization))
			byDistance[distance] += n
			byUtilization[utilization] += n
			total += n
		}
	}
	otherSeed := metricValue(t, metrics, `seedplan_shadow_bindings_total{outcome="other-seed"}`)
	if total != otherSeed || byDistance[model.ShadowNearerHere] != 0 || byDistance[model.ShadowFartherHere] != 0 ||
		byUtilization[model.ShadowFullerHere] != 0 || byUtilization[model.ShadowNotComparable] != 0 {
		t.Errorf("bindings to another seed by distance %v and by utilization %v, %d of them; want each of the %d weighed, "+
			"none nearer or farther under SameRegion, none fuller and every one comparable", byDistance, byUtilization, total, otherSeed)
	}
	// The log names both seeds' utilization for each binding to another seed, agreeing with the label counted. The
	// counter counts every binding the shadow saw, those of shoots earlier tests left pending included (before), so
	// the log's are counted alike; this test's shoots stay in their region.
	logOtherSeed := 0
	for _, attrs := range logged.attrs("Shoot bound by another scheduler") {
		if attrs["outcome"] != string(model.ShadowOtherSeed) {
			continue
		}
		logOtherSeed++
		if attrs["utilization"] != string(model.ShadowNotComparable) { // logged without both; the count above refuses it
			if want := utilizationOf(t, attrs["seedplanUtilization"], attrs["utilizationThere"]); attrs["utilization"] != string(want) {
				t.Errorf("%s logged %v: want utilization %s", attrs["shoot"], attrs, want)
			}
		}
		if strings.HasPrefix(attrs["shoot"], namespace+"/") && attrs["distance"] != string(model.ShadowAsNear) {
			t.Errorf("%s logged %v: want distance %s", attrs["shoot"], attrs, model.ShadowAsNear)
		}
	}
	if logOtherSeed != otherSeed {
		t.Errorf("%d bindings to another seed logged, %d counted", logOtherSeed, otherSeed)
	}

	// It wrote nothing: every event is the gardener-scheduler's, and it holds no Lease.
	var events eventsv1.EventList
	if err := cp.Client.List(context.Background(), &events, client.InNamespace(namespace)); err != nil {
		t.Fatal(err)
	}
	for _, e := range events.Items {
		if e.ReportingController == bind.ReportingController {
			t.Errorf("the shadow wrote an event: %s %q", e.Reason, e.Note)
		}
	}
	var lease coordinationv1.Lease
	if err := cp.Client.Get(context.Background(), client.ObjectKey{Namespace: "garden", Name: c.LeaderElection.ResourceName}, &lease); !apierrors.IsNotFound(err) {
		t.Errorf("the shadow's Lease: %v, want none", err)
	}
}

// utilizationOf compares two utilizations logged as shoots/allocatable, as a shadow weighs the first (its own seed's)
// against the second.
func utilizationOf(t *testing.T, here, there string) model.ShadowUtilization {
	t.Helper()
	var hereShoots, hereAllocatable, thereShoots, thereAllocatable int64
	if _, err := fmt.Sscanf(here+" "+there, "%d/%d %d/%d", &hereShoots, &hereAllocatable, &thereShoots, &thereAllocatable); err != nil {
		t.Fatalf("utilizations %q and %q: %v", here, there, err)
	}
	switch a, b := hereShoots*thereAllocatable, thereShoots*hereAllocatable; {
	case a < b:
		return model.ShadowEmptierHere
	case a == b:
		return model.ShadowAsFull
	default:
		return model.ShadowFullerHere
	}
}

// A shoot the shadow placed and the gardener-scheduler then cannot place — its seed filled by another binding
// meanwhile — is counted as unschedulable there, recognised by the real gardener-scheduler's own failure report,
// once while that placement stands.
func TestShadowCountsAShootTheGardenerSchedulerCannotPlace(t *testing.T) {
	cp := garden.Get(t)
	const name = "strand"
	namespace := cp.Landscape(t, name, []int64{1}, 0, name) // strand-seed0 in strand-1, room for one shoot
	// The shadow's decisions, as it logs them: the seed gauges say only what its last window planned, and the
	// garden may hold other tests' shoots pending for the gardener-scheduler that the shadow plans again later.
	planned := newRecordLog(slog.LevelDebug)
	defer fixture.RestoreLogging()()
	slog.SetDefault(slog.New(planned))
	c := loopConfig(t, cp, name)
	c.SchedulerName = "default-scheduler"
	shadow := start(t, &cluster.Loop{Config: c, REST: cp.Config, Identity: name, DryRun: true})
	defer shadow.stop(t)
	waitFor(t, 30*time.Second, "the shadow's informers are synced (/readyz)", func() bool { return get(shadow.address, "/readyz") == "ok" })

	cp.CreateShoots(t, namespace, name, 0, 1, "default-scheduler") // shoot-0, in strand-1: for the gardener-scheduler
	waitFor(t, 30*time.Second, "the shadow placed shoot-0 on strand-seed0", func() bool {
		return slices.ContainsFunc(planned.attrs("Shoot planned (dry run)"), func(attrs map[string]string) bool {
			return attrs["shoot"] == namespace+"/shoot-0" && attrs["seed"] == "strand-seed0"
		})
	})
	cp.CreateShoots(t, namespace, name, 2, 3, name) // shoot-2, in strand-1 too, bound by hand: the seed is full
	filler := &gardencorev1beta1.Shoot{}
	if err := cp.Client.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: "shoot-2"}, filler); err != nil {
		t.Fatal(err)
	}
	filler.Spec.SeedName = ptr.To("strand-seed0")
	if err := cp.Client.SubResource("binding").Update(context.Background(), filler); err != nil {
		t.Fatal(err)
	}

	stopGardener := startGardenerScheduler(t, cp)
	defer func() {
		if err := stopGardener(); err != nil {
			t.Error(err)
		}
	}()
	const there = "seedplan_shadow_unschedulable_there_total"
	counted := func() int {
		value, _ := sample(get(shadow.address, "/metrics"), there)
		return int(value)
	}
	waitFor(t, 60*time.Second, "the shadow counted shoot-0 unschedulable there", func() bool { return counted() > 0 })
	shoot := &gardencorev1beta1.Shoot{}
	if err := cp.Client.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: "shoot-0"}, shoot); err != nil {
		t.Fatal(err)
	}
	if shoot.Spec.SeedName != nil || shoot.Status.LastOperation == nil {
		t.Fatalf("shoot-0: seed %v, last operation %v; want it unbound with the gardener-scheduler's failure report", shoot.Spec.SeedName, shoot.Status.LastOperation)
	}
	time.Sleep(3 * time.Second) // the gardener-scheduler tries again meanwhile, and reports each failure
	if n := counted(); n != 1 {
		t.Errorf("%s = %d, want 1: one shoot, counted once while the shadow's placement stands", there, n)
	}
}

// startGardenerScheduler runs the real gardener-scheduler against the test's garden, its log shown if the test
// fails; stop interrupts it and waits for it to end.
func startGardenerScheduler(t *testing.T, cp *gardentest.ControlPlane) (stop func() error) {
	t.Helper()
	kubeconfig, err := cp.Kubeconfig("gardener-scheduler")
	if err != nil {
		t.Fatal(err)
	}
	logs := t.TempDir()
	stop, err = cp.StartGardenerScheduler(kubeconfig, logs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(logs, "gardener-scheduler.log"))
			t.Logf("gardener-scheduler's log:\n%s", log)
		}
	})
	return stop
}
