package cluster

import (
	"log/slog"
	"sync"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/types"

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

// decision is a shadow's last decision for a shoot: the seed it placed the shoot on, "" when it left it unplaced.
type decision struct {
	uid  types.UID
	seed string
}

// decide records the shadow's decision for the shoot; a nil shadow (a loop that binds) records nothing.
func (s *shadow) decide(key types.NamespacedName, uid types.UID, seed string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.decisions[key] = decision{uid: uid, seed: seed}
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
