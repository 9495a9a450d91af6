package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
)

// TestEveryUseCaseHoldsOnSmallLandscapes holds the LP's use cases to their guarantees on the differential test's
// small landscapes, whose odd combinations (fractional allocatables, two region ConfigMaps, deleting bound shoots,
// duplicate zones, ...) the generator behind plan's property tests never writes. Under both strategies and both
// weight presets: every plan passes model.Verify (Schedule refuses one that does not), is proven optimal, is the
// same when planned again from a fresh snapshot, and places at least as many shoots as greedy; every rebalancing,
// with every seed given backup so that shoots may move, passes model.VerifyMoves, keeps its move limits and makes
// no fewer moves than its lower bound when it resolves everything; every capacity answer passes
// model.VerifyCapacity and is proven minimal. The counts at the end make sure each use case had something to do.
func TestEveryUseCaseHoldsOnSmallLandscapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 0))
	var done useCaseCounts
	for i := range 250 {
		data := landscapeBytes(rng)
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			for _, weights := range []string{config.WeightsCompat, config.WeightsBalanced} {
				where := fmt.Sprintf("landscape %d (%x), %s, weights %s: ", i, data, strategy, weights)
				p := policyOf(t, strategy, weights)
				done.add(checkSchedule(t, where, data, p))
				done.add(checkRebalance(t, where, data, p))
				done.add(checkCapacity(t, where, data, p))
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	if done.placedBeyondGreedy == 0 || done.moves == 0 || done.newSeeds == 0 {
		t.Errorf("the landscapes gave the use cases too little to do: %+v", done)
	}
	t.Logf("%+v", done)
}

// useCaseCounts are what the use cases did over the landscapes.
type useCaseCounts struct{ placedBeyondGreedy, moves, newSeeds int }

func (c *useCaseCounts) add(d useCaseCounts) {
	c.placedBeyondGreedy += d.placedBeyondGreedy
	c.moves += d.moves
	c.newSeeds += d.newSeeds
}

// policyOf is the default configuration's policy with the strategy and weight preset given.
func policyOf(t *testing.T, strategy model.Strategy, weights string) plan.Policy {
	t.Helper()
	c := config.Default()
	c.Strategy = string(strategy)
	c.Placement.Weights.Preset = weights
	p, err := plan.NewPolicy(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// snapshotOf is a fresh snapshot of the landscape of the bytes, changed by the functions given.
func snapshotOf(t *testing.T, data []byte, change ...func(*model.Objects)) *model.Snapshot {
	t.Helper()
	objs := fuzzLandscape(data)
	for _, f := range change {
		f(&objs)
	}
	snap, err := model.NewSnapshot(objs)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func checkSchedule(t *testing.T, where string, data []byte, p plan.Policy) useCaseCounts {
	t.Helper()
	var plans [2]*model.Plan
	var first *plan.Outcome
	for k := range plans {
		snap := snapshotOf(t, data)
		o, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), p)
		if err != nil {
			t.Fatalf("%sschedule: %v", where, err)
		}
		plans[k], first = o.Plan, o
	}
	if !slices.Equal(plans[0].Placements, plans[1].Placements) {
		t.Errorf("%sthe same landscape planned twice: %v, then %v", where, plans[0].Placements, plans[1].Placements)
	}
	placed := len(first.Plan.Placements)
	if !first.Optimal || placed < first.GreedyPlaced {
		t.Errorf("%sthe LP placed %d (optimal: %t), greedy %d", where, placed, first.Optimal, first.GreedyPlaced)
	}
	return useCaseCounts{placedBeyondGreedy: placed - first.GreedyPlaced}
}

func checkRebalance(t *testing.T, where string, data []byte, p plan.Policy) useCaseCounts {
	t.Helper()
	var done useCaseCounts
	for _, drain := range [][]string{nil, {"s0"}, {"s0", "s1"}} {
		for _, limits := range []plan.MoveLimits{{}, {MaxMoves: 1}, {MaxMovesPerSeed: 1}} {
			target := model.RebalanceOptions{TargetUtilization: 0.8, Drain: drain, IgnoreMaintenanceWindows: true}
			r, err := plan.Rebalance(context.Background(), snapshotOf(t, data, withBackups), p, target, limits)
			if err != nil {
				t.Fatalf("%sdraining %v within %+v: %v", where, drain, limits, err)
			}
			if !r.Optimal || !withinLimits(r.Moves, limits) || (r.Complete() && len(r.Moves) < r.LowerBound) {
				t.Errorf("%sdraining %v within %+v: %d moves (optimal: %t, lower bound %d, complete: %t): %v",
					where, drain, limits, len(r.Moves), r.Optimal, r.LowerBound, r.Complete(), r.Moves)
			}
			done.moves += len(r.Moves)
		}
	}
	return done
}

// withBackups gives every seed a backup, ready, which the gardener-apiserver requires of both seeds of a move.
func withBackups(objs *model.Objects) {
	for _, seed := range objs.Seeds {
		if seed.Spec.Backup == nil {
			seed.Spec.Backup = &gardencorev1beta1.Backup{Provider: seed.Spec.Provider.Type}
			seed.Status.Conditions = append(seed.Status.Conditions,
				gardencorev1beta1.Condition{Type: gardencorev1beta1.SeedBackupBucketsReady, Status: gardencorev1beta1.ConditionTrue})
		}
	}
}

// withinLimits reports whether the moves keep the limits: their number, and how many leave or reach any one seed.
func withinLimits(moves []model.Move, limits plan.MoveLimits) bool {
	if limits.MaxMoves > 0 && len(moves) > limits.MaxMoves {
		return false
	}
	off, on := map[string]int{}, map[string]int{}
	for _, m := range moves {
		off[m.From]++
		on[m.To]++
		if limits.MaxMovesPerSeed > 0 && (off[m.From] > limits.MaxMovesPerSeed || on[m.To] > limits.MaxMovesPerSeed) {
			return false
		}
	}
	return true
}

func checkCapacity(t *testing.T, where string, data []byte, p plan.Policy) useCaseCounts {
	t.Helper()
	answer, err := plan.Capacity(context.Background(), snapshotOf(t, data), p)
	if err != nil {
		t.Fatalf("%scapacity: %v", where, err)
	}
	if !answer.Optimal {
		t.Errorf("%scapacity not proven minimal: %+v", where, answer.NewSeeds)
	}
	var done useCaseCounts
	for _, n := range answer.NewSeeds {
		done.newSeeds += n
	}
	return done
}
