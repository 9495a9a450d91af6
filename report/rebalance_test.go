package report_test

import (
	"context"
	"fmt"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

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

// Each move says exactly why its shoot leaves: how far an overloaded seed is above its target, counted in words
// that agree with the numbers, or what drains the seed.
func TestRebalanceMoveDetails(t *testing.T) {
	tests := []struct {
		name   string
		target model.RebalanceOptions
		from   *gardencorev1beta1.Seed
		hosted int
		want   string
	}{
		{
			name: "an overloaded seed", target: model.RebalanceOptions{TargetUtilization: 0.8},
			from: Seed("a", Allocatable(10), WithBackup()), hosted: 10,
			want: "the seed hosts 10 shoots, 2 above its target of 8",
		},
		{
			name: "a seed of one shoot whose target rounds to none", target: model.RebalanceOptions{TargetUtilization: 0.5},
			from: Seed("a", Allocatable(1), WithBackup()), hosted: 1,
			want: "the seed hosts 1 shoot, 1 above its target of 0",
		},
		{
			name: "a drained seed", target: model.RebalanceOptions{TargetUtilization: 1, Drain: []string{"a"}},
			from: Seed("a", Allocatable(10), WithBackup()), hosted: 1,
			want: "the seed is drained (--drain)",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var shoots []*gardencorev1beta1.Shoot
			for i := range tc.hosted {
				shoots = append(shoots, Shoot(fmt.Sprintf("on-a-%d", i), BoundTo("a"), Running()))
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
