package report

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
)

// RebalanceReport is the output of `seedplan rebalance` (design.md: a contract).
type RebalanceReport struct {
	TargetUtilization float64 `json:"targetUtilization"`
	// Strategy is the candidate determination strategy the moves were planned under (apply -f checks them so).
	Strategy model.Strategy `json:"strategy"`
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
	// Fallback says why the moves were found greedily, as a window's fallback does: "timeout" (CLP ran out of
	// time) or "range" (the costs were beyond CLP's range); "" when CLP found them.
	Fallback string `json:"fallback"`
	// Unresolved counts the shoots seeds stay above their limits, or that had to leave and could not.
	Unresolved int `json:"unresolved"`
	// Applied holds what became of each move with --apply.
	Applied []model.MoveResult `json:"applied,omitempty"`
	// InGrace are the unhealthy seeds whose shoots do not have to leave yet.
	InGrace []SeedInGrace `json:"inGrace"`
}

// SeedInGrace is an unhealthy seed inside its grace period (rebalance.unusableGrace).
type SeedInGrace struct {
	Name   string    `json:"name"`
	Reason string    `json:"reason"`
	Since  time.Time `json:"since"`
	// LeftSeconds is the time until its shoots must leave.
	LeftSeconds float64 `json:"leftSeconds"`
}

// left is the time until the seed's shoots must leave, to the second.
func (g SeedInGrace) left() time.Duration {
	return time.Duration(g.LeftSeconds * float64(time.Second)).Round(time.Second)
}

// SeedChange is a seed's number of shoots before and after the moves (after their migrations completed).
type SeedChange struct {
	Name string `json:"name"`
	// Provider and Region are the seed's spec.provider type and region.
	Provider string `json:"provider"`
	Region   string `json:"region"`
	// Before is the seed's shoots now, as Gardener counts them (a shoot whose control plane is moving counts on
	// both seeds); After, once the moves and the migrations already in flight have finished.
	Before int `json:"before"`
	// MigratingAway is the shoots among Before whose control planes are moving off the seed already: After
	// counts them gone, so that Before - MigratingAway - moves off + moves onto = After.
	MigratingAway int `json:"migratingAway"`
	After         int `json:"after"`
	// Allocatable is status.allocatable.shoots, omitted for a seed without it.
	Allocatable *int64 `json:"allocatable,omitempty"`
	// Limit is the most shoots at the target utilization (0 for a drained seed), omitted without allocatable.
	Limit *int `json:"limit,omitempty"`
	// Reasons say why the seed sheds shoots, in the words of a move off it: drain or unusable (every shoot must
	// leave), else overloaded and NoExecute; none for a seed listed only because moves reach it.
	Reasons []SeedReason `json:"reasons,omitempty"`
}

// SeedReason is one reason a seed sheds shoots and what exactly: which condition since when, how far the seed is
// above its target, which NoExecute taints how many of its shoots do not tolerate.
type SeedReason struct {
	Reason model.LeaveReason `json:"reason"`
	Detail string            `json:"detail"`
}

// seedReasons says why a seed sheds shoots: its drain, or else its overload and the noExecute shoots that do not
// tolerate its NoExecute taints.
func seedReasons(l model.SeedLoad, noExecute int, taints []gardencorev1beta1.SeedTaint) []SeedReason {
	if l.Drain.Required() {
		return []SeedReason{{Reason: l.Drain.Reason, Detail: l.Drain.Detail}}
	}
	var reasons []SeedReason
	if l.Excess() > 0 {
		reasons = append(reasons, SeedReason{Reason: model.LeaveOverloaded, Detail: overloadDetail(l)})
	}
	if noExecute > 0 {
		keys := make([]string, len(taints))
		for i, t := range taints {
			keys[i] = strconv.Quote(t.Key)
		}
		reasons = append(reasons, SeedReason{Reason: model.LeaveNoExecute, Detail: fmt.Sprintf("%s %s not tolerate %s %s",
			Counted(noExecute, "shoot", "shoots"), agree(noExecute, "does", "do"), agree(len(keys), "its NoExecute taint", "all of its NoExecute taints"),
			strings.Join(keys, ", "))})
	}
	return reasons
}

