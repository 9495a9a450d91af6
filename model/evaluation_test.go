package model_test

import (
	"fmt"
	"testing"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/internal/generated"
	"github.com/seedplan/seedplan/model"
)

// A window shares filter outcomes between shoots whose filter keys are equal, and strategy outcomes between
// shoots whose strategy keys are equal; the keys are written by hand. On random landscapes that exercise every
// predicate, under both strategies, with and without strict networks, every shoot's shared evaluation must equal
// its evaluation on its own: the same error, candidates, §2.10 failures, strategy error, arcs, and the same
// rejection for every seed.
func TestSharedEvaluationEqualsUncached(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			opts := model.Options{Strategy: strategy, StrictNetworks: seed%2 == 0}
			t.Run(fmt.Sprintf("seed=%d/%s/strict=%v", seed, strategy, opts.StrictNetworks), func(t *testing.T) {
				snap := generated.Snapshot(t, generator.Config{Seeds: 30, Shoots: 300, Existing: 50, Contention: 1.0, Seed: seed, Mix: generator.StressMix()})
				pending := snap.Pending("default-scheduler")
				w, err := model.NewWindow(snap, opts, pending)
				if err != nil {
					t.Fatal(err)
				}
				shared := map[*model.Evaluation]bool{}
				for _, ev := range w.Evaluations {
					shared[ev] = true
				}
				if len(shared) == len(pending) || len(shared) == 0 {
					t.Fatalf("%d evaluations for %d shoots: the test would not exercise sharing", len(shared), len(pending))
				}
				for i, own := range model.UncachedEvaluations(snap, opts, pending) {
					if got, want := describe(snap, w.Evaluations[i]), describe(snap, own); got != want {
						t.Fatalf("shoot %s:\nshared   %s\nuncached %s", model.ShootKey(pending[i]), got, want)
					}
				}
			})
		}
	}
}

// describe is everything an evaluation says, as text.
func describe(snap *model.Snapshot, ev *model.Evaluation) string {
	s := fmt.Sprintf("err=%v (%s) entering=%d candidates=%v failures=%v strategyErr=%v arcs=%v rejections:",
		ev.Err, ev.ErrPredicate, ev.Entering, ev.Candidates, ev.CandidateFailures, ev.StrategyErr, ev.Arcs)
	for _, seed := range snap.Seeds {
		if r, ok := ev.Rejection(seed.Name); ok {
			s += fmt.Sprintf(" %s=%s:%s", seed.Name, r.Predicate, r.Reason)
		}
	}
	return s
}
