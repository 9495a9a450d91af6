package plan_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/internal/generated"
	"github.com/seedplan/seedplan/internal/scenario"
	"github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// TestPlansOnRandomLandscapes is the property test of both solvers: on random landscapes that exercise every
// predicate, under both strategies and at contention from ample to 120 %, every plan passes model.Verify and
// accounts for every pending shoot, listed in namespace/name order; solving twice gives the same plan; the LP places
// at least as many shoots as greedy, proves optimality, and where it places the same shoots its objective is never
// above greedy's.
func TestPlansOnRandomLandscapes(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			contention := []float64{0, 0.9, 1.0, 1.2}[seed%4]
			t.Run(fmt.Sprintf("seed=%d/%s/contention=%.1f", seed, strategy, contention), func(t *testing.T) {
				snap := generated.Snapshot(t, generator.Config{
					Seeds: 25, Shoots: 150, Existing: 100, Contention: contention, Seed: seed, Mix: generator.StressMix(),
				})
				opts := model.Options{Strategy: strategy}
				w, err := model.NewWindow(snap, opts, snap.Pending("default-scheduler"))
				if err != nil {
					t.Fatal(err)
				}
				weights := solver.DefaultWeights()
				if seed%2 == 0 {
					weights = solver.CompatWeights()
				}
				solutions := map[string]*plan.Solution{}
				for _, s := range []solver.Solver{solver.Greedy{}, solver.LP{Weights: weights}} {
					first, err := plan.Solve(context.Background(), w, plan.Policy{Solver: s})
					if err != nil {
						t.Fatal(err)
					}
					if err := model.Verify(snap, opts, first.Plan); err != nil {
						t.Fatalf("%s plan violates the landscape:\n%v", s.Name(), err)
					}
					if got := len(first.Plan.Placements) + len(first.Plan.Unschedulable); got != len(w.Shoots) {
						t.Fatalf("%s plan accounts for %d shoots, window has %d", s.Name(), got, len(w.Shoots))
					}
					if !slices.IsSortedFunc(first.Plan.Placements, func(a, b model.Placement) int { return strings.Compare(a.Shoot, b.Shoot) }) ||
						!slices.IsSortedFunc(first.Plan.Unschedulable, func(a, b model.Unschedulable) int { return strings.Compare(a.Shoot, b.Shoot) }) {
						t.Fatalf("%s plan does not list its shoots in namespace/name order", s.Name())
					}
					second, err := plan.Solve(context.Background(), w, plan.Policy{Solver: s})
					if err != nil {
						t.Fatal(err)
					}
					if fmt.Sprint(first.Plan) != fmt.Sprint(second.Plan) {
						t.Fatalf("%s is not deterministic", s.Name())
					}
					solutions[s.Name()] = first
					if s.Name() == "lp" && (!first.Optimal || first.Fallback != "") {
						t.Fatalf("lp: optimal=%v fallback=%q", first.Optimal, first.Fallback)
					}
				}
				greedy, lp := solutions["greedy"].Plan, solutions["lp"].Plan
				if len(greedy.Placements) == 0 {
					t.Fatal("no shoot placed on a landscape built to place most of them")
				}
				if len(lp.Placements) < len(greedy.Placements) {
					t.Fatalf("lp placed %d, greedy %d", len(lp.Placements), len(greedy.Placements))
				}
				// Under scarcity which shoots are placed is fairness's choice (oldest first), not cost's: the LP's
				// objective is optimal among plans that place its shoots, so it is comparable when greedy placed the
				// same ones.
				lpCost, greedyCost := solutions["lp"].Cost(weights), solutions["greedy"].Cost(weights)
				if placedSet(lp) == placedSet(greedy) && lpCost > greedyCost+1e-6 {
					t.Fatalf("lp objective %.1f above greedy's %.1f for the same shoots", lpCost, greedyCost)
				}
			})
		}
	}
}

// placedSet names the shoots a plan places, in its order.
func placedSet(p *model.Plan) string {
	var b strings.Builder
	for _, pl := range p.Placements {
		b.WriteString(pl.Shoot + " ")
	}
	return b.String()
}

