package report_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/report"
)

// explain shows the trade when a shoot leaves its region: which of its seeds there are above the target, and
// why it went elsewhere. Three shoots of eu-central-1 are pending; fra, the region's one seed, takes 10.
func TestExplainShowsTheRegionTrade(t *testing.T) {
	for _, tc := range []struct {
		name    string
		onFra   int // shoots fra hosts before the window
		weights string
		want    []string
		notWant string
	}{
		{"the default policy: the region has no room below the target", 7, config.WeightsCompat, []string{
			"above the 0.80 target",
			"It leaves its region eu-central-1: the seeds there that pass its predicates (fra) have no room at or below the 0.80 target after the window.",
		}, ""},
		{"the region full: said so, not that it is above the target", 10, config.WeightsCompat, []string{
			"It leaves its region eu-central-1: the seeds there that pass its predicates (fra) are full after the window.",
		}, "no room at or below"},
		{"balanced weights: distance traded for utilization", 7, config.WeightsBalanced, []string{
			"It leaves its region eu-central-1 although seeds there have room at or below the target (fra): the weights trade distance for utilization.",
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := explainWhoLeft(t, tc.onFra, tc.weights)
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("explain does not say %q:\n%s", want, out)
				}
			}
			if tc.notWant != "" && strings.Contains(out, tc.notWant) {
				t.Errorf("explain says %q:\n%s", tc.notWant, out)
			}
		})
	}
}

// scheduled plans every pending shoot of the snapshot under the configuration.
func scheduled(t *testing.T, snap *model.Snapshot, c *config.SeedPlanConfiguration) *plan.Outcome {
	t.Helper()
	p, err := plan.NewPolicy(c)
	if err != nil {
		t.Fatal(err)
	}
	o, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), p)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// explainWhoLeft plans three pending shoots of eu-central-1 under MinimalDistance, with onFra shoots on fra (its
