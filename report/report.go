// Package report renders results: the reports of schedule, rebalance and capacity as tables, YAML or JSON, and
// explanations. It chooses the words; the plans it renders are data.
package report

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/util/jsonpath"
	"sigs.k8s.io/yaml"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
)

// Report is the printed result of `seedplan schedule`. Its JSON form is a contract (design.md): fields may be
// added, never renamed or removed.
type Report struct {
	Window        WindowReport          `json:"window"`
	Placements    []model.Placement     `json:"placements"`
	Unschedulable []model.Unschedulable `json:"unschedulable"`
	Seeds         []SeedReport          `json:"seeds"`
	// Bindings counts what became of the placements applied to a cluster, by result; absent when nothing was
	// applied (files, --dry-run). Rounds is the number of windows the schedule job ran (later ones re-plan the
	// shoots that changed while being bound).
	Bindings map[model.BindResult]int `json:"bindings,omitempty"`
	Rounds   int                      `json:"rounds,omitempty"`
	// PendingForOthers counts, when nothing is pending for this scheduler, the shoots pending for others by
	// spec.schedulerName.
	PendingForOthers map[string]int `json:"pendingForOtherSchedulers,omitempty"`
}

// WindowReport describes the solved window.
type WindowReport struct {
	Pending   int            `json:"pending"`
	Seeds     int            `json:"seeds"`
	Strategy  model.Strategy `json:"strategy"`
	Solver    string         `json:"solver"`
	Fallback  string         `json:"fallback"`
	Optimal   bool           `json:"optimal"`
	Objective float64        `json:"objective"`
	// GreedyObjective is the objective of the greedy plan of the same window: the gardener-scheduler's rule in
	// window order, as --solver greedy plans it (the LP's fallback decides by the policy's priorities first).
	GreedyObjective float64 `json:"greedyObjective"`
	// TargetUtilization is the policy's target (0: none); AboveTarget the shoots the plan places above their
	// seed's target, GreedyAboveTarget those the greedy plan would.
	TargetUtilization float64 `json:"targetUtilization"`
	AboveTarget       int     `json:"aboveTarget"`
	GreedyAboveTarget int     `json:"greedyAboveTarget"`
	// GreedyPlaced counts the shoots the greedy plan places (the plan's own are its placements); Distance and
	// GreedyDistance sum the region distances of the plan's and the greedy plan's placements.
	GreedyPlaced   int     `json:"greedyPlaced"`
	Distance       int     `json:"distance"`
	GreedyDistance int     `json:"greedyDistance"`
	Seconds        Seconds `json:"seconds"`
}

// Seconds are the durations of the phases of a window.
type Seconds struct {
	Model float64 `json:"model"`
	// Collect is the garbage collection before a solver with a time budget (plan.Schedule).
	Collect float64 `json:"collect"`
	Solve   float64 `json:"solve"`
	// Greedy is the part of Solve the greedy plan made beside the LP took (0 for the greedy solver): a budget
	// below it cannot be kept, since a fallback comes no sooner.
	Greedy float64 `json:"greedy"`
	Verify float64 `json:"verify"`
	Total  float64 `json:"total"`
}

// SeedReport is one seed before and after the plan.
type SeedReport struct {
	Name string `json:"name"`
	// Provider and Region are the seed's spec.provider type and region.
	Provider string `json:"provider"`
	Region   string `json:"region"`
	// Usage is the number of shoots the seed hosts before the plan.
	Usage int `json:"usage"`
	// Allocatable is status.allocatable.shoots, or null when the seed has no limit.
	Allocatable *int64 `json:"allocatable"`
	// Placed is the number of shoots the plan puts on the seed.
	Placed int `json:"placed"`
}