// TestRebalanceOnRandomLandscapes is the property test of rebalancing, on the benchmark's rebalancing scenarios
// built from different random landscapes (half of them with backup on every seed and target 1), under both
// strategies: every plan passes model.VerifyMoves (Plan checks), is deterministic and optimal; moves +
// unresolved equals the lower bound, so every move resolves one unit of it; as no move can resolve more than
// one, no plan resolves as much with fewer moves, whether or not the target is reachable; and on the landscape
// after the moves, or while they migrate, a second run moves nothing.
func TestRebalanceOnRandomLandscapes(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			sc := scenario.Rebalances()[seed%2]
			t.Run(fmt.Sprintf("seed=%d/%s/%s", seed, strategy, sc.Name), func(t *testing.T) {
				objs, goal, err := scenario.Landscape(context.Background(), sc, 1600, 60, seed)
				if err != nil {
					t.Fatal(err)
				}
				if seed%4 < 2 { // every seed can take part in a migration, and may fill up to its allocatable
					goal.TargetUtilization = 1
					for _, s := range objs.Seeds {
						if s.Spec.Backup == nil {
							testobjects.WithBackup()(s)
						}
					}
				}
				opts := model.Options{Strategy: strategy}
				rebalanced := func(shoots []*gardencorev1beta1.Shoot) (*model.Rebalancing, *plan.Rebalanced) {
					t.Helper()
					snap, err := model.NewSnapshot(model.Objects{Seeds: objs.Seeds, Shoots: shoots, CloudProfiles: objs.CloudProfiles,
						NamespacedCloudProfiles: objs.NamespacedCloudProfiles, Projects: objs.Projects, ConfigMaps: objs.ConfigMaps})
					if err != nil {
						t.Fatal(err)
					}
					r, err := model.NewRebalancing(snap, opts, goal)
					if err != nil {
						t.Fatal(err)
					}
					return r, rebalance(t, solver.Rebalancer{Weights: solver.DefaultWeights()}, r)
				}
				r, first := rebalanced(objs.Shoots)
				if first.LowerBound == 0 || len(first.Moves) == 0 {
					t.Fatalf("lower bound %d, %d moves: the test would prove nothing", first.LowerBound, len(first.Moves))
				}
				if _, second := rebalanced(objs.Shoots); fmt.Sprint(first.Moves) != fmt.Sprint(second.Moves) {
					t.Fatal("rebalancing is not deterministic")
				}
				if !first.Optimal || len(first.Moves)+first.Unresolved != first.LowerBound {
					t.Fatalf("%d moves and %d unresolved, lower bound %d, optimal %v", len(first.Moves), first.Unresolved, first.LowerBound, first.Optimal)
				}
				if _, again := rebalanced(applied(r, first.Moves)); len(again.Moves) != 0 {
					t.Fatalf("a second run moves %d shoots again: %v", len(again.Moves), again.Moves)
				}
				if _, again := rebalanced(migrating(r, first.Moves)); len(again.Moves) != 0 {
					t.Fatalf("a second run while the moves migrate moves %d shoots more: %v", len(again.Moves), again.Moves)
				}
				t.Logf("%d moves, lower bound %d, unresolved %d", len(first.Moves), first.LowerBound, first.Unresolved)
				checkProblemsAddUp(t, r, first)
				checkCaps(t, r, first)
			})
		}
	}
}

// TestRebalanceExplainsWhatItLeaves rebalances generated landscapes of every predicate with bound shoots, some of
// them migrating, on unhealthy and overloaded seeds, under both strategies: moves and unresolved add up to the
// lower bound, and what the moves leave unresolved to what the problems explain (checkProblemsAddUp).
func TestRebalanceExplainsWhatItLeaves(t *testing.T) {
	var migratingAway, noRoom int
	for seed := uint64(1); seed <= 3; seed++ {
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			t.Run(fmt.Sprintf("seed=%d/%s", seed, strategy), func(t *testing.T) {
				snap := generated.Snapshot(t, generator.Config{Seeds: 60, Shoots: 2000, Existing: 2000, Contention: 1, Seed: seed, Mix: generator.StressMix()})
				r, err := model.NewRebalancing(snap, model.Options{Strategy: strategy}, model.RebalanceOptions{TargetUtilization: 0.7})
				if err != nil {
					t.Fatal(err)
				}
				rebalanced := rebalance(t, solver.Rebalancer{Weights: solver.DefaultWeights()}, r)
				if len(rebalanced.Moves)+rebalanced.Unresolved != rebalanced.LowerBound {
					t.Errorf("%d moves and %d unresolved, lower bound %d", len(rebalanced.Moves), rebalanced.Unresolved, rebalanced.LowerBound)
				}
				checkProblemsAddUp(t, r, rebalanced)
				for _, p := range rebalanced.Problems {
					migratingAway += r.Seeds[r.Snapshot.SeedIndex(p.Seed)].MigratingAway
					if p.NoRoom {
						noRoom++
					}
				}
			})
		}
	}
	if migratingAway == 0 || noRoom == 0 {
		t.Errorf("%d shoots migrating away, %d seeds without room: the test would prove too little", migratingAway, noRoom)
	}
}

