package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/sync/errgroup"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
)

// Loop is the run mode: informers keep the landscape, and while this replica holds the leader Lease windows are
// closed by work, not by time: when the loop is idle and a shoot becomes pending it is planned at once, and the
// shoots that arrive while a window is planned and bound form the next window, at most window.maxShoots of them,
// oldest first. The next window is planned while the previous one binds, counting its placements as bound, and is
// bound when the previous binding is done. /healthz, /readyz and /metrics are served by every replica, leading
// or not.
type Loop struct {
	Config *config.SeedPlanConfiguration
	REST   *rest.Config
	// Identity names this replica in its logs, the events it records and the leader Lease it holds; it must be
	// unique among the replicas.
	Identity string
	// Listener, when set, serves /healthz and /metrics instead of Config.Server.BindAddress (tests).
	Listener net.Listener
	// DryRun makes the loop a shadow: it plans windows as shoots come and writes nothing — no binding, event,
	// lastOperation or Lease, so every replica plans — and compares each decision with the seed another scheduler
	// then binds the shoot to (seedplan_shadow_bindings_total).
	DryRun bool
}

// Run runs the loop until ctx ends (graceful: the current window finishes binding what it started, the Lease is
// released) or leadership is lost (an error: the process must exit).
func (l *Loop) Run(ctx context.Context) error {
	c := l.Config
	policy, err := plan.NewPolicy(c)
	if err != nil {
		return err
	}
	writer, err := ingest.NewClient(l.REST)
	if err != nil {
		return err
	}
	copies, err := ingest.NewCopies()
	if err != nil {
		return err
	}
	mgr, lock, err := l.newManager(ctx)
	if err != nil {
		return err
	}
	loopMetrics := metrics.NewMetrics(true)
	if l.DryRun {
		loopMetrics = metrics.NewShadowMetrics()
	}
	scheduler := &Scheduler{
		Copies: copies,
		Binder: &bind.Binder{
			Client: writer, Reader: writer,
			Concurrency: c.Bind.Concurrency, Instance: l.Identity, QPS: l.REST.QPS,
		},
		Metrics: loopMetrics, Policy: policy, DryRun: l.DryRun,
	}
	health := &healthServer{metrics: loopMetrics, address: c.Server.BindAddress, listener: l.Listener}
	slog.InfoContext(ctx, "Starting the run loop", append(startAttrs(c, l.Identity), "dryRun", l.DryRun)...)
	if err := l.serve(ctx, health, scheduler, mgr, lock); err != nil {
		return fmt.Errorf("run loop: %w", err)
	}
	return nil
}

// startAttrs are the start record's attributes, named after the configuration's fields: the LP's time budget and
// weights only where the LP decides (the greedy rule has neither).
func startAttrs(c *config.SeedPlanConfiguration, identity string) []any {
	attrs := []any{"instance", identity, "schedulerName", c.SchedulerName, "strategy", c.Strategy, "solver", c.Solver.Name}
	if c.Solver.Name != config.SolverGreedy {
		attrs = append(attrs, "solverTimeout", c.Solver.Timeout.Duration, "weights", c.Placement.Weights.Preset)
	}
	return append(attrs, "targetUtilization", c.Placement.TargetUtilization, "maxShoots", c.Window.MaxShoots,
		"maxWait", c.Window.MaxWait.Duration, "leaderElection", *c.LeaderElection.LeaderElect)
}