// NewReport summarises a solved window.
func NewReport(o *plan.Outcome) *Report {
	placed := o.Plan.PlacedPerSeed()
	r := &Report{
		Window: WindowReport{
			Pending: len(o.Window.Shoots), Seeds: len(o.Window.Snapshot.Seeds), Strategy: o.Window.Options.Strategy,
			Solver: o.Solver, Fallback: o.Fallback, Optimal: o.Optimal, Objective: o.Objective, GreedyObjective: o.GreedyObjective,
			TargetUtilization: o.Target, AboveTarget: o.AboveTarget, GreedyAboveTarget: o.GreedyAboveTarget,
			GreedyPlaced: o.GreedyPlaced, Distance: o.Distance, GreedyDistance: o.GreedyDistance,
			Seconds: Seconds{Model: o.ModelTime.Seconds(), Collect: o.CollectTime.Seconds(), Solve: o.SolveTime.Seconds(),
				Greedy: o.GreedyTime.Seconds(), Verify: o.VerifyTime.Seconds(), Total: (o.ModelTime + o.CollectTime + o.SolveTime + o.VerifyTime).Seconds()},
		},
		Placements:       nonNil(o.Plan.Placements),
		PendingForOthers: o.PendingForOthers,
		Unschedulable:    nonNil(o.Plan.Unschedulable),
		Seeds:            []SeedReport{},
	}
	for _, seed := range o.Window.Snapshot.Seeds {
		sr := SeedReport{Name: seed.Name, Provider: seed.Spec.Provider.Type, Region: seed.Spec.Provider.Region,
			Usage: o.Window.Snapshot.Usage(seed.Name), Placed: placed[seed.Name]}
		if a, ok := model.Allocatable(seed); ok {
			sr.Allocatable = &a
		}
		r.Seeds = append(r.Seeds, sr)
	}
	return r
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Formats are the output formats of Print. The last stands for every template: jsonpath={.window.optimal} prints
// what the template selects from the report's JSON form, as kubectl's -o jsonpath prints an object.
func Formats() []string {
	return []string{"table", "wide", "yaml", "json", "name", jsonPathFormat}
}

// jsonPathFormat stands among a command's formats for every -o jsonpath=TEMPLATE.
const jsonPathFormat = "jsonpath=TEMPLATE"

// jsonPathTemplate is format's template when format is jsonpath=TEMPLATE and formats take it.
func jsonPathTemplate(format string, formats []string) (string, bool) {
	template, ok := strings.CutPrefix(format, "jsonpath=")
	return template, ok && slices.Contains(formats, jsonPathFormat)
}

// Output is how a report is printed: one of the command's formats and, for tables, whether header and summary
// lines are left out (--no-headers), as kubectl's.
type Output struct {
	Format    string
	NoHeaders bool
	// RequireTemplateKeys makes a key a jsonpath template selects and the form lacks an error, where by default it
	// prints nothing (kubectl's --allow-missing-template-keys=false, and its default).
	RequireTemplateKeys bool
	// Page is the file the plan's HTML page is written to as well (--report; schedule, rebalance, capacity).
	Page string
}

// table says how a table is printed.
type table struct {
	wide, headers bool
}

// Print writes the report in the given output.
func (r *Report) Print(w io.Writer, out Output) error {
	if err := out.writePage(func() *Page { return SchedulePage(r) }); err != nil {
		return err
	}
	return printAs(w, out, Formats(), r, r.names, func(t table) error { return r.printTable(Inert(w), t) })
}

// Check says whether out can be printed, before the command does any work — a garden written to and then a page
// that cannot be would be a failed run after the fact: the format is one of formats (a JSONPath template one that
// parses), and the page's file, if one is asked for, can be written.
func (out Output) Check(formats []string) error {
	if err := CheckFormat(out.Format, formats); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	if out.Page == "" {
		return nil
	}
	f, err := out.pageFile()
	if err != nil {
		return err
	}
	_ = f.Close()
	if err := os.Remove(f.Name()); err != nil {
		return fmt.Errorf("--report %s: %w", out.Page, err)
	}
	return nil
}

// pageFile is a new file beside the page's (through a link, beside the file it links to) that the page is written
// to and then renamed to be the page's file (pagePath): a run that ends while writing leaves no half page. It has
// the mode of the page it replaces, else the one os.Create gives (0666 less the umask).
func (out Output) pageFile() (*os.File, error) {
	path := out.pagePath()
	info, err := os.Stat(path)
	if err == nil && info.IsDir() {
		return nil, fmt.Errorf("--report %s: is a directory", out.Page)
	}
	f, err := createBeside(path)
	if pathErr := (*fs.PathError)(nil); errors.As(err, &pathErr) {
		return nil, fmt.Errorf("--report %s: cannot write a file into %s: %w", out.Page, filepath.Dir(path), pathErr.Err)
	}
	if err == nil && info != nil {
		if err = f.Chmod(info.Mode().Perm()); err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
			return nil, fmt.Errorf("--report %s: %w", out.Page, err)
		}
	}
	return f, err
}

