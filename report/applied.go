package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/seedplan/seedplan/model"
)

// AppliedReport is the output of `seedplan apply`: what became of each reviewed placement or move.
type AppliedReport struct {
	// Kind is "placements" or "moves".
	Kind    string          `json:"kind"`
	Applied []AppliedResult `json:"applied"`
}

// AppliedResult is one placement or move: its outcome, and why when it was not made.
type AppliedResult struct {
	Shoot  string `json:"shoot"`
	To     string `json:"to"`
	Result string `json:"result"`
	Detail string `json:"detail,omitempty"`
}

// NewMovesApplied reports reviewed moves.
func NewMovesApplied(results []model.MoveResult) *AppliedReport {
	r := &AppliedReport{Kind: "moves", Applied: []AppliedResult{}}
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

func (r *AppliedReport) printTable(out io.Writer, t table) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	t.header(w, "SHOOT\tTO\tRESULT\tDETAIL")
	counts := map[string]int{}
	for _, a := range r.Applied {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", a.Shoot, a.To, a.Result, a.Detail)
		counts[a.Result]++
	}
	if !t.headers {
		return w.Flush()
	}
	fmt.Fprintf(w, "\n%d reviewed %s: %s\n", len(r.Applied), r.Kind, countsByName(counts, "%s %d"))
	return w.Flush()
}
