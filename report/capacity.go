package report

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
)

// CapacityReport is the output of `seedplan capacity`.
type CapacityReport struct {
	TargetUtilization float64 `json:"targetUtilization"`
	Pending           int     `json:"pending"`
	// OnExisting is how many pending shoots fit on existing seeds at or below the target, OnNew how many on the
	// new seeds; with the unplaceable ones they are the pending shoots.
	OnExisting int `json:"onExisting"`
	OnNew      int `json:"onNew"`
	// NewSeeds is the total of new seeds; LowerBound the fewest proven necessary (solver.CapacityPlan), NewSeeds when
	// Optimal, which says whether it is proven minimal.
	NewSeeds   int  `json:"newSeeds"`
	LowerBound int  `json:"lowerBound"`
	Optimal    bool `json:"optimal"`
	// Fallback is "timeout" when CLP ran out of time before the first answer of a part's LP: that part's new seeds
	// are then greedy's (solver.CapacityPlan's Fallback), its bound a cover cut's.
	Fallback string `json:"fallback,omitempty"`
	// Regions lists, per provider and region that needs new seeds, how many, like which template seed.
	Regions []RegionCapacity `json:"regions"`
	// Unplaceable are pending shoots no seed and no new seed like an existing one may take, with the reason.
	Unplaceable []model.Unschedulable `json:"unplaceable"`
	// ManagedSeedSets are the sets whose replicas new seeds are: the replicas to add to each.
	ManagedSeedSets []SetCapacity `json:"managedSeedSets"`
	// PendingForOthers counts, when no shoot is pending, the shoots pending for other schedulers by
	// spec.schedulerName, as schedule's report does.
	PendingForOthers map[string]int `json:"pendingForOtherSchedulers,omitempty"`
}

// SetCapacity is the replicas to add to one ManagedSeedSet.
type SetCapacity struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Replicas is spec.replicas now; Add how many more the new seeds are.
	Replicas int32 `json:"replicas"`
	Add      int   `json:"add"`
}

// RegionCapacity is the new seeds one provider and region need.
type RegionCapacity struct {
	Provider string `json:"provider"`
	Region   string `json:"region"`
	// Template is the existing seed the new ones copy; PerSeed the shoots one takes at the target.
	Template string `json:"template"`
	// ManagedSeedSet is namespace/name of the set the template is a replica of, or "".
	ManagedSeedSet string `json:"managedSeedSet,omitempty"`
	PerSeed        int    `json:"perSeed"`
	NewSeeds       int    `json:"newSeeds"`
	// Shoots is how many pending shoots the new seeds take.
	Shoots int `json:"shoots"`
}

// NewCapacityReport describes a capacity plan.
func NewCapacityReport(plan *plan.CapacityAnswer) *CapacityReport {
	q := plan.Question
	report := &CapacityReport{
		TargetUtilization: q.Target, Pending: len(q.Window.Shoots), OnExisting: plan.OnExisting, OnNew: plan.OnNew(),
		NewSeeds: plan.Total(), LowerBound: plan.LowerBound, Optimal: plan.Optimal, Fallback: plan.Fallback,
		Regions: []RegionCapacity{}, Unplaceable: plan.Unplaceable, ManagedSeedSets: []SetCapacity{}, PendingForOthers: plan.PendingForOthers,
	}
	for _, set := range plan.ManagedSeedSets {
		namespace, name, _ := strings.Cut(set.Set, "/")
		report.ManagedSeedSets = append(report.ManagedSeedSets, SetCapacity{Namespace: namespace, Name: name, Replicas: set.Replicas, Add: set.Add})
	}
	if report.Unplaceable == nil {
		report.Unplaceable = []model.Unschedulable{}
	}
	for i, t := range q.Templates {
		if plan.NewSeeds[i] == 0 {
			continue
		}
		report.Regions = append(report.Regions, RegionCapacity{Provider: t.Provider, Region: t.Region, Template: t.Template,
			ManagedSeedSet: t.ManagedSeedSet, PerSeed: t.PerSeed, NewSeeds: plan.NewSeeds[i], Shoots: plan.OnNewSeeds[i]})
	}
	return report
}

// Print writes the report as a table, YAML or JSON.
func (r *CapacityReport) Print(w io.Writer, out Output) error {
	if err := out.writePage(func() *Page { return CapacityPage(r) }); err != nil {
		return err
	}
	return printAs(w, out, Formats(), r, r.names, func(t table) error { return r.printTable(Inert(w), t) })
}

