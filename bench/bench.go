// Package bench runs seedplan's solvers on generated scenarios of every size and measures, in the same run, how
// well and how fast each decides: shoots placed, distances, cross-continent placements, seed utilization,
// model and solve time, and the ratios of the LP against the gardener-scheduler's greedy rule.
package bench

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	"gonum.org/v1/gonum/stat"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/internal/scenario"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// Size is a window size: pending shoots × seeds.
type Size struct{ Pending, Seeds int }

// String is the size as --sizes takes it: PENDINGxSEEDS.
func (s Size) String() string { return fmt.Sprintf("%dx%d", s.Pending, s.Seeds) }

// ParseSize reads "PENDINGxSEEDS".
func ParseSize(text string) (Size, error) {
	pending, seeds, ok := strings.Cut(text, "x")
	p, errP := strconv.Atoi(pending)
	s, errS := strconv.Atoi(seeds)
	if !ok || errP != nil || errS != nil {
		return Size{}, fmt.Errorf("size %q: want PENDINGxSEEDS, e.g. 10000x500", text)
	}
	if p <= 0 || s <= 0 {
		return Size{}, fmt.Errorf("size %q: pending shoots and seeds must each be at least 1", text)
	}
	if p > generator.MaxShoots || s > generator.MaxSeeds {
		return Size{}, fmt.Errorf("size %q: at most %dx%d", text, generator.MaxShoots, generator.MaxSeeds)
	}
	return Size{Pending: p, Seeds: s}, nil
}

// Scenario is a kind of landscape a window is planned on.
type Scenario struct {
	Name        string
	Description string
	Strategy    model.Strategy
	config      func(Size) generator.Config
	mutate      func(*model.Objects)
}

// Scenarios are the standard scenarios.
func Scenarios() []Scenario {
	contention := func(f float64, existingPerPending float64) func(Size) generator.Config {
		return func(s Size) generator.Config {
			return generator.Config{Seeds: s.Seeds, Shoots: s.Pending, Existing: int(float64(s.Pending) * existingPerPending), Contention: f, Mix: generator.RealisticMix()}
		}
	}
	distinct := func(s Size) generator.Config {
		cfg := contention(1.0, 1)(s)
		cfg.Mix.Distinct = true
		return cfg
	}
	crossProvider := func(s Size) generator.Config {
		cfg := contention(1.0, 1)(s)
		cfg.Mix.CrossProvider = true
		return cfg
	}
	return []Scenario{
		{Name: "steady", Description: "an established landscape with room: twice as many shoots bound as pending, demand 70 % of free capacity", Strategy: model.SameRegion, config: contention(0.7, 2)},
		{Name: "burst", Description: "a young landscape hit by a wave: few shoots bound, demand 95 % of free capacity", Strategy: model.SameRegion, config: contention(0.95, 0.25)},
		{Name: "contention-0.9", Description: "demand 90 % of free capacity", Strategy: model.SameRegion, config: contention(0.9, 1)},
		{Name: "contention-1.0", Description: "demand equal to free capacity", Strategy: model.SameRegion, config: contention(1.0, 1)},
		{Name: "contention-1.1", Description: "demand 110 % of free capacity", Strategy: model.SameRegion, config: contention(1.1, 1)},
		{Name: "region-outage", Description: "the region with the most seeds is down (GardenletReady False), demand 90 %, MinimalDistance", Strategy: model.MinimalDistance, config: contention(0.9, 1), mutate: regionOutage},
		{Name: "drain", Description: "the busiest seed is tainted for draining, demand 90 %", Strategy: model.SameRegion, config: contention(0.9, 1), mutate: drainBusiestSeed},
		{Name: "cross-provider", Description: `the aws cloud profile admits every provider (providerTypes: ["*"]), MinimalDistance, demand 100 %`, Strategy: model.MinimalDistance, config: crossProvider},
		{Name: "minimal-distance", Description: "MinimalDistance with the real region matrices, demand 100 %", Strategy: model.MinimalDistance, config: contention(1.0, 1)},
		{Name: "distinct", Description: "minimal-distance, but every pending shoot has a seed selector expression and a toleration of its own that change no outcome", Strategy: model.MinimalDistance, config: distinct},
	}
}

