// Command seedplan places Gardener shoots onto seeds: it plans a window of pending shoots together, explains
// its decisions and generates synthetic landscapes.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/cluster"
	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/examples"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/buildinfo"
	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/report"
)

func main() {
	routeLibraryLogs()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCommand().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		if ctx.Err() != nil {
			os.Exit(130) // interrupted: what a shell reports for SIGINT
		}
		os.Exit(1)
	}
}

// interruptible returns what load returns, or the context's error as soon as ctx ends: reading files has no
// context of its own, and SIGINT or SIGTERM must end the process promptly whatever it reads. A load abandoned so
// ends with the process.
func interruptible[T any](ctx context.Context, load func() (T, error)) (T, error) {
	type result struct {
		value T
		err   error
	}
	done := make(chan result, 1)
	go func() {
		value, err := load()
		done <- result{value, err}
	}()
	select {
	case r := <-done:
		return r.value, r.err
	case <-ctx.Done():
		var zero T
		return zero, fmt.Errorf("reading the landscape: %w", context.Cause(ctx))
	}
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "seedplan",
		Short:         "Place Gardener shoots onto seeds, together and optimally",
		SilenceUsage:  true,
		SilenceErrors: true,
		// A command without a configuration (generate, bench, cordon) logs as the defaults say, to its standard
		// error, as one with a configuration does until loading it sets its own logger.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			slog.SetDefault(config.Default().Logger(cmd.ErrOrStderr()))
			// A required flag left out is refused here, before cobra refuses it without saying where the help is.
			if err := cmd.ValidateRequiredFlags(); err != nil {
				return seeHelp(cmd, err)
			}
			return nil
		},
	}
	root.AddCommand(newScheduleCommand(), newExplainCommand(), newRebalanceCommand(), newCapacityCommand(), newRunCommand(), newApplyCommand(), newCordonCommand(true), newCordonCommand(false),
		newGenerateCommand(), newBenchCommand(), newVersionCommand())
	root.Version = versionLine(buildinfo.Read())
	root.SetVersionTemplate("{{.Version}}\n")
	// A flag cobra could not parse says where the command's flags are listed, as a wrong count of arguments does.
	root.SetFlagErrorFunc(seeHelp)
	addExamples(root)
	completeFlagValues(root)
	refuseEmptyValues(root)
	return root
}

// planFlags are the inputs and settings shared by schedule, explain and run: a configuration file (or the
// defaults) with the flags that were given on top.
type planFlags struct {
	landscape          []string
	kubeconfig         string
	kubeContext        string
	requestTimeout     time.Duration
	pushgateway        string
	inCluster          bool
	configFile         string
	strategy           string
	solver             string
	solverTimeout      time.Duration
	weights            string
	target             float64
	unusableGrace      time.Duration
	maxMoveDistance    int
	pacing             config.PacingConfiguration
	maxMovesPerProject int
	triggers           []string
	schedulerName      string
	strictNetworks     bool
	logLevel           string
	logFormat          string
}

// register adds the input and scheduling flags: --landscape when the command reads files too, and --kubeconfig
// saying what the command does in the cluster. registerSolver adds the named solver flags ("solver",
// "solver-timeout", "weights") of those a command uses, so that no command accepts a flag it ignores.
func (f *planFlags) register(cmd *cobra.Command, files bool, inCluster string) {
	defaults := config.Default()
	cluster := "the garden cluster of this kubeconfig: "
	if files {
		cmd.Flags().StringSliceVar(&f.landscape, "landscape", nil, "files or directories of YAML/JSON manifests, - for standard input (repeatable); default: the embedded example landscape")
		cluster = "the garden cluster of this kubeconfig, instead of files: "
	}
	cmd.Flags().StringVar(&f.kubeconfig, "kubeconfig", "", cluster+inCluster)
	// Only where files are the alternative: a command that only writes to a garden reads it anyway.
	cmd.Flags().BoolVar(&f.inCluster, "cluster", false, "read the garden cluster of $KUBECONFIG, ~/.kube/config or the pod's service account")
	f.registerGarden(cmd)
	f.registerConfig(cmd, "")
	cmd.Flags().StringVar(&f.strategy, "strategy", defaults.Strategy, "candidate determination strategy: SameRegion or MinimalDistance")
	cmd.Flags().StringVar(&f.schedulerName, "scheduler-name", defaults.SchedulerName, "spec.schedulerName of the shoots to place")
	cmd.Flags().BoolVar(&f.strictNetworks, "strict-networks", false, "also reject seeds whose networks overlap a shoot's IPv4 networks")
}

