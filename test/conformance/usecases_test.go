package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
)

// TestEveryUseCaseHoldsOnSmallLandscapes holds the LP's use cases to their guarantees on the differential test's
// small landscapes, whose odd combinations (fractional allocatables, two region ConfigMaps, deleting bound shoots,
// duplicate zones, ...) the generator behind plan's property tests never writes. Under both strategies and both
// weight presets: every plan passes model.Verify (Schedule refuses one that does not), is proven optimal, is the
// same when planned again from a fresh snapshot, and places at least as many shoots as greedy; every rebalancing,
// with every seed given backup so that shoots may move, passes model.VerifyMoves, is proven optimal, keeps its move
// limits, and its moves and what they leave unresolved add up to its lower bound; every capacity answer passes
// model.VerifyCapacity and is proven minimal. The counts at the end make sure each use case had something to do.
func TestEveryUseCaseHoldsOnSmallLandscapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 0))
	placedBeyondGreedy, moves, newSeeds := 0, 0, 0
	for i := range 250 {
		data := landscapeBytes(rng)
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			for _, weights := range []string{config.WeightsCompat, config.WeightsBalanced} {
				where := fmt.Sprintf("landscape %d (%x), %s, weights %s: ", i, data, strategy, weights)
				p := policyOf(t, strategy, weights)
				placedBeyondGreedy += checkSchedule(t, where, data, p)
				moves += checkRebalance(t, where, data, p)
				newSeeds += checkCapacity(t, where, data, p)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	if placedBeyondGreedy == 0 || moves == 0 || newSeeds == 0 {
		t.Errorf("the landscapes gave the use cases too little to do: %d placed beyond greedy, %d moves, %d new seeds",
			placedBeyondGreedy, moves, newSeeds)
	}
	t.Logf("%d placed beyond greedy, %d moves, %d new seeds", placedBeyondGreedy, moves, newSeeds)
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

// checkSchedule plans the landscape twice and returns how many more shoots the LP placed than greedy.
func checkSchedule(t *testing.T, where string, data []byte, p plan.Policy) int {
	t.Helper()
	schedule := func() *plan.Outcome {
		snap := snapshotOf(t, data)
		o, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), p)
		if err != nil {
			t.Fatalf("%sschedule: %v", where, err)
		}
		return o
	}
	o, again := schedule(), schedule()
	if !slices.Equal(o.Plan.Placements, again.Plan.Placements) {
		t.Errorf("%sthe same landscape planned twice: %v, then %v", where, o.Plan.Placements, again.Plan.Placements)
	}
	placed := len(o.Plan.Placements)
	if !o.Optimal || placed < o.GreedyPlaced {
		t.Errorf("%sthe LP placed %d (optimal: %t), greedy %d", where, placed, o.Optimal, o.GreedyPlaced)
	}
	return placed - o.GreedyPlaced
}

// checkRebalance rebalances the landscape under drains and move limits and returns how many moves it made.
func checkRebalance(t *testing.T, where string, data []byte, p plan.Policy) int {
	t.Helper()
	moves := 0
	for _, drain := range [][]string{nil, {"s0"}, {"s0", "s1"}} {
		for _, limits := range []plan.MoveLimits{{}, {MaxMoves: 1}, {MaxMovesPerSeed: 1}} {
			target := model.RebalanceOptions{TargetUtilization: 0.8, Drain: drain, IgnoreMaintenanceWindows: true}
			r, err := plan.Rebalance(context.Background(), snapshotOf(t, data, withBackups), p, target, limits)
			if err != nil {
				t.Fatalf("%sdraining %v within %+v: %v", where, drain, limits, err)
			}
			if !r.Optimal || !withinLimits(r.Moves, limits) || len(r.Moves)+r.Unresolved != r.LowerBound {
				t.Errorf("%sdraining %v within %+v: %d moves and %d unresolved (optimal: %t, lower bound %d): %v",
					where, drain, limits, len(r.Moves), r.Unresolved, r.Optimal, r.LowerBound, r.Moves)
			}
			moves += len(r.Moves)
		}
	}
	return moves
}

// withBackups gives every seed without a backup one, ready, which the gardener-apiserver requires of both seeds of a
// move; a seed whose backup buckets are not ready stays so.
func withBackups(objs *model.Objects) {
	for _, seed := range objs.Seeds {
		if seed.Spec.Backup == nil {
			testobjects.WithBackup()(seed)
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

// checkCapacity answers the capacity question of the landscape and returns how many new seeds it asks for.
func checkCapacity(t *testing.T, where string, data []byte, p plan.Policy) int {
	t.Helper()
	answer, err := plan.Capacity(context.Background(), snapshotOf(t, data), p)
	if err != nil {
		t.Fatalf("%scapacity: %v", where, err)
	}
	if !answer.Optimal {
		t.Errorf("%scapacity not proven minimal: %+v", where, answer.NewSeeds)
	}
	newSeeds := 0
	for _, n := range answer.NewSeeds {
		newSeeds += n
	}
	return newSeeds
}
