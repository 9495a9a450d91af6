package plan_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/report"
	"github.com/seedplan/seedplan/solver"
)

// hosting returns n shoots named prefix-1… running on the seed.
func hosting(seed, prefix string, n int, opts ...ShootOption) []*gardencorev1beta1.Shoot {
	var shoots []*gardencorev1beta1.Shoot
	for i := range n {
		shoots = append(shoots, Shoot(fmt.Sprintf("%s-%d", prefix, i+1), append([]ShootOption{BoundTo(seed), Running()}, opts...)...))
	}
	return shoots
}

func rebalancing(t *testing.T, opts model.Options, target model.RebalanceOptions, seeds []*gardencorev1beta1.Seed, shoots ...[]*gardencorev1beta1.Shoot) *model.Rebalancing {
	t.Helper()
	var all []*gardencorev1beta1.Shoot
	for _, s := range shoots {
		all = append(all, s...)
	}
	r, err := model.NewRebalancing(fixture.Landscape(t, seeds, all), opts, target)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func rebalance(t *testing.T, rb solver.Rebalancer, r *model.Rebalancing) *plan.Rebalanced {
	t.Helper()
	moves, err := plan.SolveRebalancing(context.Background(), r, rb)
	if err != nil {
		t.Fatal(err)
	}
	return moves
}

// movesPerRoute counts moves by "from→to".
func movesPerRoute(moves []model.Move) map[string]int {
	routes := map[string]int{}
	for _, m := range moves {
		routes[m.From+"→"+m.To]++
	}
	return routes
}

// applied is the landscape after the moves and their migrations: each moved shoot runs on its new seed.
func applied(r *model.Rebalancing, moves []model.Move) []*gardencorev1beta1.Shoot {
	return afterMoves(r, moves, true)
}

// migrating is the landscape just after the moves' bindings: each moved shoot is bound to its new seed while its
// control plane still runs on the old one.
func migrating(r *model.Rebalancing, moves []model.Move) []*gardencorev1beta1.Shoot {
	return afterMoves(r, moves, false)
}

func afterMoves(r *model.Rebalancing, moves []model.Move, migrated bool) []*gardencorev1beta1.Shoot {
	to := map[string]string{}
	for _, m := range moves {
		to[m.Shoot] = m.To
	}
	var shoots []*gardencorev1beta1.Shoot
	for _, shoot := range r.Snapshot.Shoots {
		shoot = shoot.DeepCopy()
		if seed, ok := to[model.ShootKey(shoot)]; ok {
			shoot.Spec.SeedName = new(seed)
			if migrated {
				shoot.Status.SeedName = new(seed)
			}
		}
		shoots = append(shoots, shoot)
	}
	return shoots
}

func TestRebalance(t *testing.T) {
	seed := func(name string, allocatable int64, opts ...SeedOption) *gardencorev1beta1.Seed {
		return Seed(name, append([]SeedOption{Allocatable(allocatable), WithBackup()}, opts...)...)
	}
	tests := []struct {
		name     string
		opts     model.Options
		target   model.RebalanceOptions
		rb       solver.Rebalancer
		seeds    []*gardencorev1beta1.Seed
		shoots   [][]*gardencorev1beta1.Shoot
		routes   map[string]int
		bound    int
		complete bool
		problem  string
		reasons  map[string]model.LeaveReason // shoot name → move reason
	}{
		{
			name:   "an overloaded seed sheds its excess to the emptiest seed",
			target: model.RebalanceOptions{TargetUtilization: 0.8},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10), seed("c", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 10), hosting("b", "on-b", 2), hosting("c", "on-c", 6)},
			routes: map[string]int{"a→b": 2}, bound: 2, complete: true,
		},
		{
			name:   "excess spreads where utilization is lowest",
			target: model.RebalanceOptions{TargetUtilization: 0.5},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 20), seed("b", 10), seed("c", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 16), hosting("b", "on-b", 1), hosting("c", "on-c", 1)},
			routes: map[string]int{"a→b": 3, "a→c": 3}, bound: 6, complete: true,
		},
		{
			name:   "moves farther than --max-move-distance are not made",
			target: model.RebalanceOptions{TargetUtilization: 0.5, MaxMoveDistance: new(0)},
			opts:   model.Options{Strategy: model.MinimalDistance},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 4), seed("b", 4, InRegion("aws", "eu-central-2"))},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 4)},
			routes: map[string]int{}, bound: 2,
			problem: "4 of its shoots have no other seed within a move distance of 0 that passes every predicate and the migration rules",
		},
		{
			name:   "overload is no trigger: nothing moves",
			target: model.RebalanceOptions{TargetUtilization: 0.5, Triggers: []model.LeaveReason{model.LeaveUnusable, model.LeaveNoExecute}},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 4), seed("b", 4)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 4)},
			routes: map[string]int{}, bound: 0, complete: true,
		},
		{
			name:   "the same moves without the bound",
			target: model.RebalanceOptions{TargetUtilization: 0.5},
			opts:   model.Options{Strategy: model.MinimalDistance},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 4), seed("b", 4, InRegion("aws", "eu-central-2"))},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 4)},
			routes: map[string]int{"a→b": 2}, bound: 2, complete: true,
		},
		{
			name:   "a drained seed ends empty",
			target: model.RebalanceOptions{TargetUtilization: 1, Drain: []string{"a"}},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10), seed("c", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 4), hosting("b", "on-b", 5), hosting("c", "on-c", 5)},
			routes: map[string]int{"a→b": 2, "a→c": 2}, bound: 4, complete: true,
			reasons: map[string]model.LeaveReason{"on-a-1": model.LeaveDrain},
		},
		{
			name:   "a seed being deleted is drained",
			target: model.RebalanceOptions{TargetUtilization: 1},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10, Deleting()), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 2)},
			routes: map[string]int{"a→b": 2}, bound: 2, complete: true,
			reasons: map[string]model.LeaveReason{"on-a-1": model.LeaveUnusable},
		},
		{
			name:   "a seed being deleted keeps the shoots no other seed has room for",
			target: model.RebalanceOptions{TargetUtilization: 1},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10, Deleting()), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 2), hosting("b", "on-b", 10)},
			routes: map[string]int{}, bound: 2, complete: false,
			problem: "seed a keeps 2 shoots that must leave: 2 of its shoots may only move to seeds already at their target",
		},
		{
			name:   "an overloaded seed whose only other seed is drained says so",
			target: model.RebalanceOptions{TargetUtilization: 0.8, Drain: []string{"b"}},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 10)},
			routes: map[string]int{}, bound: 2, complete: false,
			problem: "seed a stays 2 above its limit of 8: 10 of its shoots may only move to seeds being emptied themselves",
		},
		{
			name:   "two seeds drained together cannot take each other's shoots",
			target: model.RebalanceOptions{TargetUtilization: 1, Drain: []string{"a", "b"}},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 1), hosting("b", "on-b", 1)},
			routes: map[string]int{}, bound: 2, complete: false,
			problem: "seed a keeps 1 shoot that must leave: 1 of its shoots may only move to seeds being emptied themselves",
		},
		{
			name:   "NoExecute moves only the shoots that do not tolerate it",
			target: model.RebalanceOptions{TargetUtilization: 1},
			seeds: []*gardencorev1beta1.Seed{
				seed("a", 10, Tainted("retire"), Annotated(model.AnnotationTaintEffects, "retire=NoExecute")), seed("b", 10),
			},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "tolerant", 2, Tolerating("retire")), hosting("a", "intolerant", 3)},
			routes: map[string]int{"a→b": 3}, bound: 3, complete: true,
			reasons: map[string]model.LeaveReason{"intolerant-1": model.LeaveNoExecute},
		},
		{
			name:   "moving the shoots that must leave also relieves the overload: one move, not two",
			target: model.RebalanceOptions{TargetUtilization: 0.8},
			seeds: []*gardencorev1beta1.Seed{
				seed("a", 10, Tainted("retire"), Annotated(model.AnnotationTaintEffects, "retire=NoExecute")), seed("b", 10),
			},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "tolerant", 8, Tolerating("retire")), hosting("a", "intolerant", 1)},
			routes: map[string]int{"a→b": 1}, bound: 1, complete: true,
			reasons: map[string]model.LeaveReason{"intolerant-1": model.LeaveNoExecute},
		},
		{
			name:   "no destination fills above its target, so the overload stays partly",
			target: model.RebalanceOptions{TargetUtilization: 0.8},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 11), hosting("b", "on-b", 7)},
			routes: map[string]int{"a→b": 1}, bound: 3, complete: false,
			problem: "seed a stays 2 above its limit of 8: the seeds its other shoots may move to have no room left at or below their target",
		},
		{
			name:   "a movable shoot left behind because another seed's shoot took the last room is said so",
			opts:   model.Options{Strategy: model.MinimalDistance},
			target: model.RebalanceOptions{TargetUtilization: 0.8},
			seeds: []*gardencorev1beta1.Seed{
				seed("far", 10, InRegion("aws", "eu-west-1")), seed("room", 10), seed("near", 10),
			},
			shoots: [][]*gardencorev1beta1.Shoot{
				hosting("far", "pinned", 9, ScheduledBy("custom")), hosting("far", "movable", 1),
				hosting("room", "on-room", 7), hosting("near", "on-near", 9),
			},
			routes: map[string]int{"near→room": 1}, bound: 3, complete: false,
			problem: "seed far stays 2 above its limit of 8: 9 of its shoots cannot be moved (deleting, migrating, self-hosted or of another scheduler); " +
				"the seeds its other shoots may move to have no room left at or below their target",
		},
		{
			name:   "a shoot whose control plane is moving away is shed already: no other moves for it",
			target: model.RebalanceOptions{TargetUtilization: 0.8},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{
				hosting("a", "on-a", 8), hosting("b", "away", 1, func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("a") }),
			},
			routes: map[string]int{}, bound: 0, complete: true,
		},
		{
			name:   "the excess of a seed that sheds shoots already is the rest",
			target: model.RebalanceOptions{TargetUtilization: 0.8},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{
				hosting("a", "on-a", 9), hosting("b", "away", 1, func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("a") }),
			},
			routes: map[string]int{"a→b": 1}, bound: 1, complete: true,
		},
		{
			name:   "the migration rules need backup on both seeds",
			target: model.RebalanceOptions{TargetUtilization: 0.8},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), Seed("b", Allocatable(10))},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 9)},
			routes: map[string]int{}, bound: 1, complete: false,
			problem: "seed a stays 1 above its limit of 8: 9 of its shoots may only move to seeds the migration rules exclude, which require backup on both seeds",
		},
		{
			name:   "no shoot migrates off a seed without backup, and the problem says so",
			target: model.RebalanceOptions{TargetUtilization: 0.8},
			seeds:  []*gardencorev1beta1.Seed{Seed("a", Allocatable(10)), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 9)},
			routes: map[string]int{}, bound: 1, complete: false,
			problem: "seed a stays 1 above its limit of 8: 9 of its shoots cannot migrate: the seed has no backup (spec.backup), which Gardener requires of both seeds of a migration",
		},
		{
			name:   "the migration rules keep the internal domain: the rule broken is named",
			target: model.RebalanceOptions{TargetUtilization: 0.8},
			seeds: []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10, func(s *gardencorev1beta1.Seed) {
				s.Spec.DNS.Internal = &gardencorev1beta1.SeedDNSProviderConfig{Domain: "internal.other.example.com"}
			}),
				Seed("c", Allocatable(10))},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 9)},
			routes: map[string]int{}, bound: 1, complete: false,
			problem: "seed a stays 1 above its limit of 8: 9 of its shoots may only move to seeds the migration rules exclude, which require backup on both seeds and the same internal domain",
		},
		{
			name:   "no seed passes the predicates: the migration rules are not what keeps the shoots",
			target: model.RebalanceOptions{TargetUtilization: 0.8},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10, InRegion("aws", "eu-central-2"))},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 9)},
			routes: map[string]int{}, bound: 1, complete: false,
			problem: "seed a stays 1 above its limit of 8: 9 of its shoots have no other seed that passes every predicate and the migration rules",
		},
		{
			name:   "a seed beyond --max-move-distance beside one the migration rules exclude: the distance is named",
			target: model.RebalanceOptions{TargetUtilization: 0.8, MaxMoveDistance: new(0)},
			opts:   model.Options{Strategy: model.MinimalDistance},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), Seed("b", Allocatable(10)), seed("c", 10, InRegion("aws", "eu-central-2"))},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 9)},
			routes: map[string]int{}, bound: 1, complete: false,
			problem: "seed a stays 1 above its limit of 8: 9 of its shoots have no other seed within a move distance of 0 that passes every predicate and the migration rules",
		},
		{
			name:   "one shoot that must leave and cannot is counted as one",
			target: model.RebalanceOptions{TargetUtilization: 0.8, Drain: []string{"a"}},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), Seed("b", Allocatable(10))},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 1)},
			routes: map[string]int{}, bound: 1, complete: false,
			problem: "seed a keeps 1 shoot that must leave: 1 of its shoots may only move to seeds the migration rules exclude, which require backup on both seeds",
		},
		{
			name:   "--max-moves caps the plan and says so",
			target: model.RebalanceOptions{TargetUtilization: 0.5},
			rb:     solver.Rebalancer{MaxMoves: 2},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 9)},
			routes: map[string]int{"a→b": 2}, bound: 4, complete: false,
			problem: "--max-moves 2 is reached",
		},
		{
			name:   "--max-moves-per-seed caps the moves onto each seed",
			target: model.RebalanceOptions{TargetUtilization: 0.5},
			rb:     solver.Rebalancer{MaxMovesPerSeed: 1},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10), seed("c", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 7)},
			routes: map[string]int{"a→b": 1}, bound: 2, complete: false,
			problem: "--max-moves-per-seed 1 is reached",
		},
		{
			name:   "--max-moves when no shoot can move: a bound on no move (CLP was refused the program)",
			target: model.RebalanceOptions{TargetUtilization: 0.5},
			rb:     solver.Rebalancer{MaxMoves: 3},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 9), hosting("b", "on-b", 5)},
			routes: map[string]int{}, bound: 4, complete: false,
			problem: "seed a stays 4 above its limit of 5: 9 of its shoots may only move to seeds already at their target",
		},
		{
			name:   "--max-moves-per-seed when no shoot can move: a bound on no move (CLP was refused the program)",
			target: model.RebalanceOptions{TargetUtilization: 0.5},
			rb:     solver.Rebalancer{MaxMovesPerSeed: 1},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 9), hosting("b", "on-b", 5)},
			routes: map[string]int{}, bound: 4, complete: false,
			problem: "seed a stays 4 above its limit of 5: 9 of its shoots may only move to seeds already at their target",
		},
		{
			name:   "shoots that cannot move are named as the reason",
			target: model.RebalanceOptions{TargetUtilization: 0.5},
			seeds:  []*gardencorev1beta1.Seed{seed("a", 10), seed("b", 10)},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "other", 7, func(s *gardencorev1beta1.Shoot) { s.Spec.SchedulerName = new("custom") })},
			routes: map[string]int{}, bound: 2, complete: false,
			problem: "7 of its shoots cannot be moved",
		},
		{
			name:   "a move off a seed whose stuck shoots outnumber its excess resolves nothing: relieve another seed",
			opts:   model.Options{Strategy: model.MinimalDistance},
			target: model.RebalanceOptions{TargetUtilization: 1},
			seeds: []*gardencorev1beta1.Seed{
				seed("a", 10, Tainted("retire"), Annotated(model.AnnotationTaintEffects, "retire=NoExecute")),
				seed("b", 10, InRegion("aws", "eu-west-1")),
				seed("c", 10, Tainted("dedicated")),
			},
			shoots: [][]*gardencorev1beta1.Shoot{
				hosting("a", "stuck", 3), hosting("a", "tolerant", 9, Tolerating("retire"), Tolerating("dedicated")),
				hosting("b", "on-b", 11, Tolerating("dedicated")), hosting("c", "on-c", 9, Tolerating("dedicated")),
			},
			routes: map[string]int{"b→c": 1}, bound: 4, complete: false,
			problem: "seed a keeps 3 shoots that must leave, and is 2 above its limit of 10: 3 of its shoots may only move to seeds already at their target",
		},
		{
			name:   "near moves first",
			opts:   model.Options{Strategy: model.MinimalDistance},
			target: model.RebalanceOptions{TargetUtilization: 0.8},
			seeds: []*gardencorev1beta1.Seed{
				seed("a", 10), seed("near", 10, func(s *gardencorev1beta1.Seed) { s.Spec.Provider.Zones = []string{"eu-central-1b"} }),
				seed("far", 10, InRegion("aws", "eu-west-1")),
			},
			shoots: [][]*gardencorev1beta1.Shoot{hosting("a", "on-a", 10), hosting("near", "on-near", 5)},
			routes: map[string]int{"a→near": 2}, bound: 2, complete: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rebalancing(t, tc.opts, tc.target, tc.seeds, tc.shoots...)
			rb := tc.rb
			rb.Weights = solver.DefaultWeights()
			plan := rebalance(t, rb, r)
			message := report.NewRebalanceReport(plan).Message
			if got := movesPerRoute(plan.Moves); fmt.Sprint(got) != fmt.Sprint(tc.routes) {
				t.Errorf("moves %v, want %v", got, tc.routes)
			}
			if plan.LowerBound != tc.bound || plan.Complete() != tc.complete {
				t.Errorf("lower bound %d, complete %v; want %d, %v", plan.LowerBound, plan.Complete(), tc.bound, tc.complete)
			}
			if tc.complete && len(plan.Moves) != plan.LowerBound {
				t.Errorf("%d moves, but the lower bound %d is reachable", len(plan.Moves), plan.LowerBound)
			}
			if tc.problem != "" && !strings.Contains(message, tc.problem) {
				t.Errorf("problems %q, want one containing %q", message, tc.problem)
			}
			if tc.problem == "" && len(plan.Problems) > 0 {
				t.Errorf("unexpected problems %q", message)
			}
			for _, m := range plan.Moves {
				if want, ok := tc.reasons[strings.TrimPrefix(m.Shoot, "garden-dev/")]; ok && m.Reason != want {
					t.Errorf("%s moves for %q, want %q", m.Shoot, m.Reason, want)
				}
			}
			// Stability: on the landscape after the moves, and while their migrations are in flight, rebalancing
			// recommends nothing more.
			for when, shoots := range map[string][]*gardencorev1beta1.Shoot{"after the moves": applied(r, plan.Moves), "while they migrate": migrating(r, plan.Moves)} {
				again := rebalancing(t, tc.opts, tc.target, tc.seeds, shoots)
				if second := rebalance(t, rb, again); len(second.Moves) != 0 && tc.rb == (solver.Rebalancer{}) {
					t.Errorf("a second run %s moves again: %v", when, second.Moves)
				}
			}
		})
	}
}