// region's seed) and none on zrh (eu-central-2's), each of 10 allocatable, and explains a shoot placed on zrh.
func explainWhoLeft(t *testing.T, onFra int, weights string) string {
	t.Helper()
	seeds := []*gardencorev1beta1.Seed{Seed("fra", Allocatable(10)), Seed("zrh", InRegion("aws", "eu-central-2"), Allocatable(10))}
	shoots := []*gardencorev1beta1.Shoot{Shoot("p-1"), Shoot("p-2"), Shoot("p-3")}
	for i := range onFra {
		shoots = append(shoots, Shoot("on-fra-"+string(rune('a'+i)), BoundTo("fra"), Running()))
	}
	snap := fixture.Landscape(t, seeds, shoots)
	c := config.Default()
	c.Strategy, c.Placement.Weights.Preset = string(model.MinimalDistance), weights
	o := scheduled(t, snap, c)
	var left string
	for _, pl := range o.Plan.Placements {
		if pl.Seed == "zrh" {
			left = pl.Shoot
		}
	}
	if left == "" {
		t.Fatalf("no shoot left its region: %+v", o.Plan.Placements)
	}
	explanation, err := report.NewExplanation(o, left)
	if err != nil {
		t.Fatal(err)
	}
	if explanation.Trade != strings.TrimSpace(explanation.Trade) || !strings.HasPrefix(explanation.Trade, "It leaves") {
		t.Errorf("trade %q: JSON's field is the sentence alone", explanation.Trade)
	}
	var out bytes.Buffer
	if err := explanation.Print(&out, report.Output{Format: "table"}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// A shoot of purpose testing takes seeds of its provider in any region whatever the strategy, as in Gardener:
// explain's first line says so, where "strategy SameRegion" would leave its feasible seeds in other regions
// unexplained.
func TestExplainSaysPurposeTestingOverridesTheStrategy(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{Seed("fra", Allocatable(10)), Seed("zrh", InRegion("aws", "eu-central-2"), Allocatable(10))}
	forTesting := func(s *gardencorev1beta1.Shoot) { s.Spec.Purpose = new(gardencorev1beta1.ShootPurposeTesting) }
	for _, tc := range []struct {
		name        string
		shoot       *gardencorev1beta1.Shoot
		header      string
		zrhFeasible bool
	}{
		{"purpose testing", Shoot("t", forTesting), "region eu-central-1, purpose testing (seeds of its provider in any region, not strategy SameRegion), solver lp", true},
		{"no purpose", Shoot("t"), "region eu-central-1, strategy SameRegion, solver lp", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := fixture.Landscape(t, seeds, []*gardencorev1beta1.Shoot{tc.shoot})
			e, err := report.NewExplanation(scheduled(t, snap, config.Default()), "garden-dev/t")
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := e.Print(&out, report.Output{Format: "table"}); err != nil {
				t.Fatal(err)
			}
			header, _, _ := strings.Cut(out.String(), "\n")
			if !strings.Contains(header, tc.header) {
				t.Errorf("first line %q, want it to hold %q", header, tc.header)
			}
			if zrh := e.Seeds[slices.IndexFunc(e.Seeds, func(v report.SeedVerdict) bool { return v.Name == "zrh" })]; (zrh.Verdict != "rejected") != tc.zrhFeasible {
				t.Errorf("seed zrh in eu-central-2: %s, want it feasible: %v", zrh.Verdict, tc.zrhFeasible)
			}
		})
	}
}

// explain says what decided the window, as the schedule summary does: a plan the LP proved optimal, or the
// gardener-scheduler's rule — asked for, or after a fallback — whose choice the costs it shows did not make.
func TestExplainSaysWhatDecided(t *testing.T) {
	const fallback = "The gardener-scheduler's rule decided the window (fallback: timeout); the costs above did not.\n"
	for _, tc := range []struct {
		solver, fallback string
		optimal          bool
		header, last     string
	}{
		{"lp", "", true, "strategy SameRegion, solver lp, optimal\n", "Decision: bind to seed fra.\n"},
		{"lp", "", false, "strategy SameRegion, solver lp\n", "Decision: bind to seed fra.\n"},
		{"lp", "timeout", false, "strategy SameRegion, solver lp, fallback: timeout\n", fallback},
		{"greedy", "", false, "strategy SameRegion, solver greedy\n",
			"The gardener-scheduler's rule decided the window (solver greedy); the costs above did not.\n"},
	} {
		e := &report.Explanation{Shoot: "garden-p/a", Provider: "aws", Region: "eu-central-1", Strategy: model.SameRegion,
			Solver: tc.solver, Optimal: tc.optimal, Fallback: tc.fallback, Seed: "fra", Feasible: 1,
			Seeds: []report.SeedVerdict{{Name: "fra", Verdict: "chosen"}}}
		var out bytes.Buffer
		if err := e.Print(&out, report.Output{Format: "table"}); err != nil {
			t.Fatal(err)
		}
		header, _, _ := strings.Cut(out.String(), "\n")
		if !strings.HasSuffix(header+"\n", tc.header) || !strings.HasSuffix(out.String(), tc.last) {
			t.Errorf("solver %s, optimal %v, fallback %q:\n%s\nwant the first line to end with %q and the output with %q",
				tc.solver, tc.optimal, tc.fallback, out.String(), tc.header, tc.last)
		}
	}
}

// Gardener checks a candidate's room before it applies the strategy: when every candidate is full, its message
// calls full also the seeds of other regions that the table rejects by Strategy, and explain says why the two differ.
// When a seed of another region has room, the strategy decides, and there is nothing to reconcile.
func TestExplainSaysGardenerChecksRoomBeforeTheStrategy(t *testing.T) {
	const note = "Gardener checks for room before it applies the strategy, so its message also calls full the 1 seed the strategy rejects above.\n"
	for _, tc := range []struct {
		name        string
		zrh         int64 // allocatable of zrh (eu-central-2), which hosts one shoot
		message     string
		explainsWhy bool
	}{
		{"every candidate full", 1, "0/2 seed cluster candidate(s) are eligible for scheduling: {fra => seed does not have available capacity for shoots, zrh => seed does not have available capacity for shoots}", true},
		{"a seed of another region with room", 5, "no matching seed candidate found for Configuration (Cloud Profile 'aws', Region 'eu-central-1', SeedDeterminationStrategy 'SameRegion')", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seeds := []*gardencorev1beta1.Seed{Seed("fra", Allocatable(1)), Seed("zrh", InRegion("aws", "eu-central-2"), Allocatable(tc.zrh))}
			shoots := []*gardencorev1beta1.Shoot{Shoot("p"), Shoot("on-fra", BoundTo("fra"), Running()), Shoot("on-zrh", BoundTo("zrh"), Running())}
			e, err := report.NewExplanation(scheduled(t, fixture.Landscape(t, seeds, shoots), config.Default()), "garden-dev/p")
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := e.Print(&out, report.Output{Format: "table"}); err != nil {
				t.Fatal(err)
			}
			zrh := e.Seeds[slices.IndexFunc(e.Seeds, func(v report.SeedVerdict) bool { return v.Name == "zrh" })]
			switch {
			case zrh.Verdict != "rejected" || zrh.Predicate != model.PredicateStrategy:
				t.Errorf("seed zrh is %s by %s, want rejected by Strategy:\n%s", zrh.Verdict, zrh.Predicate, out.String())
			case !strings.Contains(out.String(), "Decision: unschedulable: "+tc.message+"\n"):
				t.Errorf("the decision is not Gardener's %q:\n%s", tc.message, out.String())
			case strings.Contains(out.String(), note) != tc.explainsWhy:
				t.Errorf("says %q: %v, want %v:\n%s", note, !tc.explainsWhy, tc.explainsWhy, out.String())
			}
		})
	}
}

