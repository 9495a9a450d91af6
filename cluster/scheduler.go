// Package cluster runs seedplan against a garden cluster: the schedule job (one window of everything pending,
// then exit) and the run loop (windows from informers, leader election, /healthz and /metrics). It wires ingest,
// plan, bind, report and metrics together and holds no scheduling logic of its own.
package cluster

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/report"
)

// Scheduler plans and binds windows of pending shoots read from a garden cluster.
type Scheduler struct {
	// Reader reads the landscape: the API server (schedule job) or an informer cache (run loop).
	Reader client.Reader
	// PageSize is the list page size for Reader (0 for a cache).
	PageSize int64
	// Copies, when set, reads Reader (an informer cache) without copying it and keeps defaulted copies of its
	// objects from one window to the next (the run loop).
	Copies *ingest.Copies
	Binder *bind.Binder
	// Metrics, when set, record every window and binding.
	Metrics *metrics.Metrics
	Policy  plan.Policy
	// DryRun plans without writing anything.
	DryRun bool

	// admitted is set once the API server answered one of Reader's reads: it knows this client, so a later
	// refusal of the anonymous user is a gardener-apiserver's that restarted meanwhile (ingest.IdentityLost).
	admitted atomic.Bool
	// regionConfigs are the region ConfigMap entries the last window parsed, for the next: the loop's windows and
	// the job's later rounds read the same ConfigMaps again.
	regionConfigs model.RegionConfigCache
}

// WindowResult is one window: its plan and what became of each placement.
type WindowResult struct {
	Report  *report.Report
	Results []bind.Result
}

// Retries counts the shoots of the window that are still pending and belong into the next one.
func (w *WindowResult) Retries() int {
	n := 0
	for _, r := range w.Results {
		if r.Retry() {
			n++
		}
	}
	return n
}

// Planned is a window planned and verified, not yet bound.
type Planned struct {
	// Report is the window's plan, its bindings filled in by Bind.
	Report  *report.Report
	outcome *plan.Outcome
	// warnings are the landscape's (Warnings).
	warnings []string
	// read are the pending shoots as read, by namespace/name: a binding carries the object as read.
	read map[string]*gardencorev1beta1.Shoot
	// hosted is the usage of every seed the window counted, the placements of earlier windows included; bound
	// are those placements (shoot → seed), which a fresh read may not show yet.
	hosted func(seed string) int
	bound  map[string]string
	start  time.Time
	// unreported are the unschedulable shoots whose failure the binding does not write (the loop's room tries that
	// found nothing new: tracked.unschedulable).
	unreported map[string]bool
	// index is where each shoot (namespace/name) is among the window's (evaluation); seeds are the window's seeds
	// as a shadow keeps them, in its order (candidates).
	index map[string]int
	seeds []seedLoad
}

// Plan returns the window's verified plan.
func (p *Planned) Plan() *model.Plan { return p.outcome.Plan }

// RoomSeeds says, for a shoot of the window (namespace/name), the seeds it may be placed on were they not full:
// the candidates its strategy admits (model.Evaluation.Arcs), by name; room freed on another seed cannot let it be
// placed. Shoots that evaluated alike share one set, made when first asked for; it is nil for a shoot not in the
// window.
func (p *Planned) RoomSeeds() func(shoot string) map[string]bool {
	sets := map[*model.Evaluation]map[string]bool{}
	return func(shoot string) map[string]bool {
		ev := p.evaluation(shoot)
		if ev == nil {
			return nil
		}
		if set, made := sets[ev]; made {
			return set
		}
		set := make(map[string]bool, len(ev.Arcs))
		for _, arc := range ev.Arcs {
			set[p.outcome.Window.Snapshot.Seeds[arc.Seed].Name] = true
		}
		sets[ev] = set
		return set
	}
}

// candidates are the seeds the window's strategy admits for a shoot (namespace/name), with the distance of each.
// They hold the window's seeds' names and loads once its placements are made, not its seeds: a shadow keeps them
// until another scheduler binds the shoot.
func (p *Planned) candidates(shoot string) candidates {
	ev := p.evaluation(shoot)
	if ev == nil {
		return candidates{}
	}
	if p.seeds == nil {
		snap, placed := p.outcome.Window.Snapshot, p.Plan().PlacedPerSeed()
		p.seeds = make([]seedLoad, len(snap.Seeds))
		for i, seed := range snap.Seeds {
			allocatable, limited := model.Allocatable(seed)
			p.seeds[i] = seedLoad{name: seed.Name, after: p.hosted(seed.Name) + placed[seed.Name], allocatable: allocatable, limited: limited}
		}
	}
	return candidates{arcs: ev.Arcs, seeds: p.seeds}
}