// registerConfig adds --config, whose file's settings the command reads (what, for its help: "" for all of them),
// and --log-level and --log-format, which override the file's logLevel and logFormat as every flag overrides its
// setting: a one-off run at debug level needs no file of its own.
func (f *planFlags) registerConfig(cmd *cobra.Command, what string) {
	defaults := config.Default()
	cmd.Flags().StringVar(&f.configFile, "config", "", "SeedPlanConfiguration file ("+what+"flags override it)")
	cmd.Flags().StringVar(&f.logLevel, "log-level", defaults.LogLevel, "log records of this level and above on standard error: "+strings.Join(config.LogLevels(), ", "))
	cmd.Flags().StringVar(&f.logFormat, "log-format", defaults.LogFormat, "log records as text (for a terminal) or json (for a log collector)")
	_ = cmd.RegisterFlagCompletionFunc("log-level", cobra.FixedCompletions(config.LogLevels(), cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("log-format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
}

// registerGarden adds --context, which picks the garden cluster's kubeconfig context.
func (f *planFlags) registerGarden(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.kubeContext, "context", "", "the kubeconfig context of the garden cluster (default: the kubeconfig's current context)")
	cmd.Flags().DurationVar(&f.requestTimeout, "request-timeout", config.DefaultRequestTimeout, requestTimeoutUsage("the garden's", ""))
}

// requestTimeoutUsage is --request-timeout's help, naming whose answers it waits for and, where it matters, what
// it does not bound: each command's help names only what the command does.
func requestTimeoutUsage(whose, unbounded string) string {
	return "how long to wait for " + whose + " answer to one request before failing it (0: wait forever" + unbounded + ")"
}

// registerOutput adds -o, one of formats, and --no-headers, as kubectl's.
func registerOutput(cmd *cobra.Command, out *report.Output, formats []string) {
	cmd.Flags().StringVarP(&out.Format, "output", "o", "table", "output format: "+strings.Join(formats, ", "))
	cmd.Flags().BoolVar(&out.NoHeaders, "no-headers", false, "leave out the header and summary lines of table and wide output")
	allow := cmd.Flags().VarPF(allowMissingKeys{&out.RequireTemplateKeys}, "allow-missing-template-keys", "",
		"a key a jsonpath template selects and the output lacks prints nothing; false: it is an error")
	allow.NoOptDefVal = "true"
}

// allowMissingKeys is kubectl's --allow-missing-template-keys, true by default, set on the Output's
// RequireTemplateKeys, its inverse.
type allowMissingKeys struct{ require *bool }

// String is the flag's value: whether a missing key is allowed.
func (a allowMissingKeys) String() string { return strconv.FormatBool(!*a.require) }

// Type is the flag's type, as help and completion show it.
func (a allowMissingKeys) Type() string { return "bool" }

// Set takes the flag's value as a bool flag's, and requires keys when it is false.
func (a allowMissingKeys) Set(value string) error {
	allow, err := strconv.ParseBool(value)
	if err != nil {
		return err
	}
	*a.require = !allow
	return nil
}

// registerPage adds --report, the plan's HTML page.
func registerPage(cmd *cobra.Command, out *report.Output) {
	cmd.Flags().StringVar(&out.Page, "report", "", "also write the plan as one self-contained HTML page to this file (utilization per region and seed before and after, moves and why seeds shed shoots, migrations already moving shoots away, reasons, new seeds)")
}

// registerPushgateway adds --pushgateway, saying what the command pushes.
func (f *planFlags) registerPushgateway(cmd *cobra.Command, what string) {
	cmd.Flags().StringVar(&f.pushgateway, "pushgateway", "", "push "+what+" to this Prometheus Pushgateway URL")
	cmd.Flags().Lookup("request-timeout").Usage = requestTimeoutUsage("the garden's or the Pushgateway's", "")
}

// pusher is what a command pushes: the batch job's metrics, or a capacity or rebalance answer.
type pusher interface {
	Push(ctx context.Context, url, job string, timeout time.Duration) error
}

// push pushes p when a Pushgateway is configured, bounded by the configured request timeout.
func push(ctx context.Context, c *config.SeedPlanConfiguration, p pusher) error {
	if c.Metrics.Pushgateway == "" {
		return nil
	}
	return p.Push(ctx, c.Metrics.Pushgateway, c.Metrics.Job, ingest.ClientOptionsOf(c.Client).RequestTimeout)
}

// pacingFlags are the flags registerPacing adds. They pace moves being made, so rebalance refuses them without
// --apply: an operator giving them to a recommendation would think them recorded in it.
func pacingFlags() []string {
	return []string{"max-in-flight", "max-in-flight-per-seed", "migration-timeout", "max-moves-per-project"}
}

// registerPacing adds the flags that pace migrations.
func (f *planFlags) registerPacing(cmd *cobra.Command) {
	defaults := config.Default().Rebalance.Pacing
	cmd.Flags().IntVar(&f.pacing.MaxInFlight, "max-in-flight", defaults.MaxInFlight, "at most this many control plane migrations in flight (from the binding until the shoot reports its restore on the new seed), counting those in the garden this run did not start")
	cmd.Flags().IntVar(&f.pacing.MaxPerSeed, "max-in-flight-per-seed", defaults.MaxPerSeed, "at most this many migrations in flight off any one seed, and onto any one seed")
	cmd.Flags().DurationVar(&f.pacing.Timeout.Duration, "migration-timeout", defaults.Timeout.Duration, "a migration not finished in this time, or a slot not freed in it by migrations this run did not start, stops the run; a later run continues where it stopped")
	cmd.Flags().IntVar(&f.maxMovesPerProject, "max-moves-per-project", 0, "make at most this many moves of one project's shoots in this run (0: no limit); the rest wait for a later run")
}

func (f *planFlags) registerSolver(cmd *cobra.Command, names ...string) {
	defaults := config.Default()
	for _, name := range names {
		switch name {
		case "solver":
			cmd.Flags().StringVar(&f.solver, "solver", defaults.Solver.Name, "solver: lp (global optimum on COIN-OR CLP) or greedy (the gardener-scheduler's decision rule)")
		case "solver-timeout":
			cmd.Flags().DurationVar(&f.solverTimeout, "solver-timeout", defaults.Solver.Timeout.Duration,
				"time budget of the LP; when it runs out, "+solverFallback(cmd.Name()))
		case "weights":
			cmd.Flags().StringVar(&f.weights, "weights", defaults.Placement.Weights.Preset,
				"objective weights: compat (nearest region first: a shoot leaves it only for room at or below the target its region lacks; then the emptiest seed) or balanced (distance traded against utilization)")
		case "target-utilization":
			cmd.Flags().Float64Var(&f.target, "target-utilization", defaults.Placement.TargetUtilization,
				"highest shoots/allocatable a seed should end at, in (0, 1]: "+targetUse(cmd.Name()))
		default:
			panic("unknown solver flag " + name)
		}
	}
}

// solverFallback is what the command does when the LP's time budget runs out.
func solverFallback(command string) string {
	switch command {
	case "rebalance":
		return "the moves are found greedily"
	case "capacity":
		return "the best count found is given, unproven"
	case "explain":
		return "the gardener-scheduler's greedy rule decides (shoots of earlier priority purposes first) and is explained"
	}
	return "the window is placed by the gardener-scheduler's greedy rule, shoots of earlier priority purposes first"
}

// targetUse is what the command does with the target utilization.
func targetUse(command string) string {
	switch command {
	case "rebalance":
		return "moves take shoots off seeds above it and onto seeds only up to it"
	case "capacity":
		return "new seeds are counted for every pending shoot to be placed at or below it"
	}
	return "a shoot is placed above it only where no seed it may use has room at or below it"
}

// configuration reads the configuration file (or takes the defaults), applies the flags that were given, and
// sets up logging as configured.
func (f *planFlags) configuration(cmd *cobra.Command) (*config.SeedPlanConfiguration, error) {
	c := config.Default()
	if f.configFile != "" {
		var err error
		if c, err = config.Read(f.configFile); err != nil {
			return nil, config.EachPrefixed("--config", config.Each(err))
		}
	}
	changed := cmd.Flags().Changed
	overrides := f.overrides(c)
	for _, o := range overrides {
		if changed(o.flag) {
			o.set()
		}
	}
	if err := c.Validate(); err != nil {
		return nil, f.invalid(err, overrides, changed)
	}
	if changed("solver-timeout") && cmd.Flags().Lookup("solver") != nil && c.Solver.Name == config.SolverGreedy {
		return nil, errors.New("--solver-timeout: not with the greedy solver, which has no time budget")
	}
	slog.SetDefault(c.Logger(cmd.ErrOrStderr()))
	return c, nil
}

// invalid words every invalid field of a configuration at once: a field a flag set by the flag, the others as
// the configuration file's.
func (f *planFlags) invalid(err error, overrides []override, changed func(flag string) bool) error {
	var byFlag, inFile []error
	for _, e := range config.Each(err) { // Validate joins one *config.FieldError per field
		if flag, fieldErr, ok := setByFlag(e, overrides, changed); ok {
			byFlag = append(byFlag, flagError(flag, fieldErr.Value, fieldErr.Problem))
		} else {
			inFile = append(inFile, e)
		}
	}
	if len(inFile) > 0 && f.configFile != "" {
		return errors.Join(append(byFlag, config.EachPrefixed("--config: configuration "+f.configFile, inFile))...)
	}
	return errors.Join(append(byFlag, inFile...)...)
}

// setByFlag is the flag that set the field e finds invalid, if a flag did.
func setByFlag(e error, overrides []override, changed func(flag string) bool) (string, *config.FieldError, bool) {
	var fieldErr *config.FieldError
	if !errors.As(e, &fieldErr) {
		return "", nil, false
	}
	for _, o := range overrides {
		if o.field == fieldErr.Field && changed(o.flag) {
			return o.flag, fieldErr, true
		}
	}
	return "", nil, false
}

// refuseEmptyValues makes every string and string list flag of root's commands refuse an empty value, and a list
// an empty element. No flag takes one: an empty value means the flag was left out, and "--landscape $DIR",
// "--config $CONFIG" or "--kubeconfig $KUBECONFIG" with the variable unset would otherwise run on the default
// — the embedded example, the default configuration, files instead of the garden — as if it had been asked for.
// It is checked as each value is set: a list given twice, the second time empty, has no empty element after.
func refuseEmptyValues(root *cobra.Command) {
	for _, cmd := range root.Commands() {
		cmd.Flags().VisitAll(func(flag *pflag.Flag) {
			switch flag.Value.Type() {
			case "stringSlice":
				// pflag's help leaves out a default it knows to be zero, which it no longer knows "[]" of this
				// value to be; "" it knows of any.
				if flag.DefValue == "[]" {
					flag.DefValue = ""
				}
				fallthrough
			case "string":
				flag.Value = nonEmpty{flag.Value}
			}
		})
	}
}

// nonEmpty is a flag's value that refuses to be set empty, or to hold an empty element.
type nonEmpty struct{ pflag.Value }

// Set sets the value as the flag's own value does, unless it is empty or holds an empty element.
func (v nonEmpty) Set(value string) error {
	if value == "" {
		return errors.New("empty: leave the flag out for its default")
	}
	if err := v.Value.Set(value); err != nil {
		return err
	}
	if list, ok := v.Value.(pflag.SliceValue); ok && slices.Contains(list.GetSlice(), "") {
		return errors.New("an element is empty")
	}
	return nil
}

// flagError is the error of a flag given a value it does not take, worded as every command words it:
// "--flag value: problem".
func flagError(flag string, value any, problem string) error {
	return fmt.Errorf("--%s %v: %s", flag, value, problem)
}

// operands checks a command's arguments: at least min, at most max (-1: no limit). Its error says what the
// command takes, worded as its usage line names it, and what it was given, where cobra's says "accepts 1 arg(s)".
func operands(min, max int, takes string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) >= min && (max < 0 || len(args) <= max) {
			return nil
		}
		given := "none"
		if len(args) > 0 {
			quoted := make([]string, len(args))
			for i, arg := range args {
				quoted[i] = strconv.Quote(arg)
			}
			given = fmt.Sprintf("%d: %s", len(args), strings.Join(quoted, " "))
		}
		return seeHelp(cmd, fmt.Errorf("%s takes %s; given %s", cmd.Name(), takes, given))
	}
}