// createBeside creates a new file in path's directory, named after it, as os.Create would (0666 less the umask),
// where os.CreateTemp's are 0600 whatever the umask.
func createBeside(path string) (*os.File, error) {
	for {
		name := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.%d", filepath.Base(path), rand.Uint32()))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) { // else another file has the name: take another
			return f, err
		}
	}
}

// pagePath is the file the page is written to: out.Page, or the file it links to.
func (out Output) pagePath() string {
	if target, err := filepath.EvalSymlinks(out.Page); err == nil {
		return target
	}
	return out.Page
}

// writePage writes the report's page to out.Page, when one is asked for.
func (out Output) writePage(page func() *Page) error {
	if out.Page == "" {
		return nil
	}
	f, err := out.pageFile()
	if err != nil {
		return err
	}
	err = page().Write(f)
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Rename(f.Name(), out.pagePath())
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("--report %s: %w", out.Page, err)
	}
	return nil
}

// names are the shoots the plan places (-o name).
func (r *Report) names() []string {
	names := make([]string, 0, len(r.Placements))
	for _, p := range r.Placements {
		names = append(names, ShootName(p.Shoot))
	}
	return names
}

// NameWarning says why -o name names no shoot, or "" when it names one.
func (r *Report) NameWarning() string {
	if len(r.Placements) > 0 {
		return ""
	}
	return fmt.Sprintf("no shoot is placed (%d pending, %d unschedulable), and -o name names none", r.Window.Pending, len(r.Unschedulable))
}

// ShootName is a shoot as -o name prints it: shoot/NAMESPACE/NAME (explain takes it as it is).
func ShootName(key string) string { return "shoot/" + key }

// CheckFormat says whether format is one of formats, and a JSONPath template one that parses, so that a command
// can refuse an output format before it does any work.
func CheckFormat(format string, formats []string) error {
	if template, ok := jsonPathTemplate(format, formats); ok {
		_, err := parseJSONPath(template, true)
		return err
	}
	if !slices.Contains(formats, format) {
		return fmt.Errorf("unknown output format %q (one of %s)", format, strings.Join(formats, ", "))
	}
	return nil
}

// parseJSONPath parses a -o jsonpath template. A key the report lacks prints nothing when allowMissingKeys, as
// kubectl's --allow-missing-template-keys does by default (a report leaves out empty optional fields: fallback,
// …), and is an error otherwise.
func parseJSONPath(template string, allowMissingKeys bool) (*jsonpath.JSONPath, error) {
	p := jsonpath.New("output").AllowMissingKeys(allowMissingKeys)
	if err := p.Parse(template); err != nil {
		return nil, fmt.Errorf("jsonpath template %q: %w", template, err)
	}
	return p, nil
}

// printJSONPath prints what the template selects from the report's JSON form, read back as an object of the garden
// is for kubectl's JSONPath printer (whole numbers as int64, so that they print as written and compare with a
// filter's), through Inert: the values are names and messages.
func printJSONPath(w io.Writer, template string, allowMissingKeys bool, report any) error {
	p, err := parseJSONPath(template, allowMissingKeys)
	if err != nil {
		return err
	}
	data, err := jsonv2.Marshal(report, jsonv1.DefaultOptionsV1())
	if err != nil {
		return err
	}
	var object any
	if err := utiljson.Unmarshal(data, &object); err != nil {
		return err
	}
	if err := execute(p, Inert(w), object); err != nil {
		return fmt.Errorf("jsonpath template %q: %w", template, err)
	}
	return nil
}

