package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// --dry-run takes kubectl's spellings: none, a strategy the command carries out, bare or a boolean (kubectl's
// deprecated form) for its first. A strategy it does not carry out is refused, saying what to run instead;
// anything else is refused with the choices.
func TestDryRunTakesKubectlsSpellings(t *testing.T) {
	for _, tc := range []struct {
		strategies []string
		args       []string
		want       string // the strategy in effect
		err        string
	}{
		{[]string{dryRunServer}, nil, dryRunNone, ""},
		{[]string{dryRunServer}, []string{"--dry-run"}, dryRunServer, ""},
		{[]string{dryRunServer}, []string{"--dry-run=server"}, dryRunServer, ""},
		{[]string{dryRunServer}, []string{"--dry-run=true"}, dryRunServer, ""},
		{[]string{dryRunServer}, []string{"--dry-run=none"}, dryRunNone, ""},
		{[]string{dryRunServer}, []string{"--dry-run=false"}, dryRunNone, ""},
		{[]string{dryRunServer}, []string{"--dry-run", "--dry-run=none"}, dryRunNone, ""},
		{[]string{dryRunServer}, []string{"--dry-run=client"}, dryRunNone, "this command's dry run is server-side; for a client-side one run this instead"},
		{[]string{dryRunServer}, []string{"--dry-run=all"}, dryRunNone, `must be "none" or "server", or given bare`},
		{[]string{dryRunClient, dryRunServer}, []string{"--dry-run"}, dryRunClient, ""},
		{[]string{dryRunClient, dryRunServer}, []string{"--dry-run=true"}, dryRunClient, ""},
		{[]string{dryRunClient, dryRunServer}, []string{"--dry-run=client"}, dryRunClient, ""},
		{[]string{dryRunClient, dryRunServer}, []string{"--dry-run=server"}, dryRunServer, ""},
		{[]string{dryRunClient, dryRunServer}, []string{"--dry-run=server", "--dry-run=false"}, dryRunNone, ""},
		{[]string{dryRunClient, dryRunServer}, []string{"--dry-run=all"}, dryRunNone, `must be "none", "client" or "server", or given bare`},
	} {
		var strategy string
		cmd := &cobra.Command{Use: "x"}
		registerDryRun(cmd, &strategy, tc.strategies, "usage", "run this instead")
		err := cmd.ParseFlags(tc.args)
		switch {
		case tc.err == "" && err != nil, tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v, %q: error %v, want %q", tc.strategies, tc.args, err, tc.err)
		case strategy != tc.want:
			t.Errorf("%v, %q: dry run %s, want %s", tc.strategies, tc.args, strategy, tc.want)
		}
	}
}

// Each command's --dry-run is the strategies it carries out (run's is a shadow), and names what to run for another.
func TestDryRunIsEachCommandsOwn(t *testing.T) {
	checkRefused(t, []string{"apply", "-f", "plan.json"}, []refusal{{[]string{"--dry-run=client"}, "this command's dry run is server-side; for a client-side one use --dry-run=server"}})
	checkRefused(t, []string{"run"}, []refusal{{[]string{"--dry-run=server"}, "this command's dry run is client-side; for a server-side one run seedplan schedule --dry-run=server"}})
	for _, command := range []string{"cordon", "uncordon"} {
		checkRefused(t, []string{command, "seed"}, []refusal{{[]string{"--dry-run=client"}, "this command's dry run is server-side; for a client-side one use --dry-run=server"}})
	}
	for _, strategy := range []string{dryRunClient, dryRunServer} {
		if _, err := run(t, "schedule", "--dry-run="+strategy, "--no-headers"); err == nil || !strings.Contains(err.Error(), "--dry-run and --pushgateway need a cluster") {
			t.Errorf("schedule --dry-run=%s on files: %v, want the dry run taken and refused without a cluster", strategy, err)
		}
	}
}