// Each move says when it may start: at once when its shoot's maintenance window is open or ignored, otherwise at
// the window's next begin.
func TestMovesWaitForMaintenanceWindows(t *testing.T) {
	now := Created.Add(10 * time.Hour) // 10:00 UTC
	window := func(begin, end string) ShootOption {
		return func(s *gardencorev1beta1.Shoot) {
			s.Spec.Maintenance = &gardencorev1beta1.Maintenance{TimeWindow: &gardencorev1beta1.MaintenanceTimeWindow{Begin: begin, End: end}}
		}
	}
	seeds := []*gardencorev1beta1.Seed{Seed("a", Allocatable(10), WithBackup()), Seed("b", Allocatable(10), WithBackup())}
	shoots := [][]*gardencorev1beta1.Shoot{
		hosting("a", "open", 1, window("090000+0000", "110000+0000")),
		hosting("a", "closed", 1, window("220000+0000", "230000+0000")),
	}
	for _, tc := range []struct {
		ignore bool
		want   map[string]string
	}{
		{false, map[string]string{"garden-dev/open-1": "now", "garden-dev/closed-1": "2026-11-01T22:00:00Z"}},
		{true, map[string]string{"garden-dev/open-1": "now", "garden-dev/closed-1": "now"}},
	} {
		target := model.RebalanceOptions{TargetUtilization: 1, Drain: []string{"a"}, Now: now, IgnoreMaintenanceWindows: tc.ignore}
		moves := rebalance(t, solver.Rebalancer{Weights: solver.DefaultWeights()}, rebalancing(t, model.Options{}, target, seeds, shoots...)).Moves
		got := map[string]string{}
		for _, m := range moves {
			got[m.Shoot] = "now"
			if m.StartsAt != nil {
				got[m.Shoot] = m.StartsAt.UTC().Format(time.RFC3339)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("ignore %v: moves start %v, want %v", tc.ignore, got, tc.want)
		}
	}
}
