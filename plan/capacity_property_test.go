package plan_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/internal/generated"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// TestCapacityAddsUp is the property test of capacity planning on random landscapes that exercise every
// predicate: every pending shoot is accounted for exactly once — on an existing seed, on a template's new seeds
// or unplaceable — the answer passes the independent checker (SolveCapacity refuses any that does not), and a
// search that finishes within its budget gives the same answer whatever the budget.
func TestCapacityAddsUp(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		strategy := []model.Strategy{model.SameRegion, model.MinimalDistance}[seed%2]
		contention := []float64{0.5, 1.0, 1.5, 3}[seed%4]
		t.Run(fmt.Sprintf("seed=%d/%s/contention=%.1f", seed, strategy, contention), func(t *testing.T) {
			snap := generated.Snapshot(t, generator.Config{
				Seeds: 25, Shoots: 200, Existing: 100, Contention: contention, Seed: seed, Mix: generator.StressMix(),
			})
			q, err := model.NewCapacityPlanning(snap, model.Options{Strategy: strategy}, 0.8)
			if err != nil {
				t.Fatal(err)
			}
			var answers []string
			for _, budget := range []time.Duration{0, time.Minute} {
				answer, err := plan.SolveCapacity(context.Background(), q, solver.Capacity{Timeout: budget})
				if err != nil {
					t.Fatal(err)
				}
				onNew := answer.OnNew()
				if got := answer.OnExisting + onNew + len(answer.Unplaceable); got != len(q.Window.Shoots) {
					t.Fatalf("%d on existing + %d on new seeds + %d unplaceable = %d, want the %d pending",
						answer.OnExisting, onNew, len(answer.Unplaceable), got, len(q.Window.Shoots))
				}
				if answer.Total() < answer.LowerBound || answer.Optimal && answer.Total() != answer.LowerBound {
					t.Fatalf("%d new seeds, lower bound %d, optimal %v: a proven answer is its own bound, and none is below it",
						answer.Total(), answer.LowerBound, answer.Optimal)
				}
				answers = append(answers, fmt.Sprint(answer.NewSeeds, answer.Placements, answer.Unplaceable))
			}
			if answers[0] != answers[1] {
				t.Fatalf("the answer depends on the budget:\n%s\n%s", answers[0], answers[1])
			}
		})
	}
}

// Capacity names what schedule names: on random landscapes that exercise every predicate, a shoot no seed takes,
// new seeds included, is unplaceable for the predicate schedule gives it (unless schedule's is Capacity, which new
// seeds answer), and where a filter leaves it no seed, with Gardener's error as schedule words it.
func TestCapacityNamesWhatScheduleNames(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		strategy := []model.Strategy{model.SameRegion, model.MinimalDistance}[seed%2]
		t.Run(fmt.Sprintf("seed=%d/%s", seed, strategy), func(t *testing.T) {
			snap := generated.Snapshot(t, generator.Config{
				Seeds: 25, Shoots: 200, Existing: 100, Contention: 1, Seed: seed, Mix: generator.StressMix(),
			})
			opts := model.Options{Strategy: strategy}
			scheduled, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), plan.Policy{Options: opts, Solver: solver.Greedy{}})
			if err != nil {
				t.Fatal(err)
			}
			schedule := map[string]model.Unschedulable{}
			for _, u := range scheduled.Plan.Unschedulable {
				schedule[u.Shoot] = u
			}
			answer, err := plan.Capacity(context.Background(), snap, plan.Policy{Options: opts, Target: 0.8})
			if err != nil {
				t.Fatal(err)
			}
			compared := 0
			for _, u := range answer.Unplaceable {
				s, ok := schedule[u.Shoot]
				if !ok || s.Reason == model.PredicateCapacity || u.Reason == model.PredicateCapacity {
					continue
				}
				compared++
				if u.Reason != s.Reason {
					t.Errorf("%s: capacity names %s (%q), schedule %s (%q)", u.Shoot, u.Reason, u.Message, s.Reason, s.Message)
				}
				if gardeners, _, _ := strings.Cut(u.Message, "; "); !strings.HasPrefix(u.Message, "no seed,") && gardeners != s.Message {
					t.Errorf("%s: capacity says %q, schedule %q", u.Shoot, u.Message, s.Message)
				}
			}
			if compared == 0 {
				t.Fatal("no shoot unplaceable for a reason schedule gives too: the landscape tests nothing")
			}
		})
	}
}

