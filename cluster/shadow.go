package cluster

import (
	"log/slog"
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
// the distance of that placement and the shoot's candidates; failedThere once the scheduler that binds it reported
// it unschedulable meanwhile.
type decision struct {
	uid         types.UID
	seed        string
	distance    int
	candidates  candidates
	failedThere bool
}

// candidates are the seeds a window's strategy admits for a shoot, with the distance of each: its arcs, and the
// names of the window's seeds they index (both shared by the shoots of the window).
type candidates struct {
	arcs  []model.Arc
	seeds []string
}

// distanceTo is the distance of placing the shoot on the seed; ok is false when the seed is none of its candidates.
func (c candidates) distanceTo(seed string) (distance int, ok bool) {
	for _, arc := range c.arcs {
		if c.seeds[arc.Seed] == seed {
			return arc.Distance, true
		}
	}
	return 0, false
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
	if outcome == model.ShadowOtherSeed {
		distance, there := shadowDistance(d, seed)
		s.metrics.ObserveShadowOtherSeed(distance)
		attrs = append(attrs, "distance", distance, "seedplanDistance", d.distance)
		if there != nil {
			attrs = append(attrs, "distanceThere", *there)
		}
	}
	slog.Info("Shoot bound by another scheduler", attrs...)
}

// shadowDistance is how far the seed another scheduler bound the shoot to is from its region against the seed of
// the shadow's decision d (another seed), and the other seed's distance when it is one of the shoot's candidates.
func shadowDistance(d decision, seed string) (model.ShadowDistance, *int) {
	there, candidate := d.candidates.distanceTo(seed)
	switch {
	case !candidate:
		return model.ShadowNotACandidateHere, nil
	case d.distance < there:
		return model.ShadowNearerHere, &there
	case d.distance == there:
		return model.ShadowAsNear, &there
	default:
		return model.ShadowFartherHere, &there
	}
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