// A landscape without seeds has no verdicts and nothing to count: explain leaves out the seed table and the
// summary, as the other tables are left out when empty, and gives Gardener's decision after the shoot's line.
// The schedule's line counts no seed for any predicate.
func TestExplainWithoutSeedsPrintsNoSeedTable(t *testing.T) {
	snap := fixture.Landscape(t, nil, []*gardencorev1beta1.Shoot{Shoot("p")})
	o := scheduled(t, snap, config.Default())
	e, err := report.NewExplanation(o, "garden-dev/p")
	if err != nil {
		t.Fatal(err)
	}
	gardener := "none of the 0 seeds is valid for scheduling (not deleting, visible and ready)"
	for _, format := range []string{"table", "wide"} {
		var out bytes.Buffer
		if err := e.Print(&out, report.Output{Format: format}); err != nil {
			t.Fatal(err)
		}
		if _, decision, _ := strings.Cut(out.String(), "optimal\n\n"); decision != "Decision: unschedulable: "+gardener+"\n" {
			t.Errorf("-o %s without seeds:\n%s", format, out.String())
		}
	}
	var out bytes.Buffer
	if err := report.NewReport(o).Print(&out, report.Output{Format: "table", NoHeaders: true}); err != nil {
		t.Fatal(err)
	}
	if want := "garden-dev/p  SeedUsable  0/0 seeds\n"; out.String() != want {
		t.Errorf("the schedule without seeds:\n%q, want %q", out.String(), want)
	}
	if u := o.Plan.Unschedulable; len(u) != 1 || u[0].Message != gardener || len(u[0].Rejections) != 0 {
		t.Errorf("unschedulable %+v, want Gardener's message and no seeds counted", u)
	}
}

// failsOn is a writer that refuses the write holding text, as a closed pipe refuses every write after it closed.
type failsOn struct{ text string }

func (w failsOn) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(w.text)) {
		return 0, errors.New("closed pipe")
	}
	return len(p), nil
}

// explain's last lines are written like the others: a failed write of the decision is the command's error.
func TestExplainReportsAFailedWriteOfItsDecision(t *testing.T) {
	e := &report.Explanation{Shoot: "garden-p/a", Solver: "lp", Fallback: "timeout", Seed: "fra", Feasible: 1,
		Seeds: []report.SeedVerdict{{Name: "fra", Verdict: "chosen"}}}
	if err := e.Print(failsOn{"Decision:"}, report.Output{Format: "table"}); err == nil {
		t.Fatal("the decision could not be written, and Print said nothing")
	}
}

