// Package metrics exports seedplan's Prometheus metrics, observed from plan reports and binding results.
package metrics

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/push"
	dto "github.com/prometheus/client_model/go"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/internal/buildinfo"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
	"github.com/seedplan/seedplan/solver"
)

// seedLabels label every per-seed metric, so that dashboards and alerts can sum by provider and region.
func seedLabels() []string { return []string{"seed", "provider", "region"} }

// Metrics are seedplan's Prometheus metrics, all named seedplan_*. The schedule job pushes them to a
// Pushgateway; the run loop serves them on /metrics.
type Metrics struct {
	// Registry holds every seedplan metric (and, for the run loop, the Go and process collectors). Scrapes and
	// pushes gather it through Gather.
	Registry *prometheus.Registry
	// observing keeps a gathering out of a window's observation (ObserveWindow).
	observing sync.Mutex

	windows       *prometheus.CounterVec
	windowShoots  prometheus.Histogram
	modelSeconds  prometheus.Histogram
	solveSeconds  prometheus.Histogram
	greedySeconds prometheus.Histogram
	bindSeconds   prometheus.Histogram
	fallbacks     *prometheus.CounterVec
	bindings      *prometheus.CounterVec
	unschedulable *prometheus.GaugeVec
	seeds         *seedCollector
	lastWindow    prometheus.Gauge
	warnings      prometheus.Gauge
	// Run loop only:
	leader      prometheus.Gauge
	scheduling  prometheus.Histogram
	pending     prometheus.Gauge
	roomWakes   prometheus.Counter
	shadow      *prometheus.CounterVec
	failedThere prometheus.Counter
	otherSeed   *prometheus.CounterVec
}

// NewMetrics registers seedplan's metrics in a new registry; loop adds what only the run loop's /metrics has:
// seedplan_leader, the queue's metrics and the Go and process collectors (a pushed batch job has no use for them).
func NewMetrics(loop bool) *Metrics {
	m := newMetrics()
	if loop {
		m.registerLoopMetrics()
		m.leader = prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "seedplan_leader", Help: "1 while this run loop holds the leader Lease and binds, 0 while it stands by.",
		})
		m.Registry.MustRegister(m.leader)
	}
	return m
}

// NewShadowMetrics registers the metrics of a run loop that binds nothing (run --dry-run): a loop's, without
// seedplan_leader — a shadow neither pages as a loop without a leader nor passes for a leading one — and with how
// its decisions compare with the bindings another scheduler makes.
func NewShadowMetrics() *Metrics {
	m := newMetrics()
	m.registerLoopMetrics()
	m.shadow = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "seedplan_shadow_bindings_total",
		Help: "Shoots another scheduler bound while this run loop ran as a shadow (run --dry-run, binding nothing), by how its own decision compares (" + joined(model.ShadowOutcomes()) + ").",
	}, []string{"outcome"})
	for _, outcome := range model.ShadowOutcomes() {
		m.shadow.WithLabelValues(string(outcome))
	}
	m.failedThere = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "seedplan_shadow_unschedulable_there_total",
		Help: "Shoots this run loop, as a shadow (run --dry-run), placed and the scheduler that binds them reported unschedulable: counted at its first such report while the shadow's placement stood.",
	})
	m.otherSeed = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "seedplan_shadow_other_seed_total",
		Help: "Shoots another scheduler bound to another seed than this run loop, as a shadow (run --dry-run), placed them on, by how far the other seed is from the shoot's region against the shadow's (" + joined(model.ShadowDistances()) + ") and how utilized it ends with the shoot against the shadow's as the shadow's window left them (" + joined(model.ShadowUtilizations()) + ").",
	}, []string{"distance", "utilization"})
	for _, distance := range model.ShadowDistances() {
		for _, utilization := range model.ShadowUtilizations() {
			m.otherSeed.WithLabelValues(string(distance), string(utilization))
		}
	}
	m.Registry.MustRegister(m.shadow, m.failedThere, m.otherSeed)
	return m
}