// execute runs a parsed template over object. client-go's evaluator panics on some templates its parser accepts
// (an index right after a range over a key the report lacks, `{range .nothing}{[0]}{end}`); a template an operator
// typed is bad input, so its panic is an error. The evaluator finds every result before it prints one, so a
// template that fails while they are found prints nothing.
func execute(p *jsonpath.JSONPath, w io.Writer, object any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot be evaluated: %v", r)
		}
	}()
	return p.Execute(w, object)
}

// printAs writes a report as JSON, YAML or names (one a line, -o name), or calls table for "table" and "wide"; a
// format not among formats is an error.
func printAs(w io.Writer, out Output, formats []string, report any, names func() []string, print func(table) error) error {
	if template, ok := jsonPathTemplate(out.Format, formats); ok {
		return printJSONPath(w, template, !out.RequireTemplateKeys, report) // which parses the template, once
	}
	if err := CheckFormat(out.Format, formats); err != nil {
		return err
	}
	switch out.Format {
	case "json", "yaml":
		return PrintData(w, out.Format, report)
	case "name":
		for _, name := range names() {
			if _, err := fmt.Fprintln(Inert(w), name); err != nil {
				return err
			}
		}
		return nil
	}
	return print(table{wide: out.Format == "wide", headers: !out.NoHeaders})
}

