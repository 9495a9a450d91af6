package report

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/seedplan/seedplan/model"
)

// AppliedReport is the output of `seedplan apply`: what became of each reviewed placement or move.
type AppliedReport struct {
	// Kind is "placements" or "moves".
	Kind string `json:"kind"`
	// Reviewed is how many placements or moves the plan holds; a run that stopped (interrupted, or at a stalled
	// migration) has results for fewer, and did not start the rest.
	Reviewed int             `json:"reviewed"`
	Applied  []AppliedResult `json:"applied"`
}

// AppliedResult is one placement or move: its outcome, and why when it was not made.
type AppliedResult struct {
	Shoot  string `json:"shoot"`
	To     string `json:"to"`
	Result string `json:"result"`
	Detail string `json:"detail,omitempty"`
}

// NewMovesApplied reports what became of the reviewed moves, of which there were reviewed.
func NewMovesApplied(results []model.MoveResult, reviewed int) *AppliedReport {
	r := &AppliedReport{Kind: "moves", Reviewed: reviewed, Applied: []AppliedResult{}}
	for _, m := range results {
		r.Applied = append(r.Applied, AppliedResult{Shoot: m.Shoot, To: m.To, Result: string(m.Result), Detail: m.Detail})
	}
	return r
}

// Print writes the report as a table, YAML or JSON.
func (r *AppliedReport) Print(w io.Writer, out Output) error {
	return printAs(w, out, Formats(), r, r.names, func(t table) error { return r.printTable(Inert(w), t) })
}

// names are the shoots of the reviewed plan (-o name).
func (r *AppliedReport) names() []string {
	names := make([]string, 0, len(r.Applied))
	for _, a := range r.Applied {
		names = append(names, ShootName(a.Shoot))
	}
	return names
}

// NameWarning says why -o name names no shoot, or "" when it names one.
func (r *AppliedReport) NameWarning() string {
	if len(r.Applied) > 0 {
		return ""
	}
	return "the plan holds no " + r.Kind + ", and -o name names none"
}

// printTable writes a row per result and a last line that counts them by result, and the ones not started, so
// that they add up to the plan's; without results, only that line.
func (r *AppliedReport) printTable(out io.Writer, t table) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	sec := sections{w: w}
	if len(r.Applied) > 0 {
		sec.next()
		t.header(w, "SHOOT\tTO\tRESULT\tDETAIL")
		r.printRows(w)
	}
	if !t.headers {
		return w.Flush()
	}
	sec.next()
	fmt.Fprintf(w, "%d reviewed %s: %s\n", r.Reviewed, r.Kind, r.counts())
	return w.Flush()
}

// printRows writes a row per result.
func (r *AppliedReport) printRows(w io.Writer) {
	for _, a := range r.Applied {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", a.Shoot, a.To, a.Result, cmp.Or(a.Detail, "-"))
	}
}

// counts counts the results by result, and last the placements or moves the run did not start: "finished 2,
// stalled 1, not started 3"; "none" for a plan that holds none.
func (r *AppliedReport) counts() string {
	counts := map[string]int{}
	for _, a := range r.Applied {
		counts[a.Result]++
	}
	parts := []string{}
	if len(counts) > 0 {
		parts = append(parts, countsByName(counts, "%s %d"))
	}
	if notStarted := r.Reviewed - len(r.Applied); notStarted > 0 {
		parts = append(parts, fmt.Sprintf("not started %d", notStarted))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
