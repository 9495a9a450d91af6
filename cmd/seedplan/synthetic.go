package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/seedplan/seedplan/bench"
	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// generateOptions are what generate is given: the landscape's size and mix, and where and how to write it.
type generateOptions struct {
	cfg           generator.Config
	mix           string
	providers     []string
	dir, output   string
	crossProvider bool
	distinct      bool
}

func newGenerateCommand() *cobra.Command {
	var o generateOptions
	cmd := &cobra.Command{
		Use:   "generate [--dir DIR]",
		Short: "Write a synthetic landscape as kubectl-style Lists: to standard output, or one file per kind into --dir",
		Args:  noArguments,
		RunE:  o.run,
	}
	o.addFlags(cmd)
	return cmd
}

// addFlags registers generate's flags.
func (o *generateOptions) addFlags(cmd *cobra.Command) {
	cmd.Flags().IntVar(&o.cfg.Seeds, "seeds", 40, "number of seeds")
	cmd.Flags().IntVar(&o.cfg.Shoots, "shoots", 400, "number of pending shoots")
	cmd.Flags().IntVar(&o.cfg.Existing, "existing", 0, "number of shoots already bound to seeds")
	cmd.Flags().Float64Var(&o.cfg.Contention, "contention", 0, "pending demand / free capacity (0: ample capacity)")
	cmd.Flags().Uint64Var(&o.cfg.Seed, "seed", 1, "random seed; the same seed gives the same landscape")
	cmd.Flags().StringVar(&o.mix, "mix", "realistic", "feature mix: realistic or stress")
	cmd.Flags().StringSliceVar(&o.providers, "providers", nil, "providers (default aws,gcp,azure,openstack,alicloud)")
	cmd.Flags().BoolVar(&o.crossProvider, "cross-provider", false, `let the aws cloud profile admit seeds of every provider (providerTypes: ["*"])`)
	cmd.Flags().BoolVar(&o.distinct, "distinct", false, "give every pending shoot a seed selector expression and a toleration of its own that change no outcome")
	cmd.Flags().StringVar(&o.dir, "dir", "", "write one file per kind into this directory instead of one stream to standard output")
	cmd.Flags().StringVarP(&o.output, "output", "o", "yaml", "output format: "+strings.Join(generator.Formats(), ", "))
}

// run generates the landscape and writes it to standard output or, with --dir, one file per kind.
func (o *generateOptions) run(cmd *cobra.Command, _ []string) error {
	cfg, err := o.config()
	if err != nil {
		return err
	}
	objs, err := generator.Generate(cfg)
	if configErr := (*generator.ConfigError)(nil); errors.As(err, &configErr) {
		return flagError(configErr.Field, configErr.Value, configErr.Problem)
	}
	if err != nil {
		return err
	}
	if o.dir == "" {
		return generator.Encode(cmd.OutOrStdout(), objs, o.output)
	}
	written, err := generator.Write(o.dir, objs, o.output)
	if err != nil {
		return err
	}
	slog.InfoContext(cmd.Context(), "landscape written", "dir", o.dir, "seeds", len(objs.Seeds), "shoots", len(objs.Shoots))
	warnOfOtherManifests(cmd.Context(), o.dir, written)
	return nil
}

// warnOfOtherManifests warns when dir holds manifests generate did not just write — a landscape of the other
// format, an operator's own files — which seedplan --landscape DIR would read with the one written: the same
// objects twice are refused as duplicates, other objects join the landscape unnoticed. A directory it cannot walk
// is warned of too: the landscape is written, and reading it back would fail the same way.
func warnOfOtherManifests(ctx context.Context, dir string, written []string) {
	files, err := ingest.ManifestFiles(os.DirFS(dir), ".")
	if err != nil {
		slog.WarnContext(ctx, "The directory written to cannot be read whole, as seedplan --landscape reads it", "dir", dir, "error", err)
	}
	if others := slices.DeleteFunc(files, func(f string) bool { return slices.Contains(written, f) }); len(others) > 0 {
		slog.WarnContext(ctx, report.OtherManifestsWarning(dir, others))
	}
}

