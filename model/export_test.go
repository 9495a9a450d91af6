package model

import gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

// Laughs and Nested make the hostile documents of the fuzz corpora.
var Laughs, Nested = laughs, nested

// UncachedEvaluations evaluates each shoot on its own, by an evaluator of its own that shares nothing with the
// other shoots' and runs every filter afresh: the reference that the shared evaluation of a Window is tested
// against.
func UncachedEvaluations(snap *Snapshot, opts Options, shoots []*gardencorev1beta1.Shoot) []*Evaluation {
	evaluations := make([]*Evaluation, len(shoots))
	for i, shoot := range shoots {
		evaluations[i] = newEvaluator(snap, opts).evaluate(shoot)
	}
	return evaluations
}
