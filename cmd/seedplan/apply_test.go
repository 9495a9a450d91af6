package main

import (
	"strings"
	"testing"
)

// A reviewed plan is the output of schedule or of rebalance, in JSON or YAML; anything else is refused with the
// reason.
func TestParseReviewed(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string // want: "placements", "moves" or a part of the error
	}{
		{"schedule -o json", `{"window": {"strategy": "SameRegion"}, "placements": [{"shoot": "a/b", "seed": "s", "resourceVersion": "7"}]}`, "placements"},
		{"rebalance -o yaml", "targetUtilization: 0.8\nstrategy: MinimalDistance\nlowerBound: 1\nmoves:\n- {shoot: a/b, from: s, to: t, resourceVersion: '7'}\n", "moves"},
		{"a landscape", "apiVersion: core.gardener.cloud/v1beta1\nkind: Seed\nmetadata: {name: s}\n", "neither the output of schedule"},
		{"both at once", `{"window": {}, "lowerBound": 0}`, "neither the output of schedule"},
		{"not YAML", "{[", "not YAML or JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := parseReviewed([]byte(tc.data))
			switch {
			case tc.want == "placements" && (err != nil || len(plan.Placements) != 1 || plan.Placements[0].ResourceVersion != "7"):
				t.Fatalf("%+v, %v", plan, err)
			case tc.want == "moves" && (err != nil || len(plan.Moves) != 1 || plan.Strategy != "MinimalDistance"):
				t.Fatalf("%+v, %v", plan, err)
			case tc.want != "placements" && tc.want != "moves" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
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
	out, err = run(t, "version", "-o", "json")
	if err != nil || !strings.Contains(out, `"gardener":"v1.150.0"`) {
		t.Fatalf("version -o json: %v\n%s", err, out)
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
