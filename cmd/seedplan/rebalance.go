package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/cluster"
	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/report"
)

// rebalanceOptions are what rebalance is given: its flags, read into the planning inputs, the rebalancing's
// target and limits, the output, and whether to make the moves.
type rebalanceOptions struct {
	flags      planFlags
	target     model.RebalanceOptions
	limits     plan.MoveLimits
	output     report.Output
	apply, yes bool
	// drainSelector is --drain-selector, and drainMatching the selector parsed (by validate).
	drainSelector string
	drainMatching labels.Selector
}

func newRebalanceCommand() *cobra.Command {
	var o rebalanceOptions
	cmd := &cobra.Command{
		Use:   "rebalance",
		Short: "Recommend the fewest moves of shoots off overloaded and draining seeds (and, with --apply --yes, make them)",
		Long: "rebalance finds seeds above their target utilization (shoots/allocatable), seeds to drain (--drain or --drain-selector, being " +
			"deleted, or unhealthy for longer than --unusable-grace) and shoots on seeds with a NoExecute taint they do not " +
			"tolerate (see the " +
			model.AnnotationTaintEffects + " annotation), and computes with an LP the fewest moves that bring every seed to " +
			"at most the target: each moved shoot goes to a seed that passes every predicate of the gardener-scheduler and " +
			"the gardener-apiserver's migration rules and ends at most at the target; near moves first, then balance. It " +
			"prints the moves with when each may start (its shoot's maintenance window), every affected seed before and " +
			"after with why it sheds shoots, and the lower bound on the number of moves. With --apply --yes on a cluster it cordons the seeds to " +
			"drain and starts the moves whose window is open, paced (--max-in-flight, --max-in-flight-per-seed), each a " +
			"control plane migration re-checked against a fresh read first, and waits for each to finish on its new seed.",
		Args:   noArguments,
		PreRun: plansOnce,
		RunE:   o.run,
	}
	o.addFlags(cmd)
	return cmd
}

// addFlags registers rebalance's flags.
func (o *rebalanceOptions) addFlags(cmd *cobra.Command) {
	o.flags.register(cmd, true, "read it, and move shoots in it with --apply")
	o.flags.registerPushgateway(cmd, "the recommendation (seedplan_rebalance_*, grouped by answer=\"rebalance\")")
	o.flags.registerSolver(cmd, "solver-timeout", "weights", "target-utilization")
	cmd.Flags().StringSliceVar(&o.target.Drain, "drain", nil, "seeds to empty, as NAME or seed/NAME (repeatable)")
	_ = cmd.RegisterFlagCompletionFunc("drain", o.flags.completeSeedsBut(func() []string { return o.target.Drain }))
	cmd.Flags().StringVar(&o.drainSelector, "drain-selector", "", "also empty the seeds whose labels match this selector (e.g. seed.gardener.cloud/region=eu-west-1), as kubectl drain -l selects nodes")
	cmd.Flags().StringSliceVar(&o.flags.triggers, "triggers", nil, "the reasons that move shoots besides --drain: overloaded, NoExecute, unusable (default: all)")
	cmd.Flags().DurationVar(&o.flags.unusableGrace, "unusable-grace", model.DefaultUnusableGrace,
		"how long a seed must have been unhealthy (since its condition's lastTransitionTime) before its shoots move away")
	cmd.Flags().IntVar(&o.flags.maxMoveDistance, "max-move-distance", 0, "move shoots at most this region distance (from the region ConfigMaps; default: no bound), for live migration between near seeds")
	o.flags.registerPacing(cmd)
	cmd.Flags().BoolVar(&o.target.IgnoreMaintenanceWindows, "ignore-maintenance-window", false,
		"start moves outside the shoots' spec.maintenance.timeWindow (by default a move waits for its shoot's window)")
	cmd.Flags().IntVar(&o.limits.MaxMoves, "max-moves", 0, "at most this many moves (0: no limit)")
	cmd.Flags().IntVar(&o.limits.MaxMovesPerSeed, "max-moves-per-seed", 0, "at most this many moves off, and onto, any one seed (0: no limit)")
	registerOutput(cmd, &o.output, report.Formats())
	registerPage(cmd, &o.output)
	cmd.Flags().BoolVar(&o.apply, "apply", false, "make the moves on the cluster, paced and in maintenance windows (never the default; needs --yes)")
	cmd.Flags().BoolVar(&o.yes, "yes", false, "confirm --apply")
}

// validate checks the flags that no configuration overrides.
func (o *rebalanceOptions) validate() error {
	if err := o.output.Check(report.Formats()); err != nil {
		return err
	}
	if o.limits.MaxMoves < 0 {
		return flagError("max-moves", o.limits.MaxMoves, "must not be negative")
	}
	if o.limits.MaxMovesPerSeed < 0 {
		return flagError("max-moves-per-seed", o.limits.MaxMovesPerSeed, "must not be negative")
	}
	if o.drainSelector != "" {
		var err error
		if o.drainMatching, err = labels.Parse(o.drainSelector); err != nil {
			return fmt.Errorf("--drain-selector %q: %w", o.drainSelector, err)
		}
	}
	if o.yes && !o.apply {
		// Without --apply nothing is written: --yes alone would read as moves made.
		return errors.New("--yes confirms --apply, which is not given: without it, rebalance only recommends")
	}
	return nil
}

