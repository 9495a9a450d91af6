package model

import (
	"cmp"
	"slices"
	"strings"
)

// Preference is the gardener-scheduler's preference for one of the evaluation's arcs (spec §3, §3.4): it picks
// the least-utilized seed among the arcs with room of the lowest (tier, distance). Under MinimalDistance, for a
// shoot that is not a testing shoot, seeds with a region-config distance come first, nearest first, then those
// of the Levenshtein fallback, nearest first; under the other strategies every arc is alike.
func (w *Window) Preference(ev *Evaluation, a Arc) (tier, distance int) {
	if w.Options.Strategy != MinimalDistance || ev.Request.IsTesting() {
		return 0, 0
	}
	if a.Source == DistanceRegionConfig {
		return 0, a.Distance
	}
	return 1, a.Distance
}

// Failure is why the gardener-scheduler's decision leaves a shoot without a seed.
type Failure int

const (
	// FailureExcluded: the filter chain (Evaluation.Err) or the strategy itself (Evaluation.StrategyErr) refuses
	// the shoot whatever the capacity.
	FailureExcluded Failure = iota + 1
	// FailureCandidatesFull: every seed passing §2.1–§2.10b is full (§2.10's "0/N seed cluster candidate(s)").
	FailureCandidatesFull
	// FailureNoSeedInStrategy: some candidate has room, but none the strategy admits.
	FailureNoSeedInStrategy
)

// Failures words the failures of one window's shoots as the gardener-scheduler does. Each outcome is a pure
// function of the evaluation and the failure, and Gardener's §2.10 message can list every seed, so one copy per
// evaluation is shared by all its shoots. Not safe for concurrent use.
type Failures struct {
	w        *Window
	outcomes map[failureKey]*Unschedulable
	// messages keeps one copy of each distinct §2.10 message: many evaluations fail with the same one (10,000
	// shoots on 500 seeds: 216 distinct messages of 2,000 failures), and each is built in scratch first, so that
	// a window allocates its distinct messages only: the garbage of a window solved under a deadline is what
	// makes the garbage collector run at the deadline and delay the fallback.
	messages map[string]string
	reasons  []SeedReason
	scratch  []byte
}

type failureKey struct {
	ev      *Evaluation
	failure Failure
}

// NewFailures returns the wording of the window's failures.
func NewFailures(w *Window) *Failures {
	return &Failures{w: w, outcomes: map[failureKey]*Unschedulable{}, messages: map[string]string{}}
}

// Unschedulable is the gardener-scheduler's outcome for a shoot of the evaluation that fails so, without the
// shoot's name. It is shared: copy it to change it.
func (f *Failures) Unschedulable(ev *Evaluation, failure Failure) *Unschedulable {
	key := failureKey{ev, failure}
	if u, ok := f.outcomes[key]; ok {
		return u
	}
	var u *Unschedulable
	switch {
	case failure == FailureExcluded && ev.Err != nil:
		u = &Unschedulable{Message: ev.Err.Error(), Reason: ev.ErrPredicate}
	case failure == FailureExcluded && ev.StrategyErr != nil:
		u = &Unschedulable{Message: ev.StrategyErr.Error(), Reason: PredicateStrategy}
	case failure == FailureCandidatesFull:
		u = f.candidatesFull(ev)
	default:
		u = &Unschedulable{Message: ev.Request.NoCandidateError().Error(), Reason: PredicateStrategy}
	}
	u.Rejections = f.rejections(ev)
	f.outcomes[key] = u
	return u
}

// rejections counts, over every seed, the predicate that excluded it for the evaluation's shoot: Capacity for
// the seeds the strategy admits (the shoot is unplaced, so none of them had room left for it), otherwise the
// first predicate that failed for the seed. Most seeds first, ties by predicate name.
func (f *Failures) rejections(ev *Evaluation) []SeedCount {
	counts := ev.RejectionCounts()
	if n := len(ev.Arcs); n > 0 {
		counts[PredicateCapacity] = n
	}
	return SeedCounts(counts)
}

// SeedCounts lists seed counts by predicate, most seeds first, ties by predicate name.
func SeedCounts(counts map[string]int) []SeedCount {
	out := make([]SeedCount, 0, len(counts))
	for predicate, n := range counts {
		out = append(out, SeedCount{Predicate: predicate, Seeds: n})
	}
	slices.SortFunc(out, func(a, b SeedCount) int {
		return cmp.Or(cmp.Compare(b.Seeds, a.Seeds), strings.Compare(a.Predicate, b.Predicate))
	})
	return out
}

// candidatesFull is Gardener's "0/N seed cluster candidate(s)" outcome of §2.10 when every candidate is full:
// the seeds that failed networks or taints and the full ones, merged in seed name order. When some full seed had
// room before this window, the message says that shoots of the same window took it.
func (f *Failures) candidatesFull(ev *Evaluation) *Unschedulable {
	seeds := f.w.Snapshot.Seeds
	reasons := f.reasons[:0]
	failures, full := ev.CandidateFailures, ev.Candidates
	takenByWindow := false
	for len(failures) > 0 || len(full) > 0 {
		if len(full) == 0 || (len(failures) > 0 && failures[0].Seed < full[0]) {
			reasons = append(reasons, SeedReason{Seed: seeds[failures[0].Seed].Name, Reason: failures[0].Reason})
			failures = failures[1:]
			continue
		}
		reasons = append(reasons, SeedReason{Seed: seeds[full[0]].Name, Reason: ReasonCapacity})
		takenByWindow = takenByWindow || f.w.Free[full[0]] != 0
		full = full[1:]
	}
	f.reasons = reasons
	f.scratch = AppendCandidatesMessage(f.scratch[:0], ev.Entering, reasons)
	if takenByWindow {
		f.scratch = append(f.scratch, " (the free capacity of some candidate seeds was taken by other shoots of this window)"...)
	}
	message, ok := f.messages[string(f.scratch)]
	if !ok {
		message = string(f.scratch)
		f.messages[message] = message
	}
	return &Unschedulable{Message: message, Reason: dominantReason(ev, len(ev.Candidates) > 0)}
}

// dominantReason names the predicate behind a §2.10 failure: Capacity when some candidate was full, otherwise the
// predicate that rejected most of the seeds entering §2.10 (ties: the first by name).
func dominantReason(ev *Evaluation, someFull bool) string {
	if someFull {
		return PredicateCapacity
	}
	counts := map[string]int{}
	for _, f := range ev.CandidateFailures {
		counts[f.Predicate]++
	}
	best := PredicateNetworks
	for predicate, n := range counts {
		if n > counts[best] || (n == counts[best] && strings.Compare(predicate, best) < 0) {
			best = predicate
		}
	}
	return best
}