// regionOutage marks every seed of the region with the most seeds not ready.
func regionOutage(objs *model.Objects) {
	count := map[string]int{}
	for _, s := range objs.Seeds {
		count[s.Spec.Provider.Type+"/"+s.Spec.Provider.Region]++
	}
	region, most := "", 0
	for r, n := range count {
		if n > most || (n == most && r < region) {
			region, most = r, n
		}
	}
	for _, s := range objs.Seeds {
		if s.Spec.Provider.Type+"/"+s.Spec.Provider.Region != region {
			continue
		}
		for i := range s.Status.Conditions {
			if s.Status.Conditions[i].Type == gardencorev1beta1.GardenletReady {
				s.Status.Conditions[i].Status = gardencorev1beta1.ConditionFalse
			}
		}
	}
}

// drainBusiestSeed taints the seed hosting the most shoots.
func drainBusiestSeed(objs *model.Objects) {
	usage := model.SeedUsage(objs.Shoots)
	var busiest *gardencorev1beta1.Seed
	for _, s := range objs.Seeds {
		if busiest == nil || usage[s.Name] > usage[busiest.Name] || (usage[s.Name] == usage[busiest.Name] && s.Name < busiest.Name) {
			busiest = s
		}
	}
	if busiest != nil {
		busiest.Spec.Taints = append(busiest.Spec.Taints, gardencorev1beta1.SeedTaint{Key: "seedplan.gardener.cloud/draining"})
	}
}

// Solver names of a run.
const (
	SolverGreedy = "greedy"
	SolverLP     = "lp"
	// SolverLPTinyTimeout is the LP with a budget too small to finish: it exercises the fallback.
	SolverLPTinyTimeout = "lp-1ms"
)

// Job is one scenario at one size.
type Job struct {
	Scenario string
	Size     Size
}

// Jobs is every named scenario (all window scenarios when names is empty) at every size; rebalancing scenarios
// are run only when named.
func Jobs(names []string, sizes []Size) ([]Job, error) {
	if len(names) == 0 {
		for _, sc := range Scenarios() {
			names = append(names, sc.Name)
		}
	}
	var jobs []Job
	for _, name := range names {
		if _, _, err := selectScenario(name); err != nil {
			return nil, err
		}
		for _, size := range sizes {
			jobs = append(jobs, Job{name, size})
		}
	}
	return jobs, nil
}

// StandardSuite is what `make bench` runs: every window scenario at 1,000 × 200 and 10,000 × 500, demand equal
// to free capacity at 50,000 × 1,000, and every rebalancing scenario at 6,000 × 200 and 30,000 × 1,000.
func StandardSuite() []Job {
	var jobs []Job
	for _, sc := range Scenarios() {
		for _, size := range []Size{{1000, 200}, {10000, 500}} {
			jobs = append(jobs, Job{sc.Name, size})
		}
	}
	jobs = append(jobs, Job{"contention-1.0", Size{50000, 1000}})
	for _, sc := range scenario.Rebalances() {
		for _, size := range []Size{{6000, 200}, {30000, 1000}} {
			jobs = append(jobs, Job{sc.Name, size})
		}
	}
	return jobs
}

// Config says what to run.
type Config struct {
	Jobs []Job
	// Repeats is how often each window is planned; time percentiles are over the repeats.
	Repeats int
	// Seed makes the landscapes reproducible.
	Seed uint64
	// Timeout is the LP's time budget, for windows and rebalancings.
	Timeout time.Duration
	// Landscape, when set, replaces the generated scenarios by this one landscape (sizes are ignored).
	Landscape *model.Objects
	// Strategy for Landscape.
	Strategy model.Strategy
	// Progress, when set, is told after each planned window.
	Progress func(done, total int, label string)
}

