package plan

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/internal/generated"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/solver"
)

// The greedy rule chooses on the window's arcs by their preference (model.Window.Preference); model.ApplyStrategy
// is the literal transcription of Gardener's strategy. For random landscapes, both strategies and random remaining
// capacities and usages, the rule must choose what ApplyStrategy followed by the least-utilized rule chooses, or
// fail with the same message (model.Failures).
func TestDecideMatchesApplyStrategy(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			snap := generated.Snapshot(t, generator.Config{Seeds: 30, Shoots: 120, Existing: 60, Contention: 1.0, Seed: seed, Mix: generator.StressMix()})
			w, err := model.NewWindow(snap, model.Options{Strategy: strategy}, snap.Pending("default-scheduler"))
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 7))
			failures := model.NewFailures(w)
			for round := range 20 {
				free, usage := make([]int, len(snap.Seeds)), make([]int, len(snap.Seeds))
				one := &solver.Window{Seeds: make([]solver.Seed, len(snap.Seeds)), Shoots: []int{0}}
				for i := range free {
					free[i] = []int{0, 1, 3, model.Unlimited}[rng.IntN(4)]
					usage[i] = rng.IntN(5)
					one.Seeds[i] = solver.Seed{Free: room(free[i], 1), Usage: usage[i]}
				}
				for i, ev := range w.Evaluations {
					if ev.Err != nil {
						continue
					}
					one.Groups = []solver.Group{windowGroup(w, ev)}
					solution, err := (solver.Greedy{}).Solve(t.Context(), one)
					if err != nil {
						t.Fatal(err)
					}
					got, unschedulable := solution.Seed[0], (*model.Unschedulable)(nil)
					if cause := solution.Cause[0]; cause != solver.Placed {
						unschedulable = failures.Unschedulable(ev, failureOf(cause))
					}
					want, wantMessage := reference(ev, snap, free, usage)
					label := fmt.Sprintf("seed %d, %s, round %d, shoot %s", seed, strategy, round, model.ShootKey(w.Shoots[i]))
					switch {
					case wantMessage != "" && (unschedulable == nil || !strings.HasPrefix(unschedulable.Message, wantMessage)):
						t.Fatalf("%s: want unschedulable %q, got seed %d / %+v", label, wantMessage, got, unschedulable)
					case wantMessage == "" && got != want:
						t.Fatalf("%s: want seed %d, got %d / %+v", label, want, got, unschedulable)
					}
				}
			}
		}
	}
}

// reference decides like the gardener-scheduler: the candidates with room, ApplyStrategy on them in seed order,
// then the least used (first on ties). A shoot whose candidates are all full gets the §2.10 message's prefix.
func reference(ev *model.Evaluation, snap *model.Snapshot, free, usage []int) (int, string) {
	var available []*gardencorev1beta1.Seed
	for _, s := range ev.Candidates {
		if free[s] != 0 {
			available = append(available, snap.Seeds[s])
		}
	}
	if len(available) == 0 {
		return -1, "0/"
	}
	candidates, err := ev.Request.ApplyStrategy(available)
	if err != nil {
		return -1, err.Error()
	}
	best := -1
	for _, seed := range candidates {
		i := snap.SeedIndex(seed.Name)
		if best < 0 || usage[i] < usage[best] {
			best = i
		}
	}
	return best, ""
}
