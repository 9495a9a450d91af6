package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/utils/ptr"

	"github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// An unschedulable shoot's line says in kube-scheduler's words how many seeds each predicate excluded; Gardener's
// message, which names every seed, is in wide output only.
func TestUnschedulableShootsSummarizeTheirSeeds(t *testing.T) {
	gardener := "0/8 seed cluster candidate(s) are eligible for scheduling: {a => seed does not have available capacity for shoots, ...}"
	r := &report.Report{
		Window: report.WindowReport{Seeds: 8},
		Unschedulable: []model.Unschedulable{{Shoot: "garden-dev/web", Reason: "Capacity", Message: gardener,
			Rejections: []model.SeedCount{{Predicate: "Capacity", Seeds: 6}, {Predicate: "Tolerations", Seeds: 2}}}},
	}
	for _, tc := range []struct {
		format, want, notWant string
	}{
		{format: "table", want: "garden-dev/web  Capacity  0/8 seeds: 6 Capacity, 2 Tolerations\n", notWant: gardener},
		{format: "wide", want: "garden-dev/web  Capacity  0/8 seeds: 6 Capacity, 2 Tolerations  " + gardener + "\n"},
		{format: "json", want: `"rejections": [`},
	} {
		var out bytes.Buffer
		if err := r.Print(&out, report.Output{Format: tc.format}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tc.want) || (tc.notWant != "" && strings.Contains(out.String(), tc.notWant)) {
			t.Errorf("%s output:\n%s\nwant it to contain %q (and not %q)", tc.format, out.String(), tc.want, tc.notWant)
		}
	}
}

// A table without rows is left out, in wide output as in the table: a landscape without seeds prints no seed
// table's header, only the summary.
func TestWideOutputLeavesOutEmptyTables(t *testing.T) {
	r := &report.Report{Window: report.WindowReport{Strategy: "SameRegion", Solver: "lp"}}
	var out bytes.Buffer
	if err := r.Print(&out, report.Output{Format: "wide"}); err != nil {
		t.Fatal(err)
	}
	if want := r.Summary() + "\n"; out.String() != want {
		t.Errorf("wide output without seeds:\n%q\nwant only the summary %q", out.String(), want)
	}
}

// -o wide's seed table and the page show each seed's utilization after the plan rounded down, as kubectl top
// rounds it: 100% only for a full seed, and never more than the seed holds. A seed of allocatable 0 admits no
// shoot; only one without an allocatable has no limit.
func TestWideSeedUtilizationIsRoundedDown(t *testing.T) {
	for _, tc := range []struct {
		name          string
		usage, placed int
		allocatable   *int64
		want, page    string
	}{
		{"one shoot short of full", 150, 49, ptr.To[int64](200), "99%", "150 → 199 of 200 (99%)"},
		{"full", 150, 50, ptr.To[int64](200), "100%", "150 → 200 of 200 (100%)"},
		{"just above the target", 150, 11, ptr.To[int64](200), "80%", "150 → 161 of 200 (80%)"},
		{"over its allocatable", 21, 0, ptr.To[int64](20), "105%", "21 → 21 of 20 (105%)"},
		{"no allocatable shoots", 0, 0, ptr.To[int64](0), "-", "0 → 0 of 0 (admits no shoot)"},
		{"allocatable lowered to 0 under its shoots", 3, 0, ptr.To[int64](0), "-", "3 → 3 of 0 (admits no shoot)"},
		{"no limit", 5, 1, nil, "-", "5 → 6 shoots (no allocatable limit)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &report.Report{Seeds: []report.SeedReport{{Name: "aws-eu1", Provider: "aws", Region: "eu-west-1", Usage: tc.usage, Placed: tc.placed,
				Allocatable: tc.allocatable}}}
			var out bytes.Buffer
			if err := r.Print(&out, report.Output{Format: "wide", NoHeaders: true}); err != nil {
				t.Fatal(err)
			}
			fields := strings.Fields(out.String())
			if len(fields) != 7 || fields[0] != "aws-eu1" || fields[1] != "aws" || fields[2] != "eu-west-1" || fields[6] != tc.want {
				t.Errorf("seed row %q, want its utilization %s", out.String(), tc.want)
			}
			var page bytes.Buffer
			if err := report.SchedulePage(r).Write(&page); err != nil {
				t.Fatal(err)
			}
			if texts := regexp.MustCompile(`>([^<>]*→[^<>]*)</text>`).FindAllStringSubmatch(page.String(), -1); len(texts) != 1 || texts[0][1] != tc.page {
				t.Errorf("the page says %q of the seed, want %q:\n%s", texts, tc.page, page.String())
			}
		})
	}
}

// -o json is encoding/json's indented output, byte for byte, though it is written as it is made: HTML
// characters and control characters escaped alike, empty lists and nulls alike, numbers alike.
func TestJSONOutputIsEncodingJSONs(t *testing.T) {
	allocatable := int64(7)
	r := &report.Report{
		Window:     report.WindowReport{Pending: 3, Objective: 56414407888778090, GreedyObjective: 1e-7, TargetUtilization: 0.8, Seconds: report.Seconds{Model: 0.000123}},
		Placements: []model.Placement{{Shoot: "garden-a/web<&>", Seed: "aws-eu1", Distance: 3}},
		Unschedulable: []model.Unschedulable{{Shoot: "garden-a/db\x1b", Reason: "Strategy", Message: "0/2 seed cluster candidate(s) \u2028 {a => b}",
			Rejections: []model.SeedCount{{Predicate: "Capacity", Seeds: 2}}}},
		Seeds:    []report.SeedReport{{Name: "aws-eu1", Allocatable: &allocatable, Usage: 1e6, Placed: 1}, {Name: "aws-eu2"}},
		Bindings: map[model.BindResult]int{},
	}
	var got bytes.Buffer
	if err := r.Print(&got, report.Output{Format: "json"}); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("-o json:\n%s\nencoding/json:\n%s", got.String(), want.String())
	}
}

