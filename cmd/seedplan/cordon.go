package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/report"
)

// cordonOptions are what cordon and uncordon are given: the seeds, by name or by label selector, the garden, and
// whether to stop after the dry run.
type cordonOptions struct {
	flags    planFlags
	selector string
	matching labels.Selector // the selector parsed, by checkArgs
	seeds    []string        // the seeds' names, without kubectl's TYPE/, by checkArgs
	dryRun   string          // dryRunNone or dryRunServer
	// visible is what the command sets spec.settings.scheduling.visible to (false: cordon); verb says it done.
	visible bool
	verb    string
}

// newCordonCommand is `seedplan cordon` (or, !cordon, `uncordon`): Gardener's own switch that closes a seed to new
// shoots (spec.settings.scheduling.visible), which every scheduler honours, seedplan's as the gardener-scheduler.
func newCordonCommand(cordon bool) *cobra.Command {
	o := &cordonOptions{visible: !cordon, verb: "cordoned"}
	use, short := "cordon SEED... | -l SELECTOR", "Close seeds to new shoots: set spec.settings.scheduling.visible to false"
	if !cordon {
		o.verb = "uncordoned"
		use, short = "uncordon SEED... | -l SELECTOR", "Open seeds to new shoots again: set spec.settings.scheduling.visible to true"
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long: short + ". The gardener-scheduler and seedplan alike place no new shoot on an invisible seed; its shoots " +
			"stay where they are (rebalance --drain moves them, and cordons the seed first). The seed is updated under the " +
			"resourceVersion it was read with, so no other change to it is overwritten. Every seed's update is first " +
			"sent as a server-side dry run: a seed the garden does not have, or an update it refuses, fails the command " +
			"before any seed is written; --dry-run stops there.",
		Args: o.checkArgs,
		RunE: o.run,
	}
	cmd.Flags().StringVarP(&o.selector, "selector", "l", "", "the seeds whose labels match this selector (e.g. -l env=prod,provider=aws), instead of names")
	registerDryRun(cmd, &o.dryRun, []string{dryRunServer}, "send each update as a server-side dry run and print what would change; nothing is stored",
		"use --dry-run=server, which writes nothing either: the API server checks each update and stores none")
	cmd.Flags().StringVar(&o.flags.kubeconfig, "kubeconfig", "", "the garden cluster of this kubeconfig: write to it")
	o.flags.registerGarden(cmd)
	o.flags.registerConfig(cmd, "its clientConnection and logging settings; ")
	cmd.ValidArgsFunction = o.flags.completeGardenSeeds(cordon) // cordon offers the visible seeds
	return cmd
}

// checkArgs takes seed names (NAME or TYPE/NAME: seed/NAME as -o name prints it) or a selector that parses, as
// kubectl cordon does.
func (o *cordonOptions) checkArgs(cmd *cobra.Command, seeds []string) error {
	if o.selector != "" {
		if err := operands(0, 0, "seed names or --selector, not both")(cmd, seeds); err != nil {
			return err
		}
		var err error
		if o.matching, err = labels.Parse(o.selector); err != nil {
			return fmt.Errorf("--selector %q: %w", o.selector, err)
		}
		return nil
	}
	if err := operands(1, -1, "one or more seed names, or --selector")(cmd, seeds); err != nil {
		return err
	}
	o.seeds = make([]string, len(seeds))
	for i, seed := range seeds {
		o.seeds[i] = seedName(seed)
	}
	return checkSeedNames(o.seeds)
}

// seedName is the seed's name in arg, given as kubectl takes one: NAME or TYPE/NAME (seed/NAME is what -o name
// prints).
func seedName(arg string) string { return withoutType(arg, "seed") }