// seeHelp is an error in how a command was called, followed by where the command's help is, as kubectl says it.
func seeHelp(cmd *cobra.Command, err error) error {
	return fmt.Errorf("%w (see '%s --help')", err, cmd.CommandPath())
}

// noArguments is the check of a command that takes no arguments, as cobra.NoArgs is, worded by operands.
func noArguments(cmd *cobra.Command, args []string) error {
	return operands(0, 0, "no arguments")(cmd, args)
}

// override is a flag that sets a field of the configuration: the flag's name, the field's path as Validate names
// it, and how the flag's value is set into c.
type override struct {
	flag, field string
	set         func()
}

// overrides are the flags that override fields of c, each with its field: what a flag sets and the flag an
// invalid field is reported by are read from one list.
func (f *planFlags) overrides(c *config.SeedPlanConfiguration) []override {
	return []override{
		{"strategy", "strategy", func() { c.Strategy = f.strategy }},
		{"solver", "solver.name", func() { c.Solver.Name = f.solver }},
		{"solver-timeout", "solver.timeout", func() { c.Solver.Timeout.Duration = f.solverTimeout }},
		{"weights", "placement.weights.preset", func() { c.Placement.Weights.Preset = f.weights }},
		{"target-utilization", "placement.targetUtilization", func() { c.Placement.TargetUtilization = f.target }},
		{"triggers", "rebalance.triggers", func() { c.Rebalance.Triggers = f.triggers }},
		{"max-moves-per-project", "rebalance.maxMovesPerProject", func() { c.Rebalance.MaxMovesPerProject = f.maxMovesPerProject }},
		{"max-in-flight", "rebalance.pacing.maxInFlight", func() { c.Rebalance.Pacing.MaxInFlight = f.pacing.MaxInFlight }},
		{"max-in-flight-per-seed", "rebalance.pacing.maxPerSeed", func() { c.Rebalance.Pacing.MaxPerSeed = f.pacing.MaxPerSeed }},
		{"migration-timeout", "rebalance.pacing.timeout", func() { c.Rebalance.Pacing.Timeout = f.pacing.Timeout }},
		{"max-move-distance", "rebalance.maxMoveDistance", func() { c.Rebalance.MaxMoveDistance = &f.maxMoveDistance }},
		{"unusable-grace", "rebalance.unusableGrace", func() { c.Rebalance.UnusableGrace = &metav1.Duration{Duration: f.unusableGrace} }},
		{"scheduler-name", "schedulerName", func() { c.SchedulerName = f.schedulerName }},
		{"strict-networks", "strictNetworks", func() { c.StrictNetworks = f.strictNetworks }},
		{"kubeconfig", "clientConnection.kubeconfig", func() { c.Client.Kubeconfig = f.kubeconfig }},
		{"context", "clientConnection.context", func() { c.Client.Context = f.kubeContext }},
		{"pushgateway", "metrics.pushgateway", func() { c.Metrics.Pushgateway = f.pushgateway }},
		{"request-timeout", "clientConnection.requestTimeout", func() { c.Client.RequestTimeout = &metav1.Duration{Duration: f.requestTimeout} }},
		{"log-level", "logLevel", func() { c.LogLevel = f.logLevel }},
		{"log-format", "logFormat", func() { c.LogFormat = f.logFormat }},
	}
}

