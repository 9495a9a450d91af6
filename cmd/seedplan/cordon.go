package main

import (
	"context"
	"errors"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/report"
)

// cordonOptions are what cordon and uncordon are given: the seeds, by name or by label selector, the garden, and
// whether to stop after the dry run.
type cordonOptions struct {
	flags    planFlags
	selector string
	dryRun   bool
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
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "send each update as a server-side dry run and print what would change; nothing is stored")
	cmd.Flags().StringVar(&o.flags.kubeconfig, "kubeconfig", "", "the garden cluster of this kubeconfig: write to it")
	o.flags.registerGarden(cmd)
	cmd.Flags().StringVar(&o.flags.configFile, "config", "", "SeedPlanConfiguration file (its clientConnection; flags override it)")
	cmd.ValidArgsFunction = o.flags.completeGardenSeeds(cordon) // cordon offers the visible seeds
	return cmd
}

// checkArgs takes seed names or a selector, as kubectl cordon does.
func (o *cordonOptions) checkArgs(cmd *cobra.Command, seeds []string) error {
	if o.selector != "" {
		return operands(0, 0, "seed names or --selector, not both")(cmd, seeds)
	}
	if err := operands(1, -1, "one or more seed names, or --selector")(cmd, seeds); err != nil {
		return err
	}
	return checkSeedNames(seeds)
}

// run announces the garden and the change, sends every seed's update as a dry run, and then, unless --dry-run,
// makes them.
func (o *cordonOptions) run(cmd *cobra.Command, seeds []string) error {
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
	what := fmt.Sprintf("Setting spec.settings.scheduling.visible to %v on %s", o.visible, report.Counted(len(seeds), "seed", "seeds"))
	if o.dryRun {
		what += " (server dry run: nothing is stored)"
	}
	if err := announceGarden(cmd, c, what); err != nil {
		return err
	}
	if o.dryRun {
		return o.set(cmd, garden, seeds, true, o.verb+" (server dry run)")
	}
	if err := o.set(cmd, garden, seeds, true, ""); err != nil {
		return fmt.Errorf("%w; no seed was %s", err, o.verb)
	}
	return o.set(cmd, garden, seeds, false, o.verb)
}

// selected are the names of the garden's seeds the selector matches; none is an error, not a silent nothing.
func (o *cordonOptions) selected(ctx context.Context, garden client.Client) ([]string, error) {
	selector, err := labels.Parse(o.selector)
	if err != nil {
		return nil, fmt.Errorf("--selector %q: %w", o.selector, err)
	}
	var seeds gardencorev1beta1.SeedList
	if err := garden.List(ctx, &seeds, client.MatchingLabelsSelector{Selector: selector}); err != nil {
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

// set sets the seeds' spec.settings.scheduling.visible, or with dryRun only sends the updates as a dry run, and
// prints each seed as kubectl cordon does, with verb ("cordoned") or "already "+verb, when verb is not "".
func (o *cordonOptions) set(cmd *cobra.Command, garden client.Client, seeds []string, dryRun bool, verb string) error {
	for _, seed := range seeds {
		changed, err := bind.SetSchedulingVisible(cmd.Context(), garden, seed, o.visible, dryRun)
		if err != nil {
			return err
		}
		if verb == "" {
			continue
		}
		state := verb
		if !changed {
			state = "already " + verb
		}
		fmt.Fprintf(cmd.OutOrStdout(), "seed/%s %s\n", seed, state)
	}
	return nil
}
