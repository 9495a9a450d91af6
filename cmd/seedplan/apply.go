package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/cluster"
	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// reviewedPlan is what `apply -f` reads: the output of `schedule -o json|yaml` (placements) or of `rebalance -o
// json|yaml` (moves).
type reviewedPlan struct {
	Window *struct {
		Strategy model.Strategy `json:"strategy"`
	} `json:"window"`
	Placements        []model.Placement `json:"placements"`
	Moves             []model.Move      `json:"moves"`
	TargetUtilization float64           `json:"targetUtilization"`
	Strategy          model.Strategy    `json:"strategy"`
	LowerBound        *int              `json:"lowerBound"`
}

// applying says what applying the reviewed plan does: a move starts only while its shoot's maintenance window is
// open, unless ignoreWindow.
func (p *reviewedPlan) applying(ignoreWindow bool) announcement {
	if p.Window == nil {
		a := announcement{what: "Starting " + report.Counted(len(p.Moves), "reviewed control plane migration", "reviewed control plane migrations")}
		if !ignoreWindow {
			a.condition = ", each only while its shoot's maintenance window is open"
		}
		return a
	}
	return announcement{what: "Binding " + report.Counted(len(p.Placements), "reviewed placement", "reviewed placements")}
}

// applyPlacements binds the reviewed placements under the strategy they were planned with, with binder; the report
// is nil when none was tried.
func applyPlacements(ctx context.Context, binder *bind.Binder, garden client.Client, opts model.Options, reviewed *reviewedPlan) (*report.AppliedReport, error) {
	opts.Strategy = reviewed.Window.Strategy
	reviewer := &cluster.Reviewed{Reader: garden, PageSize: ingest.ListPageSize, Binder: binder, Options: opts}
	results, err := reviewer.Apply(ctx, reviewed.Placements)
	if results == nil && err != nil {
		return nil, err
	}
	return placementsApplied(results, len(reviewed.Placements)), err
}

// maxReviewedBytes bounds a reviewed plan: the JSON of a window of 50,000 shoots is about 10 MB.
const maxReviewedBytes = 64 * config.MaxFileSize

// readReviewed reads a reviewed plan from a file, or from stdin for "-" (as kubectl apply -f - does); it says which
// kind the plan is, or why it is none.
func readReviewed(path string, stdin io.Reader) (*reviewedPlan, error) {
	var data []byte
	var err error
	if path == "-" {
		path = "- (standard input)"
		data, err = io.ReadAll(io.LimitReader(stdin, maxReviewedBytes+1))
		if err == nil && len(data) > maxReviewedBytes {
			err = fmt.Errorf("more than the limit of %d bytes", maxReviewedBytes)
		}
		if err != nil {
			return nil, fmt.Errorf("-f %s: %w", path, err)
		}
	} else if data, err = config.ReadRegularFile(path, maxReviewedBytes); err != nil {
		return nil, fmt.Errorf("-f %w", err)
	}
	plan, err := parseReviewed(data)
	if err != nil {
		return nil, fmt.Errorf("-f %s: %w", path, err)
	}
	return plan, nil
}

// parseReviewed decodes a reviewed plan, within the input budget: one document, as schedule and rebalance print
// it. Of several (two plans joined with ---), the conversion would read the first alone, and the others' entries
// would be left undone without a word.
func parseReviewed(data []byte) (*reviewedPlan, error) {
	documents, err := config.Documents(data)
	if err != nil {
		return nil, err
	}
	if len(documents) > 1 {
		return nil, fmt.Errorf("%d documents: a reviewed plan is one, the output of one schedule or rebalance", len(documents))
	}
	converted, err := config.YAMLToJSON(data)
	if err != nil {
		return nil, config.ConversionError(data, err)
	}
	plan := &reviewedPlan{}
	if _, err := config.DecodeStrict(converted, plan); err != nil { // the plan's other fields are the report's, not apply's
		return nil, err
	}
	if (plan.Window == nil) == (plan.LowerBound == nil) {
		return nil, errors.New("neither the output of schedule -o json (window, placements) nor of rebalance -o json (moves, lowerBound)")
	}
	if err := plan.check(); err != nil {
		return nil, err
	}
	return plan, nil
}

