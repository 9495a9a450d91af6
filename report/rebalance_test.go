package report_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/report"
	"github.com/seedplan/seedplan/solver"
)

// The report lists every seed the message speaks of: the one the moves relieve, and one that is below its limit
// but keeps shoots that must leave (NoExecute) and cannot.
func TestRebalanceReportSeeds(t *testing.T) {
	retiring := []SeedOption{Allocatable(10), WithBackup(), Tainted("retire"), Annotated(model.AnnotationTaintEffects, "retire=NoExecute")}
	seeds := []*gardencorev1beta1.Seed{
		Seed("full", Allocatable(10), WithBackup()), Seed("room", Allocatable(10), WithBackup()),
		Seed("retiring", retiring...), Seed("quiet", Allocatable(10), WithBackup()),
	}
	var shoots []*gardencorev1beta1.Shoot
	add := func(seed, prefix string, n int, opts ...ShootOption) {
		for i := range n {
			shoots = append(shoots, Shoot(fmt.Sprintf("%s-%d", prefix, i), append([]ShootOption{BoundTo(seed), Running()}, opts...)...))
		}
	}
	add("full", "on-full", 10)
	add("room", "on-room", 8)
	add("quiet", "on-quiet", 9)
	// Stuck: they must leave retiring, and the only seeds they may use are full.
	add("retiring", "stuck", 2, func(s *gardencorev1beta1.Shoot) { s.Spec.Region = "eu-west-1" })
	got := rebalanceReport(t, seeds, shoots, model.RebalanceOptions{TargetUtilization: 0.9})
	var names []string
	for _, s := range got.Seeds {
		names = append(names, s.Name)
	}
	if fmt.Sprint(names) != "[full retiring room]" || got.Complete {
		t.Fatalf("seeds %v, complete %v, message %q; want full, retiring and room, incomplete", names, got.Complete, got.Message)
	}
}

// Each seed's row adds up: its shoots before, less those whose control planes are moving off it already, less the
// moves off it, plus the moves onto it, are its shoots after; the table shows the migrations away.
func TestRebalanceReportSeedCountsAddUp(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{
		Seed("full", Allocatable(10), WithBackup()), Seed("room", Allocatable(10), WithBackup()), Seed("more", Allocatable(10), WithBackup()),
	}
	var shoots []*gardencorev1beta1.Shoot
	add := func(seed string, n int, opts ...ShootOption) {
		for i := range n {
			shoots = append(shoots, Shoot(fmt.Sprintf("on-%s-%d-%d", seed, len(opts), i), append([]ShootOption{BoundTo(seed), Running()}, opts...)...))
		}
	}
	add("full", 10)
	add("room", 2)
	add("room", 1, func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("full") }) // moving from full to room
	got := rebalanceReport(t, seeds, shoots, model.RebalanceOptions{TargetUtilization: 0.8})
	if len(got.Moves) != 2 || !got.Complete {
		t.Fatalf("moves %+v, complete %v; want 2 moves off full (11 shoots, 1 of them leaving, limit 8)", got.Moves, got.Complete)
	}
	moved := map[string]int{}
	for _, m := range got.Moves {
		moved[m.From]--
		moved[m.To]++
	}
	migratingAway := map[string]int{"full": 1, "room": 0, "more": 0}
	rows := map[string]string{}
	for _, s := range got.Seeds {
		if s.MigratingAway != migratingAway[s.Name] || s.Before-s.MigratingAway+moved[s.Name] != s.After {
			t.Errorf("seed %s: %d before, %d migrating away, %+d moved, %d after; want %d migrating away, adding up",
				s.Name, s.Before, s.MigratingAway, moved[s.Name], s.After, migratingAway[s.Name])
		}
		rows[s.Name] = fmt.Sprintf("%s %d %d %d", s.Name, s.Before, s.MigratingAway, s.After)
	}
	var out bytes.Buffer
	if err := got.Print(&out, report.Output{Format: "table", NoHeaders: true}); err != nil {
		t.Fatal(err)
	}
	printed := 0
	for line := range strings.SplitSeq(out.String(), "\n") {
		if fields := strings.Fields(line); len(fields) > 4 && rows[fields[0]] != "" {
			printed++
			if strings.Join(fields[:4], " ") != rows[fields[0]] {
				t.Errorf("the table's row %q, want it to begin %q", line, rows[fields[0]])
			}
		}
	}
	if printed != len(rows) {
		t.Errorf("the table shows %d of the %d seeds:\n%s", printed, len(rows), out.String())
	}
}

