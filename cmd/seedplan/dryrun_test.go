package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// --dry-run takes kubectl's spellings: none, the command's own strategy, bare, or a boolean (kubectl's deprecated
// form). The other strategy is refused, saying what to run instead; anything else is refused with the choices.
func TestDryRunTakesKubectlsSpellings(t *testing.T) {
	for _, strategy := range []string{dryRunClient, dryRunServer} {
		other := map[string]string{dryRunClient: dryRunServer, dryRunServer: dryRunClient}[strategy]
		for _, tc := range []struct {
			args []string
			on   bool
			err  string
		}{
			{nil, false, ""},
			{[]string{"--dry-run"}, true, ""},
			{[]string{"--dry-run=" + strategy}, true, ""},
			{[]string{"--dry-run=true"}, true, ""},
			{[]string{"--dry-run=none"}, false, ""},
			{[]string{"--dry-run=false"}, false, ""},
			{[]string{"--dry-run", "--dry-run=none"}, false, ""},
			{[]string{"--dry-run=" + other}, false, "this command's dry run is " + strategy + "-side; for a " + other + "-side one run this instead"},
			{[]string{"--dry-run=all"}, false, `must be "none" or "` + strategy + `", or given bare`},
		} {
			var on bool
			cmd := &cobra.Command{Use: "x"}
			registerDryRun(cmd, &on, strategy, "usage", "run this instead")
			err := cmd.ParseFlags(tc.args)
			switch {
			case tc.err == "" && err != nil, tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("%s-side, %q: error %v, want %q", strategy, tc.args, err, tc.err)
			case on != tc.on:
				t.Errorf("%s-side, %q: dry run %v, want %v", strategy, tc.args, on, tc.on)
			}
		}
	}
}

// Each command's --dry-run is the strategy it carries out, and names what to run for the other.
func TestDryRunIsEachCommandsOwn(t *testing.T) {
	checkRefused(t, []string{"schedule"}, []refusal{{[]string{"--dry-run=server"},
		"this command's dry run is client-side; for a server-side one save the plan (--dry-run -o json > plan.json) and run seedplan apply -f plan.json --dry-run=server"}})
	checkRefused(t, []string{"apply", "-f", "plan.json"}, []refusal{{[]string{"--dry-run=client"}, "this command's dry run is server-side; for a client-side one use --dry-run=server"}})
	for _, command := range []string{"cordon", "uncordon"} {
		checkRefused(t, []string{command, "seed"}, []refusal{{[]string{"--dry-run=client"}, "this command's dry run is server-side; for a client-side one use --dry-run=server"}})
	}
	if _, err := run(t, "schedule", "--dry-run=client", "--no-headers"); err == nil || !strings.Contains(err.Error(), "--dry-run and --pushgateway need a cluster") {
		t.Errorf("schedule --dry-run=client on files: %v, want the dry run taken and refused without a cluster", err)
	}
}