// Result is one solver on one scenario and size.
type Result struct {
	Scenario string `json:"scenario"`
	Size     string `json:"size"`
	Pending  int    `json:"pending"`
	Seeds    int    `json:"seeds"`
	Solver   string `json:"solver"`

	Placed            int     `json:"placed"`
	Unscheduled       int     `json:"unscheduled"`
	TotalDistance     int     `json:"totalDistance"`
	MeanDistance      float64 `json:"meanDistance"`
	CrossContinent    int     `json:"crossContinent"`
	MaxUtilization    float64 `json:"maxUtilization"`
	UtilizationStddev float64 `json:"utilizationStddev"`
	Objective         float64 `json:"objective"`
	Optimal           bool    `json:"optimal"`
	// AboveTarget counts the shoots the plan places above their seed's target utilization (the default
	// policy's); Unavoidable, the same for every solver of a scenario, is how many the plan that places the most
	// must place there: beyond what capacity says fits at or below the target.
	AboveTarget int `json:"aboveTarget"`
	Unavoidable int `json:"unavoidable"`
	// Fallbacks counts the repeats whose plan was the greedy fallback.
	Fallbacks int `json:"fallbacks"`

	// Model and solve seconds, median and 99th percentile over the repeats; VerifyP50 is model.Verify's median.
	ModelP50           float64 `json:"modelP50"`
	ModelP99           float64 `json:"modelP99"`
	SolveP50           float64 `json:"solveP50"`
	SolveP99           float64 `json:"solveP99"`
	VerifyP50          float64 `json:"verifyP50"`
	DecisionsPerSecond float64 `json:"decisionsPerSecond"`

	// Ratios against greedy on the same window (greedy itself: 1); null where greedy's figure is 0.
	PlacedVsGreedy    *float64 `json:"placedVsGreedy"`
	DistanceVsGreedy  *float64 `json:"meanDistanceVsGreedy"`
	StddevVsGreedy    *float64 `json:"utilizationStddevVsGreedy"`
	ObjectiveVsGreedy *float64 `json:"objectiveVsGreedy"`

	// Utilizations of the usable seeds with allocatable after the plan, and the placements' distances (plots).
	Utilizations []float64 `json:"-"`
	Distances    []int     `json:"-"`
}

// Results are the results of a run: windows, greedy first in each group of solvers, and rebalancings, the LP
// first in each group of methods.
type Results struct {
	Windows    []Result
	Rebalances []RebalanceResult
}

// Run plans every job: a window scenario with every solver, a rebalancing scenario with the LP and the naive
// descheduler. When ctx ends it returns the jobs finished so far with the interruption.
func Run(ctx context.Context, cfg Config) (*Results, error) {
	if cfg.Repeats < 1 {
		cfg.Repeats = 1
	}
	jobs, err := runJobs(cfg)
	if err != nil {
		return nil, err
	}
	progress := &progressCount{report: cfg.Progress}
	for _, j := range jobs {
		progress.total += j.plans(cfg.Repeats)
	}
	results := &Results{}
	for _, j := range jobs {
		if j.rebalance != nil {
			group, err := runRebalance(ctx, cfg, *j.rebalance, j.size, progress.step)
			if err != nil {
				return stopped(ctx, results, progress, err)
			}
			results.Rebalances = append(results.Rebalances, group...)
			continue
		}
		group, err := runWindow(ctx, cfg, j, progress.step)
		if err != nil {
			return stopped(ctx, results, progress, err)
		}
		results.Windows = append(results.Windows, group...)
	}
	return results, nil
}

// windowSolvers are the solvers a window scenario is planned with, greedy first: the others are compared with it.
var windowSolvers = []string{SolverGreedy, SolverLP, SolverLPTinyTimeout}