// serve runs /healthz from the start, as kube-scheduler serves it before it reads anything: a liveness probe
// passes while the loop waits out a garden that does not answer yet (warmInformers), and /readyz says it is not
// ready. Then it runs the informers, and the manager — leader election and the windows — once they have synced,
// until ctx ends or one of them fails; the informers stop after the manager, whose windows finish binding from
// them. The informers run beside the manager, not in it: in it they would keep /healthz unserved until they
// synced, and a manager stopped before they synced spins at full CPU and never returns (controller-runtime's
// runnableGroup.Start keeps selecting on its ended context, kubernetes-sigs/controller-runtime#3440, v0.24.1 and
// v0.25.2 alike): a loop whose RBAC forbids a list, or one stopped while it lists a large garden. Only a replica
// whose informers synced seeks the Lease, so that a standby that takes over plans at once, and only after checking
// that it can take it (checkLease): a loop that never could ends in an error that says why.
func (l *Loop) serve(ctx context.Context, health *healthServer, scheduler *Scheduler, mgr manager.Manager, lock *resourcelock.LeaseLock) error {
	background, stopBackground := context.WithCancel(context.WithoutCancel(ctx))
	g, failed := errgroup.WithContext(background)
	g.Go(func() error { return health.Start(failed) })
	g.Go(func() error {
		defer stopBackground()
		leading, stop := context.WithCancel(ctx)
		defer stop()
		context.AfterFunc(failed, stop) // the informers or /healthz failed
		informers, err := l.warmInformers(leading)
		switch {
		case err != nil && failed.Err() != nil:
			return nil // /healthz's error is the one to report
		case err != nil && ctx.Err() != nil:
			slog.InfoContext(ctx, "Run loop stopping before it could read the garden")
			return nil
		case err != nil:
			return err
		}
		scheduler.Reader = informers
		if err := mgr.Add(newWindowLoop(scheduler, informers, l.Config.Window)); err != nil {
			return err
		}
		g.Go(func() error { return informers.Start(failed) })
		if !informers.WaitForCacheSync(leading) {
			if ctx.Err() != nil {
				slog.InfoContext(ctx, "Run loop stopping before its informers synced")
			}
			return nil
		}
		health.synced.Store(true)
		if lock != nil {
			switch err := checkLease(leading, lock); {
			case err != nil && leading.Err() != nil:
				return nil // stopped while checking, or /healthz failed: its error is the one to report
			case err != nil:
				return err
			}
		}
		return mgr.Start(leading)
	})
	return g.Wait()
}

// watching is the loop's client configuration for its informers and its manager: their watches last minutes by
// design, so the request timeout bounds the binder's requests, never theirs.
func (l *Loop) watching() *rest.Config {
	watching := rest.CopyConfig(l.REST)
	watching.Timeout = 0
	return watching
}

// newInformers is the cache of what a window reads, run beside the manager (serve).
func (l *Loop) newInformers() (cache.Cache, error) {
	return ingest.NewCache(l.watching(), map[client.Object]cache.ByObject{
		// Only the region configs: seedplan never reads other ConfigMaps (nor has the RBAC to).
		&corev1.ConfigMap{}: {
			Namespaces: map[string]cache.Config{v1beta1constants.GardenNamespace: {}},
			Label: labels.SelectorFromSet(labels.Set{
				v1beta1constants.SchedulingPurpose: v1beta1constants.SchedulingPurposeRegionConfig,
			}),
		},
	})
}

// newManager is the controller-runtime manager the loop's windows run in: it elects the leader as configured, under
// the loop's Identity (leaseLock), and runs the windows while this replica leads. It logs to the default logger, a
// graceful stop's end of leading as information (stopSequenceHandler). The Lease is returned too (nil when this
// replica does not elect), for serve to check before it is sought.
func (l *Loop) newManager(ctx context.Context) (manager.Manager, *resourcelock.LeaseLock, error) {
	scheme, err := ingest.Scheme()
	if err != nil {
		return nil, nil, err
	}
	le := l.Config.LeaderElection
	elect := *le.LeaderElect && !l.DryRun // a shadow writes no Lease either
	options := manager.Options{
		Scheme:                        scheme,
		MapperProvider:                ingest.NewRESTMapper,
		Logger:                        logr.FromSlogHandler(stopSequenceHandler{next: slog.Default().Handler()}),
		LeaderElection:                elect,
		LeaderElectionID:              le.ResourceName,
		LeaderElectionReleaseOnCancel: true,
		LeaseDuration:                 &le.LeaseDuration.Duration,
		RenewDeadline:                 &le.RenewDeadline.Duration,
		RetryPeriod:                   &le.RetryPeriod.Duration,
		Metrics:                       metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:        "0",
		BaseContext:                   func() context.Context { return ctx },
	}
	var lock *resourcelock.LeaseLock
	if elect {
		if lock, err = l.leaseLock(); err != nil {
			return nil, nil, err
		}
		options.LeaderElectionResourceLockInterface = lock
	}
	mgr, err := manager.New(l.watching(), options)
	if err != nil {
		return nil, nil, fmt.Errorf("creating the manager: %w", err)
	}
	if lock != nil {
		lock.LockConfig.EventRecorder = leaseEvents{mgr.GetEventRecorder(bind.ReportingController)}
	}
	return mgr, lock, nil
}

