package plan

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/solver"
)

// Outcome is a solved and verified window with the figures reports need.
type Outcome struct {
	Window *model.Window
	Plan   *model.Plan
	// Solver is the name of the solver whose plan this is.
	Solver string
	// Fallback says why another solver's plan was used instead ("" when none was).
	Fallback string
	// Optimal is true only when the solver proved the plan optimal.
	Optimal bool
	// Objective is the plan's cost (solver.PlanCost) under the weights given; GreedyObjective that of the greedy
	// plan of the same window, for comparison.
	Objective, GreedyObjective float64
	// AboveTarget and GreedyAboveTarget count the shoots the plan and the greedy plan place above their seeds'
	// target utilization (Policy.Target); Target is that target (0: none).
	AboveTarget, GreedyAboveTarget int
	Target                         float64
	// GreedyPlaced counts the shoots the greedy plan places; Distance and GreedyDistance are the sums of the
	// region distances of the two plans' placements. With the objective's penalties, these say in numbers an
	// operator reads what the objective compares.
	GreedyPlaced             int
	Distance, GreedyDistance int
	// PendingForOthers counts, when the window is empty, the pending shoots of other schedulers by
	// spec.schedulerName (model.Snapshot.PendingForOthers): the hint for a scheduler name set wrong.
	PendingForOthers map[string]int
	// Weights are the weights the objectives were computed with.
	Weights solver.Weights
	// ModelTime is the time to build the window, CollectTime the garbage collection before a solver with a time
	// budget, SolveTime the solver's, VerifyTime model.Verify's.
	ModelTime, CollectTime, SolveTime, VerifyTime time.Duration
	// GreedyTime is the part of SolveTime the greedy plan, made beside a solver that improves on it, took to make
	// and word; 0 for any other solver. A fallback cannot come before it, whatever the budget.
	GreedyTime time.Duration

	solution *Solution
}

// CostTerms are the parts of the objective one placement adds.
type CostTerms = solver.CostTerms

// PlacementCost is what a shoot costs on the arc's seed when it is the n-th shoot the window places there (n ≥ 1).
func (o *Outcome) PlacementCost(arc model.Arc, n int) CostTerms {
	return o.solution.PlacementCost(o.Weights, arc, n)
}

// collectFrom is the smallest window that Schedule collects garbage for before a budgeted solve.
const collectFrom = 100

// solveAllocationPerShoot bounds what a solve allocates on the Go heap per pending shoot: twice the most that
// windows of 1,000 to 50,000 shoots allocated (MinimalDistance's).
const solveAllocationPerShoot = 4 << 10

// Schedule builds the window of the given pending shoots, solves it and verifies the plan independently. A
// plan that fails verification is an error: it is never returned.
//
// Before a solver with a time budget runs on a window of at least collectFrom shoots, it collects garbage when a
// collection could otherwise start during the solve and be long beside the budget (collectionDue). Reading the
// garden and building the window leave the most garbage of a run; a collection they start would run on into the
// solve, and on 2 cores its mark workers come before every goroutine, so the fallback at the deadline came back up
// to tens of milliseconds late. A solve itself leaves little garbage, so after a collection it rarely starts
// another. A smaller window is solved long before any deadline, and a forced collection would be most of the time
// a lone new shoot waits for its seed; so would a collection far shorter than the budget.
func Schedule(ctx context.Context, snap *model.Snapshot, pending []*gardencorev1beta1.Shoot, p Policy) (*Outcome, error) {
	start := time.Now()
	w, err := model.NewWindow(snap, p.Options, pending)
	if err != nil {
		return nil, fmt.Errorf("building the window: %w", err)
	}
	problem := windowProblem(w, p)
	o := &Outcome{Window: w, Solver: p.Solver.Name(), Weights: p.Weights, ModelTime: time.Since(start)}

	if b, ok := p.Solver.(solver.Budgeted); ok && b.Budget().Timeout > 0 && len(pending) >= collectFrom && collectionDue(len(pending), b.Budget().Timeout) {
		start = time.Now()
		runtime.GC()
		o.CollectTime = time.Since(start)
	}

	start = time.Now()
	solution, err := solve(ctx, w, problem, p.Solver)
	if err != nil {
		return nil, err
	}
	o.SolveTime = time.Since(start)
	o.solution, o.Plan, o.Fallback, o.Optimal, o.GreedyTime = solution, solution.Plan, solution.Fallback, solution.Optimal, solution.greedyTime

	start = time.Now()
	if err := model.Verify(snap, w.Options, o.Plan); err != nil {
		return nil, fmt.Errorf("solver %s produced a plan that fails verification, refusing it: %w", p.Solver.Name(), err)
	}
	o.VerifyTime = time.Since(start)
	o.Objective = solution.Cost(p.Weights)
	if o.GreedyObjective, err = solution.GreedyCost(ctx, p.Weights); err != nil {
		return nil, err
	}
	o.Target, o.AboveTarget, o.GreedyAboveTarget = p.Target, solver.AboveTarget(problem, solution.assignment), solver.AboveTarget(problem, solution.greedy)
	o.GreedyPlaced = solution.greedy.Placed()
	o.Distance, o.GreedyDistance = solver.TotalDistance(problem, solution.assignment), solver.TotalDistance(problem, solution.greedy)
	if len(pending) == 0 {
		o.PendingForOthers = snap.PendingForOthers(w.Options.SchedulerName)
	}
	return o, nil
}

