package model

import (
	"fmt"
	"slices"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// TaintEffect is what a seed taint does to shoots that do not tolerate it, as the Kubernetes taint effects and
// Gardener's draft "advanced scheduling" proposal describe it. Gardener's API (v1.150) has no effect field: its
// taints all behave as NoSchedule, and seedplan reads the other effects from AnnotationTaintEffects.
type TaintEffect string

const (
	// NoSchedule keeps shoots that do not tolerate the taint off the seed: Gardener's only behaviour.
	NoSchedule TaintEffect = "NoSchedule"
	// PreferNoSchedule makes placing a shoot that does not tolerate the taint cost a penalty in the objective.
	PreferNoSchedule TaintEffect = "PreferNoSchedule"
	// NoExecute is NoSchedule, and shoots already on the seed that do not tolerate the taint must move away.
	NoExecute TaintEffect = "NoExecute"
)

// AnnotationTaintEffects is the Seed annotation that gives seed taints their effects: comma-separated
// "<key>=<effect>" entries. A key of spec.taints may be NoSchedule (the default) or NoExecute. A key that is not
// in spec.taints may only be PreferNoSchedule: such a soft taint is seedplan's alone, because the
// gardener-apiserver refuses every binding to a seed with a spec.taints entry the shoot does not tolerate, so a
// taint in spec.taints can never be soft.
const AnnotationTaintEffects = "seedplan.gardener.cloud/taint-effects"

// SeedTaints are the taints of one seed whose effect is not Gardener's NoSchedule.
type SeedTaints struct {
	// NoExecute are the spec.taints entries with effect NoExecute.
	NoExecute []gardencorev1beta1.SeedTaint
	// PreferNoSchedule are the keys of the soft taints declared by the annotation.
	PreferNoSchedule []string
}

// ParseTaintEffects reads a seed's AnnotationTaintEffects. The error names the annotation and the entry.
func ParseTaintEffects(seed *gardencorev1beta1.Seed) (SeedTaints, error) {
	var taints SeedTaints
	value, ok := seed.Annotations[AnnotationTaintEffects]
	if !ok || strings.TrimSpace(value) == "" {
		return taints, nil
	}
	field := "metadata.annotations[" + AnnotationTaintEffects + "]"
	seen := map[string]bool{}
	for entry := range strings.SplitSeq(value, ",") {
		entry = strings.TrimSpace(entry)
		key, effectText, found := strings.Cut(entry, "=")
		key, effect := strings.TrimSpace(key), TaintEffect(strings.TrimSpace(effectText))
		switch {
		case !found || key == "":
			return SeedTaints{}, fmt.Errorf("%s: entry %q is not <key>=<effect>", field, entry)
		case seen[key]:
			return SeedTaints{}, fmt.Errorf("%s: taint %q is given twice", field, key)
		}
		seen[key] = true
		i := slices.IndexFunc(seed.Spec.Taints, func(t gardencorev1beta1.SeedTaint) bool { return t.Key == key })
		switch effect {
		case NoSchedule, NoExecute:
			if i < 0 {
				return SeedTaints{}, fmt.Errorf("%s: taint %q has effect %s but is not in spec.taints (only PreferNoSchedule taints may be declared by the annotation alone)", field, key, effect)
			}
			if effect == NoExecute {
				taints.NoExecute = append(taints.NoExecute, seed.Spec.Taints[i])
			}
		case PreferNoSchedule:
			if i >= 0 {
				return SeedTaints{}, fmt.Errorf("%s: taint %q is in spec.taints, so it cannot be PreferNoSchedule: the gardener-apiserver refuses every shoot that does not tolerate it (remove it from spec.taints to make it soft)", field, key)
			}
			taints.PreferNoSchedule = append(taints.PreferNoSchedule, key)
		default:
			return SeedTaints{}, fmt.Errorf("%s: taint %q has unknown effect %q (NoSchedule, PreferNoSchedule or NoExecute)", field, key, effectText)
		}
	}
	return taints, nil
}

// SoftViolations counts the PreferNoSchedule taints of the seed (by index) that the shoot does not tolerate.
func (s *Snapshot) SoftViolations(seed int, shoot *gardencorev1beta1.Shoot) int {
	n := 0
	for _, key := range s.taints[seed].PreferNoSchedule {
		if !TaintsTolerated([]gardencorev1beta1.SeedTaint{{Key: key}}, shoot.Spec.Tolerations) {
			n++
		}
	}
	return n
}

// NoExecuteTaints are the spec.taints entries of the seed (by index) that the taint-effects annotation gives
// effect NoExecute.
func (s *Snapshot) NoExecuteTaints(seed int) []gardencorev1beta1.SeedTaint {
	return s.taints[seed].NoExecute
}

// NoExecuteReason says why a bound shoot must leave its seed because of a NoExecute taint it does not tolerate,
// or "" when it need not.
func (s *Snapshot) NoExecuteReason(shoot *gardencorev1beta1.Shoot) string {
	i := s.SeedIndex(deref(shoot.Spec.SeedName))
	if i < 0 {
		return ""
	}
	for _, taint := range s.taints[i].NoExecute {
		if !TaintsTolerated([]gardencorev1beta1.SeedTaint{taint}, shoot.Spec.Tolerations) {
			return fmt.Sprintf("shoot does not tolerate the NoExecute taint %q of seed %s", taint.Key, s.Seeds[i].Name)
		}
	}
	return ""
}