// check refuses a plan that apply could only partly carry out or not guard, before anything is written: every
// entry names its shoot as NAMESPACE/NAME, once, with the resourceVersion the plan was made at, and its seeds;
// the strategy is one the plan can have been made with, and the moves' target one rebalance takes.
func (p *reviewedPlan) check() error {
	entries, strategy, err := p.entries()
	if err != nil {
		return err
	}
	if _, err := model.ParseStrategy(string(strategy)); err != nil {
		return err
	}
	shoots := make([]string, len(entries))
	for i, e := range entries {
		if err := e.check(); err != nil {
			return fmt.Errorf("%s %d: %w", e.kind, i+1, err)
		}
		shoots[i] = e.shoot
	}
	for i, first := range model.Repeats(shoots) { // the first repeat is the error
		return fmt.Errorf("%s %d: shoot %s is in the plan twice (%[1]s %[4]d)", entries[i].kind, i+1, shoots[i], first+1)
	}
	return nil
}

// entries are the plan's placements or moves, of the one kind the plan is, and the strategy it was made with.
func (p *reviewedPlan) entries() ([]reviewedEntry, model.Strategy, error) {
	const oneKind = "apply binds a schedule's placements or makes a rebalance's moves, not both"
	var entries []reviewedEntry
	switch {
	case p.Window != nil && len(p.Moves) > 0:
		return nil, "", errors.New("the output of schedule (window) with moves: " + oneKind)
	case p.Window != nil:
		for _, pl := range p.Placements {
			entries = append(entries, reviewedEntry{"placement", pl.Shoot, pl.ResourceVersion, []string{pl.Seed}})
		}
		return entries, p.Window.Strategy, nil
	case len(p.Placements) > 0:
		return nil, "", errors.New("the output of rebalance (lowerBound) with placements: " + oneKind)
	}
	if err := model.CheckTargetUtilization(p.TargetUtilization); err != nil {
		return nil, "", fmt.Errorf("targetUtilization: %w", err)
	}
	for _, m := range p.Moves {
		entries = append(entries, reviewedEntry{"move", m.Shoot, m.ResourceVersion, []string{m.From, m.To}})
	}
	return entries, p.Strategy, nil
}

// reviewedEntry is what apply needs of a placement or a move.
type reviewedEntry struct {
	kind, shoot, resourceVersion string
	seeds                        []string
}

// check says what the entry lacks.
func (e reviewedEntry) check() error {
	if err := model.CheckShootKey(e.shoot); err != nil {
		return err
	}
	if slices.Contains(e.seeds, "") {
		return fmt.Errorf("shoot %s: no seed", e.shoot)
	}
	if e.resourceVersion == "" {
		return fmt.Errorf("shoot %s has no resourceVersion: apply plans made from the garden (schedule --kubeconfig --dry-run -o json, rebalance --kubeconfig -o json)", e.shoot)
	}
	return nil
}

// applyOptions are what apply is given: the reviewed plan's file, the garden and its settings, and the
// confirmation.
type applyOptions struct {
	flags             planFlags
	file              string
	output            report.Output
	yes, ignoreWindow bool
	dryRun            string // dryRunNone or dryRunServer
}

func newApplyCommand() *cobra.Command {
	var o applyOptions
	cmd := &cobra.Command{
		Use:   "apply -f FILE",
		Short: "Apply exactly a reviewed plan: the placements of schedule -o json or the moves of rebalance -o json",
		Long: "apply binds exactly the placements, or makes exactly the moves, of a plan saved with -o json (or yaml) from a " +
			"garden, nothing planned anew: each only while its shoot is still the version the plan recorded (or a later one " +
			"whose spec is unchanged: the same uid and generation), and " +
			"its seed still passes every predicate and has room (moves: the migration rules, the target, and the shoot's " +
			"maintenance window unless --ignore-maintenance-window). Anything that no longer holds is skipped with its " +
			"reason. It names the garden it writes to first, and asks for --yes. With --dry-run it checks the same and " +
			"sends each binding as a server-side dry run, which the API server admits or refuses, and writes nothing.",
		Args: noArguments,
		RunE: o.run,
	}
	o.addFlags(cmd)
	return cmd
}