// newMetrics registers the metrics of every planner, the job's and the run loop's.
func newMetrics() *Metrics {
	durations := prometheus.ExponentialBuckets(0.001, 2.5, 12) // 1 ms … ~60 s
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		windows: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "seedplan_windows_total", Help: "Windows planned, by solver whose plan was used.",
		}, []string{"solver"}),
		windowShoots: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "seedplan_window_shoots", Help: "Pending shoots per window.",
			Buckets: prometheus.ExponentialBuckets(1, 4, 9), // 1 … 65,536
		}),
		modelSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "seedplan_model_duration_seconds", Help: "Time to build a window's feasibility and costs.", Buckets: durations,
		}),
		solveSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "seedplan_solve_duration_seconds", Help: "Time the solver took for a window.", Buckets: durations,
		}),
		greedySeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "seedplan_greedy_duration_seconds", Help: "Time the greedy plan made beside the LP took, part of the solve time, in windows the LP solver planned: a solver timeout below it cannot be kept, as a fallback comes no sooner.", Buckets: durations,
		}),
		bindSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "seedplan_bind_duration_seconds", Help: "Time to apply a window's plan to the cluster.", Buckets: durations,
		}),
		fallbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "seedplan_solver_fallbacks_total", Help: "Windows whose LP plan was replaced by the greedy plan, by reason (" + joined(solver.FallbackReasons()) + ").",
		}, []string{"reason"}),
		bindings: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "seedplan_bindings_total", Help: "Bindings attempted, by result (" + joined(model.WindowBindResults()) + "); not those seedplan stopped before they were made.",
		}, []string{"result"}),
		unschedulable: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "seedplan_unschedulable_shoots", Help: "Shoots the last window left unplaced, by the predicate that excluded the last candidate.",
		}, []string{"reason"}),
		seeds: newSeedCollector(),
		lastWindow: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "seedplan_last_window_timestamp_seconds", Help: "Unix time the last window was planned, or the run loop last looked and found no shoot due (an empty window, as the schedule job plans one).",
		}),
		warnings: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "seedplan_landscape_warnings", Help: "Problems of the landscape the last window was planned from that no shoot's outcome tells, each a warning of the log: seeds whose allocatable or taint-effects annotation is not read as written, region ConfigMap entries Gardener cannot parse, cloud profiles several region ConfigMaps name, shoots on seeds the landscape does not hold.",
		}),
	}
	m.Registry.MustRegister(m.windows, m.windowShoots, m.modelSeconds, m.solveSeconds, m.greedySeconds, m.bindSeconds,
		m.fallbacks, m.bindings, m.unschedulable, m.seeds, m.lastWindow, m.warnings, buildInfo())
	for _, result := range model.WindowBindResults() {
		m.bindings.WithLabelValues(string(result)) // every result is exported, at zero until it happens
	}
	for _, reason := range solver.FallbackReasons() {
		m.fallbacks.WithLabelValues(reason)
	}
	return m
}

// registerLoopMetrics adds what a run loop's /metrics has, a shadow's too: the queue's, and the Go and process
// collectors.
func (m *Metrics) registerLoopMetrics() {
	m.scheduling = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "seedplan_scheduling_duration_seconds",
		Help: "Time from a shoot entering the loop's queue (the watch delivering it pending) to its binding.",
		// 5 ms … 82 s: a lone shoot binds in tens of milliseconds, a burst's last one in tens of seconds.
		Buckets: prometheus.ExponentialBuckets(0.005, 2, 15),
	})
	m.pending = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "seedplan_pending_shoots", Help: "Shoots pending for this scheduler: due for the next window or waiting out their backoff.",
	})
	m.roomWakes = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "seedplan_room_wakes_total",
		Help: "Pending shoots whose next try the run loop brought forward, before their backoff ended, because room may have appeared for them: a seed that admits more, a changed cloud profile, project or region config, or room freed on a seed that turned them away.",
	})
	m.Registry.MustRegister(m.scheduling, m.pending, m.roomWakes, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
}

// joined lists a metric's label values for its help text.
func joined[T ~string](values []T) string {
	words := make([]string, len(values))
	for i, v := range values {
		words[i] = string(v)
	}
	return strings.Join(words, ", ")
}

// buildInfo is seedplan_build_info: 1, labelled with what seedplan was built from.
func buildInfo() prometheus.Gauge {
	build := buildinfo.Read()
	info := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "seedplan_build_info", Help: "1, labelled with the version, commit, Go and Gardener API versions seedplan was built from.",
		ConstLabels: prometheus.Labels{"version": build.Version, "revision": build.Revision, "goversion": build.GoVersion, "gardener": build.Gardener},
	})
	info.Set(1)
	return info
}

