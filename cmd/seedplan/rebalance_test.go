package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
)

// The -o json output of rebalance follows design.md's contract, on the embedded example landscape (whose
// unusable seeds must be drained).
func TestRebalanceJSONContract(t *testing.T) {
	out, err := run(t, "rebalance", "-o", "json", "--target-utilization", "0.9")
	if err != nil {
		t.Fatal(err)
	}
	var report struct {
		TargetUtilization *float64 `json:"targetUtilization"`
		LowerBound        *int     `json:"lowerBound"`
		Moves             []struct {
			Shoot, From, To, Reason string
			Distance                *int
		} `json:"moves"`
		Seeds []struct {
			Name               string
			Before, After      *int
			Allocatable, Limit *int
		} `json:"seeds"`
		Complete *bool   `json:"complete"`
		Message  *string `json:"message"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	if report.TargetUtilization == nil || *report.TargetUtilization != 0.9 || report.LowerBound == nil || report.Complete == nil || report.Message == nil {
		t.Fatalf("missing contract fields:\n%s", out)
	}
	if len(report.Moves) == 0 || len(report.Seeds) == 0 {
		t.Fatalf("the example landscape has unusable seeds to drain, but no move:\n%s", out)
	}
	for _, m := range report.Moves {
		if m.Shoot == "" || m.From == "" || m.To == "" || m.Reason == "" || m.Distance == nil {
			t.Fatalf("incomplete move %+v", m)
		}
	}
	if *report.Complete != (*report.Message == "") {
		t.Fatalf("complete %v with message %q", *report.Complete, *report.Message)
	}
}

func TestRebalanceRefusesBadFlags(t *testing.T) {
	checkRefused(t, []string{"rebalance"}, []refusal{
		{[]string{"--target-utilization", "1.5"}, "--target-utilization 1.5: must be in (0, 1]"},
		{[]string{"--drain", "no-such-seed"}, `seed "no-such-seed" to drain does not exist`},
		{[]string{"--drain", "aws-eu-west-1-1,aws-eu-west-1-2", "--drain", "aws-eu-west-1-1"}, `seed "aws-eu-west-1-1" to drain is listed twice`},
		{[]string{"--apply"}, "--apply needs a cluster"},
		{[]string{"--yes"}, "--yes confirms --apply, which is not given: without it, rebalance only recommends"},
		// Pacing is for moves being made: given to a recommendation, it would seem recorded in it.
		{[]string{"--max-in-flight", "3"}, "--max-in-flight: not without --apply, whose moves it paces: rebalance without it only recommends (seedplan apply -f takes the flag too)"},
		{[]string{"--max-in-flight-per-seed", "2"}, "--max-in-flight-per-seed: not without --apply"},
		{[]string{"--migration-timeout", "1h"}, "--migration-timeout: not without --apply"},
		{[]string{"--max-moves-per-project", "1"}, "--max-moves-per-project: not without --apply"},
		{[]string{"--max-moves", "-1"}, "--max-moves -1: must not be negative"},
		{[]string{"--max-moves-per-seed", "-2"}, "--max-moves-per-seed -2: must not be negative"},
		{[]string{"-o", "xml"}, `-o: unknown output format "xml"`},
		// Flags that override the configuration are named, not the field they set.
		{[]string{"--max-in-flight", "0"}, "--max-in-flight 0: must be at least 1"},
		{[]string{"--max-in-flight-per-seed", "-1"}, "--max-in-flight-per-seed -1: must be at least 1"},
		{[]string{"--migration-timeout", "-1s"}, "--migration-timeout -1s: must be positive"},
		{[]string{"--max-moves-per-project", "-2"}, "--max-moves-per-project -2: must not be negative"},
		{[]string{"--max-move-distance", "-3"}, "--max-move-distance -3: must not be negative"},
		{[]string{"--unusable-grace", "-1s"}, "--unusable-grace -1s: must not be negative"},
		{[]string{"--pushgateway", "not a url"}, "--pushgateway not a url: must be a Pushgateway's http(s) URL or host:port"},
		{[]string{"--triggers", "bored"}, "--triggers bored: must be one of overloaded, NoExecute, unusable"},
		{[]string{"--drain-selector", "env in ("}, `--drain-selector "env in (": unable to parse requirement`},
		{[]string{"--drain-selector", "environment=nowhere"}, "--drain-selector environment=nowhere: no seed of the landscape matches"},
	})
}

// --drain-selector drains the seeds whose labels match it, as --drain names them, as kubectl drain -l selects
// nodes; a seed both named and matched is drained once.
func TestRebalanceDrainSelector(t *testing.T) {
	named, err := run(t, "rebalance", "--drain", "aws-eu-west-1-1,aws-eu-west-1-2,aws-eu-west-1-3", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--drain-selector", "seed.gardener.cloud/region=eu-west-1"},
		{"--drain", "aws-eu-west-1-1", "--drain-selector", "seed.gardener.cloud/region in (eu-west-1)"},
	} {
		selected, err := run(t, append([]string{"rebalance", "-o", "json"}, args...)...)
		if err != nil || selected != named {
			t.Fatalf("rebalance %s (%v):\n%s\nwant as --drain names the region's three seeds:\n%s", strings.Join(args, " "), err, selected, named)
		}
	}
	if !strings.Contains(named, `"reason": "drain"`) {
		t.Fatalf("the three seeds are not drained:\n%s", named)
	}
}

// On the embedded example, capacity accounts for every pending shoot exactly once.
func TestCapacityJSON(t *testing.T) {
	out, err := run(t, "capacity", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var report struct {
		Pending, OnExisting, NewSeeds, LowerBound int
		Regions                                   []struct {
			Provider, Region, Template string
			NewSeeds, Shoots, PerSeed  int
		}
		Unplaceable []struct{ Shoot, Reason, Message string }
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	newSeeds, shoots := 0, 0
	for _, r := range report.Regions {
		if r.NewSeeds*r.PerSeed < r.Shoots || (r.NewSeeds-1)*r.PerSeed >= r.Shoots {
			t.Errorf("%s/%s: %d new seeds of %d for %d shoots", r.Provider, r.Region, r.NewSeeds, r.PerSeed, r.Shoots)
		}
		newSeeds += r.NewSeeds
		shoots += r.Shoots
	}
	if report.Pending == 0 || newSeeds != report.NewSeeds || report.NewSeeds < report.LowerBound || report.OnExisting+shoots+len(report.Unplaceable) != report.Pending {
		t.Fatalf("inconsistent report:\n%s", out)
	}
}

// The flags rebalance refuses without --apply are exactly those registerPacing adds, so that a pacing flag
// added later is refused too.
func TestPacingFlagsAreTheOnesRegistered(t *testing.T) {
	cmd := &cobra.Command{Use: "pacing"}
	var flags planFlags
	flags.registerPacing(cmd)
	var registered []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) { registered = append(registered, f.Name) })
	if want := slices.Sorted(slices.Values(pacingFlags())); !slices.Equal(registered, want) {
		t.Fatalf("registerPacing adds %v, pacingFlags lists %v", registered, want)
	}
}

// What --apply announces, and asks --yes for, is what it does: it cordons the seeds to drain, starts the moves whose
// shoots' maintenance windows are open, and leaves the others for a later run.
func TestApplyingSaysWhatApplyDoes(t *testing.T) {
	later := time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC)
	now, waits := model.Move{Shoot: "garden-a/now"}, model.Move{Shoot: "garden-a/later", StartsAt: &later}
	for _, c := range []struct {
		drain []string
		moves []model.Move
		want  string
	}{
		{nil, []model.Move{now}, "Starting 1 control plane migration"},
		{nil, []model.Move{now, now}, "Starting 2 control plane migrations"},
		{nil, []model.Move{now, waits}, "Starting 1 control plane migration now; 1 waits for its shoot's maintenance window, for a later run"},
		{nil, []model.Move{waits, waits}, "Starting 0 control plane migrations now; 2 wait for their shoots' maintenance windows, for a later run"},
		{[]string{"aws-1"}, nil, "Cordoning 1 seed to drain (no control plane migration to start)"},
		{[]string{"aws-1", "aws-2"}, []model.Move{now}, "Cordoning 2 seeds to drain and starting 1 control plane migration"},
		{[]string{"aws-1"}, []model.Move{waits}, "Cordoning 1 seed to drain and starting 0 control plane migrations now; 1 waits for its shoot's maintenance window, for a later run"},
	} {
		if got := applying(model.RebalanceOptions{Drain: c.drain}, &plan.Rebalanced{Moves: c.moves}).String(); got != c.want {
			t.Errorf("drain %v, %d moves:\n got %s\nwant %s", c.drain, len(c.moves), got, c.want)
		}
	}
}