// evaluation is the window's evaluation of a shoot (namespace/name), nil for a shoot not in it; the index of the
// window's shoots is made when first asked for.
func (p *Planned) evaluation(shoot string) *model.Evaluation {
	w := p.outcome.Window
	if p.index == nil {
		p.index = make(map[string]int, len(w.Keys))
		for i, key := range w.Keys {
			p.index[key] = i
		}
	}
	i, ok := p.index[shoot]
	if !ok {
		return nil
	}
	return w.Evaluations[i]
}

// Warnings say what is wrong with the landscape the window read that no shoot's outcome tells
// (report.SnapshotWarnings).
func (p *Planned) Warnings() []string { return p.warnings }

// reported are those of the unschedulable shoots whose failure is written: all but the unreported.
func (p *Planned) reported(unschedulable []model.Unschedulable) []model.Unschedulable {
	if len(p.unreported) == 0 {
		return unschedulable
	}
	return slices.DeleteFunc(slices.Clone(unschedulable), func(u model.Unschedulable) bool { return p.unreported[u.Shoot] })
}

// Plan reads the landscape and plans and verifies the pending shoots that include admits (all when include is
// nil). bound holds shoots that earlier windows bound or are binding, which the reader may not show as bound yet
// (a cache lags behind its own writes, and a binding in flight is not written yet): they count as bound to the
// given seed, as kube-scheduler assumes a pod on its node before the binding is done.
func (s *Scheduler) Plan(ctx context.Context, include func(*gardencorev1beta1.Shoot) bool, bound map[string]string) (*Planned, error) {
	start := time.Now()
	opts := s.Policy.Options.WithDefaults()
	landscape, err := s.load(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the garden cluster (nothing was scheduled): %w", err)
	}
	// A binding must carry the object as read, not as defaulted.
	read := map[string]*gardencorev1beta1.Shoot{}
	for _, shoot := range landscape.Objects.Shoots {
		key := shoot.Namespace + "/" + shoot.Name
		if _, assumed := bound[key]; !assumed && model.IsPending(shoot, opts.SchedulerName) && (include == nil || include(shoot)) {
			read[key] = shoot.DeepCopy()
		}
	}
	if err := s.own(&landscape.Objects); err != nil {
		return nil, fmt.Errorf("reading the garden cluster (nothing was scheduled): %w", err)
	}
	landscape.Objects.Shoots = model.Assume(landscape.Objects.Shoots, bound)
	snap, err := model.NewSnapshot(landscape.Objects)
	if err != nil {
		return nil, fmt.Errorf("reading the garden cluster (nothing was scheduled): %w", err)
	}
	var pending []*gardencorev1beta1.Shoot
	for _, shoot := range snap.Pending(opts.SchedulerName) {
		if _, ok := read[shoot.Namespace+"/"+shoot.Name]; ok {
			pending = append(pending, shoot)
		}
	}
	outcome, err := plan.Schedule(ctx, snap, pending, s.Policy)
	if err != nil {
		return nil, err
	}
	warnings := report.SnapshotWarnings(snap)
	report := report.NewReport(outcome)
	report.Window.Seconds.Total = time.Since(start).Seconds()
	if s.Metrics != nil {
		s.Metrics.ObserveWindow(report, warnings)
	}
	return &Planned{Report: report, outcome: outcome, warnings: warnings, read: read, hosted: snap.Usage, bound: bound, start: start, unreported: map[string]bool{}}, nil
}

// load reads the landscape: from the informer cache without copying it when Copies are kept, else a copy from the
// API server, read again while it fails for a transient reason (readPatiently: the job outlasts a restart of the
// garden's API servers).
func (s *Scheduler) load(ctx context.Context) (*ingest.Landscape, error) {
	if s.Copies != nil {
		return ingest.LoadShared(ctx, s.Reader)
	}
	var landscape *ingest.Landscape
	err := s.readPatiently(ctx, func() (err error) {
		landscape, err = ingest.LoadCluster(ctx, s.Reader, s.PageSize)
		return err
	})
	return landscape, err
}

// own makes the objects read the window's to default: the Copies' copies when kept, and the objects themselves (a
// copy already) when not. Either way they come with the scheduler's parsed region ConfigMap entries.
func (s *Scheduler) own(objs *model.Objects) error {
	if s.Copies != nil {
		if err := s.Copies.Own(objs); err != nil {
			return err
		}
	}
	objs.RegionConfigCache = &s.regionConfigs
	return nil
}

// readPatiently reads the API server through Reader until it answers, for up to ingest.RestartPatience: through a
// restart (ingest.RetryTransient) and, once it has answered a read of this scheduler's, through the moment a
// restarted gardener-apiserver takes the proxied reads for the anonymous user's (ingest.RetryThroughRestart), so
// that a job's later round or re-check does not fail for it.
func (s *Scheduler) readPatiently(ctx context.Context, read func() error) error {
	retry := ingest.RetryTransient
	if s.admitted.Load() {
		retry = ingest.RetryThroughRestart
	}
	if err := retry(ctx, ingest.RestartPatience, read); err != nil {
		return err
	}
	s.admitted.Store(true)
	return nil
}