// overloadDetail says how far an overloaded seed is above its target, not counting the shoots moving away.
func overloadDetail(l model.SeedLoad) string {
	detail := fmt.Sprintf("the seed hosts %s, %d above its target of %d", Counted(l.Staying(), "shoot", "shoots"), l.Excess(), l.Limit)
	if l.MigratingAway > 0 {
		detail += fmt.Sprintf(", and %s whose control %s moving away", Counted(l.MigratingAway, "shoot", "shoots"), agree(l.MigratingAway, "plane is", "planes are"))
	}
	return detail
}

// movesDetailed is a copy of the moves in which each move off an overloaded seed says how far that seed is above its
// target; the other moves carry the detail of why their shoot must leave (model.Leave) already, and an overloaded
// seed's have none (a Leave's detail comes with its reason).
func movesDetailed(r *model.Rebalancing, moves []model.Move) []model.Move {
	seeds := make(map[string]model.SeedLoad, len(r.Seeds))
	for i, seed := range r.Snapshot.Seeds {
		seeds[seed.Name] = r.Seeds[i]
	}
	detailed := make([]model.Move, len(moves))
	for i, m := range moves {
		if l := seeds[m.From]; m.Reason == model.LeaveOverloaded {
			m.Detail = overloadDetail(l)
		}
		detailed[i] = m
	}
	return detailed
}

// NewRebalanceReport describes a rebalancing plan.
func NewRebalanceReport(plan *plan.Rebalanced) *RebalanceReport {
	r := plan.Problem
	lines := make([]string, len(plan.Problems))
	for i, p := range plan.Problems {
		lines[i] = problemLine(p)
	}
	report := &RebalanceReport{
		TargetUtilization: r.Target.TargetUtilization, Strategy: r.Options.Strategy, LowerBound: plan.LowerBound, Moves: movesDetailed(r, plan.Moves),
		Complete: plan.Complete(), Message: strings.Join(lines, "\n"), Optimal: plan.Optimal, Fallback: plan.Fallback,
		Unresolved: plan.Unresolved,
	}
	delta := map[string]int{}
	for _, m := range plan.Moves {
		delta[m.From]--
		delta[m.To]++
	}
	report.Seeds, report.InGrace = []SeedChange{}, []SeedInGrace{}
	for i, l := range r.Seeds {
		if g := l.Grace; g != nil {
			report.InGrace = append(report.InGrace, SeedInGrace{Name: r.Snapshot.Seeds[i].Name, Reason: g.Reason, Since: g.Since.UTC(), LeftSeconds: g.Left.Seconds()})
		}
	}
	unresolved := map[string]bool{}
	for _, p := range plan.Problems {
		unresolved[p.Seed] = true
	}
	noExecute := make([]int, len(r.Seeds))
	for _, b := range r.Shoots {
		if b.Leave.Reason == model.LeaveNoExecute {
			noExecute[b.Seed]++
		}
	}
	for i, seed := range r.Snapshot.Seeds {
		l := r.Seeds[i]
		d, touched := delta[seed.Name]
		if !touched && l.Excess() == 0 && !l.Drain.Required() && !unresolved[seed.Name] {
			continue
		}
		change := SeedChange{Name: seed.Name, Provider: seed.Spec.Provider.Type, Region: seed.Spec.Provider.Region,
			Before: l.Load, MigratingAway: l.MigratingAway, After: l.Staying() + d,
			Reasons: seedReasons(l, noExecute[i], r.Snapshot.NoExecuteTaints(i))}
		if allocatable, ok := model.Allocatable(seed); ok {
			change.Allocatable, change.Limit = &allocatable, &l.Limit
		}
		report.Seeds = append(report.Seeds, change)
	}
	return report
}

// Print writes the report as a table, YAML or JSON.
func (r *RebalanceReport) Print(w io.Writer, out Output) error {
	if err := out.writePage(func() *Page { return RebalancePage(r) }); err != nil {
		return err
	}
	return printAs(w, out, Formats(), r, r.names, func(t table) error { return r.printTable(Inert(w), t) })
}

// names are the shoots the moves move (-o name).
func (r *RebalanceReport) names() []string {
	names := make([]string, 0, len(r.Moves))
	for _, m := range r.Moves {
		names = append(names, ShootName(m.Shoot))
	}
	return names
}