// fromCluster reports whether the garden cluster, not files, is the input.
func (f *planFlags) fromCluster(c *config.SeedPlanConfiguration) (bool, error) {
	cluster := f.inCluster || c.Client.Kubeconfig != "" || c.Client.Context != ""
	if cluster && len(f.landscape) > 0 {
		return false, errors.New("--landscape and a cluster (--kubeconfig, --context, --cluster, clientConnection) exclude each other")
	}
	return cluster, nil
}

// announcement is what a command is about to do to a garden: what it does, said before the garden, and a
// condition on it said after the garden ("" for none), so that the garden never ends up inside the condition.
type announcement struct{ what, condition string }

// String is the announcement without the garden.
func (a announcement) String() string { return a.what + a.condition }

// announceGarden says, before anything is written, which garden cluster will be: its API server and kubeconfig
// context, on standard error so that it never mixes into -o json.
func announceGarden(cmd *cobra.Command, c *config.SeedPlanConfiguration, a announcement) error {
	server, context, err := ingest.Garden(ingest.ClientOptionsOf(c.Client))
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(cmd.ErrOrStderr(), "%s in garden %s (context %s)%s\n", a.what, server, context, a.condition)
	return err
}

// clause is an announcement as a clause of an error: "Binding …" as "binding …".
func clause(a announcement) string {
	announced := a.String()
	return strings.ToLower(announced[:1]) + announced[1:]
}