// -o jsonpath=TEMPLATE prints what the template selects from the report's JSON form, as kubectl's -o jsonpath
// prints an object: numbers as JSON writes them, a key the report lacks as nothing, a range over a list, and
// names through Inert like every other text output.
func TestJSONPathPrintsWhatTheTemplateSelects(t *testing.T) {
	allocatable := int64(7)
	r := &report.Report{
		Window: report.WindowReport{Pending: 3, Solver: "lp", Optimal: true, Objective: 56414407888778090, TargetUtilization: 0.8},
		Placements: []model.Placement{{Shoot: "garden-a/web", Seed: "aws-eu1", Distance: 3},
			{Shoot: "garden-a/db\x1b[2J", Seed: "aws-eu2"}},
		Seeds: []report.SeedReport{{Name: "aws-eu1", Allocatable: &allocatable, Usage: 1, Placed: 1}},
	}
	for _, tc := range []struct{ template, want string }{
		{`{.window.optimal} {.window.solver}`, "true lp"},
		{`{.window.targetUtilization} {.window.objective} {.seeds[0].allocatable}`, "0.8 56414407888778090 7"},
		{`{range .placements[*]}{.shoot}{"\t"}{.seed}{"\n"}{end}`, "garden-a/web\taws-eu1\ngarden-a/db\\x1b[2J\taws-eu2\n"},
		{`{.placements[?(@.distance>0)].shoot}`, "garden-a/web"},
		{`[{.window.noSuchField}]`, "[]"},
		{`plain text`, "plain text"},
	} {
		var got bytes.Buffer
		if err := r.Print(&got, report.Output{Format: "jsonpath=" + tc.template}); err != nil {
			t.Fatalf("%s: %v", tc.template, err)
		}
		if got.String() != tc.want {
			t.Errorf("-o jsonpath=%s printed %q, want %q", tc.template, got.String(), tc.want)
		}
	}
}

// What only running a template finds is an error naming it too, and the template prints nothing; that includes the
// templates client-go's evaluator panics on.
func TestJSONPathThatFailsToRunPrintsNothing(t *testing.T) {
	r := &report.Report{Window: report.WindowReport{Pending: 3, Solver: "lp", Optimal: true}}
	for _, tc := range []struct {
		template, wantErr string
		panics            bool // the error goes on in reflect's words, which are Go's to change
	}{
		{template: `{.window.solver}{end}`, wantErr: `jsonpath template "{.window.solver}{end}": not in range, nothing to end`},
		{template: `{.window.solver}{range .noSuchList}{[0]}{end}`, panics: true,
			wantErr: `jsonpath template "{.window.solver}{range .noSuchList}{[0]}{end}": cannot be evaluated: `},
		{template: `{range .}{[]}`, panics: true, wantErr: `jsonpath template "{range .}{[]}": cannot be evaluated: `},
	} {
		var got bytes.Buffer
		err := r.Print(&got, report.Output{Format: "jsonpath=" + tc.template})
		switch {
		case err == nil:
			t.Errorf("-o jsonpath=%s: no error, want %q", tc.template, tc.wantErr)
		case tc.panics && !strings.HasPrefix(err.Error(), tc.wantErr):
			t.Errorf("-o jsonpath=%s: %v, want an error starting %q", tc.template, err, tc.wantErr)
		case !tc.panics && err.Error() != tc.wantErr:
			t.Errorf("-o jsonpath=%s: %v, want the error %q", tc.template, err, tc.wantErr)
		}
		if got.Len() != 0 {
			t.Errorf("-o jsonpath=%s printed %q before its error", tc.template, got.String())
		}
	}
}

// With RequireTemplateKeys (--allow-missing-template-keys=false) a key the report lacks is an error naming the
// template and the key, as kubectl's; a key the report has prints as without it, also when it is empty.
func TestJSONPathRequiringTemplateKeys(t *testing.T) {
	r := &report.Report{Window: report.WindowReport{Pending: 3, Solver: "lp", Optimal: true}}
	for _, tc := range []struct{ template, want, wantErr string }{
		{template: `{.window.optimal} {.window.solver}`, want: "true lp"},
		{template: `[{.window.fallback}]`, want: "[]"},
		{template: `{.window.noSuchField}`, wantErr: `jsonpath template "{.window.noSuchField}": noSuchField is not found`},
		{template: `{.noSuchReport.solver}`, wantErr: `jsonpath template "{.noSuchReport.solver}": noSuchReport is not found`},
	} {
		var got bytes.Buffer
		err := r.Print(&got, report.Output{Format: "jsonpath=" + tc.template, RequireTemplateKeys: true})
		switch {
		case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
			t.Errorf("-o jsonpath=%s: %v, want the error %q", tc.template, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || got.String() != tc.want):
			t.Errorf("-o jsonpath=%s printed %q, %v; want %q", tc.template, got.String(), err, tc.want)
		}
	}
}

// A JSONPath template that does not parse is refused by CheckFormat, as a command asks before it does any work,
// naming the template; a command without JSON output has no jsonpath either.
func TestCheckFormatParsesJSONPathTemplates(t *testing.T) {
	for _, tc := range []struct {
		format  string
		formats []string
		wantErr string
	}{
		{"jsonpath={.window.optimal}", report.Formats(), ""},
		{"jsonpath=", report.Formats(), ""},
		{"jsonpath={.window", report.Formats(), `jsonpath template "{.window": unclosed action`},
		{"jsonpath={.seeds[}", report.Formats(), `jsonpath template "{.seeds[}": unterminated array`},
		{"jsonpath={.a}", []string{"text", "json", "yaml"}, `unknown output format "jsonpath={.a}" (one of text, json, yaml)`},
		{"jsonpath", report.Formats(), `unknown output format "jsonpath" (one of table, wide, yaml, json, name, jsonpath=TEMPLATE)`},
	} {
		err := report.CheckFormat(tc.format, tc.formats)
		if (err == nil) != (tc.wantErr == "") || err != nil && err.Error() != tc.wantErr {
			t.Errorf("CheckFormat(%q) = %v, want %q", tc.format, err, tc.wantErr)
		}
	}
}

