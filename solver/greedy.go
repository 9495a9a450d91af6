// Package solver places the shoots of a model.Window on seeds. It knows nothing of Kubernetes: it reads the
// window's feasibility and costs and returns a model.Plan. Every solver is deterministic.
package solver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/seedplan/seedplan/model"
)

// Solver places a window's shoots.
type Solver interface {
	// Name is the solver's name in outputs and metrics.
	Name() string
	// Solve returns a plan for the window. It stops with ctx's error when ctx is done.
	Solve(ctx context.Context, w *model.Window) (*Solution, error)
}

// Solution is a solver's plan and what the solver knows about it.
type Solution struct {
	Plan *model.Plan
	// Optimal is true only when the solver proved the plan optimal for its objective.
	Optimal bool
	// Fallback says why the plan is another solver's ("timeout", "worse"), or is empty.
	Fallback string
	// Greedy is the greedy plan of the same window when the solver computed it (as its incumbent).
	Greedy *model.Plan
}

// Greedy is the gardener-scheduler's decision rule (spec §2.10c, §3, §3.4): one shoot at a time in window order,
// drop the seeds that are full, apply the strategy, take the seed with the fewest shoots (ties: first by name),
// and count the placement before deciding the next shoot. It is seedplan's compatibility mode, its fallback, and
// the incumbent every other solver must beat.
type Greedy struct{}

// Name implements Solver.
func (Greedy) Name() string { return "greedy" }

// Solve implements Solver.
func (g Greedy) Solve(ctx context.Context, w *model.Window) (*Solution, error) {
	plan, err := g.plan(ctx, newDecider(w))
	if err != nil {
		return nil, err
	}
	return &Solution{Plan: plan, Greedy: plan}, nil
}

// plan decides the window's shoots with the decider, whose failure outcomes other plans of the window may share.
func (Greedy) plan(ctx context.Context, d *decider) (*model.Plan, error) {
	w := d.w
	seeds := w.Snapshot.Seeds
	usage := make([]int, len(seeds))
	free := slices.Clone(w.Free)
	for i, seed := range seeds {
		usage[i] = w.Snapshot.Usage(seed.Name)
	}

	seedOf := make([]int, len(w.Shoots))
	failures := make([]*model.Unschedulable, len(w.Shoots))
	for i, ev := range w.Evaluations {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("greedy stopped after %d of %d shoots: %w", i, len(w.Shoots), err)
			}
		}
		best, unschedulable := d.decide(ev, free, usage)
		seedOf[i], failures[i] = best, unschedulable
		if unschedulable != nil {
			continue
		}
		usage[best]++
		if free[best] != model.Unlimited {
			free[best]--
		}
	}
	return emitPlan(w, seedOf, failures), nil
}

// emitPlan is the plan of a window's decisions, listed in namespace/name order without sorting: seedOf[i] is the
// index of the seed shoot i goes to, or -1 and failures[i] says why it stays unplaced.
func emitPlan(w *model.Window, seedOf []int, failures []*model.Unschedulable) *model.Plan {
	placed := 0
	for _, seed := range seedOf {
		if seed >= 0 {
			placed++
		}
	}
	plan := &model.Plan{
		Placements:    make([]model.Placement, 0, placed),
		Unschedulable: make([]model.Unschedulable, 0, len(seedOf)-placed),
	}
	for _, i := range w.ByKey {
		if seed := seedOf[i]; seed >= 0 {
			plan.Placements = append(plan.Placements, model.Placement{Shoot: w.Keys[i], Seed: w.Snapshot.Seeds[seed].Name, Distance: arcDistance(w.Evaluations[i], seed)})
			continue
		}
		unschedulable := *failures[i]
		unschedulable.Shoot = w.Keys[i]
		plan.Unschedulable = append(plan.Unschedulable, unschedulable)
	}
	return plan
}

// decider makes the gardener-scheduler's decisions for the shoots of one window. Its failure outcomes do not
// depend on the capacity left, so every plan of the window may share one decider (not concurrently).
type decider struct {
	w *model.Window
	// unschedulable caches outcomes: each is a pure function of the evaluation and the kind of failure, and
	// Gardener's §2.10 message can list every seed, so one copy per evaluation is shared by all its shoots.
	unschedulable map[failure]*model.Unschedulable
	// messages keeps one copy of each distinct §2.10 message: many evaluations fail with the same one (10,000
	// shoots on 500 seeds: 216 distinct messages of 2,000 failures), and each is built in scratch first, so that
	// a window allocates its distinct messages only. The garbage of a window solved under a deadline is what
	// makes the garbage collector run at the deadline and delay the fallback.
	messages map[string]string
	reasons  []model.SeedReason
	scratch  []byte
}

type failureKind int

const (
	failedChain failureKind = iota
	failedCandidates
	failedStrategyError
	failedStrategy
)

type failure struct {
	ev   *model.Evaluation
	kind failureKind
}

func newDecider(w *model.Window) *decider {
	return &decider{w: w, unschedulable: map[failure]*model.Unschedulable{}, messages: map[string]string{}}
}

// fail returns the cached outcome of a failure, making it on first use. It is shared: copy it to change it.
func (d *decider) fail(ev *model.Evaluation, kind failureKind, build func() *model.Unschedulable) *model.Unschedulable {
	key := failure{ev, kind}
	u, ok := d.unschedulable[key]
	if !ok {
		u = build()
		d.unschedulable[key] = u
	}
	return u
}

