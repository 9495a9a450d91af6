package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/internal/fixture"
)

// A reviewed plan is the output of schedule or of rebalance from a garden, in JSON or YAML, as they wrote it;
// anything else - another file, a plan made from files, one edited so that apply could carry out only part of
// it - is refused with the reason and the entry, before anything is written.
func TestParseReviewed(t *testing.T) {
	const (
		placed = `{"shoot": "a/b", "seed": "s", "resourceVersion": "7"}`
		moved  = `{"shoot": "a/b", "from": "s", "to": "t", "resourceVersion": "7"}`
	)
	schedule := func(strategy string, placements ...string) string {
		return `{"window": {"strategy": "` + strategy + `"}, "placements": [` + strings.Join(placements, ", ") + `]}`
	}
	rebalance := func(target string, moves ...string) string {
		return `{"targetUtilization": ` + target + `, "strategy": "SameRegion", "lowerBound": 1, "moves": [` + strings.Join(moves, ", ") + `]}`
	}
	for _, tc := range []struct {
		name, data, want string // want: "placements", "moves" or a part of the error
	}{
		{"schedule -o json", schedule("SameRegion", placed), "placements"},
		{"rebalance -o yaml", "targetUtilization: 0.8\nstrategy: MinimalDistance\nlowerBound: 1\nmoves:\n- {shoot: a/b, from: s, to: t, resourceVersion: '7'}\n", "moves"},
		{"nothing to do", schedule("MinimalDistance"), "placements"},
		{"a landscape", "apiVersion: core.gardener.cloud/v1beta1\nkind: Seed\nmetadata: {name: s}\n", "neither the output of schedule"},
		{"both at once", `{"window": {}, "lowerBound": 0}`, "neither the output of schedule"},
		{"not YAML", "{[", "not valid YAML or JSON"},
		{"saved in Latin-1", "# revis\xe9\n" + schedule("SameRegion", placed), "not valid YAML or JSON: yaml: invalid trailing UTF-8 octet (line 1, column 8: byte 0xe9; the file must be UTF-8"},
		{"a plan cut short", schedule("SameRegion", placed)[:40], "not valid JSON: line 1, column 41: the document ends before its JSON value does"},
		{"a plan without a comma", strings.Replace(schedule("SameRegion", placed), "}, ", "} ", 1), `not valid JSON: line 1, column 39: invalid character '"' after object value (expecting ',' or '}')`},
		{"two plans", "---\n" + schedule("SameRegion", placed) + "\n---\n" + schedule("SameRegion", `{"shoot": "a/c", "seed": "s", "resourceVersion": "8"}`), "2 documents: a reviewed plan is one"},
		{"a plan among comments", "# reviewed\n---\n" + schedule("SameRegion", placed) + "\n---\n# end\n", "placements"},
		{"an error message after the plan", schedule("SameRegion", placed) + "\nerror: unable to connect\n", "not valid YAML or JSON: something follows the end of the object the document is"},
		{"a list", "- shoot: a/b\n", "the document must be an object, not a list"},
		{"placements made from files", schedule("SameRegion", `{"shoot": "a/b", "seed": "s"}`), "placement 1: shoot a/b has no resourceVersion: apply plans made from the garden"},
		{"moves made from files", rebalance("0.8", `{"shoot": "a/b", "from": "s", "to": "t"}`), "move 1: shoot a/b has no resourceVersion"},
		{"a shoot placed twice", schedule("SameRegion", placed, `{"shoot": "a/c", "seed": "s", "resourceVersion": "8"}`, `{"shoot": "a/b", "seed": "t", "resourceVersion": "7"}`), "placement 3: shoot a/b is in the plan twice (placement 1)"},
		{"a shoot moved twice", rebalance("0.8", moved, moved), "move 2: shoot a/b is in the plan twice (move 1)"},
		{"a shoot without namespace", schedule("SameRegion", `{"shoot": "b", "seed": "s", "resourceVersion": "7"}`), `placement 1: "b": the shoot must be given as NAMESPACE/NAME`},
		{"a placement without seed", schedule("SameRegion", `{"shoot": "a/b", "resourceVersion": "7"}`), "placement 1: shoot a/b: no seed"},
		{"a move without destination", rebalance("0.8", `{"shoot": "a/b", "from": "s", "resourceVersion": "7"}`), "move 1: shoot a/b: no seed"},
		{"an unknown strategy", schedule("Nearest", placed), `strategy must be SameRegion or MinimalDistance, not "Nearest"`},
		{"moves without target", `{"strategy": "SameRegion", "lowerBound": 1, "moves": [` + moved + `]}`, "targetUtilization: target utilization 0 is not in (0, 1]"},
		{"moves above full", rebalance("1.5", moved), "targetUtilization: target utilization 1.5 is not in (0, 1]"},
		{"placements with moves", `{"window": {"strategy": "SameRegion"}, "placements": [], "moves": [` + moved + `]}`, "the output of schedule (window) with moves"},
		{"a seed that is no string", schedule("SameRegion", placed, `{"shoot": "a/c", "seed": 5, "resourceVersion": "8"}`), "placements[1].seed: must be a string, not a number"},
		{"a bound that is no number", `{"targetUtilization": 0.8, "strategy": "SameRegion", "lowerBound": "one", "moves": []}`, "lowerBound: must be a whole number, not a string"},
		{"moves with placements", `{"targetUtilization": 0.8, "strategy": "SameRegion", "lowerBound": 1, "placements": [` + placed + `]}`, "the output of rebalance (lowerBound) with placements"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := parseReviewed([]byte(tc.data))
			switch {
			case tc.want == "placements" && (err != nil || plan.Window == nil || len(plan.Placements) > 0 && plan.Placements[0].ResourceVersion != "7"):
				t.Fatalf("%+v, %v", plan, err)
			case tc.want == "moves" && (err != nil || len(plan.Moves) != 1 || plan.Strategy != "MinimalDistance"):
				t.Fatalf("%+v, %v", plan, err)
			case tc.want != "placements" && tc.want != "moves" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// apply -f - reads the reviewed plan from standard input, as kubectl apply -f - does, within the same limit as a
// file and with errors that say where the plan came from.
func TestApplyReadsStandardInput(t *testing.T) {
	fromFiles, err := run(t, "schedule", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		stdin io.Reader
		want  string
	}{
		{"a plan made from files", strings.NewReader(fromFiles), "-f - (standard input): placement 1: shoot garden-data/data-api-11 has no resourceVersion"},
		{"not a plan", strings.NewReader("apiVersion: v1\nkind: ConfigMap\n"), "-f - (standard input): neither the output of schedule -o json"},
		{"nothing", strings.NewReader(""), "-f - (standard input): neither the output of schedule -o json"},
		{"too much", io.LimitReader(fixture.Zeros{}, maxReviewedBytes+1), fmt.Sprintf("-f - (standard input): more than the limit of %d bytes", maxReviewedBytes)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runReading(t, tc.stdin, newTestLog(t), "apply", "-f", "-", "--yes")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || out != "" {
				t.Fatalf("apply -f -: %q, %v; want an error starting %q", out, err, tc.want)
			}
		})
	}
}

// What apply -f announces, and asks --yes for: the reviewed placements it binds, or the reviewed migrations it
// starts, each only inside its shoot's maintenance window unless --ignore-maintenance-window.
func TestApplyingAReviewedPlanSaysWhatItDoes(t *testing.T) {
	const (
		placements = `{"window": {"strategy": "SameRegion"}, "placements": [{"shoot": "a/b", "seed": "s", "resourceVersion": "7"}]}`
		moves      = `{"lowerBound": 2, "targetUtilization": 0.8, "strategy": "SameRegion", "moves": [{"shoot": "a/b", "from": "s", "to": "t", "resourceVersion": "7"},` +
			` {"shoot": "a/c", "from": "s", "to": "t", "resourceVersion": "8"}]}`
	)
	for _, tc := range []struct {
		plan         string
		ignoreWindow bool
		want         string
	}{
		{placements, false, "Binding 1 reviewed placement"},
		{moves, false, "Starting 2 reviewed control plane migrations, each only while its shoot's maintenance window is open"},
		{moves, true, "Starting 2 reviewed control plane migrations"},
	} {
		reviewed, err := parseReviewed([]byte(tc.plan))
		if err != nil {
			t.Fatal(err)
		}
		if got := reviewed.applying(tc.ignoreWindow).String(); got != tc.want {
			t.Errorf("applying(%v) = %q, want %q", tc.ignoreWindow, got, tc.want)
		}
	}
}

// An announcement names the garden right after what is done in it, and its condition after the garden: the garden
// never ends up inside the condition ("… window is open in garden …").
func TestAnnouncementNamesTheGardenBeforeItsCondition(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	const garden = "apiVersion: v1\nkind: Config\ncurrent-context: garden\nclusters: [{name: g, cluster: {server: https://garden.example.com}}]\n" +
		"contexts: [{name: garden, context: {cluster: g, user: u}}]\nusers: [{name: u, user: {}}]\n"
	if err := os.WriteFile(kubeconfig, []byte(garden), 0o600); err != nil {
		t.Fatal(err)
	}
	c := config.Default()
	c.Client.Kubeconfig = kubeconfig
	var said bytes.Buffer
	cmd := &cobra.Command{}
	cmd.SetErr(&said)
	a := announcement{what: "Starting 2 reviewed control plane migrations", condition: ", each only while its shoot's maintenance window is open"}
	if err := announceGarden(cmd, c, a); err != nil {
		t.Fatal(err)
	}
	const want = "Starting 2 reviewed control plane migrations in garden https://garden.example.com (context garden), each only while its shoot's maintenance window is open\n"
	if said.String() != want {
		t.Errorf("announced %q, want %q", said.String(), want)
	}
	if got := clause(a); got != "starting 2 reviewed control plane migrations, each only while its shoot's maintenance window is open" {
		t.Errorf("as a clause: %q", got)
	}
}

// FuzzParseReviewed: any file is a reviewed plan or an error, never a panic, within the input budget.
func FuzzParseReviewed(f *testing.F) {
	for _, seed := range []string{`{"window": {}, "placements": []}`, "lowerBound: 0\nmoves: []\n", "a: &a [*a]", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		if plan, err := parseReviewed([]byte(data)); err == nil && (plan.Window == nil) == (plan.LowerBound == nil) {
			t.Fatalf("accepted %q as both or neither kind", data)
		}
	})
}

// version says which seedplan this is, with the Gardener API it was built with, as text and as JSON.
func TestVersion(t *testing.T) {
	out, err := run(t, "version")
	if err != nil || !strings.HasPrefix(out, "seedplan ") || !strings.Contains(out, "Gardener API v1.150.0") {
		t.Fatalf("version: %v\n%s", err, out)
	}
	// JSON indented as kubectl version -o json, and as every command's -o json, prints it.
	out, err = run(t, "version", "-o", "json")
	if err != nil || !strings.HasPrefix(out, "{\n  \"") || !strings.Contains(out, "\n  \"gardener\": \"v1.150.0\"") {
		t.Fatalf("version -o json: %v\n%s", err, out)
	}
	// Worded as every command words an unknown output format.
	if _, err := run(t, "version", "-o", "wide"); err == nil || err.Error() != `-o: unknown output format "wide" (one of text, json, yaml)` {
		t.Fatalf("version -o wide: %v", err)
	}
}

// With nothing pending for its scheduler name, schedule says which names the pending shoots do have: the deploy
// configuration's schedulerName: seedplan against an example whose 400 shoots ask for default-scheduler.
func TestScheduleHintsAtOtherSchedulerNames(t *testing.T) {
	out, err := run(t, "schedule", "--scheduler-name", "seedplan")
	if err != nil || !strings.Contains(out, `Placed 0 of 0`) || !strings.Contains(out, `400 for "default-scheduler"`) {
		t.Fatalf("schedule for a name no shoot has: %v\n%s", err, out)
	}
}

// A scheduler name Gardener would refuse in a shoot's spec.schedulerName (a DNS-1123 label) is refused before
// anything is read: no shoot could ever be pending for it.
func TestSchedulerNamesNoShootCanCarryAreRefused(t *testing.T) {
	const want = "--scheduler-name Seed_Plan: a lowercase RFC 1123 label must consist of"
	checkRefused(t, []string{"schedule"}, []refusal{{[]string{"--scheduler-name", "Seed_Plan"}, want}})
	checkRefused(t, []string{"apply", "-f", "plan.json", "--yes"}, []refusal{{[]string{"--scheduler-name", "Seed_Plan"}, want}})
}