// PrintData writes v as JSON (indented by two spaces, as kubectl prints it) or as YAML, every command's data
// output.
func PrintData(w io.Writer, format string, v any) error {
	switch format {
	case "json":
		// encoding/json's output, written as it is made instead of indented after: a window of 50,000 shoots
		// printed in 1.1 s of CPU through encoding/json's encoder, most of it re-indenting.
		if err := jsonv2.MarshalWrite(w, v, jsonv1.DefaultOptionsV1(), jsontext.WithIndent("  ")); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	case "yaml":
		b, err := yaml.Marshal(v)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	return fmt.Errorf("unknown data format %q (json or yaml)", format)
}

func (r *Report) printTable(out io.Writer, t table) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	sec := sections{w: w}
	if len(r.Placements) > 0 {
		sec.next()
		t.header(w, "SHOOT\tSEED\tDISTANCE"+t.wideColumns("\tSHOOT REGION\tSEED REGION"))
		for _, p := range r.Placements {
			fmt.Fprintf(w, "%s\t%s\t%d%s\n", p.Shoot, p.Seed, p.Distance, t.wideColumns("\t"+cmp.Or(p.ShootRegion, "-")+"\t"+cmp.Or(p.SeedRegion, "-")))
		}
	}
	if len(r.Unschedulable) > 0 {
		sec.next()
		t.header(w, "UNSCHEDULABLE\tREASON\tSEEDS"+t.wideColumns("\tMESSAGE"))
		for _, u := range r.Unschedulable {
			fmt.Fprintf(w, "%s\t%s\t%s%s\n", u.Shoot, u.Reason, seedsSummary(u.Rejections, r.Window.Seeds), t.wideColumns("\t"+u.Message))
		}
	}
	if t.wide && len(r.Seeds) > 0 { // a table without rows is left out, as the others are
		sec.next()
		t.header(w, "SEED\tPROVIDER\tREGION\tUSAGE\tPLACED\tALLOCATABLE\tUTILIZATION AFTER")
		for _, s := range r.Seeds {
			allocatable, utilization := "-", "-"
			if s.Allocatable != nil {
				allocatable = fmt.Sprint(*s.Allocatable)
				if *s.Allocatable > 0 {
					utilization = percentOf(s.Usage+s.Placed, *s.Allocatable)
				}
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d\t%s\t%s\n", s.Name, s.Provider, s.Region, s.Usage, s.Placed, allocatable, utilization)
		}
	}
	if !t.headers {
		return w.Flush()
	}
	sec.next()
	fmt.Fprintln(w, r.Summary())
	return w.Flush()
}

// percentOf is n shoots of a seed's allocatable (> 0) in whole percent, rounded down as kubectl top rounds: 100% is
// full, never one shoot short of it.
func percentOf(n int, allocatable int64) string {
	return fmt.Sprintf("%d%%", 100*int64(n)/allocatable)
}

// wideColumns is columns in wide output, nothing in a table.
func (t table) wideColumns(columns string) string {
	if t.wide {
		return columns
	}
	return ""
}

// header writes a table's header line unless headers are left out.
func (t table) header(w io.Writer, line string) {
	if t.headers {
		fmt.Fprintln(w, line)
	}
}

// sections writes a table's sections, and the summary after them, with a blank line between each two: a table
// without its headers and summary ends with its last row, as kubectl's does.
type sections struct {
	w       io.Writer
	started bool
}

// next starts a section or the summary: after a blank line, unless it is the first.
func (s *sections) next() {
	if s.started {
		fmt.Fprintln(s.w)
	}
	s.started = true
}

// seedsSummary says in kube-scheduler's words why no seed took a shoot: "0/8 seeds: 6 Capacity, 2 Tolerations",
// most seeds first, or "0/0 seeds" in a landscape without any; Gardener's own message, which lists every seed,
// stays in wide output, JSON and events.
func seedsSummary(rejections []model.SeedCount, seeds int) string {
	summary := fmt.Sprintf("0/%d seeds", seeds)
	if len(rejections) == 0 {
		return summary
	}
	parts := make([]string, 0, len(rejections))
	for _, c := range rejections {
		parts = append(parts, fmt.Sprintf("%d %s", c.Seeds, c.Predicate))
	}
	return summary + ": " + strings.Join(parts, ", ")
}

// Summary is one paragraph saying what the plan does.
func (r *Report) Summary() string {
	var b strings.Builder
	r.writePlaced(&b)
	r.writeUnschedulable(&b)
	r.writeBindings(&b)
	r.writePendingForOthers(&b)
	return b.String()
}

// writePlaced says how many shoots the window placed on how many seeds, how far from their regions and how many
// above the target, each beside the greedy rule's figure when the LP decided: the greedy solver's are the rule's own.
func (r *Report) writePlaced(b *strings.Builder) {
	win := r.Window
	seedsUsed := 0
	for _, s := range r.Seeds {
		if s.Placed > 0 {
			seedsUsed++
		}
	}
	compared := win.Solver != config.SolverGreedy && win.Pending > 0
	besideGreedy := func(greedy int) {
		if compared {
			fmt.Fprintf(b, " (greedy: %d)", greedy)
		}
	}
	fmt.Fprintf(b, "Placed %d of %s", len(r.Placements), Counted(win.Pending, "pending shoot", "pending shoots"))
	besideGreedy(win.GreedyPlaced)
	fmt.Fprintf(b, " on %d of %s (strategy %s, solver %s%s) in %.3fs", seedsUsed, Counted(win.Seeds, "seed", "seeds"), win.Strategy,
		win.Solver, proofAfter(win.Optimal, win.Fallback), win.Seconds.Total)
	if win.Pending > 0 {
		fmt.Fprintf(b, "; their region distances sum to %d", win.Distance)
		besideGreedy(win.GreedyDistance)
	}
	b.WriteString(".")
	if win.TargetUtilization > 0 {
		fmt.Fprintf(b, " Placed above the %s target: %s", model.FormatFraction(win.TargetUtilization), Counted(win.AboveTarget, "shoot", "shoots"))
		besideGreedy(win.GreedyAboveTarget)
		b.WriteString(".")
	}
}

// proofOf says how far an LP's answer is proven: "optimal", "fallback: " and why the greedy rule answered
// instead, or "" (the LP's answer, not proven optimal).
func proofOf(optimal bool, fallback string) string {
	switch {
	case optimal:
		return "optimal"
	case fallback != "":
		return "fallback: " + fallback
	}
	return ""
}

// proofAfter is proofOf as the last item of a list: ", " and the proof, or nothing when there is none.
func proofAfter(optimal bool, fallback string) string {
	if proof := proofOf(optimal, fallback); proof != "" {
		return ", " + proof
	}
	return ""
}

// writeUnschedulable counts the shoots no seed took, by reason.
func (r *Report) writeUnschedulable(b *strings.Builder) {
	if len(r.Unschedulable) == 0 {
		return
	}
	byReason := map[string]int{}
	for _, u := range r.Unschedulable {
		byReason[u.Reason]++
	}
	fmt.Fprintf(b, " Unschedulable: %d (%s).", len(r.Unschedulable), countsByName(byReason, "%s %d"))
}

// writeBindings counts the bindings written to a cluster, by result, or says there were none (nothing placed).
func (r *Report) writeBindings(b *strings.Builder) {
	switch {
	case r.Bindings == nil:
		return
	case len(r.Bindings) == 0:
		b.WriteString(" Bindings: none.")
		return
	}
	fmt.Fprintf(b, " Bindings: %s", countsByName(r.Bindings, "%s %d"))
	if r.Rounds > 1 {
		fmt.Fprintf(b, " in %d rounds", r.Rounds)
	}
	b.WriteString(".")
}

// writePendingForOthers says, when nothing was pending for this scheduler name, which names shoots wait for.
func (r *Report) writePendingForOthers(b *strings.Builder) {
	if others := pendingForOthers(r.Window.Pending, r.PendingForOthers); others != "" {
		b.WriteString(" " + others + ".")
	}
}

// pendingForOthers is the sentence, without its stop, that says when nothing was pending for this scheduler name
// which names the pending shoots wait for: the hint for a scheduler name set wrong. It is "" otherwise.
func pendingForOthers(pending int, others map[string]int) string {
	if pending > 0 || len(others) == 0 {
		return ""
	}
	return fmt.Sprintf("Nothing is pending for this scheduler name, but shoots are pending for others: %s (--scheduler-name, schedulerName)",
		countsByName(others, "%[2]d for %[1]q"))
}

// countsByName lists counts in the order of their names, each written by format from its name and count.
func countsByName[K ~string](counts map[K]int, format string) string {
	parts := make([]string, 0, len(counts))
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf(format, name, counts[name]))
	}
	return strings.Join(parts, ", ")
}