// drainMatched adds the seeds --drain-selector matches to the seeds to drain, after those --drain names and once
// each; a selector that matches no seed is an error, not a recommendation that drains nothing.
func (o *rebalanceOptions) drainMatched(snap *model.Snapshot) error {
	if o.drainMatching == nil {
		return nil
	}
	matched := 0
	for _, seed := range snap.Seeds {
		if !o.drainMatching.Matches(labels.Set(seed.Labels)) {
			continue
		}
		matched++
		if !slices.Contains(o.target.Drain, seed.Name) {
			o.target.Drain = append(o.target.Drain, seed.Name)
		}
	}
	if matched == 0 {
		return fmt.Errorf("--drain-selector %s: no seed of the landscape matches", o.drainSelector)
	}
	return nil
}

// run recommends the moves, and with --apply --yes makes them.
func (o *rebalanceOptions) run(cmd *cobra.Command, _ []string) error {
	if err := o.validate(); err != nil {
		return err
	}
	for i, seed := range o.target.Drain {
		o.target.Drain[i] = seedName(seed)
	}
	c, err := o.flags.configuration(cmd)
	if err != nil {
		return err
	}
	for _, flag := range pacingFlags() {
		if !o.apply && cmd.Flags().Changed(flag) {
			return fmt.Errorf("--%s: not without --apply, whose moves it paces: rebalance without it only recommends (seedplan apply -f takes the flag too)", flag)
		}
	}
	inCluster, err := o.flags.fromCluster(c)
	if err != nil {
		return err
	}
	if o.apply && !inCluster {
		return errors.New("--apply needs a cluster (--kubeconfig or --cluster)")
	}
	policy, err := plan.NewPolicy(c)
	if err != nil {
		return err
	}
	snap, err := o.flags.snapshot(cmd, c)
	if err != nil {
		return notLoaded(" (nothing was moved)", err)
	}
	configureTarget(&o.target, c, policy)
	if err := o.target.Validate(snap); err != nil {
		return fmt.Errorf("--drain: %w", err)
	}
	if err := o.drainMatched(snap); err != nil {
		return err
	}
	moves, err := plan.Rebalance(cmd.Context(), snap, policy, o.target, o.limits)
	if err != nil {
		return err
	}
	recommended := report.NewRebalanceReport(moves)
	if err := push(cmd.Context(), c, metrics.RebalanceAnswer(recommended)); err != nil {
		return err
	}
	if o.apply && (len(moves.Moves) > 0 || len(o.target.Drain) > 0) {
		return o.applyMoves(cmd, c, policy, moves, recommended)
	}
	return printReport(cmd, o.output, recommended)
}

// applyMoves makes the recommended moves, once --yes confirms them: it cordons the seeds to drain, starts the
// moves and prints what became of each.
func (o *rebalanceOptions) applyMoves(cmd *cobra.Command, c *config.SeedPlanConfiguration, policy plan.Policy, moves *plan.Rebalanced, recommended *report.RebalanceReport) error {
	if !o.yes {
		return fmt.Errorf("--apply: %s; add --yes to confirm", clause(applying(o.target, moves)))
	}
	garden, err := cordonToDrain(cmd, c, o.target, moves)
	if err != nil {
		return err
	}
	recommended.Applied, err = moverOf(c, binderOf(c, garden), garden, policy.Options, o.target).Apply(cmd.Context(), moves.Moves)
	if printErr := printReport(cmd, o.output, recommended); printErr != nil {
		return errors.Join(err, printErr)
	}
	return err
}

func newCapacityCommand() *cobra.Command {
	var (
		flags  planFlags
		output report.Output
	)
	cmd := &cobra.Command{
		Use:   "capacity",
		Short: "How many new seeds per provider and region would let every pending shoot be placed at or below the target utilization",
		Long: "capacity adds, per kind of usable seed some pending shoot may use, a candidate copied from the seed of that kind " +
			"with the most allocatable shoots, places every pending shoot with existing seeds filled at most to the target and the " +
			"candidates' seeds counted, and minimises the number of new seeds (an LP on CLP with branch and bound): the " +
			"number to set as ManagedSeedSet replicas or for a seed autoscaler to aim for. Shoots that no seed kind may take " +
			"are listed with the reason and the kind of seed they lack; every pending shoot is counted exactly once.",
		Args:   noArguments,
		PreRun: plansOnce,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := output.Check(report.Formats()); err != nil {
				return err
			}
			c, err := flags.configuration(cmd)
			if err != nil {
				return err
			}
			policy, err := plan.NewPolicy(c)
			if err != nil {
				return err
			}
			snap, err := flags.snapshot(cmd, c)
			if err != nil {
				return notLoaded("", err)
			}
			answer, err := plan.Capacity(cmd.Context(), snap, policy)
			if err != nil {
				return err
			}
			capacity := report.NewCapacityReport(answer)
			if err := push(cmd.Context(), c, metrics.CapacityAnswer(capacity)); err != nil {
				return err
			}
			return printReport(cmd, output, capacity)
		},
	}
	flags.register(cmd, true, "read it")
	flags.registerSolver(cmd, "solver-timeout", "target-utilization")
	flags.registerPushgateway(cmd, "the answer (seedplan_capacity_*, grouped by answer=\"capacity\"), for a seed autoscaler")
	registerOutput(cmd, &output, report.Formats())
	registerPage(cmd, &output)
	return cmd
}