// addFlags registers apply's flags.
func (o *applyOptions) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&o.file, "filename", "f", "", "the reviewed plan: the output of schedule -o json|yaml or rebalance -o json|yaml, - for standard input (required)")
	_ = cmd.MarkFlagRequired("filename")
	cmd.Flags().StringVar(&o.flags.kubeconfig, "kubeconfig", "", "the garden cluster of this kubeconfig: write to it")
	o.flags.registerGarden(cmd)
	o.flags.registerConfig(cmd, "its schedulerName, clientConnection, bind and logging settings; ")
	cmd.Flags().StringVar(&o.flags.schedulerName, "scheduler-name", config.Default().SchedulerName, "spec.schedulerName of the shoots the plan places")
	cmd.Flags().BoolVar(&o.yes, "yes", false, "confirm: write to the garden")
	registerDryRun(cmd, &o.dryRun, []string{dryRunServer}, "check every placement or move and send its binding as a server-side dry run: what would happen now, nothing written (no --yes needed)",
		"use --dry-run=server, which checks what a client-side one would, adds the API server's admission of each binding, and writes nothing either")
	cmd.Flags().BoolVar(&o.ignoreWindow, "ignore-maintenance-window", false, "start moves outside the shoots' maintenance windows")
	o.flags.registerPacing(cmd)
	registerOutput(cmd, &o.output, report.Formats())
}

// run reads the reviewed plan and, once --yes confirms it, applies it to the garden it names first.
func (o *applyOptions) run(cmd *cobra.Command, _ []string) error {
	if err := report.CheckFormat(o.output.Format, report.Formats()); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	c, err := o.flags.configuration(cmd)
	if err != nil {
		return err
	}
	reviewed, err := readReviewed(o.file, cmd.InOrStdin())
	if err != nil {
		return err
	}
	applying := reviewed.applying(o.ignoreWindow)
	switch {
	case o.dryRun == dryRunServer:
		applying.what += " (server dry run: nothing is stored)"
	case !o.yes:
		return fmt.Errorf("%s: add --yes to confirm, or see first what it would do with --dry-run", clause(applying))
	}
	if err := announceGarden(cmd, c, applying); err != nil {
		return err
	}
	garden, binder, policy, err := gardenWriter(c, o.dryRun == dryRunServer)
	if err != nil {
		return err
	}
	var applied *report.AppliedReport
	if reviewed.Window != nil {
		applied, err = applyPlacements(cmd.Context(), binder, garden, policy.Options, reviewed)
	} else {
		applied, err = o.applyMoves(cmd.Context(), c, binder, garden, policy.Options, reviewed)
	}
	if applied == nil {
		return err
	}
	return errors.Join(err, printReport(cmd, o.output, applied))
}

// applyMoves makes the reviewed moves under the strategy and target they were planned with, each in its shoot's
// maintenance window unless --ignore-maintenance-window.
func (o *applyOptions) applyMoves(ctx context.Context, c *config.SeedPlanConfiguration, binder *bind.Binder, garden client.Client, opts model.Options, reviewed *reviewedPlan) (*report.AppliedReport, error) {
	target := model.RebalanceOptions{TargetUtilization: reviewed.TargetUtilization, IgnoreMaintenanceWindows: o.ignoreWindow}
	opts.Strategy = reviewed.Strategy
	results, err := moverOf(c, binder, garden, opts, target).Apply(ctx, reviewed.Moves)
	return report.NewMovesApplied(results, len(reviewed.Moves)), err
}

// placementsApplied reports the bindings of the reviewed placements, of which there were reviewed.
func placementsApplied(results []bind.Result, reviewed int) *report.AppliedReport {
	r := &report.AppliedReport{Kind: "placements", Reviewed: reviewed, Applied: []report.AppliedResult{}}
	for _, b := range results {
		a := report.AppliedResult{Shoot: b.Shoot, To: b.Seed, Result: string(b.Result)}
		if b.Err != nil {
			a.Detail = b.Err.Error()
		}
		r.Applied = append(r.Applied, a)
	}
	return r
}
