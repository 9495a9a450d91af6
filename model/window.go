package model

import (
	"hash/maphash"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Unlimited is the free capacity of a seed without status.allocatable.shoots.
const Unlimited = -1

// Arc is a seed a shoot may be placed on: it passes every filter and the strategy admits it.
type Arc struct {
	// Seed is the index of the seed in Snapshot.Seeds.
	Seed int
	// Distance is the region distance of the placement (see Request.PlacementDistance).
	Distance int
	Source   DistanceSource
	// SoftViolations counts the soft constraints the placement breaks: the seed's PreferNoSchedule taints the
	// shoot does not tolerate (see AnnotationTaintEffects). Optimising solvers add a penalty per violation; the
	// greedy solver, like the gardener-scheduler, ignores them.
	SoftViolations int
}

// Evaluation is the capacity-independent outcome of the gardener-scheduler's chain for one shoot: which seeds
// pass §2.1–§2.10b, which of those the strategy admits, and for every other seed the predicate that excluded it.
// Shoots that the scheduler cannot tell apart share one Evaluation.
type Evaluation struct {
	// Request is the resolved shoot; nil when a reference is missing (then Err says which). Shoots that evaluate
	// alike share the evaluation and its request, the first of them: when Err is set, that may be a shoot of
	// another region, so what differs between shoots is read from the shoot itself.
	Request *Request
	// Err is set when the chain stops before §2.10 (a reference is missing or a filter left no seed): the shoot is
	// unschedulable whatever the capacity, with exactly this message.
	Err error
	// ErrPredicate names the step that produced Err.
	ErrPredicate string
	// Entering is the number of seeds that entered §2.10 (networks, taints, capacity).
	Entering int
	// Candidates are the seeds (indexes into Snapshot.Seeds, ascending) passing §2.1–§2.10b.
	Candidates []int
	// CandidateFailures are the seeds that entered §2.10 and failed networks or taints, ascending by seed index
	// (that is, by name); with the full seeds they make Gardener's "0/N seed cluster candidate(s)" message.
	CandidateFailures []CandidateFailure
	// StrategyErr is Gardener's error from the strategy itself (a malformed region ConfigMap entry); it applies
	// once some candidate has capacity.
	StrategyErr error
	// Arcs are the candidates the strategy admits, ascending by seed index.
	Arcs []Arc
	// rejections are this evaluation's own (references); the filters' are on its reasons path.
	rejections map[string]Rejection
	reasons    *reasons
}

// Rejection returns the first predicate that excluded the seed for this shoot; ok is false for arcs.
func (ev *Evaluation) Rejection(seedName string) (r Rejection, ok bool) {
	if r, ok = ev.rejections[seedName]; ok {
		return r, true
	}
	if r, ok = ev.reasons.rejection(seedName); ok {
		return r, true
	}
	// A candidate that is no arc was excluded by the strategy; its reason is worded only when asked for.
	for _, a := range ev.Arcs {
		if ev.Request.snapshotSeed(a.Seed).Name == seedName {
			return Rejection{}, false
		}
	}
	for _, c := range ev.Candidates {
		if seed := ev.Request.snapshotSeed(c); seed.Name == seedName {
			reason, err := ev.Request.StrategyAdmits(seed)
			if err != nil {
				reason = err.Error()
			}
			return Rejection{Predicate: PredicateStrategy, Reason: reason}, true
		}
	}
	return Rejection{}, false
}

// RejectionCounts counts, for every predicate that excluded seeds for the evaluation's shoot, how many: the
// filters that left them out, and the strategy for candidates it does not admit. Seeds that are arcs are not
// counted, nor is a predicate that failed with no seeds to exclude (a landscape without any).
func (ev *Evaluation) RejectionCounts() map[string]int {
	counts := map[string]int{}
	if n := len(ev.rejections); ev.ErrPredicate == PredicateReferences && n > 0 {
		counts[PredicateReferences] = n // every seed
	}
	for r := ev.reasons; r != nil && r.step != nil; r = r.parent {
		if r.step.dropped > 0 {
			counts[r.step.filter.Name()] += r.step.dropped
		}
	}
	if n := len(ev.Candidates) - len(ev.Arcs); n > 0 {
		counts[PredicateStrategy] += n
	}
	return counts
}

// chainState is where the filter chain stands, after its first depth filters, for every shoot for which those
// filters kept the same seeds: shoots whose inputs differ but whose outcomes coincide share a state, and with it
// the work of every later filter. A state is known by its parent and the seeds it keeps, so it also stands for
// the seeds each earlier filter kept.
type chainState struct {
	parent *chainState
	depth  int
	seeds  []*gardencorev1beta1.Seed
	// steps are the next filter's outcomes from here, by the filter's key.
	steps map[string]*chainStep
	// after are the states the next filter leads to, by the seeds they keep (keptKey).
	after map[string]*chainState
	// outcomes are, at the end of the chain, the strategy's outcomes by its key.
	outcomes map[string]*outcome
	// candidates are, at the end of the chain, the indices of its seeds in the snapshot (made by the first
	// outcome).
	candidates []int
}

// chainStep is one filter's outcome from one state for the shoots with one filter key: the seeds it rejected and
// why, the error when it left none, and otherwise the state it leads to.
type chainStep struct {
	filter Filter
	// rejected are the words of the rejections: made at once for §2.10's filters, otherwise on the first read
	// (rejections) from the state the step starts at (from) for the first request with its key (req), as every
	// request with the key words them alike.
	rejected map[string]Rejection
	words    sync.Once
	from     *chainState
	req      *Request
	// dropped is the number of seeds the filter left out: all it was given when it fails.
	dropped int
	err     error
	next    *chainState
}

// rejections are the step's rejections with their words.
func (s *chainStep) rejections() map[string]Rejection {
	s.words.Do(func() {
		if s.req != nil {
			_, s.rejected, _ = s.filter.Filter(s.req, s.from.seeds, true)
			s.req, s.from = nil, nil
		}
	})
	return s.rejected
}

// outcome is what the strategy makes of a state's candidates for a shoot: shared by every shoot with the state
// and the strategy key.
type outcome struct {
	candidates  []int
	strategyErr error
	arcs        []Arc
}

// reasons is a path of steps that rejected seeds: the words of an evaluation's rejections. Shoots with the same
// outcomes whose filters word their rejections alike share it; a filter that rejects nothing leaves no step.
type reasons struct {
	parent   *reasons
	step     *chainStep
	children map[*chainStep]*reasons
	// candidateFailures are the path's §2.10 rejections, made (never nil) by the first evaluation that passes
	// every filter along it (leaf).
	candidateFailures []CandidateFailure
}

// then is the path with the step appended.
func (r *reasons) then(step *chainStep) *reasons {
	child, ok := r.children[step]
	if !ok {
		child = &reasons{parent: r, step: step, children: map[*chainStep]*reasons{}}
		r.children[step] = child
	}
	return child
}

// rejection finds the step of the path that rejected the seed.
func (r *reasons) rejection(seedName string) (Rejection, bool) {
	for ; r != nil && r.step != nil; r = r.parent {
		if rej, ok := r.step.rejections()[seedName]; ok {
			return rej, true
		}
	}
	return Rejection{}, false
}

// evaluationKey identifies an evaluation: its reasons, the state it ends in (nil when a filter left no seed) and
// its strategy key.
type evaluationKey struct {
	reasons  *reasons
	state    *chainState
	strategy string
}

// evaluator evaluates shoots against one snapshot, sharing what shoots have in common.
type evaluator struct {
	preparer
	root    *chainState
	reasons *reasons
	// evaluations are the evaluations made, by key.
	evaluations map[evaluationKey]*Evaluation
	// walked are the requests walked along the chain, with their evaluations, by signature: a request with the
	// same keys as one of them takes the same steps to the same evaluation.
	walked map[uint64][]walkedRequest
	// failed holds evaluations of shoots whose references are missing, by error.
	failed map[string]*Evaluation
	// verifying evaluates for the checks of placements (placementViolation): the candidates alone. The strategy's
	// arcs to every candidate and Gardener's §2.10 numbers are what a window needs, and most of an outcome's cost;
	// a check asks the strategy about its placement's seed alone (StrategyAdmits).
	verifying bool
	// arcs is outcome's scratch: an outcome keeps a copy of its arcs of their length.
	arcs []Arc
	// scratch is where prepare writes the keys of a request.
	scratch []byte
}

func newEvaluator(snap *Snapshot, opts Options) *evaluator {
	return &evaluator{
		preparer:    newPreparer(snap, opts),
		root:        newChainState(nil, 0, snap.Seeds),
		reasons:     &reasons{children: map[*chainStep]*reasons{}},
		evaluations: map[evaluationKey]*Evaluation{},
		walked:      map[uint64][]walkedRequest{},
		failed:      map[string]*Evaluation{},
	}
}

// walkedRequest is a request walked along the chain, and its evaluation.
type walkedRequest struct {
	req *Request
	ev  *Evaluation
}

func newChainState(parent *chainState, depth int, seeds []*gardencorev1beta1.Seed) *chainState {
	return &chainState{parent: parent, depth: depth, seeds: seeds} // its maps are made when first written
}

// newVerifyingEvaluator is an evaluator for the checks of placements.
func newVerifyingEvaluator(snap *Snapshot, opts Options) *evaluator {
	e := newEvaluator(snap, opts)
	e.verifying = true
	return e
}

// evaluate is the shoot's evaluation.
func (e *evaluator) evaluate(shoot *gardencorev1beta1.Shoot) *Evaluation {
	return e.evaluateRequest(e.prepare(shoot, &e.scratch))
}

// preparer prepares requests: the work that each shoot needs for itself, whatever it shares with others.
type preparer struct {
	snap    *Snapshot
	opts    Options
	filters []Filter
}

func newPreparer(snap *Snapshot, opts Options) preparer {
	return preparer{snap: snap, opts: opts.WithDefaults(), filters: StaticFilters()}
}

// prepare resolves the shoot's references and computes the key of every filter of the chain and of the strategy,
// and their signature. The keys are written in scratch, which the caller keeps for its next request.
func (p preparer) prepare(shoot *gardencorev1beta1.Shoot, scratch *[]byte) (*Request, error) {
	req, err := p.snap.NewRequest(shoot, p.opts)
	if err != nil {
		return nil, err
	}
	keys := (*scratch)[:0]
	req.keyEnds = make([]int32, len(p.filters))
	for i, f := range p.filters {
		keys = f.AppendKey(keys, req)
		req.keyEnds[i] = int32(len(keys))
	}
	*scratch = appendStrategyKey(keys, req)
	req.keys = string(*scratch)
	req.signature = maphash.String(p.snap.signatureSeed, req.keys)
	return req, nil
}

// sameKeys reports whether two prepared requests have the same keys.
func (r *Request) sameKeys(other *Request) bool {
	return r.keys == other.keys && slices.Equal(r.keyEnds, other.keyEnds)
}

// evaluateRequest is the evaluation of a prepared request (preparer.prepare), or of the error that resolving it
// met. A request with the same keys as one walked before has its evaluation.
func (e *evaluator) evaluateRequest(req *Request, err error) *Evaluation {
	if err != nil {
		return e.unresolved(err)
	}
	for _, w := range e.walked[req.signature] {
		if w.req.sameKeys(req) {
			return w.ev
		}
	}
	ev := e.walk(req)
	e.walked[req.signature] = append(e.walked[req.signature], walkedRequest{req, ev})
	return ev
}

// walk evaluates the request along the chain: each filter's step from the state the previous one led to.
func (e *evaluator) walk(req *Request) *Evaluation {
	state, path := e.root, e.reasons
	var failed *chainStep
	for state.depth < len(e.filters) {
		step := e.step(req, state)
		if step.dropped > 0 || step.err != nil {
			path = path.then(step)
		}
		if step.err != nil {
			failed = step
			break
		}
		state = step.next
	}
	key := evaluationKey{reasons: path}
	if failed == nil {
		key.state, key.strategy = state, req.strategyKey()
	}
	if ev, ok := e.evaluations[key]; ok {
		return ev
	}
	ev := &Evaluation{Request: req, reasons: path}
	if failed != nil {
		ev.Err, ev.ErrPredicate = failed.err, failed.filter.Name()
	} else {
		e.leaf(ev, state, key.strategy)
	}
	e.evaluations[key] = ev
	return ev
}

// appendStrategyKey appends everything the strategy and the arcs read from the request: the strategy's inputs,
// and which soft taints the tolerations tolerate.
func appendStrategyKey(key []byte, req *Request) []byte {
	shoot := req.Shoot
	key = appendString(key, string(req.Options.Strategy))
	key = strconv.AppendBool(key, isTesting(shoot))
	for _, s := range []string{shoot.Spec.Region, shoot.Spec.Provider.Type, req.CloudProfileName, cloudProfileNameForMessages(shoot)} {
		key = appendString(key, s)
	}
	if req.RegionConfig != nil {
		key = appendString(key, req.RegionConfig.Name)
	}
	return req.classes.appendToleratedSoftTaints(append(key, '|'), shoot.Spec.Tolerations)
}

// unresolved is the evaluation of a shoot whose references are missing: every seed is rejected for it.
func (e *evaluator) unresolved(err error) *Evaluation {
	if ev, ok := e.failed[err.Error()]; ok {
		return ev
	}
	ev := &Evaluation{Err: err, ErrPredicate: PredicateReferences,
		rejections: rejectingAll(e.snap.Seeds, Rejection{Predicate: PredicateReferences, Reason: err.Error()})}
	e.failed[err.Error()] = ev
	return ev
}

// step is the next filter's outcome from the state for the request: shared by every request with the filter's
// key, and leading to the state shared by every request for which the filter keeps the same seeds.
func (e *evaluator) step(req *Request, state *chainState) *chainStep {
	filter, key := e.filters[state.depth], req.filterKey(state.depth)
	if step, ok := state.steps[key]; ok {
		return step
	}
	// §2.10's reasons go into Gardener's message for every shoot that fails there: worded at once. The others
	// are worded when read.
	words := inCandidatesMessage(filter)
	kept, rejected, err := filter.Filter(req, state.seeds, words)
	step := &chainStep{filter: filter, rejected: rejected}
	if !words {
		step.from, step.req = state, req
	}
	step.err, step.dropped = err, len(state.seeds)-len(kept)
	if err == nil {
		kk := keptKey(state.seeds, kept)
		if step.next = state.after[kk]; step.next == nil {
			step.next = newChainState(state, state.depth+1, kept)
			if state.after == nil {
				state.after = map[string]*chainState{}
			}
			state.after[kk] = step.next
		}
	}
	if state.steps == nil {
		state.steps = map[string]*chainStep{}
	}
	state.steps[key] = step
	return step
}

// inCandidatesMessage reports whether the filter is one of §2.10's, whose reasons Gardener's "0/N seed cluster
// candidate(s)" message lists.
func inCandidatesMessage(f Filter) bool {
	return f.Name() == PredicateNetworks || f.Name() == PredicateTolerations
}

// keptKey names the seeds a filter kept of the state's, as a bit set over the state's seeds (a filter keeps
// their order).
func keptKey(seeds, kept []*gardencorev1beta1.Seed) string {
	bits := make([]byte, (len(seeds)+7)/8)
	j := 0
	for i, seed := range seeds {
		if j < len(kept) && kept[j] == seed {
			bits[i/8] |= 1 << (i % 8)
			j++
		}
	}
	return string(bits)
}

// leaf completes an evaluation that passed every filter: the candidates, the strategy's arcs (shared by every
// evaluation with the state and strategy key) and Gardener's numbers for the §2.10 message; for a verifying
// evaluator the candidates alone.
func (e *evaluator) leaf(ev *Evaluation, state *chainState, strategyKey string) {
	if e.verifying {
		ev.Candidates = e.outcomeOf(ev.Request, state, strategyKey).candidates
		return
	}
	for s := state; s != nil; s = s.parent {
		if s.depth < len(e.filters) && e.filters[s.depth].Name() == PredicateNetworks {
			ev.Entering = len(s.seeds)
		}
	}
	ev.CandidateFailures = e.candidateFailures(ev.reasons)
	o := e.outcomeOf(ev.Request, state, strategyKey)
	ev.Candidates, ev.StrategyErr, ev.Arcs = o.candidates, o.strategyErr, o.arcs
}

// candidateFailures are the networks and taints rejections along the path, which §2.10 reports, by seed index.
func (e *evaluator) candidateFailures(path *reasons) []CandidateFailure {
	if path.candidateFailures != nil {
		return path.candidateFailures
	}
	n := 0
	for r := path; r.step != nil; r = r.parent {
		if inCandidatesMessage(r.step.filter) {
			n += len(r.step.rejections())
		}
	}
	failures := make([]CandidateFailure, 0, n)
	for r := path; r.step != nil; r = r.parent {
		if inCandidatesMessage(r.step.filter) {
			for seed, rej := range r.step.rejections() {
				failures = append(failures, CandidateFailure{Seed: e.snap.SeedIndex(seed), Rejection: rej})
			}
		}
	}
	slices.SortFunc(failures, func(a, b CandidateFailure) int { return a.Seed - b.Seed })
	path.candidateFailures = failures
	return failures
}

// outcomeOf is the strategy's outcome from the state for the strategy key, shared by every request with the key.
func (e *evaluator) outcomeOf(req *Request, state *chainState, strategyKey string) *outcome {
	o, ok := state.outcomes[strategyKey]
	if !ok {
		o = e.outcome(req, state)
		if state.outcomes == nil {
			state.outcomes = map[string]*outcome{}
		}
		state.outcomes[strategyKey] = o
	}
	return o
}

// outcome is the strategy's verdict on the state's seeds for the request.
func (e *evaluator) outcome(req *Request, state *chainState) *outcome {
	if state.candidates == nil {
		state.candidates = make([]int, len(state.seeds))
		for j, seed := range state.seeds {
			state.candidates[j] = e.snap.SeedIndex(seed.Name)
		}
	}
	o := &outcome{candidates: state.candidates}
	if e.verifying {
		return o
	}
	e.arcs = e.arcs[:0]
	for j, seed := range state.seeds {
		i := state.candidates[j]
		admitted, err := req.admits(seed)
		if err != nil {
			o.strategyErr = err
		}
		if !admitted {
			continue
		}
		d, source := req.PlacementDistance(seed)
		e.arcs = append(e.arcs, Arc{Seed: i, Distance: d, Source: source, SoftViolations: e.snap.SoftViolations(i, req.Shoot)})
	}
	if len(e.arcs) > 0 {
		o.arcs = slices.Clone(e.arcs)
	}
	return o
}

// evaluateByProvider evaluates every shoot on every processor and calls use with each evaluation (by the shoot's
// index) and its evaluator. First each shoot's request is prepared, spread evenly over the processors. Then the
// shoots of one provider type share an evaluator and go in their order; different providers part at the provider
// filter, so they lose little by not sharing one, and the outcome does not depend on how the work is spread.
func evaluateByProvider(snap *Snapshot, opts Options, shoots []*gardencorev1beta1.Shoot,
	newEvaluator func(*Snapshot, Options) *evaluator, use func(e *evaluator, i int, ev *Evaluation)) {
	p := newPreparer(snap, opts)
	requests, errs := make([]*Request, len(shoots)), make([]error, len(shoots))
	const batch = 64
	OnEveryProcessor((len(shoots)+batch-1)/batch, func(b int) {
		var scratch []byte
		for i := b * batch; i < min((b+1)*batch, len(shoots)); i++ {
			requests[i], errs[i] = p.prepare(shoots[i], &scratch)
		}
	})
	byProvider := map[string][]int{}
	for i, shoot := range shoots {
		byProvider[shoot.Spec.Provider.Type] = append(byProvider[shoot.Spec.Provider.Type], i)
	}
	parts := slices.SortedFunc(maps.Values(byProvider), func(a, b []int) int { return len(b) - len(a) }) // largest first
	OnEveryProcessor(len(parts), func(part int) {
		e := newEvaluator(snap, opts)
		for _, i := range parts[part] {
			use(e, i, e.evaluateRequest(requests[i], errs[i]))
		}
	})
}

// CandidateFailure is a seed that failed §2.10's networks or taints check.
type CandidateFailure struct {
	// Seed is the index of the seed in Snapshot.Seeds.
	Seed int
	Rejection
}

// Window is a set of pending shoots to be placed together: their evaluations and the seeds' free capacity. It is
// computed once and shared by every solver, so no two solvers can disagree about what is feasible.
type Window struct {
	Snapshot *Snapshot
	Options  Options
	// Shoots in scheduling order (creationTimestamp, then namespace/name).
	Shoots []*gardencorev1beta1.Shoot
	// Keys[i] is ShootKey(Shoots[i]), made once for every solver of the window.
	Keys []string
	// ByKey lists the indices of Shoots in namespace/name order, the order every plan lists its shoots in.
	ByKey []int
	// Evaluations[i] belongs to Shoots[i]; equal signatures share a pointer.
	Evaluations []*Evaluation
	// Free is the number of shoots each seed (by index) can still take, or Unlimited.
	Free []int
}

// NewWindow evaluates the given pending shoots (in the given order) against the snapshot.
func NewWindow(snap *Snapshot, opts Options, shoots []*gardencorev1beta1.Shoot) (*Window, error) {
	opts = opts.WithDefaults()
	if _, err := ParseStrategy(string(opts.Strategy)); err != nil {
		return nil, err
	}
	w := &Window{Snapshot: snap, Options: opts, Shoots: shoots, Evaluations: make([]*Evaluation, len(shoots))}
	// The shoots' keys and order are made beside the evaluation, whose parts (providers) seldom divide evenly
	// between the processors.
	var ordered sync.WaitGroup
	ordered.Go(w.orderByKey)
	evaluateByProvider(snap, opts, shoots, newEvaluator, func(_ *evaluator, i int, ev *Evaluation) { w.Evaluations[i] = ev })
	ordered.Wait()
	w.Free = make([]int, len(snap.Seeds))
	for i, seed := range snap.Seeds {
		w.Free[i] = FreeCapacity(seed, snap.Usage(seed.Name))
	}
	return w, nil
}

// orderByKey makes Keys and ByKey.
func (w *Window) orderByKey() {
	w.Keys = make([]string, len(w.Shoots))
	w.ByKey = make([]int, len(w.Shoots))
	for i, shoot := range w.Shoots {
		w.Keys[i], w.ByKey[i] = ShootKey(shoot), i
	}
	slices.SortFunc(w.ByKey, func(a, b int) int { return strings.Compare(w.Keys[a], w.Keys[b]) })
}

// FreeCapacity is how many more shoots a seed with the given usage may take: allocatable − usage, at least 0, or
// Unlimited without allocatable.
func FreeCapacity(seed *gardencorev1beta1.Seed, usage int) int {
	allocatable, ok := Allocatable(seed)
	if !ok {
		return Unlimited
	}
	return int(max(allocatable-int64(usage), 0))
}

// ArcTo returns the evaluation's arc to the seed (by index), or the zero Arc when the seed is none of its arcs.
func (ev *Evaluation) ArcTo(seed int) Arc {
	i, found := slices.BinarySearchFunc(ev.Arcs, seed, func(a Arc, seed int) int { return a.Seed - seed })
	if !found {
		return Arc{}
	}
	return ev.Arcs[i]
}