// binderOf is the Binder that writes to the configured garden: this host's name in its events, the configured
// concurrency and rate.
func binderOf(c *config.SeedPlanConfiguration, garden client.Client) *bind.Binder {
	instance, _ := os.Hostname()
	return &bind.Binder{Client: garden, Concurrency: c.Bind.Concurrency, Instance: instance, QPS: c.Client.QPS}
}

// gardenClient is a client of the configured garden cluster.
func gardenClient(c *config.SeedPlanConfiguration) (client.Client, error) {
	cfg, err := ingest.RESTConfig(ingest.ClientOptionsOf(c.Client))
	if err != nil {
		return nil, err
	}
	return ingest.NewClient(cfg)
}

// snapshot loads the landscape (files or cluster, read only); callers say what the error stopped.
func (f *planFlags) snapshot(cmd *cobra.Command, c *config.SeedPlanConfiguration) (*model.Snapshot, error) {
	ctx := cmd.Context()
	cluster, err := f.fromCluster(c)
	if err != nil {
		return nil, err
	}
	var landscape *ingest.Landscape
	start := time.Now()
	switch {
	case cluster:
		var garden client.Client
		if garden, err = gardenClient(c); err != nil {
			return nil, err
		}
		landscape, err = ingest.LoadClusterPatiently(ctx, garden, ingest.ListPageSize)
	case len(f.landscape) == 0:
		// Said, because a forgotten flag would otherwise pass the example's answer off as the landscape's.
		slog.InfoContext(ctx, "Reading the embedded example landscape: no --landscape, --kubeconfig or --cluster was given")
		landscape, err = ingest.LoadFS(examples.Landscape, examples.LandscapeDir)
	default:
		landscape, err = interruptible(ctx, func() (*ingest.Landscape, error) { return ingest.LoadPaths(f.landscape) })
	}
	if err != nil {
		return nil, err
	}
	slog.DebugContext(ctx, "landscape loaded", "seconds", time.Since(start).Seconds(), "bytes", landscape.Bytes,
		"seeds", len(landscape.Objects.Seeds), "shoots", len(landscape.Objects.Shoots))
	snap, err := model.NewSnapshot(landscape.Objects)
	if err != nil {
		return nil, err
	}
	warnOf(ctx, landscape, snap)
	return snap, nil
}

// warnOf logs what the load skipped or found lacking, and what is wrong with the landscape that no shoot's
// outcome tells (report.SnapshotWarnings).
func warnOf(ctx context.Context, landscape *ingest.Landscape, snap *model.Snapshot) {
	for _, w := range slices.Concat(landscape.Warnings, report.SnapshotWarnings(snap)) {
		slog.WarnContext(ctx, w)
	}
}

// notLoaded words a landscape that did not load, and what that stopped (" (nothing was scheduled)"), if anything:
// each part of the input refused on its own line, as a configuration's invalid values are.
func notLoaded(stopped string, err error) error {
	return config.EachPrefixed("loading the landscape"+stopped, config.Each(err))
}

// plan loads the landscape (files or cluster, read only) and solves the window of all pending shoots; stopped
// says, in the error of a load that failed, what it stopped (" (nothing was scheduled)"), if anything.
func (f *planFlags) plan(cmd *cobra.Command, c *config.SeedPlanConfiguration, stopped string) (*plan.Outcome, error) {
	policy, err := plan.NewPolicy(c)
	if err != nil {
		return nil, err
	}
	snap, err := f.snapshot(cmd, c)
	if err != nil {
		return nil, notLoaded(stopped, err)
	}
	return plan.Schedule(cmd.Context(), snap, snap.Pending(policy.Options.WithDefaults().SchedulerName), policy)
}

// scheduleOptions are what schedule is given: where the landscape comes from, how to plan, and how to print.
type scheduleOptions struct {
	flags  planFlags
	output report.Output
	dryRun string // dryRunNone, dryRunClient or dryRunServer
}

func newScheduleCommand() *cobra.Command {
	var o scheduleOptions
	cmd := &cobra.Command{
		Use:   "schedule",
		Short: "Plan where every pending shoot goes; in a cluster, bind them (the batch job)",
		Long: "schedule reads a landscape (Seeds, Shoots, CloudProfiles, NamespacedCloudProfiles, Projects and region-config " +
			"ConfigMaps, as `kubectl get -o yaml` prints them), places every pending shoot and prints the plan. " +
			"Without --landscape it plans the embedded example landscape. With --kubeconfig or --cluster it reads the garden " +
			"cluster instead and binds every placement through the Shoot binding subresource (unless --dry-run), writes " +
			"the gardener-scheduler's events and lastOperation, and exits non-zero only on real errors.",
		Args:   noArguments,
		PreRun: plansOnce,
		RunE:   o.run,
	}
	o.addFlags(cmd)
	return cmd
}

// addFlags registers schedule's flags.
func (o *scheduleOptions) addFlags(cmd *cobra.Command) {
	o.flags.register(cmd, true, "read it, and bind in it unless --dry-run")
	o.flags.registerSolver(cmd, "solver", "solver-timeout", "weights", "target-utilization")
	registerOutput(cmd, &o.output, report.Formats())
	registerPage(cmd, &o.output)
	registerDryRun(cmd, &o.dryRun, []string{dryRunClient, dryRunServer},
		"read the cluster and print the plan without writing anything; server also sends each placement's binding as a server-side dry run, which the API server admits or refuses (bindings: admitted, refused, ...), as apply -f --dry-run does a reviewed plan's", "")
	o.flags.registerPushgateway(cmd, "the job's metrics (not on --dry-run: it would replace the real job's metrics)")
}

