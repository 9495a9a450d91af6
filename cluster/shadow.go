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

// decision is a shadow's last decision for a shoot: the seed it placed the shoot on, "" when it left it unplaced;
// failedThere once the scheduler that binds it reported it unschedulable meanwhile.
type decision struct {
	uid         types.UID
	seed        string
	failedThere bool
}

// decide records the shadow's decision for the shoot; a nil shadow (a loop that binds) records nothing.
func (s *shadow) decide(key types.NamespacedName, uid types.UID, seed string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := decision{uid: uid, seed: seed}
	if was := s.decisions[key]; was.uid == uid && was.seed == seed {
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
	outcome := shadowOutcome(d, decided && d.uid == shoot.UID, *shoot.Spec.SeedName)
	s.metrics.ObserveShadowBinding(outcome)
	slog.Info("Shoot bound by another scheduler", "shoot", key.String(), "seed", *shoot.Spec.SeedName,
		"seedplanSeed", d.seed, "outcome", outcome)
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