// Counted is n with the noun that agrees with it: "1 move", "9 moves".
func Counted(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, agree(n, one, many))
}

// agree is the word, of one and many, that agrees with a count of n.
func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// SeedsNotHeld says on which seeds the landscape does not hold shoots are (model.Snapshot.SeedsNotHeld's counts),
// the first three by name, or "" when there is none: files of some seeds but not all are easy to pass.
func SeedsNotHeld(shoots map[string]int) string {
	if len(shoots) == 0 {
		return ""
	}
	names := slices.Sorted(maps.Keys(shoots))
	listed := make([]string, len(names))
	total := 0
	for i, name := range names {
		total += shoots[name]
		listed[i] = fmt.Sprintf("%s (%s)", name, Counted(shoots[name], "shoot", "shoots"))
	}
	return fmt.Sprintf("%s on %s the landscape does not hold: %s; %s on no seed and %s nowhere",
		Counted(total, "shoot is", "shoots are"), agree(len(names), "a seed", "seeds"), firstThree(listed, "seed", "seeds"),
		agree(total, "it counts", "they count"), agree(total, "moves", "move"))
}

// SnapshotWarnings say, one line each, what is wrong with a landscape that no shoot's outcome tells: shoots on
// seeds it does not hold (when it holds seeds: one without any is warned of as such when it is read), seeds whose
// allocatable or taint-effects annotation is not read as written (allocatableWarnings, taintEffectsWarnings), and
// its region ConfigMaps' problems (RegionConfigWarnings).
func SnapshotWarnings(snap *model.Snapshot) []string {
	var warnings []string
	if w := SeedsNotHeld(snap.SeedsNotHeld()); w != "" && len(snap.Seeds) > 0 {
		warnings = append(warnings, w)
	}
	warnings = append(warnings, allocatableWarnings(snap.MalformedAllocatables())...)
	warnings = append(warnings, taintEffectsWarnings(snap.MalformedTaintEffects())...)
	warnings = append(warnings, unboundOnStatusSeedWarnings(snap.UnboundOnStatusSeeds())...)
	return append(warnings, RegionConfigWarnings(snap.MalformedRegionEntries(), snap.ProfilesOfSeveralRegionConfigs())...)
}

