package cluster

import (
	"cmp"
	"fmt"
	"log/slog"
	"math/bits"
	"strings"
	"sync"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
)

// shadow is what a loop that binds nothing (Loop.DryRun) last decided for each shoot it planned, kept until another
// scheduler binds the shoot, to be compared with that binding. The loop's goroutine decides; the shoot informer's
// handler compares and forgets.
type shadow struct {
	metrics *metrics.Metrics

	mu        sync.Mutex
	decisions map[types.NamespacedName]decision
}

// decision is a shadow's last decision for a shoot: the seed it placed the shoot on, "" when it left it unplaced,
// and the shoot's candidates (the placement's distance among them), or the reason it left the shoot unplaced (the
// predicate behind Gardener's message); failedThere once the scheduler that binds it reported it unschedulable
// meanwhile.
type decision struct {
	uid         types.UID
	seed        string
	candidates  candidates
	reason      string
	failedThere bool
}

// candidates are the seeds a window's strategy admits for a shoot, with the distance of each: its arcs, and the
// window's seeds they index (both shared by the shoots of the window).
type candidates struct {
	arcs  []model.Arc
	seeds []seedLoad
}

// seedLoad is a seed of a window as a shadow keeps it: its name, the shoots on it once the window's placements are
// made, and its allocatable shoots when it has any (limited).
type seedLoad struct {
	name        string
	after       int
	allocatable int64
	limited     bool
}

// distanceTo is the distance of placing the shoot on the seed; ok is false when the seed is none of its candidates.
func (c candidates) distanceTo(seed string) (distance int, ok bool) {
	for _, arc := range c.arcs {
		if c.seeds[arc.Seed].name == seed {
			return arc.Distance, true
		}
	}
	return 0, false
}

// load is the window's seed of the name; ok is false when the window did not know it.
func (c candidates) load(seed string) (load seedLoad, ok bool) {
	for _, s := range c.seeds {
		if s.name == seed {
			return s, true
		}
	}
	return seedLoad{}, false
}

// decide records the shadow's decision d for the shoot; a nil shadow (a loop that binds) records nothing.
func (s *shadow) decide(key types.NamespacedName, d decision) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if was := s.decisions[key]; was.uid == d.uid && was.seed == d.seed {
		d.failedThere = was.failedThere // the same placement stands
	}
	s.decisions[key] = d
}

// bound compares the shadow's decision for a shoot another scheduler just bound with that binding, records and
// logs how they compare, and forgets the decision.
func (s *shadow) bound(shoot *gardencorev1beta1.Shoot) {
	key := types.NamespacedName{Namespace: shoot.Namespace, Name: shoot.Name}
	s.mu.Lock()
	d, decided := s.decisions[key]
	delete(s.decisions, key)
	s.mu.Unlock()
	seed := *shoot.Spec.SeedName
	outcome := shadowOutcome(d, decided && d.uid == shoot.UID, seed)
	s.metrics.ObserveShadowBinding(outcome)
	attrs := []any{"shoot", key.String(), "seed", seed, "seedplanSeed", d.seed, "outcome", outcome}
	if outcome == model.ShadowUnschedulable {
		attrs = append(attrs, "seedplanReason", d.reason)
	}
	if outcome == model.ShadowOtherSeed {
		distance, here, there := shadowDistance(d, seed)
		utilization, hereUtilized, thereUtilized := shadowUtilization(d, seed)
		s.metrics.ObserveShadowOtherSeed(distance, utilization)
		attrs = append(attrs, "distance", distance, "seedplanDistance", here)
		if there != nil {
			attrs = append(attrs, "distanceThere", *there)
		}
		attrs = append(attrs, "utilization", utilization)
		if utilization != model.ShadowNotComparable {
			attrs = append(attrs, "seedplanUtilization", hereUtilized, "utilizationThere", thereUtilized)
		}
	}
	slog.Info("Shoot bound by another scheduler", attrs...)
}