// ObserveWindow records a planned window from its report and the warnings of the landscape it was planned from
// (report.SnapshotWarnings): the run loop logs each once, and a log line is easily missed by one who watches alerts.
func (m *Metrics) ObserveWindow(r *report.Report, warnings []string) {
	m.observing.Lock()
	defer m.observing.Unlock()
	m.warnings.Set(float64(len(warnings)))
	m.windows.WithLabelValues(r.Window.Solver).Inc()
	m.windowShoots.Observe(float64(r.Window.Pending))
	m.modelSeconds.Observe(r.Window.Seconds.Model)
	m.solveSeconds.Observe(r.Window.Seconds.Solve)
	if r.Window.Seconds.Greedy > 0 { // only a solver that improves on greedy makes a greedy plan beside it
		m.greedySeconds.Observe(r.Window.Seconds.Greedy)
	}
	if r.Window.Fallback != "" {
		m.fallbacks.WithLabelValues(r.Window.Fallback).Inc()
	}
	m.unschedulable.Reset()
	for _, u := range r.Unschedulable {
		m.unschedulable.WithLabelValues(u.Reason).Inc()
	}
	m.seeds.observe(r.Seeds)
	m.lastWindow.SetToCurrentTime()
}

// ObserveNothingDue records that the run loop looked for due shoots and found none: an empty window, as far as the
// time of the last window says, so that a loop alive in a quiet garden is not taken for a stuck one.
func (m *Metrics) ObserveNothingDue() {
	m.lastWindow.SetToCurrentTime()
}

// ObserveBindings records the results of applying a window's plan and how long it took.
func (m *Metrics) ObserveBindings(results []bind.Result, seconds float64) {
	for _, r := range results {
		if r.Result != model.Interrupted { // seedplan's stop, not the garden's answer
			m.bindings.WithLabelValues(string(r.Result)).Inc()
		}
	}
	m.bindSeconds.Observe(seconds)
}

// ObserveScheduled records the time from a shoot entering the loop's queue to its binding (run loop only).
func (m *Metrics) ObserveScheduled(d time.Duration) {
	if m.scheduling != nil {
		m.scheduling.Observe(d.Seconds())
	}
}

// SetPending records how many shoots are pending for the loop (run loop only).
func (m *Metrics) SetPending(n int) {
	if m.pending != nil {
		m.pending.Set(float64(n))
	}
}

// ObserveRoomWakes records n pending shoots whose next try was brought forward because room may have appeared
// (run loop only).
func (m *Metrics) ObserveRoomWakes(n int) {
	if m.roomWakes != nil {
		m.roomWakes.Add(float64(n))
	}
}

// ObserveShadowBinding records how a shadow's decision compares with a binding another scheduler made (shadow
// only).
func (m *Metrics) ObserveShadowBinding(outcome model.ShadowOutcome) {
	if m.shadow != nil {
		m.shadow.WithLabelValues(string(outcome)).Inc()
	}
}

// ObserveShadowOtherSeed records how far and how utilized the seed another scheduler bound a shoot to is against
// the seed a shadow placed it on (shadow only).
func (m *Metrics) ObserveShadowOtherSeed(distance model.ShadowDistance, utilization model.ShadowUtilization) {
	if m.otherSeed != nil {
		m.otherSeed.WithLabelValues(string(distance), string(utilization)).Inc()
	}
}

// ObserveShadowUnschedulableThere records a shoot a shadow placed that the scheduler binding it reported
// unschedulable (shadow only).
func (m *Metrics) ObserveShadowUnschedulableThere() {
	if m.failedThere != nil {
		m.failedThere.Inc()
	}
}

// SetLeader records whether the run loop leads (binds) or stands by.
func (m *Metrics) SetLeader(leading bool) {
	if m.leader == nil {
		return
	}
	if leading {
		m.leader.Set(1)
	} else {
		m.leader.Set(0)
	}
}

// Gather gathers the registry, but never in the middle of a window's observation: a scrape that sees a window
// counted sees that window's seeds and unschedulable shoots, never the last window's.
func (m *Metrics) Gather() ([]*dto.MetricFamily, error) {
	m.observing.Lock()
	defer m.observing.Unlock()
	return m.Registry.Gather()
}

// Push replaces the job's metrics on the Pushgateway at url with the registry's, waiting at most timeout for its
// answer (0: for ever).
func (m *Metrics) Push(ctx context.Context, url, job string, timeout time.Duration) error {
	if err := pushWithin(ctx, timeout, push.New(url, job).Gatherer(m)); err != nil {
		return fmt.Errorf("pushing metrics to %s: %w", url, err)
	}
	return nil
}

// pushWithin pushes, waiting at most timeout (0: for ever): a Pushgateway that takes the connection and never
// answers must not keep a job from ending.
func pushWithin(ctx context.Context, timeout time.Duration, pusher *push.Pusher) error {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return pusher.PushContext(ctx)
}