// NameWarning says why -o name names no shoot to move, or "" when it names one.
func (r *RebalanceReport) NameWarning() string {
	if len(r.Moves) > 0 {
		return ""
	}
	return "no move is recommended, and -o name names none"
}

// printTable writes the moves, seeds, seeds in grace and applied moves; wide adds each move's regions and detail.
func (r *RebalanceReport) printTable(out io.Writer, t table) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	sec := sections{w: w}
	if len(r.Moves) > 0 {
		sec.next()
		r.printMoves(w, t)
	}
	if len(r.Seeds) > 0 {
		sec.next()
		r.printSeeds(w, t)
	}
	if len(r.InGrace) > 0 {
		sec.next()
		r.printInGrace(w, t)
	}
	if len(r.Applied) > 0 {
		sec.next()
		r.printApplied(w, t)
	}
	if !t.headers {
		return w.Flush()
	}
	sec.next()
	fmt.Fprintf(w, "%s (target utilization %s%s)\n", r.summary(), model.FormatFraction(r.TargetUtilization), proofAfter(r.Optimal, r.Fallback))
	if line := r.appliedLine(); line != "" {
		fmt.Fprintln(w, line)
	}
	if !r.Complete {
		fmt.Fprintln(w, "incomplete:")
		for line := range strings.SplitSeq(r.Message, "\n") {
			fmt.Fprintln(w, "  "+line)
		}
	}
	return w.Flush()
}

// printMoves writes a row per move, when it starts and why; wide adds the regions it moves between and its detail.
func (r *RebalanceReport) printMoves(w io.Writer, t table) {
	t.header(w, "SHOOT\tFROM\tTO\tDISTANCE\tSTARTS\tREASON"+t.wideColumns("\tFROM REGION\tTO REGION\tDETAIL"))
	regions := make(map[string]string, len(r.Seeds))
	for _, s := range r.Seeds {
		regions[s.Name] = s.Region
	}
	region := func(seed string) string { return cmp.Or(regions[seed], "-") }
	for _, m := range r.Moves {
		starts := "now"
		if m.StartsAt != nil {
			starts = m.StartsAt.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s%s\n", m.Shoot, m.From, m.To, m.Distance, starts, m.Reason,
			t.wideColumns("\t"+region(m.From)+"\t"+region(m.To)+"\t"+m.Detail))
	}
}

// printSeeds writes a row per seed the moves concern: its counts, which add up, and why it sheds shoots.
func (r *RebalanceReport) printSeeds(w io.Writer, t table) {
	t.header(w, "SEED\tBEFORE\tMIGRATING AWAY\tAFTER\tLIMIT\tALLOCATABLE\tREASON"+t.wideColumns("\tDETAIL"))
	for _, s := range r.Seeds {
		limit, allocatable := "-", "-"
		if s.Allocatable != nil {
			limit, allocatable = fmt.Sprint(*s.Limit), fmt.Sprint(*s.Allocatable)
		}
		reasons, details := []string{}, []string{}
		for _, why := range s.Reasons {
			reasons, details = append(reasons, string(why.Reason)), append(details, why.Detail)
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%s\t%s\t%s%s\n", s.Name, s.Before, s.MigratingAway, s.After, limit, allocatable,
			cmp.Or(strings.Join(reasons, ","), "-"), t.wideColumns("\t"+cmp.Or(strings.Join(details, "; "), "-")))
	}
}

// printInGrace writes a row per unhealthy seed still in its grace period.
func (r *RebalanceReport) printInGrace(w io.Writer, t table) {
	t.header(w, "IN GRACE\tREASON\tSINCE\tMOVES IN")
	for _, g := range r.InGrace {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", g.Name, g.Reason, g.Since.Format(time.RFC3339), g.left())
	}
}

// printApplied writes a row per move apply made or skipped, with its result, as apply -f does.
func (r *RebalanceReport) printApplied(w io.Writer, t table) {
	t.header(w, "APPLIED\tTO\tRESULT\tDETAIL")
	NewMovesApplied(r.Applied, len(r.Moves)).printRows(w)
}

