package model

import (
	"slices"
	"strconv"
	"strings"

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
	// Request is the resolved shoot; nil when a reference is missing (then Err says which).
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
	// rejections are this evaluation's own (strategy, references); the filters' are on its chain path.
	rejections map[string]Rejection
	node       *chainNode
}

// Rejection returns the first predicate that excluded the seed for this shoot; ok is false for arcs.
func (ev *Evaluation) Rejection(seedName string) (r Rejection, ok bool) {
	if r, ok = ev.rejections[seedName]; ok {
		return r, true
	}
	if r, ok = ev.node.rejection(seedName); ok {
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

// chainNode is the state of the filter chain after one filter, for every request that reached it with the same
// filter keys: the seeds left, what this filter rejected, and its error. Requests share every common prefix of
// the chain, so each filter runs once per distinct state and key.
type chainNode struct {
	parent   *chainNode
	depth    int // number of filters applied
	seeds    []*gardencorev1beta1.Seed
	rejected map[string]Rejection
	err      error
	children map[string]*chainNode
	// leaves are the evaluations below this final node, by strategy key.
	leaves map[string]*Evaluation
}

// rejection finds the filter of the path that rejected the seed.
func (n *chainNode) rejection(seedName string) (Rejection, bool) {
	for ; n != nil; n = n.parent {
		if r, ok := n.rejected[seedName]; ok {
			return r, true
		}
	}
	return Rejection{}, false
}

// evaluator evaluates shoots against one snapshot, sharing what shoots have in common.
type evaluator struct {
	snap    *Snapshot
	opts    Options
	filters []Filter
	root    *chainNode
	// failed holds evaluations of shoots whose references are missing, by error.
	failed map[string]*Evaluation
	// uncached evaluates every shoot afresh, ignoring the filters' keys and the strategy's: the reference the
	// shared evaluation is tested against.
	uncached bool
}

func newEvaluator(snap *Snapshot, opts Options) *evaluator {
	return &evaluator{
		snap: snap, opts: opts.WithDefaults(), filters: StaticFilters(),
		root:   &chainNode{seeds: snap.Seeds, children: map[string]*chainNode{}},
		failed: map[string]*Evaluation{},
	}
}

// newUncachedEvaluator evaluates every shoot on its own, running every filter on the seeds its predecessors left.
func newUncachedEvaluator(snap *Snapshot, opts Options) *evaluator {
	e := newEvaluator(snap, opts)
	e.uncached = true
	return e
}

func (e *evaluator) evaluate(shoot *gardencorev1beta1.Shoot) *Evaluation {
	req, err := e.snap.NewRequest(shoot, e.opts)
	if err != nil {
		if ev, ok := e.failed[err.Error()]; ok && !e.uncached {
			return ev
		}
		ev := &Evaluation{Err: err, ErrPredicate: PredicateReferences, rejections: map[string]Rejection{}}
		for _, seed := range e.snap.Seeds {
			ev.rejections[seed.Name] = Rejection{Predicate: PredicateReferences, Reason: err.Error()}
		}
		e.failed[err.Error()] = ev
		return ev
	}

	node := e.root
	if e.uncached {
		node = &chainNode{seeds: e.snap.Seeds}
	}
	for node.err == nil && node.depth < len(e.filters) {
		node = e.next(req, node)
	}
	if e.uncached {
		return e.leaf(req, node)
	}

	strategyKey := ""
	if node.err == nil {
		strategyKey = string(req.Options.Strategy) + "|" + strconv.FormatBool(isTesting(shoot)) + "|" + shoot.Spec.Region + "|" +
			shoot.Spec.Provider.Type + "|" + req.CloudProfileName + "|" + cloudProfileNameForMessages(shoot)
		if req.RegionConfig != nil {
			strategyKey += "|" + req.RegionConfig.Name
		}
	}
	if ev, ok := node.leaves[strategyKey]; ok {
		return ev
	}
	ev := e.leaf(req, node)
	if node.leaves == nil {
		node.leaves = map[string]*Evaluation{}
	}
	node.leaves[strategyKey] = ev
	return ev
}

// next is the chain's node after the node's filter for the request: shared by every request with the filter's
// key, or, uncached, the request's own.
func (e *evaluator) next(req *Request, node *chainNode) *chainNode {
	filter := e.filters[node.depth]
	if e.uncached {
		kept, rejected, err := filter.Filter(req, node.seeds)
		return &chainNode{parent: node, depth: node.depth + 1, seeds: kept, rejected: rejected, err: err}
	}
	key := filter.Key(req)
	child, ok := node.children[key]
	if !ok {
		kept, rejected, err := filter.Filter(req, node.seeds)
		child = &chainNode{parent: node, depth: node.depth + 1, seeds: kept, rejected: rejected, err: err, children: map[string]*chainNode{}}
		node.children[key] = child
	}
	return child
}

// leaf builds the evaluation at the end of a chain path: the candidates, the strategy's arcs and Gardener's
// numbers for the §2.10 message.
func (e *evaluator) leaf(req *Request, node *chainNode) *Evaluation {
	ev := &Evaluation{Request: req, node: node, rejections: map[string]Rejection{}}
	if node.err != nil {
		ev.Err, ev.ErrPredicate = node.err, e.filters[node.depth-1].Name()
		return ev
	}
	// §2.10 reports the seeds that entered it and the networks and taints reasons of those that failed.
	for n := node; n.parent != nil; n = n.parent {
		name := e.filters[n.depth-1].Name()
		if name != PredicateNetworks && name != PredicateTolerations {
			continue
		}
		if name == PredicateNetworks {
			ev.Entering = len(n.parent.seeds)
		}
		for seed, r := range n.rejected {
			ev.CandidateFailures = append(ev.CandidateFailures, CandidateFailure{Seed: e.snap.SeedIndex(seed), Rejection: r})
		}
	}
	slices.SortFunc(ev.CandidateFailures, func(a, b CandidateFailure) int { return a.Seed - b.Seed })
	for _, seed := range node.seeds {
		i := e.snap.SeedIndex(seed.Name)
		ev.Candidates = append(ev.Candidates, i)
		admitted, err := req.admits(seed)
		if err != nil {
			ev.StrategyErr = err
		}
		if !admitted {
			continue
		}
		d, source := req.PlacementDistance(seed)
		ev.Arcs = append(ev.Arcs, Arc{Seed: i, Distance: d, Source: source, SoftViolations: e.snap.SoftViolations(i, req.Shoot)})
	}
	return ev
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
	w := &Window{Snapshot: snap, Options: opts, Shoots: shoots, Keys: make([]string, len(shoots)), Evaluations: make([]*Evaluation, len(shoots))}
	e := newEvaluator(snap, opts)
	for i, shoot := range shoots {
		w.Keys[i] = ShootKey(shoot)
		w.Evaluations[i] = e.evaluate(shoot)
	}
	w.ByKey = make([]int, len(shoots))
	for i := range w.ByKey {
		w.ByKey[i] = i
	}
	slices.SortFunc(w.ByKey, func(a, b int) int { return strings.Compare(w.Keys[a], w.Keys[b]) })
	w.Free = make([]int, len(snap.Seeds))
	for i, seed := range snap.Seeds {
		w.Free[i] = FreeCapacity(seed, snap.Usage(seed.Name))
	}
	return w, nil
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