// runJob is a job of a run: a window scenario (the landscape given, or generated) or a rebalancing one, at a size.
type runJob struct {
	window    Scenario
	rebalance *scenario.Rebalance
	size      Size
}

// runJobs are the run's jobs: its landscape's, if it has one, then its named scenarios'.
func runJobs(cfg Config) ([]runJob, error) {
	var jobs []runJob
	if cfg.Landscape != nil {
		jobs = append(jobs, runJob{window: Scenario{Name: "landscape", Strategy: cfg.Strategy}})
	}
	for _, j := range cfg.Jobs {
		window, rebalance, err := selectScenario(j.Scenario)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, runJob{window, rebalance, j.Size})
	}
	return jobs, nil
}

// plans is how many plans the job makes in repeats: the LP's and the descheduler's of a rebalancing, each
// solver's of a window.
func (j runJob) plans(repeats int) int {
	if j.rebalance != nil {
		return 2 * repeats
	}
	return len(windowSolvers) * repeats
}

// progressCount counts the plans made of total and tells report, if set, after each.
type progressCount struct {
	done, total int
	report      func(done, total int, label string)
}

// step counts one plan made, of what label says.
func (p *progressCount) step(label string) {
	p.done++
	if p.report != nil {
		p.report(p.done, p.total, label)
	}
}

// runWindow plans the window of a job with every solver, repeatedly, and compares each with greedy.
func runWindow(ctx context.Context, cfg Config, j runJob, step func(label string)) ([]Result, error) {
	snap, err := j.snapshot(cfg)
	if err != nil {
		return nil, fmt.Errorf("scenario %s %s: %w", j.window.Name, j.size, err)
	}
	pending := snap.Pending(v1beta1constants.DefaultSchedulerName)
	policy := defaultPolicy(j.window.Strategy, cfg.Timeout)
	fitAtTarget, err := capacityAddsUp(ctx, snap, policy)
	if err != nil {
		return nil, fmt.Errorf("scenario %s %s: %w", j.window.Name, j.size, err)
	}
	var group []Result
	for _, name := range windowSolvers {
		r := Result{Scenario: j.window.Name, Size: fmt.Sprintf("%dx%d", len(pending), len(snap.Seeds)), Pending: len(pending), Seeds: len(snap.Seeds), Solver: name}
		p := policy
		p.Solver = solverFor(name, policy)
		if err := repeatWindow(ctx, cfg.Repeats, snap, pending, p, &r, step); err != nil {
			return nil, fmt.Errorf("scenario %s %s, solver %s: %w", j.window.Name, j.size, name, err)
		}
		group = append(group, r)
	}
	compareWithGreedy(group, fitAtTarget)
	return group, nil
}

// snapshot is the landscape of a window job: the run's, or its scenario's generated at its size.
func (j runJob) snapshot(cfg Config) (*model.Snapshot, error) {
	objs := cfg.Landscape
	if objs == nil {
		gc := j.window.config(j.size)
		gc.Seed = cfg.Seed
		generated, err := generator.Generate(gc)
		if err != nil {
			return nil, err
		}
		if j.window.mutate != nil {
			j.window.mutate(&generated)
		}
		objs = &generated
	}
	return model.NewSnapshot(*objs)
}

