package plan_test

import (
	"context"
	"math"
	"reflect"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// window builds the window of all pending shoots of a landscape with the aws profile and the dev project.
func window(t *testing.T, opts model.Options, seeds []*gardencorev1beta1.Seed, shoots ...*gardencorev1beta1.Shoot) *model.Window {
	t.Helper()
	snap := fixture.Landscape(t, seeds, shoots)
	w, err := model.NewWindow(snap, opts, snap.Pending("default-scheduler"))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func solve(t *testing.T, s solver.Solver, w *model.Window) *plan.Solution {
	t.Helper()
	solution, err := plan.Solve(context.Background(), w, plan.Policy{Solver: s})
	if err != nil {
		t.Fatal(err)
	}
	if err := model.Verify(w.Snapshot, w.Options, solution.Plan); err != nil {
		t.Fatalf("%s plan fails Verify: %v", s.Name(), err)
	}
	return solution
}

func seedOf(plan *model.Plan, shoot string) string {
	for _, p := range plan.Placements {
		if p.Shoot == "garden-dev/"+shoot {
			return p.Seed
		}
	}
	return ""
}

// The classic case: shoot A fits seeds 1 and 2, shoot B fits only seed 1, one slot each. Greedy gives A the
// first seed and strands B; the LP places both.
func TestLPPlacesWhatGreedyStrands(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{
		Seed("seed-1", Allocatable(1)),
		Seed("seed-2", Allocatable(1), Tainted("dedicated")),
	}
	a := Shoot("a", Tolerating("dedicated"))
	b := Shoot("b", CreatedAfter(time.Second))
	w := window(t, model.Options{}, seeds, a, b)

	greedy := solve(t, solver.Greedy{}, w)
	if seedOf(greedy.Plan, "a") != "seed-1" || seedOf(greedy.Plan, "b") != "" {
		t.Fatalf("greedy should place a on seed-1 and strand b, got %+v", greedy.Plan)
	}
	lp := solve(t, solver.LP{Weights: solver.DefaultWeights()}, w)
	if seedOf(lp.Plan, "a") != "seed-2" || seedOf(lp.Plan, "b") != "seed-1" || !lp.Optimal || lp.Fallback != "" {
		t.Fatalf("lp should place a on seed-2 and b on seed-1, optimally; got %+v", lp)
	}
}

// Under MinimalDistance the LP keeps shoots near when capacity is short; greedy, one shoot at a time, sends
// the shoot that had the most choice to the near seed and the next one far.
func TestLPPrefersNearRegions(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{
		Seed("fra", Allocatable(1)),
		Seed("zrh", InRegion("aws", "eu-central-2"), Allocatable(1)),
		Seed("use", InRegion("aws", "us-east-1"), Allocatable(5)),
	}
	// s1 lives in eu-central-2 and may go anywhere; s2 in eu-central-1 can only use fra or the far us-east-1.
	s1 := Shoot("s1", Region("eu-central-2"))
	s2 := Shoot("s2", CreatedAfter(time.Second), func(s *gardencorev1beta1.Shoot) {
		s.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{}
		s.Spec.Tolerations = nil
	})
	opts := model.Options{Strategy: model.MinimalDistance}
	w := window(t, opts, seeds, s1, s2)
	lp := solve(t, solver.LP{Weights: solver.CompatWeights()}, w)
	total := func(plan *model.Plan) int {
		d := 0
		for _, p := range plan.Placements {
			d += p.Distance
		}
		return d
	}
	greedy := solve(t, solver.Greedy{}, w)
	if len(lp.Plan.Placements) != 2 || total(lp.Plan) > total(greedy.Plan) {
		t.Fatalf("lp total distance %d > greedy %d (lp %+v)", total(lp.Plan), total(greedy.Plan), lp.Plan)
	}
	if seedOf(lp.Plan, "s1") != "zrh" || seedOf(lp.Plan, "s2") != "fra" {
		t.Fatalf("lp should keep both shoots in their own regions, got %+v", lp.Plan.Placements)
	}
}

// The LP balances by utilization (usage / allocatable), greedy by absolute counts.
func TestLPBalancesUtilization(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{Seed("big", Allocatable(100)), Seed("small", Allocatable(10))}
	var shoots []*gardencorev1beta1.Shoot
	for i := range 20 {
		shoots = append(shoots, Shoot("s"+string(rune('a'+i)), CreatedAfter(time.Duration(i)*time.Second)))
	}
	w := window(t, model.Options{}, seeds, shoots...)
	utilizationSpread := func(plan *model.Plan) float64 {
		placed := plan.PlacedPerSeed()
		return math.Abs(float64(placed["big"])/100 - float64(placed["small"])/10)
	}
	greedy := solve(t, solver.Greedy{}, w)
	lp := solve(t, solver.LP{Weights: solver.DefaultWeights()}, w)
	if g := greedy.Plan.PlacedPerSeed(); g["big"] != 10 || g["small"] != 10 {
		t.Fatalf("greedy should split by absolute count 10/10, got %v", g)
	}
	if utilizationSpread(lp.Plan) >= utilizationSpread(greedy.Plan) || lp.Plan.PlacedPerSeed()["small"] > 3 {
		t.Fatalf("lp does not balance utilization: %v (greedy %v)", lp.Plan.PlacedPerSeed(), greedy.Plan.PlacedPerSeed())
	}
}

// When CLP cannot finish in time the greedy plan is returned, marked as a timeout fallback.
func TestLPTimeoutFallsBackToGreedy(t *testing.T) {
	w := window(t, model.Options{}, []*gardencorev1beta1.Seed{Seed("a"), Seed("b")}, Shoot("s1"), Shoot("s2"))
	lp := solve(t, solver.LP{Weights: solver.DefaultWeights(), Timeout: time.Nanosecond}, w)
	greedy := solve(t, solver.Greedy{}, w)
	if lp.Fallback != solver.FallbackTimeout || lp.Optimal {
		t.Fatalf("want fallback %q and not optimal, got %+v", solver.FallbackTimeout, lp)
	}
	if len(lp.Plan.Placements) != len(greedy.Plan.Placements) || lp.Plan.Placements[0] != greedy.Plan.Placements[0] {
		t.Fatalf("the fallback plan is not the greedy plan")
	}
}

// Shoots without any usable seed are reported with Gardener's message, and do not reach CLP.
func TestLPUnschedulableMessages(t *testing.T) {
	w := window(t, model.Options{}, []*gardencorev1beta1.Seed{Seed("a", Allocatable(1))}, Shoot("s1"), Shoot("s2", CreatedAfter(time.Second)), Shoot("far", Region("us-east-1")))
	lp := solve(t, solver.LP{Weights: solver.DefaultWeights()}, w)
	greedy := solve(t, solver.Greedy{}, w)
	if len(lp.Plan.Unschedulable) != 2 {
		t.Fatalf("want 2 unschedulable, got %+v", lp.Plan.Unschedulable)
	}
	for i, u := range lp.Plan.Unschedulable {
		if !reflect.DeepEqual(u, greedy.Plan.Unschedulable[i]) {
			t.Errorf("lp says %+v, greedy (Gardener) says %+v", u, greedy.Plan.Unschedulable[i])
		}
	}
}

// A soft violation (such as an untolerated PreferNoSchedule taint) is avoided by the LP when another seed is
// available, and ignored by greedy, as by the gardener-scheduler.
func TestLPAvoidsSoftViolations(t *testing.T) {
	w := window(t, model.Options{}, []*gardencorev1beta1.Seed{Seed("a"), Seed("b")}, Shoot("s1"))
	arcs := w.Evaluations[0].Arcs
	if len(arcs) != 2 {
		t.Fatalf("want arcs to both seeds, got %+v", arcs)
	}
	arcs[0].SoftViolations = 1 // seed a
	if got := seedOf(solve(t, solver.Greedy{}, w).Plan, "s1"); got != "a" {
		t.Fatalf("greedy chose %q, want a", got)
	}
	lp := solve(t, solver.LP{Weights: solver.DefaultWeights()}, w)
	if got := seedOf(lp.Plan, "s1"); got != "b" || !lp.Optimal {
		t.Fatalf("lp chose %q (optimal %v), want b", got, lp.Optimal)
	}
	if soft := lp.PlacementCost(solver.DefaultWeights(), arcs[0], 1).Soft; soft != solver.DefaultWeights().SoftViolation {
		t.Fatalf("soft cost %v", soft)
	}
}
