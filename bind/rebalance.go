package bind

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/solver"
)

// ReasonRebalanced is the reason of the event seedplan writes on a shoot it moved to another seed.
const ReasonRebalanced = "Rebalanced"

// ReportFormats are the output formats of the rebalance and capacity reports.
var ReportFormats = []string{"table", "yaml", "json"}

// RebalanceReport is the output of `seedplan rebalance` (design.md: a contract).
type RebalanceReport struct {
	TargetUtilization float64 `json:"targetUtilization"`
	// LowerBound is the fewest moves any plan needs: per seed its excess over the target or the shoots that must
	// leave it, whichever is more.
	LowerBound int          `json:"lowerBound"`
	Moves      []model.Move `json:"moves"`
	// Seeds are the seeds the moves touch, that are above their limit or drained, or that keep shoots that must
	// leave, before and after.
	Seeds []SeedChange `json:"seeds"`
	// Complete is false when caps or the landscape keep some seed above its target; Message then says why, one
	// line per seed.
	Complete bool   `json:"complete"`
	Message  string `json:"message"`
	// Optimal is true when CLP proved the moves the fewest (and nearest) possible.
	Optimal bool `json:"optimal"`
	// Unresolved counts the shoots seeds stay above their limits, or that had to leave and could not.
	Unresolved int `json:"unresolved"`
	// Applied holds what became of each move with --apply.
	Applied []MoveResult `json:"applied,omitempty"`
}

// SeedChange is a seed's number of shoots before and after the moves (after their migrations completed).
type SeedChange struct {
	Name   string `json:"name"`
	Before int    `json:"before"`
	After  int    `json:"after"`
	// Allocatable is status.allocatable.shoots, omitted for a seed without it.
	Allocatable *int64 `json:"allocatable,omitempty"`
	// Limit is the most shoots at the target utilization (0 for a drained seed), omitted without allocatable.
	Limit *int `json:"limit,omitempty"`
}

// NewRebalanceReport describes a rebalancing plan.
func NewRebalanceReport(r *model.Rebalancing, plan *solver.Rebalance) *RebalanceReport {
	report := &RebalanceReport{
		TargetUtilization: r.Target.TargetUtilization, LowerBound: plan.LowerBound, Moves: plan.Moves,
		Complete: plan.Complete(), Message: strings.Join(plan.Problems, "\n"), Optimal: plan.Optimal, Unresolved: plan.Unresolved,
	}
	if report.Moves == nil {
		report.Moves = []model.Move{}
	}
	delta := map[string]int{}
	for _, m := range plan.Moves {
		delta[m.From]--
		delta[m.To]++
	}
	report.Seeds = []SeedChange{}
	unresolved := r.Unresolved(plan.Moves)
	for i, seed := range r.Snapshot.Seeds {
		l := r.Seeds[i]
		d, touched := delta[seed.Name]
		if !touched && l.Excess() == 0 && l.Drain == "" && unresolved[i].Count() == 0 {
			continue
		}
		change := SeedChange{Name: seed.Name, Before: l.Load, After: l.Load + d}
		if allocatable, ok := model.Allocatable(seed); ok {
			change.Allocatable, change.Limit = &allocatable, &l.Limit
		}
		report.Seeds = append(report.Seeds, change)
	}
	return report
}

// Print writes the report as a table, YAML or JSON.
func (r *RebalanceReport) Print(w io.Writer, format string) error {
	return printAs(w, format, ReportFormats, r, func(bool) error { return r.printTable(w) })
}

func (r *RebalanceReport) printTable(out io.Writer) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	if len(r.Moves) > 0 {
		fmt.Fprintln(w, "SHOOT\tFROM\tTO\tDISTANCE\tREASON")
		for _, m := range r.Moves {
			fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\n", m.Shoot, m.From, m.To, m.Distance, m.Reason)
		}
		fmt.Fprintln(w)
	}
	if len(r.Seeds) > 0 {
		fmt.Fprintln(w, "SEED\tBEFORE\tAFTER\tLIMIT\tALLOCATABLE")
		for _, s := range r.Seeds {
			limit, allocatable := "-", "-"
			if s.Allocatable != nil {
				limit, allocatable = fmt.Sprint(*s.Limit), fmt.Sprint(*s.Allocatable)
			}
			fmt.Fprintf(w, "%s\t%d\t%d\t%s\t%s\n", s.Name, s.Before, s.After, limit, allocatable)
		}
		fmt.Fprintln(w)
	}
	if len(r.Applied) > 0 {
		fmt.Fprintln(w, "APPLIED\tTO\tRESULT\tDETAIL")
		for _, a := range r.Applied {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", a.Shoot, a.To, a.Result, a.Detail)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d moves (lower bound %d, target utilization %.2f", len(r.Moves), r.LowerBound, r.TargetUtilization)
	if r.Optimal {
		fmt.Fprint(w, ", optimal")
	}
	fmt.Fprintln(w, ")")
	if !r.Complete {
		fmt.Fprintln(w, "incomplete:")
		for line := range strings.SplitSeq(r.Message, "\n") {
			fmt.Fprintln(w, "  "+line)
		}
	}
	return w.Flush()
}

// Outcomes of applying a move.
const (
	// MoveApplied: the shoot was rebound to its new seed; its control plane migration has started.
	MoveApplied = "moved"
	// MoveSkipped: the re-check before the move found it no longer valid; nothing was written.
	MoveSkipped = "skipped"
	// MoveConflict: the shoot changed between the re-check and the binding; nothing was written.
	MoveConflict = "conflict"
	// MoveRefused: the gardener-apiserver refused the binding.
	MoveRefused = "refused"
	// MoveFailed: the binding failed otherwise.
	MoveFailed = "failed"
)

// MoveResult is what became of one move.
type MoveResult struct {
	Shoot  string `json:"shoot"`
	To     string `json:"to"`
	Result string `json:"result"`
	Detail string `json:"detail,omitempty"`
}

// Rebind moves a bound shoot to the move's seed through the binding subresource, which is how Gardener triggers a
// control plane migration, with the resourceVersion of the object read: a shoot changed since is not touched. A
// Normal event Rebalanced records the move.
func (b *Binder) Rebind(ctx context.Context, read *gardencorev1beta1.Shoot, m model.Move) MoveResult {
	result := MoveResult{Shoot: m.Shoot, To: m.To}
	shoot, err := b.updateBinding(ctx, read, m.To)
	switch {
	case err == nil:
		result.Result = MoveApplied
		b.event(ctx, shoot, corev1.EventTypeNormal, ReasonRebalanced, fmt.Sprintf("Moved from seed %q to seed %q by seedplan rebalance (%s)", m.From, m.To, m.Reason))
		slog.InfoContext(ctx, "Shoot moved", "shoot", m.Shoot, "from", m.From, "to", m.To, "reason", m.Reason)
	case apierrors.IsConflict(err):
		result.Result, result.Detail = MoveConflict, err.Error()
	case refused(err):
		result.Result, result.Detail = MoveRefused, err.Error()
	default:
		result.Result, result.Detail = MoveFailed, err.Error()
	}
	if result.Result != MoveApplied {
		slog.WarnContext(ctx, "Shoot not moved", "shoot", m.Shoot, "to", m.To, "result", result.Result, "detail", result.Detail)
	}
	return result
}