// Every seed that sheds shoots says why, moves off it or not, in the words of a move off it: what drains it, how
// far it is above its target, how many of its shoots which NoExecute taints send away. A seed listed only because
// moves reach it gives no reason. The table shows the reasons, and -o wide their detail.
func TestRebalanceReportSaysWhySeedsShed(t *testing.T) {
	noExecute := func(key string) []SeedOption {
		return []SeedOption{Tainted(key), Annotated(model.AnnotationTaintEffects, key+"=NoExecute")}
	}
	notReady := func(s *gardencorev1beta1.Seed) {
		s.Status.Conditions[0] = gardencorev1beta1.Condition{Type: gardencorev1beta1.GardenletReady, Status: gardencorev1beta1.ConditionFalse,
			LastTransitionTime: metav1.NewTime(Created)}
	}
	seeds := []*gardencorev1beta1.Seed{
		Seed("overloaded", Allocatable(10), WithBackup()),
		Seed("retiring", append(noExecute("retire"), Allocatable(10), WithBackup())...),
		Seed("both", append(noExecute("gpu"), Allocatable(10), WithBackup())...),
		Seed("twice", Tainted("a"), Tainted("b"), Annotated(model.AnnotationTaintEffects, "a=NoExecute,b=NoExecute"), Allocatable(10), WithBackup()),
		Seed("sick", Allocatable(10), WithBackup(), notReady),
		Seed("deleted", Allocatable(10), WithBackup(), Deleting()),
		Seed("drained", Allocatable(10), WithBackup()),
		Seed("room", Allocatable(100), WithBackup()),
	}
	var shoots []*gardencorev1beta1.Shoot
	add := func(seed string, n int, opts ...ShootOption) {
		for i := range n {
			name := fmt.Sprintf("on-%s-%d-%d", seed, len(opts), i)
			shoots = append(shoots, Shoot(name, append([]ShootOption{BoundTo(seed), Running()}, opts...)...))
		}
	}
	add("overloaded", 10)
	add("retiring", 2)
	add("both", 7, Tolerating("gpu"))
	add("both", 3)
	add("twice", 2, Tolerating("a"))
	add("sick", 1)
	add("deleted", 1)
	add("drained", 1)
	got := rebalanceReport(t, seeds, shoots, model.RebalanceOptions{TargetUtilization: 0.9, Drain: []string{"drained"}})
	overloaded := report.SeedReason{Reason: model.LeaveOverloaded, Detail: "the seed hosts 10 shoots, 1 above its target of 9"}
	want := map[string][]report.SeedReason{
		"overloaded": {overloaded},
		"retiring":   {{Reason: model.LeaveNoExecute, Detail: `2 shoots do not tolerate its NoExecute taint "retire"`}},
		"both":       {overloaded, {Reason: model.LeaveNoExecute, Detail: `3 shoots do not tolerate its NoExecute taint "gpu"`}},
		"twice":      {{Reason: model.LeaveNoExecute, Detail: `2 shoots do not tolerate all of its NoExecute taints "a", "b"`}},
		"sick": {{Reason: model.LeaveUnusable,
			Detail: "seed condition GardenletReady is not True since " + Created.UTC().Format(time.RFC3339)}},
		"deleted": {{Reason: model.LeaveUnusable, Detail: "seed is being deleted"}},
		"drained": {{Reason: model.LeaveDrain, Detail: "the seed is drained (--drain, --drain-selector)"}},
		"room":    nil,
	}
	if len(got.Seeds) != len(want) {
		t.Fatalf("seeds %+v, want one of each of %v", got.Seeds, slices.Sorted(maps.Keys(want)))
	}
	for _, s := range got.Seeds {
		if w, ok := want[s.Name]; !ok || !slices.Equal(s.Reasons, w) {
			t.Errorf("seed %s gives reasons %+v, want %+v", s.Name, s.Reasons, w)
		}
	}
	for _, tc := range []struct {
		format string
		row    map[string]string // what follows ALLOCATABLE in the seed's row
	}{
		{"table", map[string]string{"both": "overloaded,NoExecute", "sick": "unusable", "room": "-"}},
		{"wide", map[string]string{
			"both": `overloaded,NoExecute the seed hosts 10 shoots, 1 above its target of 9; 3 shoots do not tolerate its NoExecute taint "gpu"`,
			"room": "- -",
		}},
	} {
		var out bytes.Buffer
		if err := got.Print(&out, report.Output{Format: tc.format}); err != nil {
			t.Fatal(err)
		}
		rows := map[string]string{}
		for line := range strings.SplitSeq(out.String(), "\n") {
			if fields := strings.Fields(line); len(fields) > 6 {
				rows[fields[0]] = strings.Join(fields[6:], " ")
			}
		}
		for seed, w := range tc.row {
			if rows[seed] != w {
				t.Errorf("-o %s: the row of seed %s ends with %q, want %q:\n%s", tc.format, seed, rows[seed], w, out.String())
			}
		}
	}
}