// run plans every pending shoot and prints the plan: of the landscape's files, or of the garden, binding the
// placements there unless --dry-run.
func (o *scheduleOptions) run(cmd *cobra.Command, _ []string) error {
	if err := o.output.Check(report.Formats()); err != nil {
		return err
	}
	c, err := o.flags.configuration(cmd)
	if err != nil {
		return err
	}
	inCluster, err := o.flags.fromCluster(c)
	if err != nil {
		return err
	}
	if !inCluster {
		return o.runOffline(cmd, c)
	}
	switch o.dryRun {
	case dryRunNone:
		err = announceGarden(cmd, c, announcement{what: "Binding shoots"})
	case dryRunServer:
		err = announceGarden(cmd, c, announcement{what: "Sending the placements' bindings as server-side dry runs (nothing is stored)"})
	}
	if err != nil {
		return err
	}
	report, err := scheduleCluster(cmd.Context(), c, o.dryRun != dryRunNone)
	if err == nil && o.dryRun == dryRunServer {
		err = admitPlacements(cmd.Context(), c, report)
	}
	if report != nil {
		if printErr := printReport(cmd, o.output, report); printErr != nil && err == nil {
			err = printErr
		}
	}
	return err
}

// runOffline plans the landscape's files, which nothing is written to.
func (o *scheduleOptions) runOffline(cmd *cobra.Command, c *config.SeedPlanConfiguration) error {
	if o.dryRun != dryRunNone || o.flags.pushgateway != "" {
		return errors.New("--dry-run and --pushgateway need a cluster (--kubeconfig or --cluster)")
	}
	outcome, err := o.flags.plan(cmd, c, " (nothing was scheduled)")
	if err != nil {
		return err
	}
	return printReport(cmd, o.output, report.NewReport(outcome))
}

// printed is a command's answer: printed in an output format, and able to say what -o name leaves out.
type printed interface {
	Print(w io.Writer, out report.Output) error
	NameWarning() string
}

// printReport prints the answer to standard output and, for -o name, says on standard error what the names leave
// out — why there are none, as kubectl says "No resources found", or capacity's new seeds no set provides: a script
// reading the names would otherwise act on less than the answer without a word.
func printReport(cmd *cobra.Command, out report.Output, answer printed) error {
	if why := answer.NameWarning(); why != "" && out.Format == "name" {
		slog.WarnContext(cmd.Context(), why)
	}
	return answer.Print(cmd.OutOrStdout(), out)
}

// scheduleCluster is the batch job against a garden cluster.
func scheduleCluster(ctx context.Context, c *config.SeedPlanConfiguration, dryRun bool) (*report.Report, error) {
	garden, err := gardenClient(c)
	if err != nil {
		return nil, err
	}
	policy, err := plan.NewPolicy(c)
	if err != nil {
		return nil, err
	}
	jobMetrics := metrics.NewMetrics(false)
	scheduler := &cluster.Scheduler{
		Reader: garden, PageSize: ingest.ListPageSize,
		Binder:  binderOf(c, garden),
		Metrics: jobMetrics, Policy: policy, DryRun: dryRun,
	}
	report, err := scheduler.RunJob(ctx, c.Bind.Rounds)
	if dryRun {
		if c.Metrics.Pushgateway != "" {
			slog.InfoContext(ctx, "Dry run: the job's metrics are not pushed, they would replace the real job's", "pushgateway", c.Metrics.Pushgateway)
		}
		return report, err
	}
	if pushErr := push(ctx, c, jobMetrics); pushErr != nil {
		err = errors.Join(err, pushErr)
	}
	return report, err
}

// admitPlacements sends the placements of a plan made from the garden as server-side dry runs of their bindings,
// each checked first against a fresh read as apply -f checks a reviewed plan's (cluster.Reviewed), and records in
// the report what became of them: admitted by the API server, refused with its reason (logged), or skipped.
func admitPlacements(ctx context.Context, c *config.SeedPlanConfiguration, r *report.Report) error {
	garden, binder, policy, err := gardenWriter(c, true)
	if err != nil {
		return err
	}
	reviewer := &cluster.Reviewed{Reader: garden, PageSize: ingest.ListPageSize, Binder: binder, Options: policy.Options}
	results, err := reviewer.Apply(ctx, r.Placements)
	r.Bindings = bind.Summarize(results)
	return err
}

// gardenWriter is what applies a plan to the configured garden: its client, the Binder (sending dry runs only,
// with dryRun) and the policy the plan is checked under again.
func gardenWriter(c *config.SeedPlanConfiguration, dryRun bool) (client.Client, *bind.Binder, plan.Policy, error) {
	garden, err := gardenClient(c)
	if err != nil {
		return nil, nil, plan.Policy{}, err
	}
	policy, err := plan.NewPolicy(c)
	if err != nil {
		return nil, nil, plan.Policy{}, err
	}
	binder := binderOf(c, garden)
	binder.DryRun = dryRun
	return garden, binder, policy, nil
}

