package report

import (
	"cmp"
	"embed"
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/seedplan/seedplan/model"
)

// Page is a plan as one self-contained HTML page (--report FILE.html): inline SVG, no scripts, no external assets,
// to look at before applying it. Per region and seed it shows utilization before and after against allocatable
// and the target; the shoots placed outside their region and rebalancing's moves as from → to with counts;
// unschedulable shoots by reason; capacity's new seeds per provider and region; and in words what the table says
// beside its counts (Lists).
type Page struct {
	Title   string
	Summary string
	// Target is the target utilization the bars mark (0: none).
	Target  float64
	Regions []PageRegion
	Moves   []PageBar
	// Elsewhere counts the placements outside their shoot's region, by shoot region → seed region.
	Elsewhere []PageBar
	// Reasons count the shoots left unplaced by reason, under ReasonsTitle: the plan's unschedulable shoots, or
	// those no kind of seed takes (capacity).
	Reasons      []PageBar
	ReasonsTitle string
	NewSeeds     []PageBar
	// Lists are the plan's sentences, in the table output's words: why seeds shed shoots, which unhealthy seeds
	// are still in their grace period, why the plan leaves seeds above their target.
	Lists []PageList
}

// PageList is a titled list of sentences; a list without items is not shown.
type PageList struct {
	Title, ID string
	Items     []string
}

// PageRegion is the seeds of one provider and region.
type PageRegion struct {
	Provider, Region string
	Seeds            []PageSeed
}

// PageSeed is one seed's shoots before and after the plan.
type PageSeed struct {
	Name          string
	Before, After int
	// Allocatable is status.allocatable.shoots as the gardener-scheduler reads it; nil for a seed without it, which
	// has no limit (then only the counts are shown), and 0 for one that admits no shoot.
	Allocatable *int64
}

// AdmitsNoShoot reports whether the seed has an allocatable of 0, which admits no shoot: a full seed, not one
// without a limit.
func (s PageSeed) AdmitsNoShoot() bool { return s.Allocatable != nil && *s.Allocatable == 0 }

// PageBar is one labelled count: a move from → to, a reason, a region's new seeds.
type PageBar struct {
	Label string
	Count int
}

// SchedulePage is the page of a schedule plan: every seed before and after, the shoots placed outside their region,
// and the unschedulable shoots by reason.
func SchedulePage(r *Report) *Page {
	p := &Page{Title: "seedplan schedule", Summary: r.Summary(), Target: r.Window.TargetUtilization}
	var seeds []seedRow
	for _, s := range r.Seeds {
		seeds = append(seeds, seedRow{s.Provider, s.Region, PageSeed{Name: s.Name, Before: s.Usage, After: s.Usage + s.Placed, Allocatable: s.Allocatable}})
	}
	p.Regions = byRegion(seeds)
	elsewhere := map[string]int{}
	for _, pl := range r.Placements {
		if pl.ShootRegion != pl.SeedRegion {
			elsewhere[pl.ShootRegion+" → "+pl.SeedRegion]++
		}
	}
	p.Elsewhere = bars(elsewhere)
	p.Reasons, p.ReasonsTitle = byReason(r.Unschedulable), "Unschedulable shoots by reason"
	return p
}

// RebalancePage is the page of a rebalancing: the seeds the moves touch before and after, and the moves.
func RebalancePage(r *RebalanceReport) *Page {
	summary := r.summary()
	if proof := proofOf(r.Optimal, r.Fallback); proof != "" {
		summary += " (" + proof + ")"
	}
	summary += "."
	if line := r.appliedLine(); line != "" {
		summary += " " + line
	}
	p := &Page{Title: "seedplan rebalance", Target: r.TargetUtilization, Summary: summary}
	var seeds []seedRow
	for _, s := range r.Seeds {
		seeds = append(seeds, seedRow{s.Provider, s.Region, PageSeed{Name: s.Name, Before: s.Before, After: s.After, Allocatable: s.Allocatable}})
	}
	p.Regions = byRegion(seeds)
	moves := map[string]int{}
	for _, m := range r.Moves {
		moves[m.From+" → "+m.To]++
	}
	p.Moves = bars(moves)
	p.Lists = rebalanceLists(r)
	return p
}