// warmInformers makes the informers of what a window reads and starts each. Every replica keeps them warm, so that
// /readyz means synced and a standby that takes over plans at once. Making them maps their kinds, which asks
// kube-apiserver, and fails while it or gardener-apiserver does not answer (a restart, as Gardener's upgrades make
// them): that is waited out for up to ingest.RestartPatience, as the job waits out its first read, instead of the
// loop's ending at once.
func (l *Loop) warmInformers(ctx context.Context) (cache.Cache, error) {
	var informers cache.Cache
	err := ingest.RetryTransient(ctx, ingest.RestartPatience, func() (err error) {
		if informers == nil {
			if informers, err = l.newInformers(); err != nil {
				return err
			}
		}
		for _, obj := range informedKinds() {
			// An informer made in an earlier try is returned as it is.
			if _, err := informers.GetInformer(ctx, obj); err != nil {
				return fmt.Errorf("creating the informer of %T: %w", obj, err)
			}
		}
		return nil
	})
	return informers, err
}

// newWindowLoop is the leader's loop of windows of the shoots the cache holds, planned and bound by scheduler.
func newWindowLoop(scheduler *Scheduler, informers cache.Cache, window config.WindowConfiguration) *windowLoop {
	var shadowed *shadow
	if scheduler.DryRun {
		shadowed = &shadow{decisions: map[types.NamespacedName]decision{}, metrics: scheduler.Metrics}
	}
	return &windowLoop{
		shadow:    shadowed,
		scheduler: scheduler,
		cache:     informers,
		maxShoots: window.MaxShoots,
		coalesce:  window.MaxWait.Duration,
		metrics:   scheduler.Metrics,
		nudge:     make(chan struct{}, 1),
		arrivals:  &arrivals{at: map[types.NamespacedName]time.Time{}},
		shoots:    map[types.NamespacedName]*tracked{},
		bound:     make(chan []bind.Result, 1),
	}
}

// tracked is what the loop remembers of a shoot it has seen pending.
type tracked struct {
	uid        types.UID
	generation int64
	// firstSeen is when it entered the loop's queue: when the watch delivered it pending (its creation, a spec
	// change), or when the loop first listed it. The scheduling latency counts from here.
	firstSeen time.Time
	// failures counts the windows that left it pending since its spec last changed; it waits until notBefore, as
	// the gardener-scheduler's per-item rate limiter makes it wait (retryDelay). A spec change makes it due at once.
	failures  int
	notBefore time.Time
	// boundTo is the seed a window of this loop placed it on: assumed while the binding is in flight (inFlight),
	// then bound while the cache may not show the binding yet. A binding that fails forgets it.
	boundTo  string
	inFlight bool
	// placed is true when a shadow's window placed it (Loop.DryRun): it waits for another scheduler's binding,
	// unless its spec changes.
	placed bool
	// turnedAwayForRoom is true when the last window left it pending for lack of room on a seed it may use
	// (some seed rejected it for Capacity, or the re-check before binding found its seed full): room freed on
	// one of roomSeeds — the seeds it may use (Planned.RoomSeeds), every seed when nil — may let it be placed.
	// roomDue is when room that appeared last made it due (roomFor).
	turnedAwayForRoom bool
	roomSeeds         map[string]bool
	roomDue           time.Time
	// roomTry is true while room, not the end of its backoff, made it due (roomFor); backoffEnd is when its
	// backoff ends. lastReason is the reason of the failure last reported for it (model.Unschedulable.Reason).
	roomTry    bool
	backoffEnd time.Time
	lastReason string
}