// allocatableWarnings say, one line each, which seeds' allocatable is not a whole number of shoots and what the
// plan counts with instead: Gardener's reading, which nothing else shows to differ from what the seed says.
func allocatableWarnings(malformed []model.MalformedAllocatable) []string {
	lines := make([]string, len(malformed))
	for i, m := range malformed {
		reading := fmt.Sprintf("it is read as %d", m.Read)
		if m.Read == 0 { // Gardener's usage >= Value() holds for every usage, also for a negative Value()
			reading = "the seed takes no shoot"
		}
		lines[i] = fmt.Sprintf("seed %s: status.allocatable.shoots is %s, not a whole number of shoots from 0 to 2^63-1: "+
			"%s, as the gardener-scheduler reads it", m.Seed, m.Written.String(), reading)
	}
	return lines
}

// taintEffectsWarnings say, one line each, which seeds' taint-effects annotations do not parse and so are not
// read: nothing else tells that their NoExecute taints move no shoot and their soft taints cost nothing.
func taintEffectsWarnings(malformed []model.MalformedTaintEffects) []string {
	lines := make([]string, len(malformed))
	for i, m := range malformed {
		lines[i] = fmt.Sprintf("seed %s: %v: the annotation is not read, so every taint of the seed's spec.taints is "+
			"NoSchedule and none is soft, as the gardener-scheduler reads them", m.Seed, m.Err)
	}
	return lines
}

// unboundOnStatusSeedWarnings say, one line each, which shoots are pending with a status.seedName, which no garden
// holds, and how the plan then counts them unlike the gardener-scheduler (model.UnboundOnStatusSeed).
func unboundOnStatusSeedWarnings(unbound []model.UnboundOnStatusSeed) []string {
	lines := make([]string, len(unbound))
	for i, u := range unbound {
		lines[i] = fmt.Sprintf("shoot %s: status.seedName is %s but spec.seedName is unset, which a garden cannot hold: "+
			"it counts on seed %s, as the gardener-scheduler counts it, but placed there it counts twice where the "+
			"gardener-scheduler counts it once, and shoots decided after it may be placed otherwise than it places them",
			u.Shoot, u.Seed, u.Seed)
	}
	return lines
}

// RegionConfigWarnings say, one line each, what is wrong with the region ConfigMaps that nothing else tells of
// before a shoot meets it: entries Gardener cannot parse, and cloud profiles that several ConfigMaps name (each
// with the names of those ConfigMaps, in the order the snapshot takes them).
func RegionConfigWarnings(malformed []model.MalformedRegionEntry, profiles map[string][]string) []string {
	var lines []string
	for _, e := range malformed {
		lines = append(lines, fmt.Sprintf("region ConfigMap %s: entry %q does not parse (%v): under MinimalDistance, the shoots of region %s "+
			"whose cloud profile the ConfigMap names are unschedulable, as in Gardener", e.ConfigMap, e.Region, e.Err, e.Region))
	}
	for _, profile := range slices.Sorted(maps.Keys(profiles)) {
		configMaps := profiles[profile]
		lines = append(lines, fmt.Sprintf("cloud profile %s is named by %d region ConfigMaps (%s): seedplan uses %s, the first by name; "+
			"the gardener-scheduler uses whichever its cache lists first", profile, len(configMaps), strings.Join(configMaps, ", "), configMaps[0]))
	}
	return lines
}

// OtherManifestsWarning is generate's warning that the directory it wrote a landscape into holds other manifests,
// which seedplan --landscape reads with it: the same objects in the other format are duplicates, any others join
// the landscape unnoticed.
func OtherManifestsWarning(dir string, others []string) string {
	return fmt.Sprintf("--dir %s holds %s besides the landscape written, and seedplan --landscape %s reads them with it: %s",
		dir, Counted(len(others), "other manifest", "other manifests"), dir, firstThree(others, "file", "files"))
}

// firstThree lists the first three items and counts the others ("…, 2 more seeds"): a warning names a few of
// what it counts.
func firstThree(items []string, one, many string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:3], ", ") + ", " + Counted(len(items)-3, "more "+one, "more "+many)
}