func newRunCommand() *cobra.Command {
	var (
		flags  planFlags
		dryRun string
	)
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Loop mode: plan and bind windows of pending shoots as they come, with leader election, /healthz and /metrics",
		Args:  noArguments,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := flags.configuration(cmd)
			if err != nil {
				return err
			}
			cfg, err := ingest.RESTConfig(ingest.ClientOptionsOf(c.Client))
			if err != nil {
				return err
			}
			doing := announcement{what: "Binding shoots as they come"}
			if dryRun != dryRunNone {
				doing.what = "Planning shoots as they come, binding none (dry run: a shadow of the scheduler that binds them)"
			}
			if err := announceGarden(cmd, c, doing); err != nil {
				return err
			}
			loop := &cluster.Loop{Config: c, REST: cfg, Identity: instanceIdentity(), DryRun: dryRun != dryRunNone}
			return loop.Run(cmd.Context())
		},
	}
	flags.register(cmd, false, "watch it and bind in it")
	registerDryRun(cmd, &dryRun, []string{dryRunClient},
		"a shadow: plan windows as shoots come and write nothing (no binding, event, lastOperation or Lease: every replica plans), comparing each decision with the seed another scheduler then binds the shoot to (seedplan_shadow_bindings_total; another seed by distance and utilization, seedplan_shadow_other_seed_total; and a log line each)",
		"run seedplan schedule --dry-run=server, which sends the bindings of one plan as server-side dry runs")
	cmd.Flags().Lookup("request-timeout").Usage = requestTimeoutUsage("the garden's", "; it does not bound the loop's watches")
	flags.registerSolver(cmd, "solver", "solver-timeout", "weights", "target-utilization")
	return cmd
}

// instanceIdentity names this replica of the loop in its logs, its events and the leader Lease: the host (the
// pod's name) and a UUID, unique even for two processes on one host, as controller-runtime names a Lease holder.
func instanceIdentity() string {
	host, err := os.Hostname()
	if err != nil {
		host = "seedplan"
	}
	return host + "_" + string(uuid.NewUUID())
}

// shootKey is the shoot explain is given as NAMESPACE/NAME: given so, as -o name prints it (shoot/NAMESPACE/NAME),
// or as NAME or TYPE/NAME with -n NAMESPACE, as kubectl takes it (TYPE: shoot, shoots or either's full name).
func shootKey(arg, namespace string) (string, error) {
	if namespace != "" {
		if err := checkNamespace(namespace); err != nil {
			return "", err
		}
	}
	key := withoutType(arg, "shoot")
	switch {
	case namespace != "" && strings.Contains(key, "/"):
		return "", fmt.Errorf("%q: with --namespace %s, the shoot must be given as NAME", arg, namespace)
	case namespace != "":
		key = namespace + "/" + key
	case !strings.Contains(key, "/"):
		return "", fmt.Errorf("%q: the shoot must be given as NAMESPACE/NAME, or as NAME with -n NAMESPACE", arg)
	}
	return key, model.CheckShootKey(key)
}

// checkNamespace refuses a namespace that is no namespace's name, as --namespace.
func checkNamespace(namespace string) error {
	if problems := validation.IsDNS1123Label(namespace); len(problems) > 0 {
		return fmt.Errorf("--namespace %q: not a namespace's name: %s", namespace, strings.Join(problems, "; "))
	}
	return nil
}

// explainEach explains each shoot of the outcome's window, narrowed to the seed when one is given: the
// explanations of the shoots that have one, in their order, and why the others have none, each on its own line,
// as kubectl's get of several names prints the objects it finds and says which it did not. One plan explains them
// all: a garden is read once, where explain per shoot read it for each.
func explainEach(outcome *plan.Outcome, shoots []string, seed string) (report.Explanations, error) {
	var (
		explanations report.Explanations
		errs         []error
		seedErr      error
	)
	if seed != "" {
		seedErr = report.CheckSeed(outcome, seedName(seed))
	}
	for _, shoot := range shoots {
		explanation, err := report.NewExplanation(outcome, shoot)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if seed != "" {
			explanation.Focus(seedName(seed))
		}
		explanations = append(explanations, explanation)
	}
	if seedErr != nil { // the same seed for every shoot: nothing is printed, every error is said
		return nil, errors.Join(append([]error{fmt.Errorf("--seed: %w", seedErr)}, errs...)...)
	}
	return explanations, errors.Join(errs...)
}

// explainOptions are what explain is given: the planning inputs, the shoots' namespace (-n), the seed to show
// alone (--seed) and the output.
type explainOptions struct {
	flags     planFlags
	output    report.Output
	seed      string
	namespace string
}

func newExplainCommand() *cobra.Command {
	var o explainOptions
	cmd := &cobra.Command{
		Use:    "explain NAMESPACE/NAME... | -n NAMESPACE [NAME...]",
		Short:  "Explain the decision for pending shoots: why this seed, why not the others",
		Args:   cobra.ArbitraryArgs, // none only with a namespace, which asked knows
		PreRun: plansOnce,
		RunE:   o.run,
	}
	o.flags.register(cmd, true, "read it")
	o.flags.registerSolver(cmd, "solver", "solver-timeout", "weights", "target-utilization")
	registerOutput(cmd, &o.output, report.Formats())
	cmd.Flags().StringVar(&o.seed, "seed", "", "show only this seed's verdict, given as NAME or seed/NAME (the summary still counts every seed)")
	cmd.Flags().StringVarP(&o.namespace, "namespace", "n", "", "the namespace of the shoots given as NAME, and without any, whose pending shoots to explain, as kubectl takes it (reading a garden, the kubeconfig context's namespace by default)")
	cmd.ValidArgsFunction = o.completeShoots
	_ = cmd.RegisterFlagCompletionFunc("seed", o.flags.completeSeeds)
	_ = cmd.RegisterFlagCompletionFunc("namespace", o.flags.completeShootNamespaces)
	return cmd
}