// windowLoop closes, plans and binds windows; it runs only on the leader.
type windowLoop struct {
	scheduler *Scheduler
	cache     cache.Cache
	// maxShoots caps a window, so that its solve stays within the solver's budget.
	maxShoots int
	// coalesce is how long a window may wait after its oldest shoot for more (window.maxWait); 0, the default,
	// plans at once.
	coalesce time.Duration
	metrics  *metrics.Metrics
	nudge    chan struct{}
	arrivals *arrivals
	// shadow, for a loop that binds nothing (Loop.DryRun), compares its decisions with other schedulers' bindings.
	shadow *shadow

	// The rest is owned by the loop's goroutine. binding is true while a window is being bound, and bound
	// brings its results back; next is the window planned meanwhile, which waits to be bound.
	shoots  map[types.NamespacedName]*tracked
	binding bool
	bound   chan []bind.Result
	next    *Planned
	warned  warnings

	// roomChanged collects the informers' events that may let a waiting shoot be placed (roomAppeared) until the
	// loop's next look takes them (roomLook); lastRoomLook is when one last did.
	roomMu       sync.Mutex
	roomChanged  roomChange
	lastRoomLook time.Time
}

// warnings are the landscape's warnings (Planned.Warnings) the loop has logged and that still hold: the
// loop reads the landscape for every window, and the same warning every window would bury the rest of its log.
type warnings map[string]bool

// fresh returns the warnings that did not hold the last time, and remembers these: one that goes away and comes
// back is fresh again.
func (w *warnings) fresh(now []string) []string {
	var fresh []string
	holding := make(warnings, len(now))
	for _, warning := range now {
		if !(*w)[warning] && !holding[warning] {
			fresh = append(fresh, warning)
		}
		holding[warning] = true
	}
	*w = holding
	return fresh
}

// idleRecheck is how long the loop waits without any event before it lists the pending shoots again;
// failedWindowRetry how long after a failed window or listing (the loop would otherwise retry at once, forever).
const (
	idleRecheck       = 30 * time.Second
	failedWindowRetry = time.Second
	// conflictRetry is how long a shoot whose binding met a conflict waits: its backoff does not grow.
	conflictRetry = time.Second
)

// arrivals records when the watch delivered each shoot, written by the informer's goroutine and taken by the
// loop's, so that a shoot that arrives while a window is being planned and bound is timed from its arrival.
type arrivals struct {
	mu sync.Mutex
	at map[types.NamespacedName]time.Time
}

// record notes the shoot's arrival now, unless an earlier one is still untaken, and reports whether it arrived
// without a seed: only such a shoot gives the loop work (a binding arriving, its own or another's, gives none).
func (a *arrivals) record(obj any) bool {
	shoot, ok := withoutSeed(obj)
	if !ok {
		return false
	}
	key := types.NamespacedName{Namespace: shoot.Namespace, Name: shoot.Name}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, known := a.at[key]; !known {
		a.at[key] = time.Now()
	}
	return true
}

// withoutSeed is the informer's object as a shoot that has no seed yet, one the loop places; ok is false for any
// other.
func withoutSeed(obj any) (shoot *gardencorev1beta1.Shoot, ok bool) {
	shoot, ok = obj.(*gardencorev1beta1.Shoot)
	return shoot, ok && shoot.Spec.SeedName == nil
}

// take returns every arrival recorded since the last take.
func (a *arrivals) take() map[types.NamespacedName]time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	taken := a.at
	a.at = map[types.NamespacedName]time.Time{}
	return taken
}

// NeedLeaderElection makes the window loop run only on the leader.
func (w *windowLoop) NeedLeaderElection() bool { return true }

// Start runs windows while this replica leads: it wakes on shoots that arrive without a seed, plans what is due
// and binds it, until ctx ends.
func (w *windowLoop) Start(ctx context.Context) error {
	w.metrics.SetLeader(true) // a shadow's metrics have no leader gauge (metrics.NewShadowMetrics)
	defer w.metrics.SetLeader(false)
	defer w.scheduler.Binder.Flush() // a stopping loop writes the reports of its last window
	unwatch, err := w.watch(ctx)
	if err != nil {
		return err
	}
	defer unwatch()
	if w.shadow != nil {
		slog.InfoContext(ctx, "Dry run: windows are planned here and nothing is written; each decision is compared with the binding another scheduler makes")
	} else {
		slog.InfoContext(ctx, "Leading: windows are planned and bound here")
	}

	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			slog.InfoContext(ctx, "Run loop stopping")
			w.settleInFlight()
			return nil
		case <-w.nudge:
		case <-timer.C:
		case results := <-w.bound:
			w.settle(results)
			if w.next != nil {
				w.startBinding(ctx, w.next)
				w.next = nil
			}
		}
		if w.next != nil {
			continue // planned ahead; the solver waits until the binder takes it
		}
		if retry := w.planNext(ctx); retry > 0 {
			timer.Reset(retry)
		}
	}
}