// names are the ManagedSeedSets to scale up (-o name).
func (r *CapacityReport) names() []string {
	names := make([]string, 0, len(r.ManagedSeedSets))
	for _, s := range r.ManagedSeedSets {
		if s.Add > 0 {
			names = append(names, "managedseedset/"+s.Namespace+"/"+s.Name)
		}
	}
	return names
}

// NameWarning says what -o name leaves out, or "": the new seeds no ManagedSeedSet provides (NotInSets), or that
// no new seed is needed at all.
func (r *CapacityReport) NameWarning() string {
	if r.NewSeeds > 0 {
		return r.NotInSets()
	}
	return "no new seed is needed, and -o name names no ManagedSeedSet"
}

// NotInSets says, for -o name, how many of the new seeds no ManagedSeedSet provides (their template is not a
// replica of one) and in which regions, the first three, or "" when every new seed is a set's: -o name names only
// sets to scale up, and a script scaling them would otherwise add fewer seeds than needed without a word.
func (r *CapacityReport) NotInSets() string {
	total := 0
	var listed []string
	for _, c := range r.Regions {
		if c.ManagedSeedSet == "" {
			total += c.NewSeeds
			listed = append(listed, fmt.Sprintf("%s %s (%d)", c.Provider, c.Region, c.NewSeeds))
		}
	}
	if total == 0 {
		return ""
	}
	return fmt.Sprintf("%d of the %s %s to no ManagedSeedSet (%s), and -o name names only ManagedSeedSets: %s",
		total, Counted(r.NewSeeds, "new seed", "new seeds"), agree(total, "belongs", "belong"),
		agree(total, "its template is not a replica of one", "their templates are not replicas of one"), firstThree(listed, "region", "regions"))
}

func (r *CapacityReport) printTable(w io.Writer, t table) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	sec := sections{w: tw}
	if len(r.Regions) > 0 {
		sec.next()
		t.header(tw, "PROVIDER\tREGION\tNEW SEEDS\tSHOOTS\tPER SEED\tTEMPLATE"+t.wideColumns("\tMANAGEDSEEDSET"))
		for _, c := range r.Regions {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s", c.Provider, c.Region, c.NewSeeds, c.Shoots, c.PerSeed, c.Template)
			fmt.Fprintln(tw, t.wideColumns("\t"+cmp.Or(c.ManagedSeedSet, "-")))
		}
	}
	if len(r.ManagedSeedSets) > 0 {
		sec.next()
		t.header(tw, "MANAGEDSEEDSET\tREPLICAS\tADD")
		for _, s := range r.ManagedSeedSets {
			fmt.Fprintf(tw, "%s/%s\t%d\t%d\n", s.Namespace, s.Name, s.Replicas, s.Add)
		}
	}
	if len(r.Unplaceable) > 0 {
		sec.next()
		t.header(tw, "UNPLACEABLE"+t.wideColumns("\tREASON")+"\tMESSAGE")
		for _, u := range r.Unplaceable {
			fmt.Fprintf(tw, "%s%s\t%s\n", u.Shoot, t.wideColumns("\t"+u.Reason), u.Message)
		}
	}
	if !t.headers {
		return tw.Flush()
	}
	sec.next()
	fmt.Fprintln(tw, r.summary(model.FormatFraction(r.TargetUtilization)+" utilization", r.proof()))
	return tw.Flush()
}

// proof qualifies the count of new seeds: minimal, or not proven so and how many are proven necessary (a minimal
// count is its own bound); and whether it was found greedily.
func (r *CapacityReport) proof() string {
	how, then := "", ", "
	if r.Fallback != "" {
		how, then = ": found greedily where CLP ran out of time before the LP's first answer", "; "
	}
	if r.Optimal {
		return " (minimal" + how + ")"
	}
	return fmt.Sprintf(" (not proven minimal%s%slower bound %d)", how, then, r.LowerBound)
}

// summary counts where the pending shoots go, which adds up to them: at or below where on existing seeds, on the
// new seeds (their count qualified by proof), on no kind of seed. Without pending shoots there is nothing to count.
func (r *CapacityReport) summary(where, proof string) string {
	summary := "No pending shoots: no new seed needed"
	if r.Pending > 0 || r.NewSeeds > 0 {
		summary = fmt.Sprintf("%s: %d fit on existing seeds at or below %s, %d on the %s needed%s, %d on no kind of seed",
			Counted(r.Pending, "pending shoot", "pending shoots"), r.OnExisting, where, r.OnNew, Counted(r.NewSeeds, "new seed", "new seeds"),
			proof, len(r.Unplaceable))
	}
	if others := pendingForOthers(r.Pending, r.PendingForOthers); others != "" {
		summary += ". " + others
	}
	return summary
}