// run explains the shoots asked for, or every pending shoot of the namespace, from one plan.
func (o *explainOptions) run(cmd *cobra.Command, args []string) error {
	if err := report.CheckFormat(o.output.Format, report.Formats()); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	c, err := o.flags.configuration(cmd)
	if err != nil {
		return err
	}
	shoots, every, err := o.asked(cmd, c, args)
	if err != nil {
		return err
	}
	outcome, err := o.flags.plan(cmd, c, "") // explain schedules nothing
	if err != nil {
		return err
	}
	if every != "" {
		if shoots = pendingIn(outcome, every); len(shoots) == 0 {
			// As kubectl says "No resources found in NAMESPACE namespace.": on standard error, not an error.
			slog.WarnContext(cmd.Context(), fmt.Sprintf("No shoot of namespace %s is pending for scheduler %q", every, c.SchedulerName))
		}
	}
	explanations, err := explainEach(outcome, shoots, o.seed)
	var answer printed = explanations
	switch {
	case len(args) == 1 && len(explanations) == 1:
		answer = explanations[0] // one object, not a List of one, as kubectl prints one name's
	case len(explanations) == 0 && (every == "" || err != nil):
		return err // an empty List only for a namespace with no pending shoot
	}
	return errors.Join(printReport(cmd, o.output, answer), err)
}

// asked are the shoots explain is asked for, as NAMESPACE/NAME: given so, or as NAME in the namespace of
// nameNamespace. Given none, every is the namespace whose pending shoots are asked for, as kubectl describe takes a
// namespace without names; without one that is an error.
func (o *explainOptions) asked(cmd *cobra.Command, c *config.SeedPlanConfiguration, args []string) (shoots []string, every string, err error) {
	bare := func(arg string) bool { return !strings.Contains(withoutType(arg, "shoot"), "/") }
	namespace, from := o.namespace, ""
	if len(args) == 0 || slices.ContainsFunc(args, bare) {
		if namespace, from, err = o.nameNamespace(c); err != nil {
			return nil, "", err
		}
	}
	if len(args) == 0 {
		if namespace == "" {
			return nil, "", seeHelp(cmd, errors.New("explain takes one or more shoots, NAMESPACE/NAME or NAME with -n, or -n NAMESPACE alone for all its pending shoots; given none"+parenthesized(from)))
		}
		if err := checkNamespace(namespace); err != nil {
			return nil, "", fmt.Errorf("%w%s", err, parenthesized(from))
		}
		return nil, namespace, nil
	}
	for _, arg := range args {
		in, why := o.namespace, "" // NAMESPACE/NAME with -n is refused by shootKey
		if bare(arg) {
			in, why = namespace, parenthesized(from)
		}
		key, err := shootKey(arg, in)
		if err != nil {
			return nil, "", fmt.Errorf("%w%s", err, why)
		}
		shoots = append(shoots, key)
	}
	return shoots, "", nil
}

// nameNamespace is the namespace of a shoot given as NAME, as kubectl takes a name: -n's or, in a garden, the
// kubeconfig context's; from says when it is the context's, or that the context sets none.
func (o *explainOptions) nameNamespace(c *config.SeedPlanConfiguration) (namespace, from string, err error) {
	if o.namespace != "" {
		return o.namespace, "", nil
	}
	cluster, err := o.flags.fromCluster(c)
	if err != nil || !cluster {
		return "", "", err
	}
	if namespace, err = ingest.ContextNamespace(ingest.ClientOptionsOf(c.Client)); err != nil {
		return "", "", err
	}
	if namespace == "" {
		return "", "the kubeconfig context sets no namespace", nil
	}
	return namespace, "the kubeconfig context's namespace", nil
}

// completeShoots completes an argument with the shoots pending for the configured scheduler that are not given
// yet: as NAME in the namespace a NAME is taken in (nameNamespace), as kubectl completes a name, else as
// NAMESPACE/NAME.
func (o *explainOptions) completeShoots(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	snap, c, ok := o.flags.completionSnapshot(cmd)
	if !ok {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	namespace, _, err := o.nameNamespace(c)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	given := map[string]bool{}
	for _, arg := range args {
		key := withoutType(arg, "shoot")
		if !strings.Contains(key, "/") {
			key = namespace + "/" + key
		}
		given[key] = true
	}
	var names []string
	for _, shoot := range snap.Pending(c.SchedulerName) {
		switch key := model.ShootKey(shoot); {
		case given[key]:
		case namespace == "":
			names = append(names, key)
		case shoot.Namespace == namespace:
			names = append(names, shoot.Name)
		}
	}
	return matching(names, toComplete), cobra.ShellCompDirectiveNoFileComp
}

// parenthesized is why in parentheses after a space, or nothing when there is no why.
func parenthesized(why string) string {
	if why == "" {
		return ""
	}
	return " (" + why + ")"
}

// pendingIn are the window's shoots of the namespace, by name, as kubectl lists a namespace's objects.
func pendingIn(outcome *plan.Outcome, namespace string) []string {
	var keys []string
	for _, shoot := range outcome.Window.Shoots {
		if shoot.Namespace == namespace {
			keys = append(keys, model.ShootKey(shoot))
		}
	}
	slices.Sort(keys)
	return keys
}
