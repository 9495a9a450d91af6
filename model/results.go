package model

// BindResult is the outcome of one binding, the label of seedplan_bindings_total.
type BindResult string

// The outcomes of a binding.
const (
	// Bound: the shoot is bound to the planned seed.
	Bound BindResult = "bound"
	// Conflict: the shoot changed since it was read and is still pending; it goes into the next window.
	Conflict BindResult = "conflict"
	// Taken: someone else set the shoot's seedName meanwhile; it is left alone.
	Taken BindResult = "taken"
	// Gone: the shoot was deleted, or is being deleted, meanwhile; it is skipped.
	Gone BindResult = "gone"
	// Refused: the API server refused the binding (admission, e.g. the seed filled up); the shoot stays pending.
	Refused BindResult = "refused"
	// Failed: the request failed (timeout, connection); the shoot stays pending.
	Failed BindResult = "failed"
	// Deferred: the seed changed after the window read it and no longer has room for the shoot (bind.Binder.Recheck);
	// the shoot stays pending for the next window.
	Deferred BindResult = "deferred"
	// Interrupted: seedplan stopped (SIGINT or SIGTERM, or the loop lost its lease) before the binding was made:
	// it was not sent, or its request was cut off and did not land; the shoot stays pending.
	Interrupted BindResult = "interrupted"
	// Skipped: a reviewed placement (seedplan apply) no longer holds — the shoot changed since it was planned, or
	// the seed no longer takes it; nothing was written, and nothing is planned instead.
	Skipped BindResult = "skipped"
	// Admitted: the API server admitted the binding sent as a dry run (seedplan apply --dry-run); nothing was
	// written, and the shoot stays pending.
	Admitted BindResult = "admitted"
	// NotSent: a dry run planned the placement and sent nothing (seedplan run --dry-run, a shadow); the shoot
	// stays pending for whoever binds it.
	NotSent BindResult = "not-sent"
)

// WindowBindResults are every result a window's binding may have as the garden's answer: all but Skipped and
// Admitted, which only a reviewed plan has, and Interrupted, which is seedplan's own stop.
func WindowBindResults() []BindResult {
	return []BindResult{Bound, Conflict, Taken, Gone, Refused, Failed, Deferred}
}

// ShadowOutcome is how the decision of a loop that binds nothing (seedplan run --dry-run, a shadow) compares with
// the seed another scheduler then bound the shoot to: the label of seedplan_shadow_bindings_total.
type ShadowOutcome string

// The outcomes of a shadow's comparison.
const (
	// ShadowSameSeed: the shoot was bound to the seed the shadow placed it on.
	ShadowSameSeed ShadowOutcome = "same-seed"
	// ShadowOtherSeed: the shoot was bound to another seed than the shadow's.
	ShadowOtherSeed ShadowOutcome = "other-seed"
	// ShadowUnschedulable: the shadow left the shoot unplaced, and another scheduler placed it.
	ShadowUnschedulable ShadowOutcome = "unschedulable-here"
	// ShadowUndecided: the shoot was bound before the shadow planned it.
	ShadowUndecided ShadowOutcome = "undecided"
)

// ShadowOutcomes are every ShadowOutcome.
func ShadowOutcomes() []ShadowOutcome {
	return []ShadowOutcome{ShadowSameSeed, ShadowOtherSeed, ShadowUnschedulable, ShadowUndecided}
}

// ShadowDistance is how far from a shoot's region the seed another scheduler bound it to is, against the seed a
// shadow placed it on, when the two differ: the distance label of seedplan_shadow_other_seed_total.
type ShadowDistance string

// The distances of a shadow's comparison.
const (
	// ShadowNearerHere: the shadow's seed is nearer the shoot's region than the other scheduler's.
	ShadowNearerHere ShadowDistance = "nearer-here"
	// ShadowAsNear: the two seeds are as far from the shoot's region (in it, most often).
	ShadowAsNear ShadowDistance = "as-near"
	// ShadowFartherHere: the other scheduler's seed is nearer the shoot's region than the shadow's.
	ShadowFartherHere ShadowDistance = "farther-here"
	// ShadowNotACandidateHere: the shadow's predicates or strategy reject the other scheduler's seed for the shoot
	// (or the shadow's window did not know the seed).
	ShadowNotACandidateHere ShadowDistance = "not-a-candidate-here"
)

// ShadowDistances are every ShadowDistance.
func ShadowDistances() []ShadowDistance {
	return []ShadowDistance{ShadowNearerHere, ShadowAsNear, ShadowFartherHere, ShadowNotACandidateHere}
}

// ShadowUtilization is how full the seed another scheduler bound a shoot to is, against the seed a shadow placed
// it on, when the two differ: each seed's shoots over its allocatable shoots as the shadow's window left it, the
// shoot counted on both. The utilization label of seedplan_shadow_other_seed_total.
type ShadowUtilization string

// The utilizations of a shadow's comparison.
const (
	// ShadowEmptierHere: the shadow's seed ends less utilized with the shoot than the other scheduler's would.
	ShadowEmptierHere ShadowUtilization = "emptier-here"
	// ShadowAsFull: the two seeds end equally utilized with the shoot.
	ShadowAsFull ShadowUtilization = "as-full"
	// ShadowFullerHere: the other scheduler's seed ends less utilized with the shoot than the shadow's.
	ShadowFullerHere ShadowUtilization = "fuller-here"
	// ShadowNotComparable: a seed without allocatable shoots (Gardener sets it no limit) is one of the two, or the
	// shadow's window did not know the other scheduler's seed.
	ShadowNotComparable ShadowUtilization = "not-comparable"
)

// ShadowUtilizations are every ShadowUtilization.
func ShadowUtilizations() []ShadowUtilization {
	return []ShadowUtilization{ShadowEmptierHere, ShadowAsFull, ShadowFullerHere, ShadowNotComparable}
}

// MoveOutcome is what became of applying a move.
type MoveOutcome string

// The outcomes of applying a move.
const (
	// MoveApplied: the shoot was rebound to its new seed; its control plane migration has started.
	MoveApplied MoveOutcome = "moved"
	// MoveSkipped: the re-check before the move found it no longer valid; nothing was written.
	MoveSkipped MoveOutcome = "skipped"
	// MoveConflict: the shoot changed between the re-check and the binding; nothing was written.
	MoveConflict MoveOutcome = "conflict"
	// MoveRefused: the gardener-apiserver refused the binding.
	MoveRefused MoveOutcome = "refused"
	// MoveFailed: the binding failed otherwise.
	MoveFailed MoveOutcome = "failed"
	// MoveFinished: the shoot was rebound and reports its restore on the new seed: its migration is complete.
	MoveFinished MoveOutcome = "finished"
	// MoveStalled: the shoot was rebound but did not report its restore on the new seed in time; the run stopped.
	MoveStalled MoveOutcome = "stalled"
	// MoveCapped: the shoot's project had as many moves in this run as its cap allows; a later run moves it.
	MoveCapped MoveOutcome = "capped"
	// MoveScheduled: the shoot's maintenance window is closed; the move waits for it (Detail says when), and a
	// later run makes it.
	MoveScheduled MoveOutcome = "scheduled"
	// MoveAdmitted: the API server admitted the rebinding sent as a dry run (seedplan apply --dry-run); nothing was
	// written.
	MoveAdmitted MoveOutcome = "admitted"
)

// MoveResult is what became of one move.
type MoveResult struct {
	Shoot  string      `json:"shoot"`
	To     string      `json:"to"`
	Result MoveOutcome `json:"result"`
	Detail string      `json:"detail,omitempty"`
}