// summary counts the moves and what they leave unresolved, which add up to the lower bound when the moves are
// optimal.
func (r *RebalanceReport) summary() string {
	return fmt.Sprintf("%s, %s unresolved, lower bound %d", Counted(len(r.Moves), "move", "moves"), Counted(r.Unresolved, "shoot", "shoots"), r.LowerBound)
}

// appliedLine counts what became of the moves with --apply, and those the run did not start, or is "" without
// --apply or without moves (a drain that only cordoned: the line before says there were none).
func (r *RebalanceReport) appliedLine() string {
	if r.Applied == nil || len(r.Moves) == 0 {
		return ""
	}
	return fmt.Sprintf("Of the %s: %s.", Counted(len(r.Moves), "move", "moves"), NewMovesApplied(r.Applied, len(r.Moves)).counts())
}

// migrationRules words the migration rules moves would break, as what they require.
func migrationRules(rules model.MigrationRules) string {
	var words []string
	for _, r := range []struct {
		rule  model.MigrationRules
		words string
	}{
		{model.MigrationNeedsBackup, "backup on both seeds"},
		{model.MigrationKeepsInternalDomain, "the same internal domain"},
		{model.MigrationKeepsDefaultDomain, "the default domain the shoot uses on the new seed"},
	} {
		if rules.Has(r.rule) {
			words = append(words, r.words)
		}
	}
	if n := len(words); n > 1 {
		return strings.Join(words[:n-1], ", ") + " and " + words[n-1]
	}
	return strings.Join(words, "")
}

// strandedWhy says why a seed's movable shoots have nowhere to go: no seed passes every predicate and the migration
// rules (within the move distance), or the migration rules alone exclude those that pass the predicates.
func strandedWhy(p model.SeedProblem) []string {
	var why []string
	if p.Stranded > 0 {
		within := ""
		if p.MaxMoveDistance != nil {
			within = fmt.Sprintf(" within a move distance of %d", *p.MaxMoveDistance)
		}
		why = append(why, fmt.Sprintf("%d of its shoots %s no other seed%s that passes every predicate and the migration rules", p.Stranded, agree(p.Stranded, "has", "have"), within))
	}
	if p.Unmigratable > 0 {
		why = append(why, fmt.Sprintf("%d of its shoots may only move to seeds the migration rules exclude, which require %s", p.Unmigratable, migrationRules(p.BrokenRules)))
	}
	return why
}

// problemLine says in one line why a seed stays unresolved.
func problemLine(p model.SeedProblem) string {
	var why []string
	if p.Unmovable > 0 {
		why = append(why, fmt.Sprintf("%d of its shoots cannot be moved (deleting, migrating, self-hosted or of another scheduler)", p.Unmovable))
	}
	if stuck := p.Stranded + p.Unmigratable; stuck > 0 && p.WithoutBackup {
		why = append(why, fmt.Sprintf("%d of its shoots cannot migrate: the seed has no backup (spec.backup), which Gardener requires of both seeds of a migration", stuck))
	} else {
		why = append(why, strandedWhy(p)...)
	}
	if p.Blocked > 0 {
		why = append(why, fmt.Sprintf("%d of its shoots may only move to seeds already at their target", p.Blocked))
	}
	if p.Draining > 0 {
		why = append(why, fmt.Sprintf("%d of its shoots may only move to seeds being emptied themselves", p.Draining))
	}
	if p.MaxMoves > 0 {
		why = append(why, fmt.Sprintf("--max-moves %d is reached", p.MaxMoves))
	}
	if p.MaxMovesPerSeed > 0 {
		why = append(why, fmt.Sprintf("--max-moves-per-seed %d is reached", p.MaxMovesPerSeed))
	}
	if p.NoRoom {
		why = append(why, "the seeds its other shoots may move to have no room left at or below their target")
	}
	state := fmt.Sprintf("stays %d above its limit of %d", p.Above, p.Limit)
	if p.Stuck >= p.Above {
		state = fmt.Sprintf("keeps %s that must leave", Counted(p.Stuck, "shoot", "shoots"))
		if p.Above > 0 && p.Limit > 0 { // a drained seed's limit is 0: all its shoots are the ones above it
			state += fmt.Sprintf(", and is %d above its limit of %d", p.Above, p.Limit)
		}
	}
	return fmt.Sprintf("seed %s %s: %s", p.Seed, state, strings.Join(why, "; "))
}