// Each move says exactly why its shoot leaves: how far an overloaded seed is above its target, counted in words
// that agree with the numbers, or what drains the seed.
func TestRebalanceMoveDetails(t *testing.T) {
	tests := []struct {
		name   string
		target model.RebalanceOptions
		from   *gardencorev1beta1.Seed
		hosted int
		// leaving is how many more shoots are moving off the seed (bound to b, their control planes still on a).
		leaving int
		want    string
	}{
		{
			name: "an overloaded seed", target: model.RebalanceOptions{TargetUtilization: 0.8},
			from: Seed("a", Allocatable(10), WithBackup()), hosted: 10,
			want: "the seed hosts 10 shoots, 2 above its target of 8",
		},
		{
			name: "an overloaded seed shedding shoots already", target: model.RebalanceOptions{TargetUtilization: 0.8},
			from: Seed("a", Allocatable(10), WithBackup()), hosted: 10, leaving: 1,
			want: "the seed hosts 10 shoots, 2 above its target of 8, and 1 shoot whose control plane is moving away",
		},
		{
			name: "a seed of one shoot whose target rounds to none", target: model.RebalanceOptions{TargetUtilization: 0.5},
			from: Seed("a", Allocatable(1), WithBackup()), hosted: 1,
			want: "the seed hosts 1 shoot, 1 above its target of 0",
		},
		{
			name: "a drained seed", target: model.RebalanceOptions{TargetUtilization: 1, Drain: []string{"a"}},
			from: Seed("a", Allocatable(10), WithBackup()), hosted: 1,
			want: "the seed is drained (--drain, --drain-selector)",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var shoots []*gardencorev1beta1.Shoot
			for i := range tc.hosted {
				shoots = append(shoots, Shoot(fmt.Sprintf("on-a-%d", i), BoundTo("a"), Running()))
			}
			for i := range tc.leaving {
				shoots = append(shoots, Shoot(fmt.Sprintf("leaving-%d", i), BoundTo("b"), func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("a") }))
			}
			seeds := []*gardencorev1beta1.Seed{tc.from, Seed("b", Allocatable(100), WithBackup())}
			got := rebalanceReport(t, seeds, shoots, tc.target)
			if len(got.Moves) == 0 {
				t.Fatalf("no moves, message %q", got.Message)
			}
			for _, m := range got.Moves {
				if m.Detail != tc.want {
					t.Errorf("%s moves for %q, want %q", m.Shoot, m.Detail, tc.want)
				}
			}
			// Before as Gardener counts the seed's shoots, after once the moves and migrations have finished.
			if a := got.Seeds[0]; a.Before != tc.hosted+tc.leaving || a.After != tc.hosted-len(got.Moves) {
				t.Errorf("seed a before %d, after %d; want %d, %d", a.Before, a.After, tc.hosted+tc.leaving, tc.hosted-len(got.Moves))
			}
		})
	}
}

// rebalanceReport is the report of rebalancing the landscape with the default weights and no caps.
func rebalanceReport(t *testing.T, seeds []*gardencorev1beta1.Seed, shoots []*gardencorev1beta1.Shoot, target model.RebalanceOptions) *report.RebalanceReport {
	t.Helper()
	r, err := model.NewRebalancing(fixture.Landscape(t, seeds, shoots), model.Options{}, target)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := plan.SolveRebalancing(context.Background(), r, solver.Rebalancer{Weights: solver.DefaultWeights()})
	if err != nil {
		t.Fatal(err)
	}
	return report.NewRebalanceReport(moves)
}