// rebalanceLists says in words what a rebalancing's table says beside its counts: each reason a seed sheds shoots
// with its detail, the migrations already moving shoots off seeds (which the bars' "before" counts and "after" does
// not), the seeds in their grace period, and the incomplete plan's lines.
func rebalanceLists(r *RebalanceReport) []PageList {
	shed := PageList{Title: "Why seeds shed shoots", ID: "seed-reasons"}
	away := PageList{Title: "Migrations already moving shoots away", ID: "migrating-away"}
	for _, s := range r.Seeds {
		for _, why := range s.Reasons {
			shed.Items = append(shed.Items, fmt.Sprintf("%s: %s, %s", s.Name, why.Reason, why.Detail))
		}
		if n := s.MigratingAway; n > 0 {
			away.Items = append(away.Items, fmt.Sprintf("%s: %s moving away already, counted before and not after",
				s.Name, Counted(n, "shoot's control plane is", "shoots' control planes are")))
		}
	}
	grace := PageList{Title: "Unhealthy seeds in their grace period", ID: "in-grace"}
	for _, g := range r.InGrace {
		grace.Items = append(grace.Items, fmt.Sprintf("%s: %s since %s; its shoots must leave in %s", g.Name, g.Reason,
			g.Since.Format(time.RFC3339), g.left()))
	}
	unresolved := PageList{Title: "Incomplete", ID: "incomplete"}
	if !r.Complete {
		unresolved.Items = strings.Split(r.Message, "\n")
	}
	return []PageList{shed, away, grace, unresolved}
}

// CapacityPage is the page of a capacity answer: new seeds per provider and region.
func CapacityPage(r *CapacityReport) *Page {
	p := &Page{Title: "seedplan capacity", Target: r.TargetUtilization,
		Summary: r.summary("the target", r.proof()) + "."}
	newSeeds := map[string]int{}
	for _, c := range r.Regions {
		newSeeds[c.Provider+"/"+c.Region] += c.NewSeeds
	}
	p.NewSeeds = bars(newSeeds)
	// As the summary counts them: no new seed like an existing one helps these shoots.
	p.Reasons, p.ReasonsTitle = byReason(r.Unplaceable), "Shoots on no kind of seed, by reason"
	return p
}

// byReason counts shoots by the predicate that left them unplaced.
func byReason(shoots []model.Unschedulable) []PageBar {
	reasons := map[string]int{}
	for _, u := range shoots {
		reasons[u.Reason]++
	}
	return bars(reasons)
}

// seedRow is a seed with its region, before grouping.
type seedRow struct {
	provider, region string
	seed             PageSeed
}

// byRegion groups seeds by provider and region, both in name order.
func byRegion(rows []seedRow) []PageRegion {
	groups := map[[2]string][]PageSeed{}
	for _, r := range rows {
		key := [2]string{r.provider, r.region}
		groups[key] = append(groups[key], r.seed)
	}
	keys := slices.SortedFunc(maps.Keys(groups), func(a, b [2]string) int {
		return cmp.Or(strings.Compare(a[0], b[0]), strings.Compare(a[1], b[1]))
	})
	regions := make([]PageRegion, 0, len(keys))
	for _, k := range keys {
		seeds := groups[k]
		slices.SortFunc(seeds, func(a, b PageSeed) int { return strings.Compare(a.Name, b.Name) })
		regions = append(regions, PageRegion{Provider: k[0], Region: k[1], Seeds: seeds})
	}
	return regions
}

// bars are counts by label, most first, ties by label.
func bars(counts map[string]int) []PageBar {
	out := make([]PageBar, 0, len(counts))
	for label, n := range counts {
		out = append(out, PageBar{Label: label, Count: n})
	}
	slices.SortFunc(out, func(a, b PageBar) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Label, b.Label))
	})
	return out
}

//go:embed page.html.tmpl
var pageTemplates embed.FS

// Write writes the page as HTML.
func (p *Page) Write(w io.Writer) error {
	most := func(bars []PageBar) int {
		m := 1
		for _, b := range bars {
			m = max(m, b.Count)
		}
		return m
	}
	t, err := template.New("page.html.tmpl").Funcs(template.FuncMap{
		// Seeds: a bar of 500 px is the seed's allocatable; the target is a line across it.
		"px":       func(n int, of int64) float64 { return 500 * min(1, float64(n)/float64(max(of, 1))) },
		"percent":  func(n int, of int64) string { return percentOf(n, max(of, 1)) },
		"above":    func(n int, of int64, target float64) bool { return target > 0 && float64(n) > target*float64(of) },
		"targetX":  func(target float64) float64 { return 260 + 500*target },
		"targetAt": func(target float64) float64 { return 100 * target },
		// Counts: the largest is 480 px.
		"barPx":  func(n int, bars []PageBar) float64 { return 480 * float64(n) / float64(most(bars)) },
		"barEnd": func(n int, bars []PageBar) float64 { return 366 + 480*float64(n)/float64(most(bars)) },
		"row":    func(i int) int { return 24 * i },
		"height": func(rows int) int { return 24*rows + 4 },
		"dict": func(kv ...any) map[string]any {
			m := map[string]any{}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		},
	}).ParseFS(pageTemplates, "page.html.tmpl")
	if err != nil {
		return fmt.Errorf("the page template: %w", err)
	}
	return t.Execute(w, p)
}