// config is the generator's configuration the flags ask for; the generator checks the numbers itself.
func (o *generateOptions) config() (generator.Config, error) {
	cfg := o.cfg
	switch o.mix {
	case "realistic":
		cfg.Mix = generator.RealisticMix()
	case "stress":
		cfg.Mix = generator.StressMix()
	default:
		return cfg, fmt.Errorf("--mix: unknown mix %q (realistic or stress)", o.mix)
	}
	if err := report.CheckFormat(o.output, generator.Formats()); err != nil {
		return cfg, fmt.Errorf("-o: %w", err)
	}
	cfg.Providers = o.providers
	cfg.Mix.CrossProvider, cfg.Mix.Distinct = o.crossProvider, o.distinct
	return cfg, nil
}

// benchOptions are what bench is given: what to benchmark, how often and how, and where to write the results.
type benchOptions struct {
	scenarios, sizes, landscape []string
	suite, out, strategy        string
	repeats                     int
	seed                        uint64
	timeout                     time.Duration
	quiet                       bool
}

func newBenchCommand() *cobra.Command {
	var o benchOptions
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Compare the LP with the gardener-scheduler's greedy rule on generated scenarios: quality and speed",
		Long: "bench plans each window scenario at each size with greedy, the LP and the LP with a 1 ms budget (to " +
			"exercise the fallback), and each rebalancing scenario (size SHOOTSxSEEDS: shoots placed before the " +
			"disturbance) with the LP and a naive descheduler, repeatedly, and prints tables; with --out it also writes " +
			"results.csv/json, rebalance.csv/json and PNG plots. Scenarios: " + strings.Join(bench.ScenarioNames(), ", ") +
			" (by default the window scenarios).",
		Args: noArguments,
		RunE: o.run,
	}
	o.addFlags(cmd)
	return cmd
}

// addFlags registers bench's flags.
func (o *benchOptions) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringSliceVar(&o.scenarios, "scenario", nil, "scenarios to run (default: the window scenarios)")
	cmd.Flags().StringSliceVar(&o.sizes, "sizes", []string{"1000x200"}, "sizes PENDINGxSEEDS (rebalancing scenarios: shoots placed before the disturbance x seeds)")
	cmd.Flags().StringVar(&o.suite, "suite", "", "run a predefined suite instead: standard (what make bench runs)")
	cmd.Flags().StringSliceVar(&o.landscape, "landscape", nil, "bench this landscape instead of generated scenarios")
	cmd.Flags().StringVar(&o.strategy, "strategy", string(model.SameRegion), "strategy for --landscape")
	cmd.Flags().IntVar(&o.repeats, "repeats", 3, "how often each window is planned (time percentiles are over repeats)")
	cmd.Flags().Uint64Var(&o.seed, "seed", 1, "random seed of the generated landscapes")
	cmd.Flags().DurationVar(&o.timeout, "solver-timeout", 2*time.Second, "time budget of the lp solver")
	cmd.Flags().StringVar(&o.out, "out", "", "directory for results.csv/json, rebalance.csv/json and the plots")
	cmd.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "no progress on standard error (by default a bar on a terminal, a line every 10 s otherwise)")
}