// checkProblemsAddUp holds every seed the moves leave unresolved to its explanation: a seed that stays above its
// limit explains every shoot it keeps (its usage less the moves off it and the migrations off it in flight) by
// what keeps it there, a
// seed that keeps shoots that must leave explains each of those, unless and only unless it says that some had no
// room left — and then every shoot it keeps that had a destination finds each of them at its limit after the moves,
// counting every shoot there as Gardener does.
func checkProblemsAddUp(t *testing.T, r *model.Rebalancing, plan *plan.Rebalanced) {
	t.Helper()
	kept, counted, moved := make([]int, len(r.Seeds)), make([]int, len(r.Seeds)), map[string]bool{}
	for i, l := range r.Seeds {
		counted[i] = r.Snapshot.Usage(r.Snapshot.Seeds[i].Name)
		kept[i] = counted[i] - l.MigratingAway
	}
	for _, m := range plan.Moves {
		kept[r.Snapshot.SeedIndex(m.From)]--
		kept[r.Snapshot.SeedIndex(m.To)]++
		counted[r.Snapshot.SeedIndex(m.To)]++ // a shoot moved off a seed counts there until its migration is over
		moved[m.Shoot] = true
	}
	for _, p := range plan.Problems {
		seed := r.Snapshot.SeedIndex(p.Seed)
		explained, left := p.Unmovable+p.Stranded+p.Unmigratable+p.Blocked+p.Draining, kept[seed]
		if p.Stuck >= p.Above {
			left = p.Stuck
		}
		if p.NoRoom == (explained >= left) {
			t.Errorf("seed %s: %d of %d shoots explained, but no room left is %v: %+v", p.Seed, explained, left, p.NoRoom, p)
		}
		for _, b := range r.Shoots {
			if !p.NoRoom || b.Seed != seed || moved[model.ShootKey(b.Shoot)] || p.Stuck >= p.Above && !b.Leave.Required() {
				continue
			}
			for _, a := range b.Destinations {
				if limit := r.Seeds[a.Seed].Limit; limit == model.Unlimited || counted[a.Seed] < limit {
					t.Errorf("seed %s has no room left for %s, says the problem, but its destination %s has", p.Seed, model.ShootKey(b.Shoot), r.Snapshot.Seeds[a.Seed].Name)
				}
			}
		}
	}
}

// checkCaps plans the rebalancing again under caps on the moves, in all and per seed, that the uncapped plan
// exceeds: the capped plan keeps to them, and its moves and what they leave unresolved still add up to the
// lower bound.
func checkCaps(t *testing.T, r *model.Rebalancing, uncapped *plan.Rebalanced) {
	t.Helper()
	limit := max(len(uncapped.Moves)/2, 1)
	capped := rebalance(t, solver.Rebalancer{Weights: solver.DefaultWeights(), MaxMoves: limit, MaxMovesPerSeed: 1}, r)
	off, onto := map[string]int{}, map[string]int{}
	for _, m := range capped.Moves {
		off[m.From]++
		onto[m.To]++
	}
	if len(capped.Moves) > limit || slices.Max(append(slices.Collect(maps.Values(off)), 0)) > 1 || slices.Max(append(slices.Collect(maps.Values(onto)), 0)) > 1 {
		t.Fatalf("capped at %d moves and 1 per seed: %d moves, off %v, onto %v", limit, len(capped.Moves), off, onto)
	}
	if len(capped.Moves)+capped.Unresolved != capped.LowerBound {
		t.Fatalf("capped: %d moves and %d unresolved, lower bound %d", len(capped.Moves), capped.Unresolved, capped.LowerBound)
	}
}