// When CLP runs out of time before the LP's first answer, capacity still answers: greedily, unproven unless its
// bound says so, labelled as the fallback it is, and adding up and verified like any answer. It never needs
// fewer new seeds than the search with time finds, and its bound is never above them.
func TestCapacityWithoutTheLP(t *testing.T) {
	snap := generated.Snapshot(t, generator.Config{Seeds: 300, Shoots: 3000, Existing: 1500, Contention: 1.2, Seed: 2})
	q, err := model.NewCapacityPlanning(snap, model.Options{Strategy: model.SameRegion}, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	rushed, err := plan.SolveCapacity(context.Background(), q, solver.Capacity{Timeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	searched, err := plan.SolveCapacity(context.Background(), q, solver.Capacity{})
	if err != nil {
		t.Fatal(err)
	}
	if rushed.Fallback != solver.FallbackTimeout || searched.Fallback != "" {
		t.Fatalf("fallbacks %q with a nanosecond and %q without a budget", rushed.Fallback, searched.Fallback)
	}
	if got := rushed.OnExisting + rushed.OnNew() + len(rushed.Unplaceable); got != len(q.Window.Shoots) ||
		len(rushed.Unplaceable) != len(searched.Unplaceable) || rushed.OnExisting != searched.OnExisting {
		t.Fatalf("greedily %d on existing, %d on new, %d unplaceable; searched %d, %d, %d", rushed.OnExisting, rushed.OnNew(),
			len(rushed.Unplaceable), searched.OnExisting, searched.OnNew(), len(searched.Unplaceable))
	}
	if rushed.Total() < searched.Total() || rushed.LowerBound > searched.Total() || rushed.Optimal && rushed.Total() != rushed.LowerBound {
		t.Fatalf("greedily %d new seeds (bound %d, optimal %v), searched %d", rushed.Total(), rushed.LowerBound, rushed.Optimal, searched.Total())
	}
}

// An operator who adds the seeds capacity asks for finds schedule placing what capacity placed: on random
// landscapes that exercise every predicate, the landscape with each template's new seeds added (copies of the
// template under new names) is scheduled under the default policy with time enough for the LP, which places
// exactly the shoots capacity did not call unplaceable, none of them above its seed's target.
func TestCapacityAnswerHoldsOnceItsSeedsExist(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		strategy := []model.Strategy{model.SameRegion, model.MinimalDistance}[seed%2]
		contention := []float64{0.5, 1.0, 1.5, 3}[seed%4]
		t.Run(fmt.Sprintf("seed=%d/%s/contention=%.1f", seed, strategy, contention), func(t *testing.T) {
			cfg := generator.Config{Seeds: 25, Shoots: 200, Existing: 100, Contention: contention, Seed: seed, Mix: generator.StressMix()}
			policy := defaultPolicy(t, strategy)
			policy.Budget.Timeout, policy.Solver = time.Minute, solver.LP{Weights: policy.Weights, Timeout: time.Minute}
			answer, err := plan.Capacity(context.Background(), generated.Snapshot(t, cfg), policy)
			if err != nil {
				t.Fatal(err)
			}
			grown := withNewSeeds(t, cfg, answer)
			outcome, err := plan.Schedule(context.Background(), grown, grown.Pending("default-scheduler"), policy)
			if err != nil {
				t.Fatal(err)
			}
			if !outcome.Optimal {
				t.Fatalf("the LP did not solve the window to optimality (fallback %q)", outcome.Fallback)
			}
			unplaceable := map[string]bool{}
			for _, u := range answer.Unplaceable {
				unplaceable[u.Shoot] = true
			}
			for _, u := range outcome.Plan.Unschedulable {
				if !unplaceable[u.Shoot] {
					t.Errorf("with %d new seeds schedule leaves %s unschedulable (%s), which capacity placed", answer.Total(), u.Shoot, u.Reason)
				}
			}
			if want := answer.OnExisting + answer.OnNew(); len(outcome.Plan.Placements) != want {
				t.Fatalf("with %d new seeds schedule places %d shoots, capacity %d", answer.Total(), len(outcome.Plan.Placements), want)
			}
			if outcome.AboveTarget != 0 {
				t.Fatalf("with %d new seeds schedule places %d shoots above their seeds' target", answer.Total(), outcome.AboveTarget)
			}
		})
	}
}

// withNewSeeds is the generated landscape with the new seeds the answer asks for: copies of each template seed,
// named after it.
func withNewSeeds(t *testing.T, cfg generator.Config, answer *plan.CapacityAnswer) *model.Snapshot {
	t.Helper()
	objs, err := generator.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, tmpl := range answer.Question.Templates {
		at := slices.IndexFunc(objs.Seeds, func(s *gardencorev1beta1.Seed) bool { return s.Name == tmpl.Template })
		if at < 0 {
			t.Fatalf("template %s is not a seed of the landscape", tmpl.Template)
		}
		for n := range answer.NewSeeds[i] {
			seed := objs.Seeds[at].DeepCopy()
			seed.Name = fmt.Sprintf("%s-new-%d", tmpl.Template, n)
			objs.Seeds = append(objs.Seeds, seed)
		}
	}
	snap, err := model.NewSnapshot(objs)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}