// shadowDistance is how far the seed another scheduler bound the shoot to is from its region against the seed of
// the shadow's decision d (another seed): the shadow's seed's distance, and the other seed's when it is one of the
// shoot's candidates.
func shadowDistance(d decision, seed string) (distance model.ShadowDistance, here int, there *int) {
	here, _ = d.candidates.distanceTo(d.seed)
	other, candidate := d.candidates.distanceTo(seed)
	switch {
	case !candidate:
		return model.ShadowNotACandidateHere, here, nil
	case here < other:
		return model.ShadowNearerHere, here, &other
	case here == other:
		return model.ShadowAsNear, here, &other
	default:
		return model.ShadowFartherHere, here, &other
	}
}

// shadowUtilization is how utilized the seed another scheduler bound the shoot to ends with it against the seed of
// the shadow's decision d (another seed), both as the shadow's window left them, and each as shoots/allocatable
// (the shoot counted on both) when they compare.
func shadowUtilization(d decision, seed string) (utilization model.ShadowUtilization, here, there string) {
	mine, known := d.candidates.load(d.seed)
	other, knownThere := d.candidates.load(seed)
	if !known || !knownThere || !mine.limited || !other.limited {
		return model.ShadowNotComparable, "", ""
	}
	other.after++ // the shoot, which the window placed on the shadow's seed
	here, there = fmt.Sprintf("%d/%d", mine.after, mine.allocatable), fmt.Sprintf("%d/%d", other.after, other.allocatable)
	switch compareUtilization(mine, other) {
	case -1:
		return model.ShadowEmptierHere, here, there
	case 0:
		return model.ShadowAsFull, here, there
	default:
		return model.ShadowFullerHere, here, there
	}
}

// compareUtilization compares a.after/a.allocatable with b.after/b.allocatable exactly, across the products, which
// take up to 127 bits: -1, 0 or +1. An allocatable of 0 or below (a seed that takes no shoot, as Gardener reads
// its status) is utilized beyond any limit.
func compareUtilization(a, b seedLoad) int {
	aHi, aLo := bits.Mul64(uint64(max(a.after, 0)), uint64(max(b.allocatable, 0)))
	bHi, bLo := bits.Mul64(uint64(max(b.after, 0)), uint64(max(a.allocatable, 0)))
	if c := cmp.Compare(aHi, bHi); c != 0 {
		return c
	}
	return cmp.Compare(aLo, bLo)
}

// failed notes that the scheduler that binds the shoot reported it unschedulable (its lastOperation): a shoot the
// shadow placed is counted and logged, once while that placement stands.
func (s *shadow) failed(shoot *gardencorev1beta1.Shoot) {
	key := types.NamespacedName{Namespace: shoot.Namespace, Name: shoot.Name}
	s.mu.Lock()
	d, decided := s.decisions[key]
	counted := decided && d.uid == shoot.UID && d.seed != "" && !d.failedThere
	if counted {
		d.failedThere = true
		s.decisions[key] = d
	}
	s.mu.Unlock()
	if counted {
		s.metrics.ObserveShadowUnschedulableThere()
		slog.Info("Shoot reported unschedulable by another scheduler", "shoot", key.String(), "seedplanSeed", d.seed,
			"message", shoot.Status.LastOperation.Description)
	}
}

// failureReported reports whether the shoot's update is a scheduler's report that it could not schedule it: a
// lastOperation the gardener-scheduler writes then, new or written again.
func failureReported(before, after *gardencorev1beta1.Shoot) bool {
	op := after.Status.LastOperation
	if op == nil || op.Type != gardencorev1beta1.LastOperationTypeCreate || op.State != gardencorev1beta1.LastOperationStatePending ||
		!strings.HasPrefix(op.Description, bind.FailurePrefix) {
		return false
	}
	was := before.Status.LastOperation
	return was == nil || !was.LastUpdateTime.Equal(&op.LastUpdateTime) || was.Description != op.Description
}

// forget drops the decision for a shoot that is gone.
func (s *shadow) forget(key types.NamespacedName) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.decisions, key)
}

// shadowOutcome is how the shadow's decision d, if it decided for this shoot, compares with the seed the shoot
// was bound to.
func shadowOutcome(d decision, decided bool, seed string) model.ShadowOutcome {
	switch {
	case !decided:
		return model.ShadowUndecided
	case d.seed == "":
		return model.ShadowUnschedulable
	case d.seed == seed:
		return model.ShadowSameSeed
	default:
		return model.ShadowOtherSeed
	}
}