// collectionDue reports whether the collector could start a cycle while a solve allocates for the given number
// of pending shoots (collectionMayStart, with the runtime's figures) that is long beside the solve's budget
// (collectionMatters).
func collectionDue(shoots int, budget time.Duration) bool {
	samples := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}, {Name: "/memory/classes/heap/objects:bytes"},
	}
	metrics.Read(samples)
	for _, s := range samples {
		if s.Value.Kind() != metrics.KindUint64 {
			return true // not measured by this runtime: collect, as before
		}
	}
	heap := samples[2].Value.Uint64()
	return collectionMayStart(samples[0].Value.Uint64(), samples[1].Value.Uint64(), heap, uint64(shoots)*solveAllocationPerShoot) &&
		collectionMatters(heap, budget)
}

// collectionMatters reports whether a cycle over a heap of heap bytes could take more than the budget's
// collectionShare, marked at markBytesPerSecond. Without a forced collection, the fallback came back late by far
// less than that: a cycle delays it by a part of the cycle's length.
func collectionMatters(heap uint64, budget time.Duration) bool {
	return float64(heap)/markBytesPerSecond > budget.Seconds()/collectionShare
}

const (
	// markBytesPerSecond is slower than a forced collection marked the heap of a 2-core machine under load.
	markBytesPerSecond = 1 << 30
	// collectionShare is how much longer than a cycle a budget must be for its solve to go without a forced one.
	collectionShare = 20
)

// collectionMayStart reports whether a collection may start before a heap of heap bytes has grown by allocation
// bytes, when the last cycle left live bytes and set goal: the runtime's pacer starts none before the heap has
// grown at least 70 % of the way from live to goal (runtime/mgcpacer.go, minTriggerRatioNum), and a cycle that
// runs already has passed that point.
func collectionMayStart(live, goal, heap, allocation uint64) bool {
	if goal <= live {
		return true
	}
	return heap+allocation >= live+(goal-live)/10*7
}

// Solution is one solver's plan for a window, not yet verified.
type Solution struct {
	Plan *model.Plan
	// Optimal is true only when the solver proved the plan optimal; Fallback says why another solver's plan was
	// used instead ("" when none was).
	Optimal  bool
	Fallback string

	problem    *solver.Window
	assignment *solver.Assignment
	// greedyTime is Outcome.GreedyTime.
	greedyTime time.Duration
	// greedy is the gardener-scheduler's plan of the same window, in window order as it decides (what --solver
	// greedy plans): the plan the figures compare with. nil until GreedyCost makes it.
	greedy *solver.Assignment
}

// Solve solves a built window with the policy's solver, its target utilization as the seeds' placement target,
// and words the plan in Gardener's terms.
func Solve(ctx context.Context, w *model.Window, p Policy) (*Solution, error) {
	return solve(ctx, w, windowProblem(w, p), p.Solver)
}

