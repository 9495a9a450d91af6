package report_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/internal/generated"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/report"
)

// The explanation of every pending shoot adds up with the plan it explains, on random landscapes under contention,
// both strategies and both solvers: its summary counts every seed once; a seed left feasible has room for the
// shoot after the window (counted here from the landscape and the plan, not from the window); one that passes
// every predicate but has none is rejected by Capacity; the chosen seed is the plan's; and an unschedulable
// shoot's summary is the rejections schedule reports for it, so explain never calls a seed feasible that the
// decision's message calls full; when that message blames Capacity, it calls full every seed the strategy rejects.
func TestExplanationsAddUp(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		for _, solver := range []string{config.SolverLP, config.SolverGreedy} {
			strategy := []model.Strategy{model.SameRegion, model.MinimalDistance}[seed%2]
			t.Run(fmt.Sprintf("seed=%d/%s/%s", seed, strategy, solver), func(t *testing.T) {
				snap := generated.Snapshot(t, generator.Config{Seeds: 25, Shoots: 200, Existing: 100,
					Contention: []float64{1.0, 1.2}[seed/3], Seed: seed, Mix: generator.StressMix()})
				c := config.Default()
				c.Strategy, c.Solver.Name = string(strategy), solver
				checkExplanationsAddUp(t, snap, scheduled(t, snap, c))
			})
		}
	}
}

// checkExplanationsAddUp explains every pending shoot of the outcome and checks it against the plan.
func checkExplanationsAddUp(t *testing.T, snap *model.Snapshot, o *plan.Outcome) {
	t.Helper()
	placed, seedOf := o.Plan.PlacedPerSeed(), map[string]string{}
	for _, pl := range o.Plan.Placements {
		seedOf[pl.Shoot] = pl.Seed
	}
	unschedulable := map[string]model.Unschedulable{}
	for _, u := range o.Plan.Unschedulable {
		unschedulable[u.Shoot] = u
	}
	full := 0
	for _, shoot := range o.Window.Shoots {
		key := model.ShootKey(shoot)
		e, err := report.NewExplanation(o, key)
		if err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		for _, v := range e.Seeds {
			counts[v.Verdict]++
			room := true
			if allocatable, limited := model.Allocatable(snap.Seed(v.Name)); limited {
				needs := placed[v.Name] + 1
				if v.Verdict == "chosen" {
					needs--
				}
				room = int64(snap.Usage(v.Name)+needs) <= allocatable
			}
			switch {
			case v.Verdict == "rejected" && v.Full:
				full++
				if v.Predicate != model.PredicateCapacity || room {
					t.Fatalf("%s: seed %s full (%s, room %v)", key, v.Name, v.Predicate, room)
				}
			case v.Verdict != "rejected" && !room:
				t.Fatalf("%s: seed %s %s without room for the shoot", key, v.Name, v.Verdict)
			case v.Verdict == "chosen" && v.Name != seedOf[key]:
				t.Fatalf("%s: chosen %s, placed on %q", key, v.Name, seedOf[key])
			case e.Reason == model.PredicateCapacity && v.Predicate == model.PredicateStrategy &&
				!strings.Contains(e.Message, v.Name+" => "+model.ReasonCapacity):
				// explain says Gardener's message calls these seeds full, as it checks room before the strategy.
				t.Fatalf("%s: seed %s rejected by Strategy is not full in Gardener's message %q", key, v.Name, e.Message)
			}
		}
		rejected := 0
		for _, r := range e.Rejections {
			rejected += r.Seeds
		}
		if e.Feasible != counts["chosen"]+counts["feasible"] || rejected != counts["rejected"] || len(e.Seeds) != len(snap.Seeds) {
			t.Fatalf("%s: %d feasible and %d rejected over %d seeds; verdicts %v", key, e.Feasible, rejected, len(snap.Seeds), counts)
		}
		if e.Seed != seedOf[key] || (e.Seed != "") != (counts["chosen"] == 1) {
			t.Fatalf("%s: explained as placed on %q, %d chosen; the plan places it on %q", key, e.Seed, counts["chosen"], seedOf[key])
		}
		if u, ok := unschedulable[key]; ok && (e.Feasible != 0 || e.Message != u.Message || !slices.Equal(e.Rejections, u.Rejections)) {
			t.Fatalf("%s: explained with %d feasible, rejections %v, %q; schedule reports rejections %v, %q",
				key, e.Feasible, e.Rejections, e.Message, u.Rejections, u.Message)
		}
	}
	if full == 0 {
		t.Fatal("no seed was full for any shoot: the landscape does not test what it should")
	}
}