// A shoot explain cannot explain is not pending for one reason, worded with what to do about it where there is
// something: the seed it is bound to, or the --scheduler-name that explains it.
func TestNotPendingWording(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shoot *gardencorev1beta1.Shoot
		want  string
	}{
		{"bound", Shoot("a", BoundTo("aws-eu1")), "it is bound to seed aws-eu1 (seedplan moves bound shoots only when rebalancing)"},
		{"deleting", Shoot("a", BeingDeleted()), "it is being deleted"},
		{"another scheduler's", Shoot("a", ScheduledBy("other")), `its spec.schedulerName is "other" (--scheduler-name other explains it)`},
		{"self-hosted", Shoot("a", SelfHosted()), "it hosts its own control plane (a worker pool has controlPlane set): no scheduler places it"},
		{"pending", Shoot("a"), "it is pending, but not in the window"},
	} {
		if got := report.NotPending(tc.shoot, "default-scheduler"); got != tc.want {
			t.Errorf("%s: NotPending = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A seed selector that does not convert, the shoot's or its cloud profile's, excludes every seed for Gardener's
// error: explain names the selector's predicate and the error for each seed, counts them all under it, and gives
// the error as its decision.
func TestExplainNamesASelectorThatDoesNotConvertForEverySeed(t *testing.T) {
	message := InvalidSeedSelectorError
	for _, tc := range fixture.InvalidSelectors(t) {
		t.Run(tc.Predicate, func(t *testing.T) {
			seeds, snap := tc.Seeds, tc.Snapshot
			e, err := report.NewExplanation(scheduled(t, snap, config.Default()), "garden-dev/s")
			if err != nil {
				t.Fatal(err)
			}
			if e.Seed != "" || e.Message != message || e.Feasible != 0 ||
				!slices.Equal(e.Rejections, []model.SeedCount{{Predicate: tc.Predicate, Seeds: len(seeds)}}) {
				t.Errorf("explanation: seed %q, message %q, %d feasible, rejections %v; want none, %q, 0, all %d by %s",
					e.Seed, e.Message, e.Feasible, e.Rejections, message, len(seeds), tc.Predicate)
			}
			var out bytes.Buffer
			if err := e.Print(&out, report.Output{Format: "table"}); err != nil {
				t.Fatal(err)
			}
			rows := map[string]string{}
			for _, line := range strings.Split(out.String(), "\n") {
				if name, rest, ok := strings.Cut(line, " "); ok {
					rows[name] = strings.Join(strings.Fields(rest), " ")
				}
			}
			for _, seed := range seeds {
				if want := "rejected by " + tc.Predicate + " " + message; rows[seed.Name] != want {
					t.Errorf("explain's row of seed %s is %q, want %q:\n%s", seed.Name, rows[seed.Name], want, out.String())
				}
			}
			if want := "Decision: unschedulable: " + message + "\n"; !strings.HasSuffix(out.String(), want) {
				t.Errorf("explain does not end with %q:\n%s", want, out.String())
			}
		})
	}
}

// Explanations print one after another and, as data, as a List of them, also of one (kubectl's -o json of several
// names, whatever it finds); -o name names the seeds chosen and warns of the others.
func TestExplanationsPrintOneOrSeveral(t *testing.T) {
	snap := fixture.Landscape(t, []*gardencorev1beta1.Seed{Seed("fra", Allocatable(1))},
		[]*gardencorev1beta1.Shoot{Shoot("p-1"), Shoot("p-2")})
	o := scheduled(t, snap, config.Default())
	var es report.Explanations
	for _, shoot := range []string{"garden-dev/p-1", "garden-dev/p-2"} {
		e, err := report.NewExplanation(o, shoot)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	print := func(p interface {
		Print(io.Writer, report.Output) error
	}, format string) string {
		var out bytes.Buffer
		if err := p.Print(&out, report.Output{Format: format}); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	for _, format := range []string{"table", "wide", "name"} {
		if got, want := print(es[:1], format), print(es[0], format); got != want {
			t.Errorf("-o %s of one explanation:\n%s\nwant as the Explanation prints it:\n%s", format, got, want)
		}
	}
	if got, want := print(es[:1], "jsonpath={.kind} {.items[0].seed}"), "List fra"; got != want {
		t.Errorf("a List of one: %q, want %q", got, want)
	}
	if got, want := print(es, "table"), print(es[0], "table")+"\n"+print(es[1], "table"); got != want {
		t.Errorf("-o table of two:\n%s\nwant each, a blank line between:\n%s", got, want)
	}
	if got, want := print(es, "jsonpath={.kind} {range .items[*]}{.shoot}={.seed} {end}"), "List garden-dev/p-1=fra garden-dev/p-2= "; got != want {
		t.Errorf("the List of two: %q, want %q", got, want)
	}
	if got := print(es, "name"); got != "seed/fra\n" {
		t.Errorf("-o name of two, one placed: %q", got)
	}
	if warning := es.NameWarning(); !strings.HasPrefix(warning, "shoot garden-dev/p-2 is unschedulable, and -o name names no seed: ") || strings.Contains(warning, "p-1") {
		t.Errorf("the warning of -o name: %q", warning)
	}
}
