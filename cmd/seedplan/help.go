package main

import (
	"slices"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/seedplan/seedplan/bench"
	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// examples are each command's help examples, by command name.
func commandExamples() map[string]string {
	return map[string]string{
		"schedule": `  # Plan the embedded example landscape and show every placement and why shoots stay unplaced
  seedplan schedule -o wide

  # Plan your own landscape (files as kubectl get -o yaml prints them, or - for standard input)
  kubectl get seeds,shoots,cloudprofiles,projects -A -o yaml | seedplan schedule --landscape -

  # The batch job: read the garden, bind every placement, push metrics
  seedplan schedule --kubeconfig garden.yaml --pushgateway http://pushgateway:9091

  # Review first, then bind exactly the reviewed plan
  seedplan schedule --kubeconfig garden.yaml --dry-run -o json > plan.json
  seedplan apply -f plan.json --yes

  # Would the garden admit the job's bindings (its RBAC included)? Each is sent as a dry run; nothing is stored
  seedplan schedule --kubeconfig garden.yaml --dry-run=server

  # Each placement as a line for a script (the JSON form's fields, as kubectl's -o jsonpath selects them)
  seedplan schedule -o jsonpath='{range .placements[*]}{.shoot}{"\t"}{.seed}{"\n"}{end}'`,
		"explain": `  # Why this seed, why not the others
  seedplan explain garden-dev/web

  # One seed only, and the decision as data (the shoot given as kubectl takes it)
  seedplan explain -n garden-dev web --seed aws-eu-west-1-1 -o json

  # Every pending shoot of a project's namespace, as kubectl describe takes a namespace
  seedplan explain -n garden-dev

  # Explain every shoot schedule places (one plan for them all)
  seedplan schedule -o name | xargs seedplan explain`,
		"rebalance": `  # The fewest moves off overloaded, tainted and unhealthy seeds
  seedplan rebalance --kubeconfig garden.yaml

  # Drain a seed: review the moves, then make them, paced, in maintenance windows
  seedplan rebalance --kubeconfig garden.yaml --drain aws-eu-west-1-2 -o json > moves.json
  seedplan apply -f moves.json --yes`,
		"capacity": `  # New seeds per provider and region every pending shoot needs at the 0.8 target
  seedplan capacity --kubeconfig garden.yaml

  # Only the count, and whether it is proven minimal
  seedplan capacity --kubeconfig garden.yaml -o jsonpath='{.newSeeds} {.optimal}{"\n"}'

  # For a seed autoscaler: push the answer to a Pushgateway
  seedplan capacity --cluster --pushgateway http://pushgateway:9091 -o json`,
		"run": `  # The loop, as the Deployment in examples/deploy runs it
  seedplan run --cluster --config /etc/seedplan/config.yaml`,
		"apply": `  # What binding a reviewed plan would do now: each placement checked, its binding sent as a dry run
  seedplan apply -f plan.json --dry-run

  # Bind exactly the placements of a reviewed plan
  seedplan apply -f plan.json --yes

  # Bind a reviewed plan but for its placements on one seed
  jq 'del(.placements[] | select(.seed == "aws-eu-west-1-2"))' plan.json | seedplan apply -f - --yes

  # Make exactly the reviewed moves, paced
  seedplan apply -f moves.json --yes --max-in-flight 2`,
		"cordon": `  # See what closing two seeds would change, without storing it
  seedplan cordon aws-eu-west-1-2 aws-eu-west-1-3 --kubeconfig garden.yaml --dry-run

  # Close a seed to new shoots (every scheduler honours it)
  seedplan cordon aws-eu-west-1-2 --kubeconfig garden.yaml

  # Close every seed with a label, as kubectl cordon -l does
  seedplan cordon -l environment=staging --kubeconfig garden.yaml`,
		"uncordon": `  # Open it again
  seedplan uncordon aws-eu-west-1-2 --kubeconfig garden.yaml`,
		"generate": `  # A landscape of 500 seeds and 10,000 pending shoots under contention, as files
  seedplan generate --seeds 500 --shoots 10000 --existing 5000 --contention 1.0 --dir /tmp/big

  # Straight into the planner
  seedplan generate --seeds 40 --shoots 400 | seedplan schedule --landscape -`,
		"bench": `  # LP against greedy on the standard scenarios: tables, CSV, JSON and plots
  seedplan bench --suite standard --out bench/results

  # One scenario at two sizes
  seedplan bench --scenario contention-1.0 --sizes 1000x50,10000x500`,
		"version": `  seedplan version
  seedplan version -o json`,
	}
}

// addExamples gives every command its examples.
func addExamples(root *cobra.Command) {
	byName := commandExamples()
	for _, cmd := range root.Commands() {
		cmd.Example = byName[cmd.Name()]
	}
}

// flagValues are the values a flag takes, completed on every command that has the flag.
func flagValues() map[string][]string {
	return map[string][]string{
		"strategy": {string(model.SameRegion), string(model.MinimalDistance)},
		"solver":   {config.SolverLP, config.SolverGreedy},
		"weights":  {config.WeightsCompat, config.WeightsBalanced},
		"triggers": triggerNames(),
		"mix":      {"realistic", "stress"},
		"suite":    {"standard"},
		"scenario": bench.ScenarioNames(),
	}
}

// triggerNames are the rebalance triggers' names.
func triggerNames() []string {
	var names []string
	for _, t := range model.AllTriggers() {
		names = append(names, string(t))
	}
	return names
}

// outputFormats are each command's -o formats.
func outputFormats() map[string][]string {
	return map[string][]string{
		"schedule": report.Formats(), "rebalance": report.Formats(), "explain": report.Formats(),
		"capacity": report.Formats(), "apply": report.Formats(), "generate": generator.Formats(),
		"version": versionFormats(),
	}
}

// completeFlagValues completes the values of every flag that takes one of a fixed set.
func completeFlagValues(root *cobra.Command) {
	values, formats := flagValues(), outputFormats()
	for _, cmd := range root.Commands() {
		for flag, vals := range values {
			if cmd.Flags().Lookup(flag) != nil {
				_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(vals, cobra.ShellCompDirectiveNoFileComp))
			}
		}
		if f, ok := formats[cmd.Name()]; ok && cmd.Flags().Lookup("output") != nil {
			_ = cmd.RegisterFlagCompletionFunc("output", completeFormats(f))
		}
	}
}