// The summary's counts agree with their nouns (a lone new shoot is "1 of 1 pending shoot", not "shoots"), it
// says whether the LP proved its plan optimal or fell back on the greedy rule, and it sets what the LP decided
// beside what the greedy rule would have, in shoots placed, region distances and shoots above the target; the
// greedy solver's own summary compares with nothing.
func TestSummary(t *testing.T) {
	placed := []model.Placement{{Shoot: "garden-dev/web", Seed: "aws-eu1", Distance: 7}}
	for _, tc := range []struct {
		name       string
		placements []model.Placement
		window     report.WindowReport
		seeds      []report.SeedReport
		want       string
	}{
		{"one of each", placed, report.WindowReport{Pending: 1, Solver: "lp", Optimal: true, GreedyPlaced: 1, Distance: 7, GreedyDistance: 7},
			[]report.SeedReport{{Name: "aws-eu1", Placed: 1}},
			"Placed 1 of 1 pending shoot (greedy: 1) on 1 of 1 seed (strategy SameRegion, solver lp, optimal) in 0.000s; " +
				"their region distances sum to 7 (greedy: 7)."},
		{"many, against a greedy plan placing fewer and farther, with a target", placed,
			report.WindowReport{Pending: 2, Solver: "lp", GreedyPlaced: 0, Distance: 7, GreedyDistance: 12,
				TargetUtilization: 0.8, AboveTarget: 1, GreedyAboveTarget: 2},
			[]report.SeedReport{{Name: "aws-eu1", Placed: 1}, {Name: "aws-eu2"}},
			"Placed 1 of 2 pending shoots (greedy: 0) on 1 of 2 seeds (strategy SameRegion, solver lp) in 0.000s; " +
				"their region distances sum to 7 (greedy: 12). Placed above the 0.80 target: 1 shoot (greedy: 2)."},
		{"the greedy solver", placed, report.WindowReport{Pending: 1, Solver: "greedy", Distance: 7, TargetUtilization: 0.8},
			[]report.SeedReport{{Name: "aws-eu1", Placed: 1}},
			"Placed 1 of 1 pending shoot on 1 of 1 seed (strategy SameRegion, solver greedy) in 0.000s; " +
				"their region distances sum to 7. Placed above the 0.80 target: 0 shoots."},
		{"a fallback", placed, report.WindowReport{Pending: 1, Solver: "lp", Fallback: "timeout", GreedyPlaced: 1, Distance: 7, GreedyDistance: 7},
			[]report.SeedReport{{Name: "aws-eu1", Placed: 1}},
			"Placed 1 of 1 pending shoot (greedy: 1) on 1 of 1 seed (strategy SameRegion, solver lp, fallback: timeout) in 0.000s; " +
				"their region distances sum to 7 (greedy: 7)."},
		{"none", nil, report.WindowReport{Solver: "lp"}, nil,
			"Placed 0 of 0 pending shoots on 0 of 0 seeds (strategy SameRegion, solver lp) in 0.000s."},
	} {
		tc.window.Seeds, tc.window.Strategy = len(tc.seeds), "SameRegion"
		r := &report.Report{Window: tc.window, Placements: tc.placements, Seeds: tc.seeds}
		if got := r.Summary(); got != tc.want {
			t.Errorf("%s: Summary() =\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
}

// After what the window placed, the summary counts the shoots no seed took by reason, the bindings written by
// result (and the rounds, when the job took more than one), and, when nothing was pending for this scheduler
// name, the shoots pending for others by name; each in the order of its names, each left out when it is empty.
func TestSummaryCounts(t *testing.T) {
	placed := "Placed 0 of 0 pending shoots on 0 of 0 seeds (strategy SameRegion, solver greedy) in 0.000s."
	for _, tc := range []struct {
		name   string
		report report.Report
		want   string
	}{
		{"unschedulable, by reason", report.Report{Unschedulable: []model.Unschedulable{
			{Shoot: "garden-a/a", Reason: "Strategy"}, {Shoot: "garden-a/b", Reason: "Capacity"}, {Shoot: "garden-a/c", Reason: "Strategy"}}},
			placed + " Unschedulable: 3 (Capacity 1, Strategy 2)."},
		{"bindings, by result, in one round", report.Report{Bindings: map[model.BindResult]int{model.Taken: 1, model.Bound: 4}, Rounds: 1},
			placed + " Bindings: bound 4, taken 1."},
		{"bindings in rounds", report.Report{Bindings: map[model.BindResult]int{model.Bound: 2}, Rounds: 3},
			placed + " Bindings: bound 2 in 3 rounds."},
		{"no bindings asked for", report.Report{Rounds: 2}, placed},
		{"bindings asked for, none made (nothing placed)", report.Report{Bindings: map[model.BindResult]int{}, Rounds: 1},
			placed + " Bindings: none."},
		{"pending for other scheduler names", report.Report{PendingForOthers: map[string]int{"z-scheduler": 1, "a-scheduler": 12}},
			placed + ` Nothing is pending for this scheduler name, but shoots are pending for others: 12 for "a-scheduler", 1 for "z-scheduler" (--scheduler-name, schedulerName).`},
		{"pending for others while some are pending for this one", report.Report{Window: report.WindowReport{Pending: 1},
			PendingForOthers: map[string]int{"other": 1}},
			"Placed 0 of 1 pending shoot on 0 of 0 seeds (strategy SameRegion, solver greedy) in 0.000s; their region distances sum to 0."},
	} {
		tc.report.Window.Strategy, tc.report.Window.Solver = "SameRegion", "greedy"
		if got := tc.report.Summary(); got != tc.want {
			t.Errorf("%s: Summary() =\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
}

// The table of a reviewed plan applied lists each shoot's result and ends counting them by result, and the moves a
// run that stopped did not start, so that the counts add up to the plan's (without results, that line is all);
// -o json carries the plan's count.
func TestAppliedTableCountsResults(t *testing.T) {
	finished, scheduled := model.MoveResult{Shoot: "garden-a/a", To: "aws-eu2", Result: model.MoveFinished},
		model.MoveResult{Shoot: "garden-a/b", To: "aws-eu2", Result: model.MoveScheduled, Detail: "at 2026-11-28T22:00:00Z"}
	stalled := model.MoveResult{Shoot: "garden-a/d", To: "aws-eu3", Result: model.MoveStalled, Detail: "did not finish within 30m0s"}
	for _, tc := range []struct {
		name     string
		results  []model.MoveResult
		reviewed int
		last     string
	}{
		{"every move tried", []model.MoveResult{finished, scheduled, finished}, 3, "3 reviewed moves: finished 2, scheduled 1"},
		{"a run stopped at a stalled migration", []model.MoveResult{finished, stalled}, 5, "5 reviewed moves: finished 1, stalled 1, not started 3"},
		{"interrupted before the first move", []model.MoveResult{}, 2, "2 reviewed moves: not started 2"},
		{"a plan without moves", []model.MoveResult{}, 0, "0 reviewed moves: none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := report.NewMovesApplied(tc.results, tc.reviewed)
			var out bytes.Buffer
			if err := r.Print(&out, report.Output{Format: "table"}); err != nil {
				t.Fatal(err)
			}
			if want := "\n" + tc.last + "\n"; len(tc.results) > 0 && !strings.HasSuffix(out.String(), want) {
				t.Errorf("table:\n%s\nwant it to end with %q", out.String(), want)
			}
			if len(tc.results) == 0 && out.String() != tc.last+"\n" { // no table without rows, as kubectl prints none
				t.Errorf("table:\n%s\nwant only %q", out.String(), tc.last)
			}
			out.Reset()
			if err := r.Print(&out, report.Output{Format: "json"}); err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf(`"reviewed": %d,`, tc.reviewed); !strings.Contains(out.String(), want) {
				t.Errorf("-o json:\n%s\nwant %s", out.String(), want)
			}
		})
	}
}

// apply -o name names each shoot it has a result for, as kubectl names objects, and those only: a shoot whose
// move a stopped run did not start is not named.
func TestAppliedNamesItsShoots(t *testing.T) {
	r := report.NewMovesApplied([]model.MoveResult{
		{Shoot: "garden-a/a", To: "aws-eu2", Result: model.MoveFinished}, {Shoot: "garden-b/c", To: "aws-eu3", Result: model.MoveStalled},
	}, 3)
	var out bytes.Buffer
	if err := r.Print(&out, report.Output{Format: "name"}); err != nil {
		t.Fatal(err)
	}
	if want := "shoot/garden-a/a\nshoot/garden-b/c\n"; out.String() != want {
		t.Errorf("-o name:\n%s\nwant:\n%s", out.String(), want)
	}
}

// The capacity table's last line, and its page's summary, count where the pending shoots go so that it adds up
// to them, a lone pending shoot and a lone new seed in the singular, say whether the count is proven minimal, and
// state the target that was applied, not a rounding of it.
func TestCapacitySummaryCountsAgree(t *testing.T) {
	for _, tc := range []struct {
		target                                float64
		pending, onNew, newSeeds, unplaceable int
		want, page                            string
	}{
		{0.8, 1, 1, 1, 0, "1 pending shoot: 0 fit on existing seeds at or below 0.80 utilization, 1 on the 1 new seed needed (minimal), 0 on no kind of seed\n",
			"1 pending shoot: 0 fit on existing seeds at or below the target, 1 on the 1 new seed needed (minimal), 0 on no kind of seed."},
		{0.8, 2, 0, 0, 0, "2 pending shoots: 2 fit on existing seeds at or below 0.80 utilization, 0 on the 0 new seeds needed (minimal), 0 on no kind of seed\n",
			"2 pending shoots: 2 fit on existing seeds at or below the target, 0 on the 0 new seeds needed (minimal), 0 on no kind of seed."},
		{0.8, 400, 154, 14, 35, "400 pending shoots: 211 fit on existing seeds at or below 0.80 utilization, 154 on the 14 new seeds needed (minimal), 35 on no kind of seed\n",
			"400 pending shoots: 211 fit on existing seeds at or below the target, 154 on the 14 new seeds needed (minimal), 35 on no kind of seed."},
		{0.805, 2, 0, 0, 1, "2 pending shoots: 1 fit on existing seeds at or below 0.805 utilization, 0 on the 0 new seeds needed (minimal), 1 on no kind of seed\n",
			"2 pending shoots: 1 fit on existing seeds at or below the target, 0 on the 0 new seeds needed (minimal), 1 on no kind of seed."},
		{0.0000001, 2, 0, 0, 0, "2 pending shoots: 2 fit on existing seeds at or below 1e-07 utilization, 0 on the 0 new seeds needed (minimal), 0 on no kind of seed\n",
			"2 pending shoots: 2 fit on existing seeds at or below the target, 0 on the 0 new seeds needed (minimal), 0 on no kind of seed."},
	} {
		r := &report.CapacityReport{TargetUtilization: tc.target, Pending: tc.pending, OnExisting: tc.pending - tc.onNew - tc.unplaceable,
			OnNew: tc.onNew, NewSeeds: tc.newSeeds, LowerBound: tc.newSeeds, Optimal: true, Unplaceable: make([]model.Unschedulable, tc.unplaceable)}
		checkSummaries(t, "capacity", r.Print, report.CapacityPage(r).Summary, tc.want, tc.page)
	}
}

// For -o name, which names only the ManagedSeedSets to scale up, the new seeds no set provides are counted and
// their regions named, the first three; when every new seed is a set's there is nothing to say.
func TestCapacityNotInSets(t *testing.T) {
	region := func(provider, name, set string, seeds int) report.RegionCapacity {
		return report.RegionCapacity{Provider: provider, Region: name, ManagedSeedSet: set, NewSeeds: seeds}
	}
	for _, tc := range []struct {
		name    string
		regions []report.RegionCapacity
		want    string
	}{
		{"no new seeds", nil, ""},
		{"every new seed a set's", []report.RegionCapacity{region("aws", "eu-west-1", "garden/aws-eu", 3)}, ""},
		{"one new seed of none", []report.RegionCapacity{region("aws", "eu-west-1", "garden/aws-eu", 3), region("gcp", "europe-west1", "", 1)},
			"1 of the 4 new seeds belongs to no ManagedSeedSet (its template is not a replica of one), and -o name names only ManagedSeedSets: gcp europe-west1 (1)"},
		{"four regions of none", []report.RegionCapacity{region("aws", "a", "", 1), region("aws", "b", "", 2), region("aws", "c", "garden/c", 5),
			region("aws", "d", "", 1), region("gcp", "e", "", 3)},
			"7 of the 12 new seeds belong to no ManagedSeedSet (their templates are not replicas of one), and -o name names only ManagedSeedSets: aws a (1), aws b (2), aws d (1), 1 more region"},
	} {
		r := &report.CapacityReport{Regions: tc.regions}
		for _, c := range tc.regions {
			r.NewSeeds += c.NewSeeds
		}
		if got := r.NotInSets(); got != tc.want {
			t.Errorf("%s: NotInSets() =\n%q, want\n%q", tc.name, got, tc.want)
		}
	}
}

// The count says how far it is proven, on the page as in the table: a minimal count is its own bound and says no
// other; one not proven says how many new seeds are proven necessary; one found without the LP says so.
func TestCapacitySummarySaysHowFarTheCountIsProven(t *testing.T) {
	for _, tc := range []struct {
		name     string
		bound    int
		optimal  bool
		fallback string
		proof    string
	}{
		{"minimal", 3, true, "", "minimal"},
		{"not proven", 2, false, "", "not proven minimal, lower bound 2"},
		{"greedily, not proven", 2, false, "timeout", "not proven minimal: found greedily where CLP ran out of time before the LP's first answer; lower bound 2"},
		{"greedily, minimal", 3, true, "timeout", "minimal: found greedily where CLP ran out of time before the LP's first answer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &report.CapacityReport{TargetUtilization: 0.8, Pending: 30, OnExisting: 10, OnNew: 20, NewSeeds: 3,
				LowerBound: tc.bound, Optimal: tc.optimal, Fallback: tc.fallback}
			checkSummaries(t, "capacity", r.Print, report.CapacityPage(r).Summary,
				"30 pending shoots: 10 fit on existing seeds at or below 0.80 utilization, 20 on the 3 new seeds needed ("+tc.proof+"), 0 on no kind of seed\n",
				"30 pending shoots: 10 fit on existing seeds at or below the target, 20 on the 3 new seeds needed ("+tc.proof+"), 0 on no kind of seed.")
		})
	}
}

// When nothing is pending for the scheduler name, capacity says which names shoots are pending for, as schedule
// does, in the table and on the page; when something is, or nothing is pending at all, it says nothing of it.
// Without pending shoots its summary says so, not a template of zeros.
func TestCapacitySummarySaysWhoShootsArePendingFor(t *testing.T) {
	const none = "No pending shoots: no new seed needed"
	for _, tc := range []struct {
		name       string
		others     map[string]int
		want, page string
	}{
		{"pending for others", map[string]int{"z": 1, "a": 12},
			none + `. Nothing is pending for this scheduler name, but shoots are pending for others: 12 for "a", 1 for "z" (--scheduler-name, schedulerName)` + "\n",
			none + `. Nothing is pending for this scheduler name, but shoots are pending for others: 12 for "a", 1 for "z" (--scheduler-name, schedulerName).`},
		{"pending for nobody", nil, none + "\n", none + "."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &report.CapacityReport{TargetUtilization: 0.8, Optimal: true, PendingForOthers: tc.others}
			checkSummaries(t, "capacity", r.Print, report.CapacityPage(r).Summary, tc.want, tc.page)
		})
	}
}

// checkSummaries checks that a report's table holds the line want, and that its page's summary is page.
func checkSummaries(t *testing.T, kind string, print func(io.Writer, report.Output) error, summary, want, page string) {
	t.Helper()
	var out bytes.Buffer
	if err := print(&out, report.Output{Format: "table"}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, want) {
		t.Errorf("%s table:\n%s\nwant it to hold %q", kind, got, want)
	}
	if summary != page {
		t.Errorf("%s page summary %q, want %q", kind, summary, page)
	}
}

// The rebalance table's last line, and its page's summary, show the moves and what they leave unresolved beside
// the lower bound they add up to, so that a plan with fewer moves than the bound reads as incomplete, not as a
// contradiction, and both say whether the moves are proven optimal or were found greedily; with --apply, what
// became of the moves, counting those the run did not start.
func TestRebalanceSummaryAddsUp(t *testing.T) {
	finished := model.MoveResult{Shoot: "garden-a/x", To: "b", Result: model.MoveFinished}
	for _, tc := range []struct {
		moves, unresolved, bound int
		optimal                  bool
		fallback                 string
		want, page               string
		applied                  []model.MoveResult
	}{
		{9, 20, 29, true, "", "9 moves, 20 shoots unresolved, lower bound 29 (target utilization 0.80, optimal)\n", "9 moves, 20 shoots unresolved, lower bound 29 (optimal).", nil},
		{1, 0, 1, true, "", "1 move, 0 shoots unresolved, lower bound 1 (target utilization 0.80, optimal)\n", "1 move, 0 shoots unresolved, lower bound 1 (optimal).", nil},
		{3, 1, 3, false, "", "3 moves, 1 shoot unresolved, lower bound 3 (target utilization 0.80)\n", "3 moves, 1 shoot unresolved, lower bound 3.", nil},
		{4, 0, 3, false, "range", "4 moves, 0 shoots unresolved, lower bound 3 (target utilization 0.80, fallback: range)\n", "4 moves, 0 shoots unresolved, lower bound 3 (fallback: range).", nil},
		{3, 0, 3, true, "", "3 moves, 0 shoots unresolved, lower bound 3 (target utilization 0.80, optimal)\nOf the 3 moves: finished 1, not started 2.\n",
			"3 moves, 0 shoots unresolved, lower bound 3 (optimal). Of the 3 moves: finished 1, not started 2.", []model.MoveResult{finished}},
		{1, 0, 1, true, "", "1 move, 0 shoots unresolved, lower bound 1 (target utilization 0.80, optimal)\nOf the 1 move: not started 1.\n",
			"1 move, 0 shoots unresolved, lower bound 1 (optimal). Of the 1 move: not started 1.", []model.MoveResult{}},
		// --drain --apply that only cordoned: no line about moves there were none of.
		{0, 12, 12, true, "", "0 moves, 12 shoots unresolved, lower bound 12 (target utilization 0.80, optimal)\n",
			"0 moves, 12 shoots unresolved, lower bound 12 (optimal).", []model.MoveResult{}},
	} {
		r := &report.RebalanceReport{TargetUtilization: 0.8, LowerBound: tc.bound, Moves: make([]model.Move, tc.moves),
			Unresolved: tc.unresolved, Complete: tc.unresolved == 0, Optimal: tc.optimal, Fallback: tc.fallback, Applied: tc.applied}
		checkSummaries(t, "rebalance", r.Print, report.RebalancePage(r).Summary, tc.want, tc.page)
	}
}

// The reasons chart is titled as its page's summary counts the shoots: the plan's unschedulable ones, or for
// capacity those no kind of seed takes, which new seeds would not help.
func TestPageTitlesTheReasonsAsItsSummaryCounts(t *testing.T) {
	unplaced := []model.Unschedulable{{Shoot: "garden-a/a", Reason: "Strategy"}}
	for _, tc := range []struct {
		name string
		page *report.Page
		want string
	}{
		{"schedule", report.SchedulePage(&report.Report{Unschedulable: unplaced}), "<h2 id=\"reasons\">Unschedulable shoots by reason</h2>"},
		{"capacity", report.CapacityPage(&report.CapacityReport{Unplaceable: unplaced, Optimal: true}), "<h2 id=\"reasons\">Shoots on no kind of seed, by reason</h2>"},
	} {
		var out bytes.Buffer
		if err := tc.page.Write(&out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%s page: no %q", tc.name, tc.want)
		}
	}
}

// The rebalance page says in words what the table says beside its counts: every reason a seed sheds shoots with
// its detail, the migrations already moving shoots off seeds, the seeds in their grace period and when their shoots
// must leave, and each line of an incomplete plan; a complete plan with none of them has no lists to show.
func TestRebalancePageSaysWhatTheTableSays(t *testing.T) {
	since := time.Date(2026, 10, 31, 8, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		report report.RebalanceReport
		want   map[string][]string
	}{
		{name: "complete, nothing to say", report: report.RebalanceReport{Complete: true, Seeds: []report.SeedChange{{Name: "reached"}}},
			want: map[string][]string{}},
		{name: "every reason of every seed", report: report.RebalanceReport{Complete: true, Seeds: []report.SeedChange{
			{Name: "a", Reasons: []report.SeedReason{{Reason: model.LeaveOverloaded, Detail: "the seed hosts 9 shoots, 2 above its target of 7"},
				{Reason: model.LeaveNoExecute, Detail: `1 shoot does not tolerate its NoExecute taint "t"`}}},
			{Name: "b"},
			{Name: "c", Reasons: []report.SeedReason{{Reason: model.LeaveUnusable, Detail: "seed condition GardenletReady is not True"}}},
		}}, want: map[string][]string{"seed-reasons": {
			"a: overloaded, the seed hosts 9 shoots, 2 above its target of 7",
			`a: NoExecute, 1 shoot does not tolerate its NoExecute taint "t"`,
			"c: unusable, seed condition GardenletReady is not True",
		}}},
		{name: "migrations moving away", report: report.RebalanceReport{Complete: true, Seeds: []report.SeedChange{
			{Name: "one", Before: 14, MigratingAway: 1, After: 17}, {Name: "none", Before: 3, After: 5}, {Name: "two", Before: 9, MigratingAway: 2, After: 4},
		}}, want: map[string][]string{"migrating-away": {
			"one: 1 shoot's control plane is moving away already, counted before and not after",
			"two: 2 shoots' control planes are moving away already, counted before and not after",
		}}},
		{name: "in grace and incomplete", report: report.RebalanceReport{
			InGrace: []report.SeedInGrace{{Name: "d", Reason: "seed condition GardenletReady is not True", Since: since, LeftSeconds: 299.6}},
			Message: "seed e keeps 2 shoots that must leave: x\nseed f stays 1 above its limit of 4: y",
		}, want: map[string][]string{
			"in-grace":   {"d: seed condition GardenletReady is not True since 2026-10-31T08:00:00Z; its shoots must leave in 5m0s"},
			"incomplete": {"seed e keeps 2 shoots that must leave: x", "seed f stays 1 above its limit of 4: y"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string][]string{}
			for _, l := range report.RebalancePage(&tc.report).Lists {
				if len(l.Items) > 0 {
					got[l.ID] = l.Items
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("lists %q, want %q", got, tc.want)
			}
			var html bytes.Buffer
			if err := report.RebalancePage(&tc.report).Write(&html); err != nil {
				t.Fatal(err)
			}
			if lists := strings.Count(html.String(), "<ul data-list="); lists != len(tc.want) {
				t.Errorf("the page shows %d lists, want %d", lists, len(tc.want))
			}
			for id, items := range tc.want {
				_, list, _ := strings.Cut(html.String(), `<ul data-list="`+id+`">`)
				list, _, _ = strings.Cut(list, "</ul>")
				if n := strings.Count(list, "<li>"); n != len(items) {
					t.Errorf("the page's list %s shows %d items, want %d:\n%s", id, n, len(items), html.String())
				}
			}
		})
	}
}

// The warning of shoots on seeds the landscape does not hold names the first three seeds with their shoots, and
// agrees with its counts.
func TestSeedsNotHeldWarning(t *testing.T) {
	for _, tc := range []struct {
		shoots map[string]int
		want   string
	}{
		{nil, ""},
		{map[string]int{"gone": 1}, "1 shoot is on a seed the landscape does not hold: gone (1 shoot); it counts on no seed and moves nowhere"},
		{map[string]int{"gone": 20}, "20 shoots are on a seed the landscape does not hold: gone (20 shoots); they count on no seed and move nowhere"},
		{map[string]int{"s4": 1, "s2": 2, "s1": 1, "s3": 1, "s5": 1}, "6 shoots are on seeds the landscape does not hold: s1 (1 shoot), s2 (2 shoots), s3 (1 shoot), 2 more seeds; they count on no seed and move nowhere"},
		{map[string]int{"s2": 1, "s1": 1, "s3": 1, "s4": 1}, "4 shoots are on seeds the landscape does not hold: s1 (1 shoot), s2 (1 shoot), s3 (1 shoot), 1 more seed; they count on no seed and move nowhere"},
	} {
		if got := report.SeedsNotHeld(tc.shoots); got != tc.want {
			t.Errorf("SeedsNotHeld(%v) =\n%q, want\n%q", tc.shoots, got, tc.want)
		}
	}
}

// The warnings of region ConfigMaps name the ConfigMap, the entry and why it does not parse, and what Gardener then
// does; a profile named by several ConfigMaps names them all and the one used. Profiles come in name order.
func TestRegionConfigWarnings(t *testing.T) {
	malformed := []model.MalformedRegionEntry{{ConfigMap: "garden/aws-regions", Region: "eu-west-1", Err: errors.New("not a map")}}
	profiles := map[string][]string{"gcp": {"b", "c"}, "aws": {"a", "b", "c"}}
	want := []string{
		`region ConfigMap garden/aws-regions: entry "eu-west-1" does not parse (not a map): under MinimalDistance, the shoots of ` +
			`region eu-west-1 whose cloud profile the ConfigMap names are unschedulable, as in Gardener`,
		"cloud profile aws is named by 3 region ConfigMaps (a, b, c): seedplan uses a, the first by name; the gardener-scheduler uses whichever its cache lists first",
		"cloud profile gcp is named by 2 region ConfigMaps (b, c): seedplan uses b, the first by name; the gardener-scheduler uses whichever its cache lists first",
	}
	if got := report.RegionConfigWarnings(malformed, profiles); !slices.Equal(got, want) {
		t.Errorf("RegionConfigWarnings =\n%q, want\n%q", got, want)
	}
	if got := report.RegionConfigWarnings(nil, nil); len(got) != 0 {
		t.Errorf("RegionConfigWarnings of nothing = %q, want none", got)
	}
}

// A seed whose taint-effects annotation does not parse is named among a landscape's warnings with why, and with
// how it is read instead; a seed whose annotation parses is not.
func TestSnapshotWarningsNameSeedsWhoseTaintEffectsAreNotRead(t *testing.T) {
	snap, err := model.NewSnapshot(model.Objects{Seeds: []*gardencorev1beta1.Seed{
		testobjects.Seed("retiring", testobjects.Tainted("a"), testobjects.Annotated(model.AnnotationTaintEffects, "a=Evict")),
		testobjects.Seed("fine", testobjects.Tainted("a"), testobjects.Annotated(model.AnnotationTaintEffects, "a=NoExecute")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`seed retiring: metadata.annotations[seedplan.gardener.cloud/taint-effects]: taint "a" has unknown effect "Evict" ` +
		`(NoSchedule, PreferNoSchedule or NoExecute): the annotation is not read, so every taint of the seed's spec.taints is ` +
		`NoSchedule and none is soft, as the gardener-scheduler reads them`}
	if got := report.SnapshotWarnings(snap); !slices.Equal(got, want) {
		t.Errorf("SnapshotWarnings =\n%q, want\n%q", got, want)
	}
}

// A seed whose allocatable is not a whole number of shoots is named among a landscape's warnings with the number
// the plan counts with, as Gardener reads it; a seed of whole shoots is not.
func TestSnapshotWarningsNameSeedsWhoseAllocatableIsNotReadAsWritten(t *testing.T) {
	snap, err := model.NewSnapshot(model.Objects{Seeds: []*gardencorev1beta1.Seed{
		testobjects.Seed("fraction", testobjects.AllocatableWritten("2500m")),
		testobjects.Seed("negative", testobjects.AllocatableWritten("-3")),
		testobjects.Seed("whole", testobjects.Allocatable(3)),
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"seed fraction: status.allocatable.shoots is 2500m, not a whole number of shoots from 0 to 2^63-1: it is read as 3, as the gardener-scheduler reads it",
		"seed negative: status.allocatable.shoots is -3, not a whole number of shoots from 0 to 2^63-1: the seed takes no shoot, as the gardener-scheduler reads it",
	}
	if got := report.SnapshotWarnings(snap); !slices.Equal(got, want) {
		t.Errorf("SnapshotWarnings =\n%q, want\n%q", got, want)
	}
}

// A pending shoot with a status.seedName is named among a landscape's warnings with that seed and how the plan
// counts it unlike the gardener-scheduler; a bound shoot with the same status is not.
func TestSnapshotWarningsNamePendingShootsWithAStatusSeed(t *testing.T) {
	onSeed := func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("aws-eu1") }
	snap, err := model.NewSnapshot(model.Objects{
		Seeds:  []*gardencorev1beta1.Seed{testobjects.Seed("aws-eu1")},
		Shoots: []*gardencorev1beta1.Shoot{testobjects.Shoot("web", onSeed), testobjects.Shoot("db", testobjects.BoundTo("aws-eu1"), onSeed)},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"shoot garden-dev/web: status.seedName is aws-eu1 but spec.seedName is unset, which a garden cannot hold: " +
		"it counts on seed aws-eu1, as the gardener-scheduler counts it, but placed there it counts twice where the " +
		"gardener-scheduler counts it once, and shoots decided after it may be placed otherwise than it places them"}
	if got := report.SnapshotWarnings(snap); !slices.Equal(got, want) {
		t.Errorf("SnapshotWarnings =\n%q, want\n%q", got, want)
	}
}

// Counts agree with their nouns, as an operator reads them: one move, no moves, two moves.
func TestCountedAgrees(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 moves"}, {1, "1 move"}, {2, "2 moves"}, {-1, "-1 moves"}} {
		if got := report.Counted(tc.n, "move", "moves"); got != tc.want {
			t.Errorf("Counted(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// Data is printed as kubectl prints it: JSON indented by two spaces, YAML in block style; nothing else is data.
func TestPrintData(t *testing.T) {
	v := struct {
		Name  string   `json:"name"`
		Zones []string `json:"zones"`
	}{"aws-eu1", []string{"a", "b"}}
	for _, tc := range []struct{ format, want string }{
		{"json", "{\n  \"name\": \"aws-eu1\",\n  \"zones\": [\n    \"a\",\n    \"b\"\n  ]\n}\n"},
		{"yaml", "name: aws-eu1\nzones:\n- a\n- b\n"},
		{"table", `unknown data format "table" (json or yaml)`},
	} {
		var out bytes.Buffer
		var got string
		if err := report.PrintData(&out, tc.format, v); err != nil {
			got = err.Error()
		} else {
			got = out.String()
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.format, got, tc.want)
		}
	}
}

// A page that cannot be written is refused before the command does any work (Check), and one that is written
// appears whole or not at all, beside nothing else; through a link, the file linked to is written.
func TestPageIsCheckedFirstAndWrittenWhole(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ page, want string }{
		{filepath.Join(dir, "missing", "p.html"), "--report " + filepath.Join(dir, "missing", "p.html") + ": cannot write a file into " + filepath.Join(dir, "missing") + ": no such file or directory"},
		{dir, "--report " + dir + ": is a directory"},
		{filepath.Join(dir, "p.html"), ""},
	} {
		if err := (report.Output{Format: "table", Page: tc.page}).Check(report.Formats()); fmt.Sprint(err) != tc.want && (err != nil || tc.want != "") {
			t.Errorf("--report %s: %v, want %q", tc.page, err, tc.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("checking left %v behind", entries)
	}
	target := filepath.Join(dir, "target.html")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.html")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	r := &report.RebalanceReport{TargetUtilization: 0.8, Moves: []model.Move{}, Complete: true, Optimal: true}
	if err := r.Print(io.Discard, report.Output{Format: "table", Page: link}); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(target)
	if entries, _ := os.ReadDir(dir); err != nil || !bytes.HasPrefix(html, []byte("<!DOCTYPE html>")) || len(entries) != 2 {
		t.Fatalf("page through a link: %d bytes starting %.20q (%v), and %d files beside, want the linked file written, nothing else", len(html), html, err, len(entries))
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is replaced: %v, %v", info, err)
	}
}

// A page is made as os.Create makes a file (0666 less the umask), and a page written again keeps its mode.
func TestPageHasTheModeOfAFileWritten(t *testing.T) {
	dir := t.TempDir()
	created, err := os.Create(filepath.Join(dir, "created"))
	if err != nil {
		t.Fatal(err)
	}
	_ = created.Close()
	umasked, err := os.Stat(created.Name())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		existing os.FileMode // 0: no page yet
		want     os.FileMode
	}{
		{"a new page", 0, umasked.Mode().Perm()},
		{"a page only its owner reads", 0o600, 0o600},
		{"a page its group reads", 0o640, 0o640},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".html")
			if tc.existing != 0 {
				if err := os.WriteFile(page, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(page, tc.existing); err != nil {
					t.Fatal(err)
				}
			}
			r := &report.RebalanceReport{TargetUtilization: 0.8, Moves: []model.Move{}, Complete: true, Optimal: true}
			if err := r.Print(io.Discard, report.Output{Format: "table", Page: page}); err != nil {
				t.Fatal(err)
			}
			if info, err := os.Stat(page); err != nil || info.Mode().Perm() != tc.want {
				t.Errorf("page mode %v (%v), want %v", info.Mode().Perm(), err, tc.want)
			}
		})
	}
}

// Every answer says what -o name leaves out: why it names nothing, or capacity's seeds no set provides; nothing
// when the names are the whole answer.
func TestNameWarning(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  interface{ NameWarning() string }
		nothing string
	}{
		{"schedule placing", &report.Report{Placements: []model.Placement{{Shoot: "garden-a/a", Seed: "s"}}}, ""},
		{"schedule placing none", &report.Report{Window: report.WindowReport{Pending: 2}, Unschedulable: make([]model.Unschedulable, 2)},
			"no shoot is placed (2 pending, 2 unschedulable), and -o name names none"},
		{"rebalance moving", &report.RebalanceReport{Moves: make([]model.Move, 1)}, ""},
		{"rebalance moving none", &report.RebalanceReport{}, "no move is recommended, and -o name names none"},
		{"apply", &report.AppliedReport{Kind: "moves", Applied: make([]report.AppliedResult, 1)}, ""},
		{"apply of nothing", &report.AppliedReport{Kind: "moves"}, "the plan holds no moves, and -o name names none"},
		{"capacity adding seeds, every one a set's", &report.CapacityReport{NewSeeds: 3,
			Regions: []report.RegionCapacity{{Provider: "aws", Region: "a", NewSeeds: 3, ManagedSeedSet: "garden/a"}}}, ""},
		{"capacity adding seeds no set provides", &report.CapacityReport{NewSeeds: 3,
			Regions: []report.RegionCapacity{{Provider: "aws", Region: "a", NewSeeds: 3}}},
			"3 of the 3 new seeds belong to no ManagedSeedSet (their templates are not replicas of one), and -o name names only ManagedSeedSets: aws a (3)"},
		{"capacity adding none", &report.CapacityReport{}, "no new seed is needed, and -o name names no ManagedSeedSet"},
		{"explain placing", &report.Explanation{Shoot: "garden-a/a", Seed: "s"}, ""},
		{"explain of an unschedulable shoot", &report.Explanation{Shoot: "garden-a/a", Message: "no seed"},
			"shoot garden-a/a is unschedulable, and -o name names no seed: no seed"},
	} {
		if got := tc.answer.NameWarning(); got != tc.nothing {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.nothing)
		}
	}
}

// The schedule page counts the shoots placed outside their region by shoot region → seed region, most first; a
// shoot placed in its own region is not among them, and a plan with none shows no such chart.
func TestSchedulePageCountsShootsPlacedElsewhere(t *testing.T) {
	at := func(shootRegion, seedRegion string) model.Placement {
		return model.Placement{Shoot: "garden-a/s", Seed: "s", ShootRegion: shootRegion, SeedRegion: seedRegion}
	}
	for _, tc := range []struct {
		name       string
		placements []model.Placement
		want       []report.PageBar
	}{
		{"all in their regions", []model.Placement{at("eu-west-1", "eu-west-1")}, []report.PageBar{}},
		{"by pair of regions, most first", []model.Placement{at("us-east-1", "us-west-2"), at("eu-west-1", "eu-central-1"),
			at("eu-west-1", "eu-west-1"), at("eu-west-1", "eu-central-1")},
			[]report.PageBar{{Label: "eu-west-1 → eu-central-1", Count: 2}, {Label: "us-east-1 → us-west-2", Count: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := report.SchedulePage(&report.Report{Placements: tc.placements})
			if !slices.Equal(page.Elsewhere, tc.want) {
				t.Errorf("elsewhere %v, want %v", page.Elsewhere, tc.want)
			}
			var out bytes.Buffer
			if err := page.Write(&out); err != nil {
				t.Fatal(err)
			}
			if shown := strings.Contains(out.String(), `data-chart="elsewhere"`); shown != (len(tc.want) > 0) {
				t.Errorf("the page shows the chart: %v, want %v", shown, len(tc.want) > 0)
			}
		})
	}
}
