package plan_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/internal/generated"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// Shoots whose inputs differ but whose outcomes coincide are one case for the planner: a landscape whose every
// pending shoot has a seed selector expression and a toleration of its own that change nothing (generator's
// Distinct) gets the plan of the same landscape without them — the same placements and the same unschedulable
// shoots with the same messages and rejection counts — from every solver and strategy.
func TestDistinctInputsPlanAsTheirOutcomes(t *testing.T) {
	for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
		for _, s := range []solver.Solver{solver.Greedy{}, solver.LP{Weights: solver.DefaultWeights()}} {
			t.Run(fmt.Sprintf("%s/%s", strategy, s.Name()), func(t *testing.T) {
				var outcomes [2]*plan.Outcome
				var evaluations [2]int
				selectors := 0 // shoots with a seed selector of their own before: its words differ from then on
				for i, distinct := range []bool{false, true} {
					mix := generator.StressMix()
					mix.Distinct = distinct
					snap := generated.Snapshot(t, generator.Config{Seeds: 60, Shoots: 600, Existing: 300, Contention: 1.0, Seed: 3, Mix: mix})
					p := plan.Policy{Options: model.Options{Strategy: strategy}, Solver: s, Weights: solver.DefaultWeights()}
					outcome, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), p)
					if err != nil {
						t.Fatal(err)
					}
					outcomes[i] = outcome
					for _, shoot := range outcomes[i].Window.Shoots {
						if !distinct && shoot.Spec.SeedSelector != nil {
							selectors++
						}
					}
					seen := map[*model.Evaluation]bool{}
					for _, ev := range outcomes[i].Window.Evaluations {
						seen[ev] = true
					}
					evaluations[i] = len(seen)
				}
				if !reflect.DeepEqual(outcomes[0].Plan, outcomes[1].Plan) {
					t.Fatal("the plans differ")
				}
				// A selector that rejects seeds words its rejections with its own text, so such a shoot keeps an
				// evaluation of its own; every other shoot shares one with the shoots of equal outcome.
				if evaluations[1] > evaluations[0]+selectors {
					t.Errorf("%d evaluations with distinct inputs, %d without (%d shoots with a selector): equal outcomes should share them", evaluations[1], evaluations[0], selectors)
				}
				if len(outcomes[0].Plan.Placements) == 0 || len(outcomes[0].Plan.Unschedulable) == 0 {
					t.Fatal("the landscape exercises too little")
				}
			})
		}
	}
}