// shootEvents wakes the loop for the shoot informer's events that give it work: a shoot that arrives without a
// seed, a pending shoot that is deleted, and a shoot that leaves a seed (roomAppeared).
func (w *windowLoop) shootEvents() toolscache.ResourceEventHandlerFuncs {
	return toolscache.ResourceEventHandlerFuncs{
		// Only a shoot that arrives without a seed wakes the loop: during a burst every binding comes back
		// through this watch, and a look for due shoots on each cost more CPU than planning the burst.
		AddFunc: func(obj any) {
			if w.arrivals.record(obj) {
				w.poke()
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			// As the gardener-scheduler's predicate: only spec changes matter.
			oldShoot, ok1 := oldObj.(*gardencorev1beta1.Shoot)
			newShoot, ok2 := newObj.(*gardencorev1beta1.Shoot)
			if ok1 && ok2 {
				if left := model.SeedsLeft(oldShoot, newShoot); len(left) > 0 {
					w.roomAppeared(roomFreedOn(left...))
				}
				if w.shadow != nil && model.IsPending(oldShoot, w.schedulerName()) {
					switch {
					case newShoot.Spec.SeedName != nil:
						w.shadow.bound(newShoot) // a shoot of the shadow's scheduler name that another scheduler bound
					case failureReported(oldShoot, newShoot):
						w.shadow.failed(newShoot)
					}
				}
			}
			if ok1 && ok2 && equality.Semantic.DeepEqual(oldShoot.Spec, newShoot.Spec) {
				return
			}
			if w.arrivals.record(newObj) {
				w.poke()
			}
		},
		DeleteFunc: func(obj any) {
			// A pending shoot that is deleted leaves the queue now, not at its next retry or idle look, up to
			// idleRecheck later: seedplan_pending_shoots stays true, and its backoff is forgotten.
			if tombstone, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			if _, ok := withoutSeed(obj); ok {
				w.poke()
			}
			if shoot, ok := obj.(*gardencorev1beta1.Shoot); ok {
				if left := model.SeedsLeft(shoot, nil); len(left) > 0 {
					w.roomAppeared(roomFreedOn(left...))
				}
				if w.shadow != nil {
					w.shadow.forget(types.NamespacedName{Namespace: shoot.Namespace, Name: shoot.Name})
				}
			}
		},
	}
}

// planNext plans the next window of due shoots and binds it, or keeps it as next while another window binds. It
// returns how long to wait before looking again when there was nothing to plan or planning failed, else 0.
func (w *windowLoop) planNext(ctx context.Context) time.Duration {
	now := time.Now()
	due, wake, err := w.due(ctx, now)
	if err != nil {
		slog.ErrorContext(ctx, "Listing pending shoots", "error", err)
		return failedWindowRetry
	}
	if len(due) > 0 && len(due) < w.maxShoots && w.coalesce > 0 {
		if until := w.shoots[due[0]].firstSeen.Add(w.coalesce); now.Before(until) {
			return time.Until(until)
		}
	}
	if len(due) == 0 {
		w.metrics.ObserveNothingDue()
		return max(time.Until(wake), time.Nanosecond)
	}
	planned, err := w.plan(ctx, due[:min(len(due), w.maxShoots)])
	if err != nil {
		// A window fails when the garden cannot be read or the plan not made: try again later, not at once.
		if ctx.Err() == nil {
			slog.ErrorContext(ctx, "Window failed; its shoots stay pending", "error", err)
		}
		return failedWindowRetry
	}
	if w.binding {
		w.next = planned
	} else {
		w.startBinding(ctx, planned)
	}
	w.poke() // what arrived meanwhile, or beyond the cap, is the next window
	return 0
}

// schedulerName is the spec.schedulerName of the shoots the loop places.
func (w *windowLoop) schedulerName() string {
	return w.scheduler.Policy.Options.WithDefaults().SchedulerName
}

// poke makes the loop look for due shoots again.
func (w *windowLoop) poke() {
	select {
	case w.nudge <- struct{}{}:
	default:
	}
}

// startBinding binds a planned window on a goroutine of its own; its results come back through bound.
func (w *windowLoop) startBinding(ctx context.Context, planned *Planned) {
	w.binding = true
	go func() {
		result, err := w.scheduler.Bind(ctx, planned)
		if err != nil && ctx.Err() == nil {
			slog.ErrorContext(ctx, "Binding a window failed; its shoots stay pending", "error", err)
		}
		var results []bind.Result
		if result != nil {
			results = result.Results
		}
		w.bound <- forgetUnbound(planned.Plan(), results)
	}()
}

// forgetUnbound completes a window's results: a placement without a result (the window's binding failed before
// it was tried) failed, so that the loop forgets it.
func forgetUnbound(plan *model.Plan, results []bind.Result) []bind.Result {
	has := make(map[string]bool, len(results))
	for _, r := range results {
		has[r.Shoot] = true
	}
	for _, pl := range plan.Placements {
		if !has[pl.Shoot] {
			results = append(results, bind.Result{Shoot: pl.Shoot, Seed: pl.Seed, Result: model.Failed})
		}
	}
	return results
}

// settleInFlight waits for the window being bound, if any, and settles it: a stopping loop finishes what it
// started. A window planned but not yet bound is dropped; its shoots stay pending.
func (w *windowLoop) settleInFlight() {
	if w.binding {
		w.settle(<-w.bound)
	}
	w.next = nil
}

// due returns the pending shoots a window should take now, oldest first, and when the loop must look again
// for the others (the end of the earliest backoff, or idleRecheck from now).
func (w *windowLoop) due(ctx context.Context, now time.Time) ([]types.NamespacedName, time.Time, error) {
	room, later := w.roomLook(now) // before the list: room that appears after it is looked at next time
	var shoots gardencorev1beta1.ShootList
	if err := w.cache.List(ctx, &shoots, client.UnsafeDisableDeepCopy); err != nil {
		w.keepRoom(room) // not looked at: look next time
		return nil, time.Time{}, err
	}
	arrived := w.arrivals.take()
	schedulerName := w.schedulerName()
	var due []types.NamespacedName
	waiting, woken := 0, 0 // pending, but backing off; of those, due because room appeared
	seen := map[types.NamespacedName]bool{}
	wake := now.Add(idleRecheck)
	if !later.IsZero() {
		wake = later
	}
	for i := range shoots.Items {
		shoot := &shoots.Items[i]
		key := types.NamespacedName{Namespace: shoot.Namespace, Name: shoot.Name}
		seen[key] = true
		state := w.shoots[key]
		if state.waitsForBinding(shoot) {
			continue
		}
		if !model.IsPending(shoot, schedulerName) {
			delete(w.shoots, key)
			continue
		}
		state = w.track(key, shoot, arrived, now)
		if now.Before(state.notBefore) && state.roomFor(room, now) {
			woken++
		}
		if now.Before(state.notBefore) {
			wake = minTime(wake, state.notBefore)
			waiting++
			continue
		}
		due = append(due, key)
	}
	if woken > 0 {
		w.metrics.ObserveRoomWakes(woken)
		slog.DebugContext(ctx, "Room appeared: shoots waiting out their backoff are due sooner", "shoots", woken)
	}
	maps.DeleteFunc(w.shoots, func(key types.NamespacedName, _ *tracked) bool { return !seen[key] })
	w.metrics.SetPending(len(due) + waiting)
	slices.SortFunc(due, func(a, b types.NamespacedName) int {
		return cmp.Or(w.shoots[a].firstSeen.Compare(w.shoots[b].firstSeen), cmp.Compare(a.String(), b.String()))
	})
	return due, wake, nil
}

// track returns what the loop remembers of a pending shoot, anew for one it has not seen (or another of its name),
// timed from its arrival when the watch delivered it; a spec change (a new generation) ends its backoff.
func (w *windowLoop) track(key types.NamespacedName, shoot *gardencorev1beta1.Shoot, arrived map[types.NamespacedName]time.Time, now time.Time) *tracked {
	state := w.shoots[key]
	if state == nil || state.uid != shoot.UID {
		firstSeen, ok := arrived[key]
		if !ok {
			firstSeen = now
		}
		state = &tracked{uid: shoot.UID, generation: shoot.Generation, firstSeen: firstSeen}
		w.shoots[key] = state
	}
	if state.generation != shoot.Generation {
		state.generation, state.failures, state.notBefore = shoot.Generation, 0, time.Time{}
		state.roomTry, state.lastReason, state.placed = false, "", false
	}
	return state
}

// waitsForBinding reports whether the shoot, as read, stays out of windows for a binding: one of ours in flight,
// ours made and not yet in the cache, or, for a shadow, another scheduler's to make for its placement, until the
// shoot's spec changes. A nil state is a shoot not tracked yet.
func (s *tracked) waitsForBinding(shoot *gardencorev1beta1.Shoot) bool {
	if s == nil || s.uid != shoot.UID {
		return false
	}
	return s.inFlight || shoot.Spec.SeedName == nil && (s.boundTo != "" || s.placed && s.generation == shoot.Generation)
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// plan plans the due shoots and assumes its placements: until their bindings are done, later windows count
// them as bound and leave them out. Shoots the plan leaves unschedulable back off.
func (w *windowLoop) plan(ctx context.Context, shoots []types.NamespacedName) (*Planned, error) {
	due := make(map[types.NamespacedName]bool, len(shoots))
	for _, key := range shoots {
		due[key] = true
	}
	bound := map[string]string{}
	for key, state := range w.shoots {
		if state.boundTo != "" {
			bound[key.String()] = state.boundTo
		}
	}
	planned, err := w.scheduler.Plan(ctx, func(shoot *gardencorev1beta1.Shoot) bool {
		return due[types.NamespacedName{Namespace: shoot.Namespace, Name: shoot.Name}]
	}, bound)
	if err != nil {
		return nil, err
	}
	for _, warning := range w.warned.fresh(planned.Warnings()) {
		slog.WarnContext(ctx, warning)
	}
	w.remember(planned, shoots)
	return planned, nil
}

// remember notes what a planned window decided for its shoots: a placement is assumed until its binding is done;
// an unplaced shoot backs off, and what its failure is written about is decided (tracked.unschedulable); every
// shoot's room try is over.
func (w *windowLoop) remember(planned *Planned, shoots []types.NamespacedName) {
	for _, pl := range planned.Plan().Placements {
		state := w.shoots[parseKey(pl.Shoot)]
		switch {
		case state == nil:
		case w.shadow != nil:
			// Assumed by no later window, which plans against the garden as it is: another scheduler binds it.
			state.placed = true
			w.shadow.decide(parseKey(pl.Shoot), decision{uid: state.uid, seed: pl.Seed, candidates: planned.candidates(pl.Shoot)})
		default:
			state.boundTo, state.inFlight = pl.Seed, true
		}
	}
	now := time.Now()
	roomSeeds := planned.RoomSeeds()
	for _, u := range planned.Plan().Unschedulable {
		state := w.shoots[parseKey(u.Shoot)]
		if state == nil {
			continue
		}
		w.shadow.decide(parseKey(u.Shoot), decision{uid: state.uid, reason: u.Reason})
		state.turnedAwayForRoom = slices.ContainsFunc(u.Rejections, func(r model.SeedCount) bool { return r.Predicate == model.PredicateCapacity })
		state.roomSeeds = roomSeeds(u.Shoot)
		if !state.unschedulable(u.Reason, now) {
			planned.unreported[u.Shoot] = true
		}
	}
	for _, key := range shoots {
		if state := w.shoots[key]; state != nil {
			state.roomTry = false
		}
	}
}

// settle updates what the loop remembers of a window's shoots once their bindings are done: a bound shoot is
// timed, a shoot still pending is forgotten where it was assumed and backs off, and one that is someone
// else's now, or gone, is dropped.
func (w *windowLoop) settle(results []bind.Result) {
	w.binding = false
	now := time.Now()
	for _, r := range results {
		key := parseKey(r.Shoot)
		state := w.shoots[key]
		if state == nil {
			continue
		}
		state.inFlight = false
		switch {
		case r.Result == model.Bound:
			w.metrics.ObserveScheduled(r.BoundAt.Sub(state.firstSeen))
		case r.Result == model.NotSent:
			// A shadow's placement, placed when it was planned (remember): nothing was sent.
		case r.Result == model.Conflict:
			// The shoot's spec changed since the window read it (the Binder binds again at once a shoot changed in
			// nothing placement reads): not the shoot's failure, so no longer backoff; the cache shows it soon.
			state.boundTo, state.notBefore = "", now.Add(conflictRetry)
		case r.Retry():
			// A placement deferred for its seed's room may take room on any seed: roomSeeds, nil, says so.
			state.boundTo, state.turnedAwayForRoom, state.roomSeeds = "", r.Result == model.Deferred, nil
			if r.Result == model.Refused {
				state.lastReason = "" // the refusal is what was written last
			}
			w.failed(key, now)
		default: // someone else's now, or gone
			delete(w.shoots, key)
		}
	}
}

// failed makes a shoot that a window left pending back off.
func (w *windowLoop) failed(key types.NamespacedName, now time.Time) {
	if state := w.shoots[key]; state != nil {
		state.fail(now)
	}
}

// fail makes the shoot back off, as the gardener-scheduler's rate limiter does after a failed reconcile.
func (s *tracked) fail(now time.Time) {
	s.failures++
	s.notBefore = now.Add(retryDelay(s.failures))
}

// unschedulable notes that a window left the shoot unplaced for reason, and reports whether its failure is to be
// written (event and lastOperation). A try that room brought forward (roomTry) and that fails for the reason last
// written writes nothing and leaves the backoff as it was: it was seedplan's own extra look, and the garden hears
// of the shoot when it would from the gardener-scheduler, at the end of the backoff — so that seeds flapping or
// shoots coming and going do not multiply the writes about shoots that wait. Any other failure backs off and is
// written.
func (s *tracked) unschedulable(reason string, now time.Time) (report bool) {
	if s.roomTry && reason == s.lastReason {
		s.notBefore = s.backoffEnd
		return false
	}
	s.lastReason = reason
	s.fail(now)
	return true
}

// retryDelay is the gardener-scheduler's per-item backoff: 5 ms · 2^(failures-1), capped at 1000 s.
func retryDelay(failures int) time.Duration {
	const base, ceiling = 5 * time.Millisecond, 1000 * time.Second
	if failures > 20 {
		return ceiling
	}
	return min(base<<(failures-1), ceiling)
}

// parseKey splits a plan's namespace/name.
func parseKey(shoot string) types.NamespacedName {
	namespace, name, _ := strings.Cut(shoot, "/")
	return types.NamespacedName{Namespace: namespace, Name: name}
}

// healthServer serves /healthz, /readyz (informers synced) and /metrics on every replica.
type healthServer struct {
	metrics  *metrics.Metrics
	address  string
	listener net.Listener
	// synced is set once the loop's informers have synced: /readyz answers ok from then on.
	synced atomic.Bool
}

// Start serves /healthz, /readyz (once synced) and /metrics until ctx ends.
func (h *healthServer) Start(ctx context.Context) error {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !h.synced.Load() {
			http.Error(w, "informers not synced", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	mux.Handle("/metrics", promhttp.HandlerFor(h.metrics, promhttp.HandlerOpts{}))
	server := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	listener := h.listener
	if listener == nil {
		var err error
		if listener, err = net.Listen("tcp", h.address); err != nil {
			return fmt.Errorf("serving /healthz and /metrics: %w", err)
		}
	}
	// Said, as kube-scheduler says where it serves: the address a probe or a scrape must reach.
	slog.InfoContext(ctx, "Serving /healthz, /readyz and /metrics", "address", listener.Addr().String())
	errs := make(chan error, 1)
	go func() { errs <- server.Serve(listener) }()
	select {
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		return server.Shutdown(shutdown)
	case err := <-errs:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}
