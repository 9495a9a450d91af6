package plan_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/internal/fixture"
	"github.com/seedplan/seedplan/internal/generated"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// Every unschedulable shoot's rejections account for every seed of the landscape once, most first, and the
// seeds counted as Capacity are exactly those an independent check (model.Verifier: every predicate and the
// strategy, evaluated afresh) admits the shoot to: the shoot was left out for room alone there. Every other seed
// has its rejection, a predicate and a reason, as explain shows it.
func TestRejectionsCountEverySeed(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			t.Run(fmt.Sprintf("seed=%d/%s", seed, strategy), func(t *testing.T) {
				snap := generated.Snapshot(t, generator.Config{Seeds: 25, Shoots: 250, Existing: 50, Contention: 1.5, Seed: seed, Mix: generator.StressMix()})
				opts := model.Options{Strategy: strategy}
				outcome, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"),
					plan.Policy{Options: opts, Solver: solver.LP{Weights: solver.DefaultWeights()}, Weights: solver.DefaultWeights()})
				if err != nil {
					t.Fatal(err)
				}
				if len(outcome.Plan.Unschedulable) == 0 {
					t.Fatal("nothing unschedulable: the test checks nothing")
				}
				verifier := model.NewVerifier(snap, opts)
				for _, u := range outcome.Plan.Unschedulable {
					shoot, ev := snap.Shoot(u.Shoot), outcome.Window.Evaluations[slices.Index(outcome.Window.Keys, u.Shoot)]
					admitting := 0
					for _, s := range snap.Seeds {
						if verifier.Placement(shoot, s) == nil {
							admitting++
						} else if r, ok := ev.Rejection(s.Name); !ok || r.Predicate == "" || r.Reason == "" {
							t.Fatalf("%s: seed %s is neither admitting nor rejected with a predicate and a reason: %+v", u.Shoot, s.Name, r)
						}
					}
					total, capacity := 0, 0
					for _, c := range u.Rejections {
						total += c.Seeds
						if c.Predicate == model.PredicateCapacity {
							capacity = c.Seeds
						}
					}
					sorted := slices.IsSortedFunc(u.Rejections, func(a, b model.SeedCount) int { return b.Seeds - a.Seeds })
					if total != len(snap.Seeds) || capacity != admitting || !sorted {
						t.Fatalf("%s: rejections %v count %d seeds (want %d), Capacity %d (the verifier admits %d), most first %v",
							u.Shoot, u.Rejections, total, len(snap.Seeds), capacity, admitting, sorted)
					}
				}
			})
		}
	}
}

// A seed selector that does not convert, the shoot's or its cloud profile's, leaves the shoot unschedulable with
// Gardener's error, and excludes every seed of the landscape for that error: the rejections count them all, and
// each seed's rejection (what explain shows) names the selector's predicate and the error.
func TestRejectionsOfASelectorThatDoesNotConvert(t *testing.T) {
	message := InvalidSeedSelectorError
	for _, tc := range fixture.InvalidSelectors(t) {
		t.Run(tc.Predicate, func(t *testing.T) {
			seeds, snap := tc.Seeds, tc.Snapshot
			outcome, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), plan.Policy{Solver: solver.Greedy{}})
			if err != nil {
				t.Fatal(err)
			}
			want := []model.SeedCount{{Predicate: tc.Predicate, Seeds: len(seeds)}}
			if u := outcome.Plan.Unschedulable; len(u) != 1 || u[0].Reason != tc.Predicate || u[0].Message != message || !slices.Equal(u[0].Rejections, want) {
				t.Fatalf("unschedulable %+v, want one for %s, %q, rejections %v", u, tc.Predicate, message, want)
			}
			for _, seed := range seeds {
				if r, ok := outcome.Window.Evaluations[0].Rejection(seed.Name); !ok || r != (model.Rejection{Predicate: tc.Predicate, Reason: message}) {
					t.Errorf("seed %s: rejection %+v, %v; want %s's, for the error", seed.Name, r, ok, tc.Predicate)
				}
			}
		})
	}
}