// run benchmarks what the flags ask for and prints (and with --out writes) the results, those finished before an
// interrupt too.
func (o *benchOptions) run(cmd *cobra.Command, _ []string) error {
	if err := o.exclusive(cmd.Flags()); err != nil {
		return err
	}
	cfg, err := o.config(cmd.Context())
	if err != nil {
		return err
	}
	if o.out != "" {
		// Before the benchmark, which may run for many minutes, rather than after it.
		if err := os.MkdirAll(o.out, 0o755); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	finish := o.progress(&cfg)
	results, err := bench.Run(cmd.Context(), cfg)
	finish() // before the table or the error is printed
	if results == nil {
		return err
	}
	if writeErr := writeBench(cmd, results, o.out); writeErr != nil {
		return errors.Join(err, writeErr)
	}
	return err
}

// exclusive refuses the flags the chosen kind of benchmark would leave unused: a landscape's window has no
// scenarios, sizes or generator seed, the standard suite has its own scenarios and sizes, and generated scenarios
// have their own strategies.
func (o *benchOptions) exclusive(flags *pflag.FlagSet) error {
	var errs []error
	refuse := func(with string, names ...string) {
		for _, name := range names {
			if flags.Changed(name) {
				errs = append(errs, fmt.Errorf("--%s: not with %s", name, with))
			}
		}
	}
	switch {
	case len(o.landscape) > 0:
		refuse("--landscape, which benchmarks that landscape's window", "suite", "scenario", "sizes", "seed")
	case o.suite != "":
		refuse("--suite, which runs its own scenarios at its own sizes", "scenario", "sizes", "strategy")
	default:
		refuse("generated scenarios, which have their own strategies (it is --landscape's)", "strategy")
	}
	return errors.Join(errs...)
}

// config is the benchmark the flags ask for: a landscape's window, the standard suite, or scenarios at sizes.
// Every flag is checked before a landscape is loaded.
func (o *benchOptions) config(ctx context.Context) (bench.Config, error) {
	cfg := bench.Config{Repeats: o.repeats, Seed: o.seed, Timeout: o.timeout}
	if o.repeats < 1 {
		return cfg, flagError("repeats", o.repeats, "must be at least 1")
	}
	if o.timeout <= 0 {
		return cfg, flagError("solver-timeout", o.timeout, "must be positive")
	}
	switch {
	case len(o.landscape) > 0:
		strategy, err := model.ParseStrategy(o.strategy)
		if err != nil {
			return cfg, flagError("strategy", o.strategy, fmt.Sprintf("must be %s or %s", model.SameRegion, model.MinimalDistance))
		}
		l, err := interruptible(ctx, func() (*ingest.Landscape, error) { return ingest.LoadPaths(o.landscape) })
		if err != nil {
			return cfg, notLoaded("", err)
		}
		cfg.Landscape, cfg.Strategy = &l.Objects, strategy
	case o.suite == "standard":
		cfg.Jobs = bench.StandardSuite()
	case o.suite != "":
		return cfg, fmt.Errorf("--suite: unknown suite %q (standard)", o.suite)
	default:
		jobs, err := o.jobs()
		if err != nil {
			return cfg, err
		}
		cfg.Jobs = jobs
	}
	return cfg, nil
}

// jobs are the scenarios at the sizes the flags name.
func (o *benchOptions) jobs() ([]bench.Job, error) {
	var sizes []bench.Size
	for _, text := range o.sizes {
		size, err := bench.ParseSize(text)
		if err != nil {
			return nil, fmt.Errorf("--sizes: %w", err)
		}
		sizes = append(sizes, size)
	}
	jobs, err := bench.Jobs(o.scenarios, sizes)
	if err != nil {
		return nil, fmt.Errorf("--scenario: %w", err)
	}
	return jobs, nil
}

// progress makes cfg report its progress on standard error — a bar on a terminal, a log line now and then when
// piped or in CI, nothing with --quiet — and returns what ends the bar.
func (o *benchOptions) progress(cfg *bench.Config) (finish func()) {
	switch {
	case o.quiet:
	case term.IsTerminal(int(os.Stderr.Fd())):
		bar := bench.NewProgressBar(os.Stderr, 2*time.Second)
		cfg.Progress = bar.Update
		return bar.Finish
	default:
		cfg.Progress = bench.NewProgressLog(10 * time.Second).Update
	}
	return func() {}
}

// writeBench writes the bench's table and, with --out, its files and plots.
func writeBench(cmd *cobra.Command, results *bench.Results, out string) error {
	if err := bench.WriteTable(cmd.OutOrStdout(), results); err != nil {
		return err
	}
	if out == "" {
		return nil
	}
	if err := bench.WriteFiles(out, results); err != nil {
		return err
	}
	plots, err := bench.WritePlots(out, results)
	if err != nil {
		return err
	}
	slog.InfoContext(cmd.Context(), "results written", "dir", out, "plots", strings.Join(plots, ", "))
	return nil
}
