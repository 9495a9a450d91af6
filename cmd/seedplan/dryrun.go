package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// Dry-run strategies, in kubectl's words: client sends nothing, server sends every write as a server-side dry run.
const (
	dryRunNone   = "none"
	dryRunClient = "client"
	dryRunServer = "server"
)

// dryRunFlag is --dry-run as kubectl takes it: none, or one of the strategies the command carries out; given bare,
// or as the boolean true (kubectl's deprecated form), the first of them. A strategy the command does not carry
// out is refused, saying what to run instead.
type dryRunFlag struct {
	strategy   *string  // in effect: dryRunNone or one of strategies
	strategies []string // the command's: dryRunClient, dryRunServer or both
	instead    string   // for a strategy the command does not carry out: what to run instead
}

// registerDryRun registers --dry-run, whose strategy in effect (dryRunNone unless given) it sets in *strategy.
func registerDryRun(cmd *cobra.Command, strategy *string, strategies []string, usage, instead string) {
	*strategy = dryRunNone
	f := &dryRunFlag{strategy: strategy, strategies: strategies, instead: instead}
	cmd.Flags().Var(f, "dry-run", fmt.Sprintf("%s (or given bare: %s): %s", either(f.values()), strategies[0], usage))
	cmd.Flags().Lookup("dry-run").NoOptDefVal = strategies[0]
}

// values are the values the flag takes: none, then the command's strategies.
func (f *dryRunFlag) values() []string { return append([]string{dryRunNone}, f.strategies...) }

// either joins values as a sentence offers a choice: "a, b or c".
func either(values []string) string {
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// String is the strategy in effect, as help prints the default.
func (f *dryRunFlag) String() string { return *f.strategy }

// Type is string, as kubectl's --dry-run is one.
func (f *dryRunFlag) Type() string { return "string" }

// Set takes a value as kubectl's --dry-run does, refusing a strategy the command does not carry out.
func (f *dryRunFlag) Set(value string) error {
	switch {
	case value == dryRunNone || value == "false":
		*f.strategy = dryRunNone
	case value == "true":
		*f.strategy = f.strategies[0]
	case slices.Contains(f.strategies, value):
		*f.strategy = value
	case value == dryRunClient || value == dryRunServer:
		return fmt.Errorf("this command's dry run is %s-side; for a %s-side one %s", f.strategies[0], value, f.instead)
	default:
		quoted := make([]string, 0, len(f.strategies)+1)
		for _, v := range f.values() {
			quoted = append(quoted, strconv.Quote(v))
		}
		return fmt.Errorf("must be %s, or given bare", either(quoted))
	}
	return nil
}
