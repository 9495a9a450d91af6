package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// Dry-run strategies, in kubectl's words: client sends nothing, server sends every write as a server-side dry run.
const (
	dryRunNone   = "none"
	dryRunClient = "client"
	dryRunServer = "server"
)

// dryRunFlag is --dry-run as kubectl takes it — none, client or server; given bare, or as a boolean, it means the
// command's own strategy — for a command whose dry run is one of the two strategies. The other one is refused,
// saying what to run instead.
type dryRunFlag struct {
	on       *bool
	strategy string // the command's: dryRunClient or dryRunServer
	instead  string // for the other strategy: what to run instead
}

// registerDryRun registers --dry-run, whose strategy (dryRunClient or dryRunServer) sets *on.
func registerDryRun(cmd *cobra.Command, on *bool, strategy, usage, instead string) {
	f := &dryRunFlag{on: on, strategy: strategy, instead: instead}
	cmd.Flags().Var(f, "dry-run", fmt.Sprintf(`%s or %s (or given bare): %s`, dryRunNone, strategy, usage))
	cmd.Flags().Lookup("dry-run").NoOptDefVal = strategy
}

// String is the strategy in effect, as help prints the default.
func (f *dryRunFlag) String() string {
	if *f.on {
		return f.strategy
	}
	return dryRunNone
}

// Type is string, as kubectl's --dry-run is one.
func (f *dryRunFlag) Type() string { return "string" }

// Set takes a value as kubectl's --dry-run does, refusing the strategy the command does not carry out.
func (f *dryRunFlag) Set(value string) error {
	switch value {
	case dryRunNone, "false":
		*f.on = false
	case f.strategy, "true":
		*f.on = true
	case dryRunClient, dryRunServer:
		return fmt.Errorf("this command's dry run is %s-side; for a %s-side one %s", f.strategy, value, f.instead)
	default:
		return fmt.Errorf("must be %q or %q, or given bare", dryRunNone, f.strategy)
	}
	return nil
}