func solve(ctx context.Context, w *model.Window, problem *solver.Window, s solver.Solver) (*Solution, error) {
	if improver, ok := s.(solver.Improver); ok {
		return improve(ctx, w, problem, improver)
	}
	solution, err := s.Solve(ctx, problem)
	if err != nil {
		return nil, fmt.Errorf("solver %s: %w", s.Name(), err)
	}
	return &Solution{
		Plan: windowPlan(w, &solution.Assignment, model.NewFailures(w)), Optimal: solution.Optimal,
		Fallback: solution.Fallback, problem: problem, assignment: &solution.Assignment, greedy: solution.Greedy,
	}, nil
}

// improve runs a solver that improves on the greedy plan. The greedy plan is made and worded within the budget,
// beside the solver, which starts at once, and handed over when worded, so that it is at hand when the solver
// runs out of time: worded after the deadline, the fallback of a 10,000 × 500 window came back up to 14 ms late
// instead of 2 (BenchmarkTimeoutFallback).
func improve(ctx context.Context, w *model.Window, problem *solver.Window, improver solver.Improver) (*Solution, error) {
	deadline := improver.Budget().Deadline()
	failures := model.NewFailures(w) // the greedy plan's and the improved one's share their failures' words
	var (
		greedy     *solver.Solution
		greedyPlan *model.Plan
		greedyErr  error
		greedyTime time.Duration
		incumbent  = make(chan *solver.Assignment, 1)
		made       = make(chan struct{})
	)
	go func() {
		defer close(made)
		start := time.Now()
		if greedy, greedyErr = (solver.Greedy{ByPriority: true}).Solve(ctx, problem); greedyErr != nil { // the fallback follows the policy's priorities
			incumbent <- nil
			return
		}
		greedyPlan = windowPlan(w, &greedy.Assignment, failures)
		greedyTime = time.Since(start)
		incumbent <- &greedy.Assignment
	}()
	solution, err := improver.Improve(ctx, problem, incumbent, deadline)
	<-made
	if greedyErr != nil {
		err = greedyErr
	}
	if err != nil {
		return nil, fmt.Errorf("solver %s: %w", improver.Name(), err)
	}
	plan := greedyPlan
	if solution.Fallback == "" {
		plan = windowPlan(w, &solution.Assignment, failures)
	}
	improved := &Solution{Plan: plan, Optimal: solution.Optimal, Fallback: solution.Fallback, greedyTime: greedyTime, problem: problem, assignment: &solution.Assignment}
	if problem.InPriorityOrder() { // the fallback, deciding by priority first, decided as the gardener-scheduler does
		improved.greedy = &greedy.Assignment
	}
	return improved, nil
}

// Cost is the plan's objective under the weights (solver.PlanCost).
func (s *Solution) Cost(weights solver.Weights) float64 {
	return solver.PlanCost(s.problem, s.assignment, weights)
}

// PlacementCost is what a shoot costs under the weights on the arc's seed when it is the n-th shoot the window
// places there (n ≥ 1).
func (s *Solution) PlacementCost(weights solver.Weights, arc model.Arc, n int) CostTerms {
	return solver.PlacementCost(s.problem, weights, solverArc(arc, solver.Rank{}), n)
}

// GreedyCost is the objective of the gardener-scheduler's plan of the same window under the weights, for
// comparison. The LP's fallback decides shoots by priority first; the comparison is with the rule in window order,
// as the gardener-scheduler and --solver greedy decide, so that the figures beside the LP's are theirs. Making it
// is bounded work, a greedy pass, that ctx's end does not stop: a plan solved and verified is not lost to the
// figures it is compared with.
func (s *Solution) GreedyCost(ctx context.Context, weights solver.Weights) (float64, error) {
	if s.greedy == nil {
		g, err := (solver.Greedy{}).Solve(context.WithoutCancel(ctx), s.problem)
		if err != nil {
			return 0, err
		}
		s.greedy = &g.Assignment
	}
	return solver.PlanCost(s.problem, s.greedy, weights), nil
}