// withoutType is arg without the TYPE/ kubectl would read as the Gardener core resource (seed, shoot) before a
// name: the resource singular or plural, short or with its group (shoots.core.gardener.cloud/); arg itself when it
// has none.
func withoutType(arg, resource string) string {
	typ, rest, typed := strings.Cut(arg, "/")
	if typ = strings.TrimSuffix(typ, "."+gardencorev1beta1.GroupName); typed && (typ == resource || typ == resource+"s") {
		return rest
	}
	return arg
}

// run announces the garden and the change, sends every seed's update as a dry run, and then, unless --dry-run,
// makes them.
func (o *cordonOptions) run(cmd *cobra.Command, _ []string) error {
	seeds := o.seeds
	c, err := o.flags.configuration(cmd)
	if err != nil {
		return err
	}
	garden, err := gardenClient(c)
	if err != nil {
		return err
	}
	if o.selector != "" {
		if seeds, err = o.selected(cmd.Context(), garden); err != nil {
			return err
		}
	}
	setting := announcement{what: fmt.Sprintf("Setting spec.settings.scheduling.visible to %v on %s", o.visible, report.Counted(len(seeds), "seed", "seeds"))}
	if o.dryRun == dryRunServer {
		setting.what += " (server dry run: nothing is stored)"
	}
	if err := announceGarden(cmd, c, setting); err != nil {
		return err
	}
	set, err := o.set(cmd.Context(), garden, seeds, true)
	state := o.verb + " (server dry run)"
	switch {
	case err != nil && o.dryRun == dryRunNone:
		return fmt.Errorf("%w\nno seed was %s", err, o.verb)
	case err == nil && o.dryRun == dryRunNone:
		set, err = o.set(cmd.Context(), garden, seeds, false)
		state = o.verb
	}
	for _, seed := range set { // as kubectl cordon prints them
		if seed.changed {
			fmt.Fprintf(cmd.OutOrStdout(), "seed/%s %s\n", seed.name, state)
		} else {
			fmt.Fprintf(cmd.OutOrStdout(), "seed/%s already %s\n", seed.name, state)
		}
	}
	return err
}

// seedSet is a seed whose spec.settings.scheduling.visible was set (or would be, in a dry run), and whether that
// changed it.
type seedSet struct {
	name    string
	changed bool
}

// selected are the names of the garden's seeds the selector matches; none is an error, not a silent nothing. A
// garden that does not answer is asked again, as the seeds' updates are (bind.SetSchedulingVisible).
func (o *cordonOptions) selected(ctx context.Context, garden client.Client) ([]string, error) {
	var seeds gardencorev1beta1.SeedList
	err := ingest.RetryTransient(ctx, ingest.RestartPatience, func() error {
		return garden.List(ctx, &seeds, client.MatchingLabelsSelector{Selector: o.matching})
	})
	if err != nil {
		return nil, fmt.Errorf("listing the seeds of --selector %q: %w", o.selector, err)
	}
	if len(seeds.Items) == 0 {
		return nil, errors.New("--selector " + o.selector + ": no seed of the garden matches")
	}
	names := make([]string, len(seeds.Items))
	for i, seed := range seeds.Items {
		names[i] = seed.Name
	}
	return names, nil
}

// set sets the seeds' spec.settings.scheduling.visible in turn, or with dryRun only sends the updates as a dry run:
// the seeds set, and why the others were not. The updates stop at the first that fails; the dry run goes on, so
// that every seed the garden lacks or refuses is named before a seed is written.
func (o *cordonOptions) set(ctx context.Context, garden client.Client, seeds []string, dryRun bool) ([]seedSet, error) {
	var set []seedSet
	var refused []error
	for _, seed := range seeds {
		changed, err := bind.SetSchedulingVisible(ctx, garden, seed, o.visible, dryRun)
		switch {
		case err == nil:
			set = append(set, seedSet{name: seed, changed: changed})
		case !dryRun || ctx.Err() != nil:
			return set, err
		default:
			refused = append(refused, err)
		}
	}
	return set, errors.Join(refused...)
}