// configureTarget completes the rebalancing's target from the configuration: the policy's target utilization,
// the grace of unusable seeds, the move distance bound and the triggers.
func configureTarget(target *model.RebalanceOptions, c *config.SeedPlanConfiguration, policy plan.Policy) {
	target.TargetUtilization, target.UnusableGrace, target.Now = policy.Target, c.Rebalance.UnusableGrace.Duration, time.Now()
	target.MaxMoveDistance = c.Rebalance.MaxMoveDistance
	target.Triggers = nil
	for _, trigger := range c.Rebalance.Triggers {
		target.Triggers = append(target.Triggers, model.LeaveReason(trigger))
	}
}

// applying says what --apply does with the recommended moves: the seeds it cordons, and the migrations it starts
// now and, as its condition, those it leaves for a later run because their shoots' maintenance windows are closed
// (a move's StartsAt).
func applying(target model.RebalanceOptions, moves *plan.Rebalanced) announcement {
	waiting := 0
	for _, m := range moves.Moves {
		if m.StartsAt != nil {
			waiting++
		}
	}
	var a announcement
	migrations := "starting " + report.Counted(len(moves.Moves)-waiting, "control plane migration", "control plane migrations")
	if waiting > 0 {
		migrations += " now"
		a.condition = "; " + report.Counted(waiting, "waits for its shoot's maintenance window", "wait for their shoots' maintenance windows") +
			", for a later run"
	}
	cordoning := "cordoning " + report.Counted(len(target.Drain), "seed", "seeds") + " to drain"
	sentence := cordoning + " and " + migrations
	switch {
	case len(target.Drain) == 0:
		sentence = migrations
	case len(moves.Moves) == 0:
		sentence = cordoning + " (no control plane migration to start)"
	}
	a.what = strings.ToUpper(sentence[:1]) + sentence[1:]
	return a
}

// checkSeedNames refuses, before the garden is reached, names no seed can have, each with the reason, and a name
// given twice (the announced count of seeds would be wrong).
func checkSeedNames(seeds []string) error {
	var errs []error
	for _, seed := range seeds {
		if problems := validation.IsDNS1123Subdomain(seed); len(problems) > 0 {
			errs = append(errs, fmt.Errorf("seed %q: not a seed's name: %s", seed, strings.Join(problems, "; ")))
		}
	}
	for i := range model.Repeats(seeds) {
		errs = append(errs, fmt.Errorf("seed %q is given twice", seeds[i]))
	}
	return errors.Join(errs...)
}

// cordonToDrain announces what --apply does to the configured garden and cordons the seeds to drain, before any
// move starts: no scheduler places new shoots on a seed being emptied. It returns the garden's client.
func cordonToDrain(cmd *cobra.Command, c *config.SeedPlanConfiguration, target model.RebalanceOptions, moves *plan.Rebalanced) (client.Client, error) {
	if err := announceGarden(cmd, c, applying(target, moves)); err != nil {
		return nil, err
	}
	garden, err := gardenClient(c)
	if err != nil {
		return nil, err
	}
	for _, seed := range target.Drain {
		if _, err := bind.SetSchedulingVisible(cmd.Context(), garden, seed, false, false); err != nil {
			return nil, err
		}
	}
	return garden, nil
}

// moverOf makes moves in the configured garden with binder, paced and capped as configured.
func moverOf(c *config.SeedPlanConfiguration, binder *bind.Binder, garden client.Client, opts model.Options, target model.RebalanceOptions) *cluster.Rebalance {
	p := c.Rebalance.Pacing
	return &cluster.Rebalance{Reader: garden, PageSize: ingest.ListPageSize, Binder: binder, Options: opts, Target: target,
		Pacing:             &cluster.Pacing{MaxInFlight: p.MaxInFlight, MaxPerSeed: p.MaxPerSeed, Timeout: p.Timeout.Duration, Poll: p.Poll.Duration},
		MaxMovesPerProject: c.Rebalance.MaxMovesPerProject}
}