// windowProblem is the window as the solvers see it under the policy: the shoots of each distinct evaluation and
// priority are one group; with a target utilization, each seed's room beyond it is above its target.
func windowProblem(w *model.Window, p Policy) *solver.Window {
	target := p.Target
	problem := &solver.Window{Seeds: make([]solver.Seed, len(w.Snapshot.Seeds)), Shoots: make([]int, len(w.Shoots))}
	for i, seed := range w.Snapshot.Seeds {
		allocatable, limited := model.Allocatable(seed)
		usage, free := w.Snapshot.Usage(seed.Name), room(w.Free[i], len(w.Shoots))
		problem.Seeds[i] = solver.Seed{Usage: usage, Free: free, Allocatable: allocatable, Limited: limited}
		if limit := model.TargetLimit(seed, target); target > 0 && limit != model.Unlimited && free != solver.Unlimited {
			problem.Seeds[i].AboveTarget = free - min(max(limit-usage, 0), free)
		}
	}
	type groupKey struct {
		ev       *model.Evaluation
		priority int
	}
	groups := map[groupKey]int{}
	for i, ev := range w.Evaluations {
		key := groupKey{ev, p.priority(w.Shoots[i])}
		g, ok := groups[key]
		if !ok {
			g = len(problem.Groups)
			groups[key] = g
			group := windowGroup(w, ev)
			group.Priority = key.priority
			problem.Groups = append(problem.Groups, group)
		}
		problem.Shoots[i] = g
	}
	return problem
}

// windowGroup is the group of an evaluation's shoots.
func windowGroup(w *model.Window, ev *model.Evaluation) solver.Group {
	g := solver.Group{Candidates: ev.Candidates, Arcs: make([]solver.Arc, len(ev.Arcs))}
	switch {
	case ev.Err != nil:
		g.Exclusion = solver.Excluded
	case ev.StrategyErr != nil:
		g.Exclusion = solver.ExcludedWhenCandidateHasRoom
	}
	for i, a := range ev.Arcs {
		tier, distance := w.Preference(ev, a)
		g.Arcs[i] = solverArc(a, solver.Rank{Tier: tier, Distance: distance})
	}
	return g
}

func solverArc(a model.Arc, rank solver.Rank) solver.Arc {
	return solver.Arc{Seed: a.Seed, Distance: a.Distance, SoftViolations: a.SoftViolations, Rank: rank}
}

// room is a model room as the solvers count it, at most most: a problem of n shoots is the same with any room
// from n up, and an LP's bounds near 2^63 (allocatable up to 2^63−1) would wreck its numerics.
func room(n, most int) int {
	if n == model.Unlimited {
		return solver.Unlimited
	}
	return min(n, most)
}

// windowPlan is an assignment in Gardener's terms, listed in namespace/name order without sorting (Window.ByKey),
// every unplaced shoot with Gardener's outcome for its cause.
func windowPlan(w *model.Window, a *solver.Assignment, failures *model.Failures) *model.Plan {
	placed := a.Placed()
	plan := &model.Plan{
		Placements:    make([]model.Placement, 0, placed),
		Unschedulable: make([]model.Unschedulable, 0, len(a.Seed)-placed),
	}
	for _, i := range w.ByKey {
		ev := w.Evaluations[i]
		if seed := a.Seed[i]; seed >= 0 {
			plan.Placements = append(plan.Placements, model.NewPlacement(w.Keys[i], w.Shoots[i], w.Snapshot.Seeds[seed], ev.ArcTo(seed).Distance))
			continue
		}
		unschedulable := *failures.Unschedulable(ev, failureOf(a.Cause[i]))
		unschedulable.Shoot = w.Keys[i]
		plan.Unschedulable = append(plan.Unschedulable, unschedulable)
	}
	return plan
}

// failureOf is the model's failure for a solver's cause.
func failureOf(c solver.Cause) model.Failure {
	switch c {
	case solver.CauseExcluded:
		return model.FailureExcluded
	case solver.CauseCandidatesFull:
		return model.FailureCandidatesFull
	}
	return model.FailureNoSeedInStrategy
}