// completeFormats completes an output format; one that takes a value, as jsonpath=TEMPLATE, up to its "=", and
// without the space after it when it is the one match, so that the value follows.
func completeFormats(formats []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		names := make([]string, len(formats))
		for i, format := range formats {
			if name, _, ok := strings.Cut(format, "="); ok {
				format = name + "="
			}
			names[i] = format
		}
		matches := matching(names, toComplete)
		if len(matches) == 1 && strings.HasSuffix(matches[0], "=") {
			return matches, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
		}
		return matches, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeSeeds completes seed names from the landscape the flags given so far name (files, or the garden).
func (f *planFlags) completeSeeds(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return f.completeSeedsBut(nil)(cmd, nil, toComplete)
}

// completeSeedsBut completes seed names as completeSeeds does, but for those given already (NAME or seed/NAME) in
// the repeatable flag whose values given returns.
func (f *planFlags) completeSeedsBut(given func() []string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		snap, _, ok := f.completionSnapshot(cmd)
		if !ok {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var taken []string
		if given != nil {
			taken = given()
		}
		names := make([]string, 0, len(snap.Seeds))
		for _, seed := range snap.Seeds {
			if !slices.ContainsFunc(taken, func(g string) bool { return seedName(g) == seed.Name }) {
				names = append(names, seed.Name)
			}
		}
		return matching(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeGardenSeeds completes the names of the garden cluster's seeds (cordon and uncordon only write to one)
// that the command would change: those whose visibility is visible, and not given already.
func (f *planFlags) completeGardenSeeds(visible bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, given []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		c, err := f.completionConfiguration(cmd)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		garden, err := gardenClient(c)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var seeds gardencorev1beta1.SeedList
		if err := garden.List(cmd.Context(), &seeds); err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var names []string
		for _, seed := range seeds.Items {
			if model.SchedulingVisible(&seed) == visible && !slices.ContainsFunc(given, func(g string) bool { return seedName(g) == seed.Name }) {
				names = append(names, seed.Name)
			}
		}
		return matching(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeShootNamespaces completes --namespace with the namespaces of the shoots pending for the configured
// scheduler.
func (f *planFlags) completeShootNamespaces(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	snap, c, ok := f.completionSnapshot(cmd)
	if !ok {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var namespaces []string
	for _, shoot := range snap.Pending(c.SchedulerName) {
		namespaces = append(namespaces, shoot.Namespace)
	}
	slices.Sort(namespaces)
	return matching(slices.Compact(namespaces), toComplete), cobra.ShellCompDirectiveNoFileComp
}

// completionSnapshot loads the landscape for a completion, and is the configuration it was loaded with; a
// completion that cannot load it offers nothing.
func (f *planFlags) completionSnapshot(cmd *cobra.Command) (*model.Snapshot, *config.SeedPlanConfiguration, bool) {
	c, err := f.completionConfiguration(cmd)
	if err != nil {
		return nil, nil, false
	}
	snap, err := f.snapshot(cmd, c)
	if err != nil {
		return nil, nil, false
	}
	return snap, c, true
}

// completionConfiguration is the configuration the flags typed so far make, for a completion: every completion
// reads its flags through it.
func (f *planFlags) completionConfiguration(cmd *cobra.Command) (*config.SeedPlanConfiguration, error) {
	parsedOnce(cmd)
	return f.configuration(cmd)
}

// parsedOnce undoes, for a completion, cobra's parsing the command line twice (v1.10.2's getCompletions parses
// it once to count its arguments, then again): a repeatable flag then holds what it was given twice over, and
// --landscape DIR would be refused as DIR given twice. A flag whose values are two equal halves keeps one.
func parsedOnce(cmd *cobra.Command) {
	cmd.Flags().Visit(func(flag *pflag.Flag) {
		value := flag.Value
		if wrapped, ok := value.(nonEmpty); ok {
			value = wrapped.Value
		}
		slice, ok := value.(pflag.SliceValue)
		if !ok {
			return
		}
		values := slice.GetSlice()
		if half := len(values) / 2; len(values)%2 == 0 && slices.Equal(values[:half], values[half:]) {
			_ = slice.Replace(values[:half]) // a string slice's Replace cannot fail
		}
	})
}

// matching are the names that start with what is being completed.
func matching(names []string, toComplete string) []cobra.Completion {
	var out []cobra.Completion
	for _, name := range names {
		if strings.HasPrefix(name, toComplete) {
			out = append(out, name)
		}
	}
	return out
}