// Bind binds a planned window unless DryRun: it re-checks the seeds (bind.Recheck) and applies what still fits.
// A dry run's placements are NotSent.
func (s *Scheduler) Bind(ctx context.Context, p *Planned) (*WindowResult, error) {
	result := &WindowResult{Report: p.Report}
	if s.DryRun {
		for _, pl := range p.Plan().Placements {
			result.Results = append(result.Results, bind.Result{Shoot: pl.Shoot, Seed: pl.Seed, Result: model.NotSent})
			slog.DebugContext(ctx, "Shoot planned (dry run)", "shoot", pl.Shoot, "seed", pl.Seed, "distance", pl.Distance)
		}
		slog.InfoContext(ctx, "Window planned (dry run)", "pending", len(p.read), "placed", len(p.Plan().Placements),
			"unschedulable", len(p.Plan().Unschedulable), "solver", p.outcome.Solver, "optimal", p.outcome.Optimal,
			"fallback", p.outcome.Fallback, "seconds", time.Since(p.start).Seconds())
		return result, nil
	}
	if len(p.read) == 0 {
		return result, nil
	}
	bindStart := time.Now()
	// The loop reads its informer cache: its window was read from it milliseconds before, and it still brings
	// every change that arrived while the window was planned; a list from the API server was most of the time a
	// lone shoot took to bind (README, the loop).
	var seeds []*gardencorev1beta1.Seed
	var shoots []*gardencorev1beta1.Shoot
	err := s.readPatiently(ctx, func() (err error) {
		seeds, shoots, err = ingest.LoadOccupancy(ctx, s.Reader, s.PageSize)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("nothing was bound: re-reading the seeds and shoots before binding: %w", err)
	}
	kept, deferred := bind.Recheck(ctx, p.Plan(), seeds, shoots, p.hosted, p.bound)
	kept.Unschedulable = p.reported(kept.Unschedulable)
	result.Results, err = s.Binder.Apply(ctx, p.read, kept)
	result.Results = append(result.Results, deferred...)
	if s.Metrics != nil {
		s.Metrics.ObserveBindings(result.Results, time.Since(bindStart).Seconds())
	}
	p.Report.Bindings = bind.Summarize(result.Results)
	slog.InfoContext(ctx, "Window applied", "pending", len(p.read), "placed", len(p.Plan().Placements),
		"unschedulable", len(p.Plan().Unschedulable), "solver", p.outcome.Solver, "optimal", p.outcome.Optimal,
		"fallback", p.outcome.Fallback, "bindings", p.Report.Bindings, "seconds", time.Since(p.start).Seconds())
	return result, err
}

// RunJob is the schedule job: a window of everything pending, bound; shoots whose binding met a conflict (or
// was refused) and that are still pending go into another window, at most rounds windows in all. It returns
// the first window's report (with the bindings of every round) and an error only for real errors: a failed
// read or plan, or bindings that failed on the API in the last round. Unschedulable shoots are not errors.
func (s *Scheduler) RunJob(ctx context.Context, rounds int) (*report.Report, error) {
	defer s.Binder.Flush() // the job ends with every event and lastOperation written
	var (
		first *report.Report
		retry func(*gardencorev1beta1.Shoot) bool // nil: every pending shoot
	)
	for round := 1; ; round++ {
		planned, err := s.Plan(ctx, retry, nil)
		if err != nil {
			return first, err
		}
		if first == nil { // once a run, as a command that reads files warns of them
			for _, warning := range planned.Warnings() {
				slog.WarnContext(ctx, warning)
			}
		}
		w, err := s.Bind(ctx, planned)
		if err != nil {
			return first, err
		}
		if first == nil {
			first = w.Report
			if !s.DryRun {
				first.Rounds = 1
			}
		} else {
			for result, n := range w.Report.Bindings {
				first.Bindings[result] += n
			}
			first.Rounds = round
		}
		retries := w.Retries()
		if s.DryRun || retries == 0 {
			return first, nil
		}
		if round >= rounds {
			failed := bind.Summarize(w.Results)[model.Failed]
			if failed > 0 {
				return first, fmt.Errorf("%s on the API in round %d, the last; those shoots stay pending for the next run", report.Counted(failed, "binding failed", "bindings failed"), rounds)
			}
			slog.WarnContext(ctx, "Shoots still pending after the last round; the next run picks them up", "shoots", retries, "rounds", rounds)
			return first, nil
		}
		again := map[string]bool{}
		for _, r := range w.Results {
			if r.Retry() {
				again[r.Shoot] = true
			}
		}
		retry = func(shoot *gardencorev1beta1.Shoot) bool { return again[shoot.Namespace+"/"+shoot.Name] }
		slog.InfoContext(ctx, "Planning again the shoots that changed or were refused", "shoots", retries, "round", round+1)
	}
}