// repeatWindow plans the window repeats times under the policy and fills r with the last plan's quality, the
// timings' percentiles and the fallbacks.
func repeatWindow(ctx context.Context, repeats int, snap *model.Snapshot, pending []*gardencorev1beta1.Shoot, p plan.Policy, r *Result, step func(label string)) error {
	var modelTimes, solveTimes, verifyTimes []float64
	var last *plan.Outcome
	for range repeats {
		if err := ctx.Err(); err != nil {
			return err
		}
		o, err := plan.Schedule(ctx, snap, pending, p)
		if err != nil {
			return err
		}
		modelTimes = append(modelTimes, o.ModelTime.Seconds())
		solveTimes = append(solveTimes, o.SolveTime.Seconds())
		verifyTimes = append(verifyTimes, o.VerifyTime.Seconds())
		if o.Fallback != "" {
			r.Fallbacks++
		}
		last = o
		step(fmt.Sprintf("%s %s %s", r.Scenario, r.Size, r.Solver))
	}
	measure(r, last)
	r.ModelP50, r.ModelP99 = Quantile(modelTimes, 0.5), Quantile(modelTimes, 0.99)
	r.SolveP50, r.SolveP99 = Quantile(solveTimes, 0.5), Quantile(solveTimes, 0.99)
	r.VerifyP50 = Quantile(verifyTimes, 0.5)
	if t := r.ModelP50 + r.SolveP50; t > 0 {
		r.DecisionsPerSecond = float64(r.Pending) / t
	}
	return nil
}

// compareWithGreedy sets the ratios of a window's results against greedy's, the first, and how many shoots the
// solver placing the most must place above the target, beyond the fitAtTarget that capacity says fit below it.
func compareWithGreedy(group []Result, fitAtTarget int) {
	mostPlaced := 0
	for _, r := range group {
		mostPlaced = max(mostPlaced, r.Placed)
	}
	greedy := group[0]
	for i := range group {
		group[i].Unavoidable = mostPlaced - fitAtTarget
		group[i].PlacedVsGreedy = ratio(float64(group[i].Placed), float64(greedy.Placed))
		group[i].DistanceVsGreedy = ratio(group[i].MeanDistance, greedy.MeanDistance)
		group[i].StddevVsGreedy = ratio(group[i].UtilizationStddev, greedy.UtilizationStddev)
		group[i].ObjectiveVsGreedy = ratio(group[i].Objective, greedy.Objective)
	}
}

// stopped is what Run returns when a job fails: when ctx ended (an interrupt), the results of the jobs finished
// before, which are worth keeping, and the interruption; otherwise the job's error alone.
func stopped(ctx context.Context, results *Results, progress *progressCount, err error) (*Results, error) {
	if ctx.Err() != nil {
		return results, fmt.Errorf("interrupted after %d of %d windows: %w", progress.done, progress.total, context.Cause(ctx))
	}
	return nil, err
}

// selectScenario finds a window or a rebalancing scenario by name.
func selectScenario(name string) (Scenario, *scenario.Rebalance, error) {
	for _, sc := range Scenarios() {
		if sc.Name == name {
			return sc, nil, nil
		}
	}
	for _, sc := range scenario.Rebalances() {
		if sc.Name == name {
			return Scenario{}, &sc, nil
		}
	}
	return Scenario{}, nil, fmt.Errorf("unknown scenario %q (known: %s)", name, strings.Join(ScenarioNames(), ", "))
}

// ScenarioNames are the names of the window scenarios, then of the rebalancing scenarios.
func ScenarioNames() []string {
	var names []string
	for _, sc := range Scenarios() {
		names = append(names, sc.Name)
	}
	for _, sc := range scenario.Rebalances() {
		names = append(names, sc.Name)
	}
	return names
}

// solverFor is the named solver under the policy: its LP, the same LP with a budget it cannot meet, or greedy.
func solverFor(name string, p plan.Policy) solver.Solver {
	switch name {
	case SolverLP:
		return p.Solver
	case SolverLPTinyTimeout:
		return solver.LP{Weights: p.Weights, Timeout: time.Millisecond}
	}
	return solver.Greedy{}
}

// defaultPolicy is the placement policy of the default configuration, with the strategy and the LP's time
// budget given (0: none).
func defaultPolicy(strategy model.Strategy, timeout time.Duration) plan.Policy {
	c := config.Default()
	c.Strategy = string(strategy)
	p, err := plan.NewPolicy(c)
	if err != nil {
		panic(fmt.Sprintf("the default configuration is invalid: %v", err)) // a bug, not an input
	}
	p.Budget.Timeout = timeout
	p.Solver = solver.LP{Weights: p.Weights, Timeout: timeout}
	return p
}