// rebalance's table is the moves, the seeds, the seeds in grace and, with --apply, what became of each move, in
// that order, each under its header and apart from the next; its last lines sum up the plan and, with --apply,
// count the moves' results and those the run did not start.
func TestRebalanceTableSections(t *testing.T) {
	since := time.Date(2026, 10, 31, 8, 0, 0, 0, time.UTC)
	limit, allocatable := 8, int64(10)
	r := report.RebalanceReport{TargetUtilization: 0.8, LowerBound: 3, Complete: true, Optimal: true,
		Moves: []model.Move{
			{Shoot: "garden-a/x", From: "a", To: "b", Reason: model.LeaveOverloaded},
			{Shoot: "garden-a/y", From: "a", To: "b", Reason: model.LeaveOverloaded},
			{Shoot: "garden-a/z", From: "a", To: "c", Reason: model.LeaveOverloaded},
		},
		Seeds:   []report.SeedChange{{Name: "a", Before: 11, After: 8, Limit: &limit, Allocatable: &allocatable}},
		InGrace: []report.SeedInGrace{{Name: "d", Reason: "seed condition GardenletReady is not True", Since: since, LeftSeconds: 299.6}},
		Applied: []model.MoveResult{
			{Shoot: "garden-a/x", To: "b", Result: model.MoveFinished},
			{Shoot: "garden-a/y", To: "b", Result: model.MoveStalled, Detail: "did not finish within 30m0s"},
		},
	}
	want := `SHOOT       FROM  TO  DISTANCE  STARTS  REASON
garden-a/x  a     b   0         now     overloaded
garden-a/y  a     b   0         now     overloaded
garden-a/z  a     c   0         now     overloaded

SEED  BEFORE  MIGRATING AWAY  AFTER  LIMIT  ALLOCATABLE  REASON
a     11      0               8      8      10           -

IN GRACE  REASON                                     SINCE                 MOVES IN
d         seed condition GardenletReady is not True  2026-10-31T08:00:00Z  5m0s

APPLIED     TO  RESULT    DETAIL
garden-a/x  b   finished  -
garden-a/y  b   stalled   did not finish within 30m0s

3 moves, 0 shoots unresolved, lower bound 3 (target utilization 0.80, optimal)
Of the 3 moves: finished 1, stalled 1, not started 1.
`
	var out bytes.Buffer
	if err := r.Print(&out, report.Output{Format: "table"}); err != nil {
		t.Fatal(err)
	}
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	if err := r.Print(&out, report.Output{Format: "table", NoHeaders: true}); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "garden-a/x  a  b  0  now  overloaded\ngarden-a/y  a  b  0  now  overloaded\ngarden-a/z  a  c  0  now  overloaded\n\n"+
		"a  11  0  8  8  10  -\n\nd  seed condition GardenletReady is not True  2026-10-31T08:00:00Z  5m0s\n\n"+
		"garden-a/x  b  finished  -\ngarden-a/y  b  stalled   did not finish within 30m0s\n"; got != want {
		t.Errorf("--no-headers: got:\n%s\nwant the rows only:\n%s", got, want)
	}
}

// rebalance -o wide adds to each move the regions it moves between, from the seeds it touches, and its detail.
func TestRebalanceWideMoves(t *testing.T) {
	r := report.RebalanceReport{TargetUtilization: 0.8, LowerBound: 1, Complete: true, Optimal: true,
		Moves: []model.Move{{Shoot: "garden-a/x", From: "fra", To: "ams", Distance: 4, Reason: model.LeaveDrain, Detail: "drained (--drain)"}},
		Seeds: []report.SeedChange{{Name: "ams", Region: "eu-nl-1", After: 1}, {Name: "fra", Region: "eu-de-1", Before: 1}},
	}
	want := `SHOOT       FROM  TO   DISTANCE  STARTS  REASON  FROM REGION  TO REGION  DETAIL
garden-a/x  fra   ams  4         now     drain   eu-de-1      eu-nl-1    drained (--drain)
`
	var out bytes.Buffer
	if err := r.Print(&out, report.Output{Format: "wide"}); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := strings.Cut(out.String(), "\n\n"); got+"\n" != want {
		t.Errorf("got:\n%s\nwant the moves:\n%s", out.String(), want)
	}
}