// decide is the gardener-scheduler's decision for one shoot with the seeds' remaining capacity free and their
// usage (spec §2.10c, §3, §3.4): the index of the chosen seed, or why the shoot is unschedulable (without the
// shoot's name). It works on the window's arcs — the only seeds the strategy ever chooses — in seed name order,
// which is equivalent to Request.ApplyStrategy on the available seeds followed by the least-utilized choice.
func (d *decider) decide(ev *model.Evaluation, free, usage []int) (int, *model.Unschedulable) {
	w := d.w
	if ev.Err != nil {
		return -1, d.fail(ev, failedChain, func() *model.Unschedulable {
			return &model.Unschedulable{Message: ev.Err.Error(), Reason: ev.ErrPredicate}
		})
	}
	if !slices.ContainsFunc(ev.Candidates, func(s int) bool { return free[s] != 0 }) {
		// Every candidate is full: the message depends on the evaluation alone.
		return -1, d.fail(ev, failedCandidates, func() *model.Unschedulable {
			return d.candidatesUnschedulable(ev, ev.Candidates)
		})
	}
	if ev.StrategyErr != nil {
		return -1, d.fail(ev, failedStrategyError, func() *model.Unschedulable {
			return &model.Unschedulable{Message: ev.StrategyErr.Error(), Reason: model.PredicateStrategy}
		})
	}

	// MinimalDistance chooses among the nearest region-config seeds with room, and only without any among the
	// nearest by name; the other strategies among all arcs with room.
	tiers := []model.DistanceSource{""}
	if w.Options.Strategy == model.MinimalDistance && !ev.Request.IsTesting() {
		tiers = []model.DistanceSource{model.DistanceRegionConfig, model.DistanceLevenshtein}
	}
	for _, tier := range tiers {
		nearest, found := 0, false
		for _, a := range ev.Arcs {
			if free[a.Seed] != 0 && (tier == "" || a.Source == tier) && (!found || a.Distance < nearest) {
				nearest, found = a.Distance, true
			}
		}
		if !found {
			continue
		}
		best := -1
		for _, a := range ev.Arcs {
			if free[a.Seed] != 0 && (tier == "" || (a.Source == tier && a.Distance == nearest)) && (best < 0 || usage[a.Seed] < usage[best]) {
				best = a.Seed
			}
		}
		return best, nil
	}
	return -1, d.fail(ev, failedStrategy, func() *model.Unschedulable {
		return &model.Unschedulable{Message: ev.Request.NoCandidateError().Error(), Reason: model.PredicateStrategy}
	})
}

// arcDistance is the distance of the window's arc to the seed (which the strategy only ever picks from).
func arcDistance(ev *model.Evaluation, seed int) int { return findArc(ev, seed).Distance }

// findArc returns the evaluation's arc to the seed, or the zero Arc.
func findArc(ev *model.Evaluation, seed int) model.Arc {
	i, found := slices.BinarySearchFunc(ev.Arcs, seed, func(a model.Arc, seed int) int { return a.Seed - seed })
	if !found {
		return model.Arc{}
	}
	return ev.Arcs[i]
}

// candidatesUnschedulable is Gardener's "0/N seed cluster candidate(s)" outcome of §2.10: the seeds that failed
// networks or taints and the full ones (ascending by index), merged in seed name order. When some full seed had
// room before this window, the message says that shoots of the same window took it.
func (d *decider) candidatesUnschedulable(ev *model.Evaluation, full []int) *model.Unschedulable {
	seeds := d.w.Snapshot.Seeds
	reasons := d.reasons[:0]
	failures := ev.CandidateFailures
	takenByWindow := false
	for len(failures) > 0 || len(full) > 0 {
		if len(full) == 0 || (len(failures) > 0 && failures[0].Seed < full[0]) {
			reasons = append(reasons, model.SeedReason{Seed: seeds[failures[0].Seed].Name, Reason: failures[0].Reason})
			failures = failures[1:]
			continue
		}
		reasons = append(reasons, model.SeedReason{Seed: seeds[full[0]].Name, Reason: model.ReasonCapacity})
		takenByWindow = takenByWindow || d.w.Free[full[0]] != 0
		full = full[1:]
	}
	d.reasons = reasons
	d.scratch = model.AppendCandidatesMessage(d.scratch[:0], ev.Entering, reasons)
	if takenByWindow {
		d.scratch = append(d.scratch, " (the free capacity of some candidate seeds was taken by other shoots of this window)"...)
	}
	message, ok := d.messages[string(d.scratch)]
	if !ok {
		message = string(d.scratch)
		d.messages[message] = message
	}
	return &model.Unschedulable{Message: message, Reason: dominantReason(ev, len(reasons) > len(ev.CandidateFailures))}
}

// dominantReason names the predicate behind a §2.10 failure: Capacity when some candidate was full, otherwise the
// predicate that rejected most of the seeds entering §2.10 (ties: the first by name).
func dominantReason(ev *model.Evaluation, someFull bool) string {
	if someFull {
		return model.PredicateCapacity
	}
	counts := map[string]int{}
	for _, f := range ev.CandidateFailures {
		counts[f.Predicate]++
	}
	best := model.PredicateNetworks
	for predicate, n := range counts {
		if n > counts[best] || (n == counts[best] && strings.Compare(predicate, best) < 0) {
			best = predicate
		}
	}
	return best
}