// capacityAddsUp answers the capacity question of the landscape under the policy, checks that it accounts for
// every pending shoot once, and returns how many fit on existing seeds at or below the target.
func capacityAddsUp(ctx context.Context, snap *model.Snapshot, p plan.Policy) (int, error) {
	answer, err := plan.Capacity(ctx, snap, p)
	if err != nil {
		return 0, fmt.Errorf("capacity: %w", err)
	}
	onNew := answer.OnNew()
	if pending := len(answer.Question.Window.Shoots); answer.OnExisting+onNew+len(answer.Unplaceable) != pending {
		return 0, fmt.Errorf("capacity does not add up: %d on existing seeds + %d on new seeds + %d unplaceable ≠ %d pending",
			answer.OnExisting, onNew, len(answer.Unplaceable), pending)
	}
	return answer.OnExisting, nil
}

// measure fills the quality figures of a result from a solved window.
func measure(r *Result, o *plan.Outcome) {
	w, plan := o.Window, o.Plan
	r.Placed, r.Unscheduled = len(plan.Placements), len(plan.Unschedulable)
	r.Objective, r.Optimal, r.AboveTarget = o.Objective, o.Optimal, o.AboveTarget
	regions := map[string]string{}
	for _, shoot := range w.Shoots {
		regions[model.ShootKey(shoot)] = shoot.Spec.Region
	}
	r.TotalDistance, r.MeanDistance = o.Distance, MeanDistance(plan)
	for _, p := range plan.Placements {
		r.Distances = append(r.Distances, p.Distance)
		seedRegion := w.Snapshot.Seed(p.Seed).Spec.Provider.Region
		if a, b := generator.Continent(regions[p.Shoot]), generator.Continent(seedRegion); a != "" && b != "" && a != b {
			r.CrossContinent++
		}
	}
	r.Utilizations = Utilizations(w, plan)
	for _, u := range r.Utilizations {
		r.MaxUtilization = max(r.MaxUtilization, u)
	}
	r.UtilizationStddev = Stddev(r.Utilizations)
}

// MeanDistance is the mean region distance of a plan's placements.
func MeanDistance(plan *model.Plan) float64 {
	if len(plan.Placements) == 0 {
		return 0
	}
	total := 0
	for _, p := range plan.Placements {
		total += p.Distance
	}
	return float64(total) / float64(len(plan.Placements))
}

// Utilizations are (usage + placed) / allocatable after the plan, for the usable seeds with allocatable that the
// window could use or did use.
func Utilizations(w *model.Window, plan *model.Plan) []float64 {
	placed := plan.PlacedPerSeed()
	var out []float64
	for i, seed := range w.Snapshot.Seeds {
		allocatable, ok := model.Allocatable(seed)
		if !ok || allocatable == 0 || model.SeedUnusableReason(seed) != "" || (w.Free[i] == 0 && placed[seed.Name] == 0) {
			continue
		}
		out = append(out, float64(w.Snapshot.Usage(seed.Name)+placed[seed.Name])/float64(allocatable))
	}
	return out
}

// Stddev is the population standard deviation, 0 for no values.
func Stddev(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	return stat.PopStdDev(values, nil)
}

// Quantile is the nearest-rank quantile p of values (gonum's empirical quantile: the least value at or above
// the fraction p of them), 0 for no values.
func Quantile(values []float64, p float64) float64 {
	if len(values) == 0 {
		return 0
	}
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	return stat.Quantile(p, stat.Empirical, sorted, nil)
}

// ratio is a/b, 1 when both are 0, and nil when only b is.
func ratio(a, b float64) *float64 {
	switch {
	case a == 0 && b == 0:
		return new(1.0)
	case b == 0:
		return nil
	}
	return new(a / b)
}
