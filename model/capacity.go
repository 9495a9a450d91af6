package model

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	seedmanagementv1alpha1 "github.com/gardener/gardener/pkg/apis/seedmanagement/v1alpha1"
)

// SeedTemplate is a kind of seed that could be added: a copy of an existing seed.
type SeedTemplate struct {
	Provider, Region string
	// Template is the existing seed the new ones would copy: among the usable seeds alike in everything the
	// predicates and the strategy look at (seedKind), the one with the most allocatable shoots, then by name.
	Template string
	// Candidate is the index in the planning snapshot of the seed that stands for every new seed of this kind.
	Candidate int
	// PerSeed is how many shoots one new seed takes at the target utilization.
	PerSeed int
	// ManagedSeedSet is the set (namespace/name) the template seed is a replica of, or "": new seeds of this
	// kind are replicas to add to it.
	ManagedSeedSet string
}

// CapacityPlanning is the question "how many new seeds of which kind let every pending shoot be placed with all
// seeds at or below the target utilization". Its snapshot is the landscape plus one candidate seed per kind of
// usable seed (named after the template with suffix CandidateSuffix, with no shoots): the window's predicates and
// strategy judge the candidates as they would judge the new seeds.
type CapacityPlanning struct {
	// Snapshot is the landscape with the candidate seeds.
	Snapshot *Snapshot
	Window   *Window
	Target   float64
	// Templates are the kinds of new seed worth counting, by provider, region and template: those some pending
	// shoot may use, less those another template serves at least as well (it takes every shoot they take, and
	// as many per seed).
	Templates []SeedTemplate
	// Room is how many pending shoots each existing seed (by index) may take and stay at or below its target, or
	// Unlimited; candidates have 0 here (their room is PerSeed per seed opened).
	Room []int
	// candidates are the snapshot indexes of every candidate seed, template or not.
	candidates []int
	// onLandscape is, for each evaluation of the window that leaves its shoots no seed, their evaluation on the
	// landscape without the candidates (landscapeEvaluations).
	onLandscape map[*Evaluation]*Evaluation
}

// CandidateSuffix ends the name of the candidate seed that stands for new seeds like a template.
const CandidateSuffix = "-new"

// NewCapacityPlanning builds the question for the snapshot's pending shoots.
func NewCapacityPlanning(snap *Snapshot, opts Options, target float64) (*CapacityPlanning, error) {
	opts = opts.WithDefaults()
	if err := CheckTargetUtilization(target); err != nil {
		return nil, err
	}
	var candidates []*gardencorev1beta1.Seed
	templateOf := map[string]string{} // candidate name → template name
	for _, template := range templateSeeds(snap, target) {
		candidate := template.DeepCopy()
		candidate.Name += CandidateSuffix
		if snap.Seed(candidate.Name) != nil {
			return nil, fmt.Errorf("seed %s: its name is taken by the candidate for new seeds like %s", candidate.Name, template.Name)
		}
		candidates = append(candidates, candidate)
		templateOf[candidate.Name] = template.Name
	}
	extended, err := snap.withSeeds(candidates)
	if err != nil {
		return nil, err
	}
	c := &CapacityPlanning{Snapshot: extended, Target: target, Room: make([]int, len(extended.Seeds))}
	var all []SeedTemplate
	for i, seed := range extended.Seeds {
		if template, ok := templateOf[seed.Name]; ok {
			c.candidates = append(c.candidates, i)
			tmpl := SeedTemplate{Provider: seed.Spec.Provider.Type, Region: seed.Spec.Provider.Region,
				Template: template, Candidate: i, PerSeed: TargetLimit(seed, target)}
			if set := snap.ManagedSeedSetOf(template); set != nil {
				tmpl.ManagedSeedSet = set.Namespace + "/" + set.Name
			}
			all = append(all, tmpl)
			continue
		}
		if limit := TargetLimit(seed, target); limit == Unlimited {
			c.Room[i] = Unlimited
		} else {
			c.Room[i] = max(limit-extended.Usage(seed.Name), 0)
		}
	}
	if c.Window, err = NewWindow(extended, opts, extended.Pending(opts.SchedulerName)); err != nil {
		return nil, err
	}
	if c.onLandscape, err = landscapeEvaluations(snap, opts, c.Window); err != nil {
		return nil, err
	}
	c.Templates = usefulTemplates(c.Window, all)
	slices.SortFunc(c.Templates, func(a, b SeedTemplate) int {
		return cmp.Or(strings.Compare(a.Provider, b.Provider), strings.Compare(a.Region, b.Region), strings.Compare(a.Template, b.Template))
	})
	return c, nil
}

// templateSeeds are the seeds new ones could copy: per kind of usable seed with allocatable room at the target,
// the one with the most allocatable shoots (then by name).
func templateSeeds(snap *Snapshot, target float64) []*gardencorev1beta1.Seed {
	byKind := map[string]*gardencorev1beta1.Seed{}
	for _, seed := range snap.Seeds {
		if uncopiable(seed, target) != "" {
			continue
		}
		allocatable, _ := Allocatable(seed)
		kind := seedKind(seed)
		if best, ok := byKind[kind]; ok {
			bestAllocatable, _ := Allocatable(best)
			if cmp.Or(cmp.Compare(allocatable, bestAllocatable), strings.Compare(best.Name, seed.Name)) <= 0 {
				continue
			}
		}
		byKind[kind] = seed
	}
	return slices.SortedFunc(maps.Values(byKind), func(a, b *gardencorev1beta1.Seed) int { return strings.Compare(a.Name, b.Name) })
}

// uncopiable says why new seeds would not be made like the seed, "" when they could be: an unusable seed is no
// model, a seed without allocatable takes any number of shoots already, and one whose allocatable is no whole
// number of shoots does not say how many a copy would take.
func uncopiable(seed *gardencorev1beta1.Seed, target float64) string {
	if reason := SeedUnusableReason(seed); reason != "" {
		return reason
	}
	if _, ok := Allocatable(seed); !ok {
		return "it has no allocatable shoots, so it takes any number already"
	}
	if !allocatableAsWritten(seed) {
		return "its allocatable shoots are not a whole number, so they do not say how many shoots a copy would take"
	}
	if TargetLimit(seed, target) == 0 {
		return fmt.Sprintf("its allocatable shoots leave no room at %s utilization", FormatFraction(target))
	}
	return ""
}

// seedKind is what the predicates and the strategy see of a usable seed besides its name and its capacity:
// seeds of one kind take the same shoots.
func seedKind(seed *gardencorev1beta1.Seed) string {
	kind, err := json.Marshal(struct {
		Labels                      map[string]string
		TaintEffects, EmergencyStop string
		Provider                    gardencorev1beta1.SeedProvider
		Taints                      []gardencorev1beta1.SeedTaint
		Networks                    gardencorev1beta1.SeedNetworks
		DNSDefaults                 []gardencorev1beta1.SeedDNSProviderConfig
		AccessRestrictions          []gardencorev1beta1.AccessRestriction
		Settings                    *gardencorev1beta1.SeedSettings
		Backup                      bool
	}{
		Labels:             seed.Labels,
		TaintEffects:       seed.Annotations[AnnotationTaintEffects],
		EmergencyStop:      seed.Annotations[v1beta1constants.AnnotationEmergencyStopShootReconciliations],
		Provider:           seed.Spec.Provider,
		Taints:             seed.Spec.Taints,
		Networks:           seed.Spec.Networks,
		DNSDefaults:        seed.Spec.DNS.Defaults,
		AccessRestrictions: seed.Spec.AccessRestrictions,
		Settings:           seed.Spec.Settings,
		Backup:             seed.Spec.Backup != nil,
	})
	if err != nil {
		// Plain API structs always marshal; a seed that did not would be a kind of its own.
		return seed.Name
	}
	return string(kind)
}

// usefulTemplates keeps the templates some pending shoot may use that no other template serves at least as
// well: a template that takes a superset of the shoots, at least as many per seed, replaces it seed for seed.
// Among equals the first stays.
func usefulTemplates(w *Window, templates []SeedTemplate) []SeedTemplate {
	var evaluations []*Evaluation // distinct, in window order
	seen := map[*Evaluation]bool{}
	for _, ev := range w.Evaluations {
		if !seen[ev] {
			seen[ev] = true
			evaluations = append(evaluations, ev)
		}
	}
	takes := make([][]uint64, len(templates))        // per template, a bit per distinct evaluation that has an arc to it
	templateOf := make([]int, len(w.Snapshot.Seeds)) // by seed: template index + 1, 0 for an existing seed
	for t, tmpl := range templates {
		takes[t] = make([]uint64, (len(evaluations)+63)/64)
		templateOf[tmpl.Candidate] = t + 1
	}
	// Each evaluation's arcs are walked once, so that the cost is that of the arcs, not of templates × evaluations.
	for e, ev := range evaluations {
		for _, a := range ev.Arcs {
			if t := templateOf[a.Seed] - 1; t >= 0 {
				takes[t][e/64] |= 1 << (e % 64)
			}
		}
	}
	serves := func(u, t int) bool { // u takes every shoot t takes, as many per seed
		if templates[u].PerSeed < templates[t].PerSeed {
			return false
		}
		for i, bits := range takes[t] {
			if bits&^takes[u][i] != 0 {
				return false
			}
		}
		return true
	}
	var useful []SeedTemplate
	for t := range templates {
		if !slices.ContainsFunc(takes[t], func(b uint64) bool { return b != 0 }) {
			continue
		}
		replaced := false
		for u := range templates {
			if u != t && serves(u, t) && (u < t || !serves(t, u)) {
				replaced = true
				break
			}
		}
		if !replaced {
			useful = append(useful, templates[t])
		}
	}
	return useful
}

// ManagedSeedSetOf is the ManagedSeedSet the seed is a replica of, or nil. A set's ManagedSeeds, and so their
// seeds, are named after the set with the replica's ordinal (<set>-0, <set>-1, …), in the garden namespace.
func (s *Snapshot) ManagedSeedSetOf(seedName string) *seedmanagementv1alpha1.ManagedSeedSet {
	for _, set := range s.ManagedSeedSets {
		ordinal, ok := strings.CutPrefix(seedName, set.Name+"-")
		if ok && set.Namespace == v1beta1constants.GardenNamespace && ordinal != "" && strings.Trim(ordinal, "0123456789") == "" {
			return set
		}
	}
	return nil
}

// landscapeEvaluations evaluates on the landscape without the candidates the window's shoots that no seed takes,
// new seeds included, once per distinct evaluation: their reason and Gardener's message are the landscape's, as
// schedule gives them. A candidate passes and fails every predicate as its template does, so the same predicates
// fail there; but Gardener's message counts the seeds it saw, and which predicate failed most seeds may differ.
func landscapeEvaluations(snap *Snapshot, opts Options, w *Window) (map[*Evaluation]*Evaluation, error) {
	var shoots []*gardencorev1beta1.Shoot
	var evaluations []*Evaluation
	seen := map[*Evaluation]bool{}
	for i, ev := range w.Evaluations {
		if ev.Request != nil && len(ev.Arcs) == 0 && !seen[ev] {
			seen[ev] = true
			shoots, evaluations = append(shoots, w.Shoots[i]), append(evaluations, ev)
		}
	}
	if len(shoots) == 0 {
		return nil, nil
	}
	landscape, err := NewWindow(snap, opts, shoots)
	if err != nil {
		return nil, err
	}
	own := make(map[*Evaluation]*Evaluation, len(evaluations))
	for i, ev := range evaluations {
		own[ev] = landscape.Evaluations[i]
	}
	return own, nil
}

// withSeeds is the snapshot's landscape with more seeds.
func (s *Snapshot) withSeeds(seeds []*gardencorev1beta1.Seed) (*Snapshot, error) {
	objs := Objects{
		Seeds:         append(slices.Clone(s.Seeds), seeds...),
		Shoots:        s.Shoots,
		CloudProfiles: slices.Collect(maps.Values(s.cloudProfiles)),
		ConfigMaps:    s.RegionConfigs,
		// ManagedSeedSets, like the rest, are the snapshot's own and already defaulted.
		ManagedSeedSets: s.ManagedSeedSets,
	}
	for _, p := range s.namespacedCloudProfiles {
		objs.NamespacedCloudProfiles = append(objs.NamespacedCloudProfiles, p)
	}
	for _, p := range s.projectsByNamespace {
		objs.Projects = append(objs.Projects, p)
	}
	return NewSnapshot(objs)
}

// Unplaceable is why the window's i-th shoot can go neither to an existing seed at or below its target nor to a
// new seed like a template, and which kind of seed it lacks.
func (q *CapacityPlanning) Unplaceable(i int) Unschedulable {
	ev, shoot := q.Window.Evaluations[i], q.Window.Shoots[i]
	u := Unschedulable{Shoot: q.Window.Keys[i], Reason: PredicateStrategy}
	var invalidSelector *selectorError
	switch {
	case ev.Request == nil:
		u.Reason, u.Message = ev.ErrPredicate, ev.Err.Error()+"; no kind of seed takes the shoot while its reference is missing"
	case errors.As(ev.Err, &invalidSelector):
		u.Reason, u.Message = ev.ErrPredicate, ev.Err.Error()+"; no kind of seed takes the shoot while the "+invalidSelector.kind+"'s seed selector is invalid"
	case ev.Err != nil:
		err := ev.Err
		if own := q.onLandscape[ev]; own.Err != nil && own.ErrPredicate == ev.ErrPredicate {
			err = own.Err
		}
		u.Reason, u.Message = ev.ErrPredicate, err.Error()+"; "+q.missingKind(shoot, ev)
	case ev.StrategyErr != nil:
		u.Message = ev.StrategyErr.Error()
	case len(ev.Arcs) == 0:
		if own := q.onLandscape[ev]; len(own.Candidates) == 0 && len(own.CandidateFailures) > 0 {
			u.Reason = dominantReason(own, false) // every seed failed §2.10's networks or taints
		}
		u.Message = "no seed, and no new seed like an existing usable one, passes the shoot's predicates and strategy; " + q.missingKind(shoot, ev)
	default:
		u.Reason = PredicateCapacity
		seeds, uncopied := fmt.Sprintf("the %d seeds the shoot may use have", len(ev.Arcs)), ", and none of them can be copied"
		if len(ev.Arcs) == 1 {
			seeds, uncopied = "the one seed the shoot may use has", " and cannot be copied"
		}
		u.Message = fmt.Sprintf("%s no room left at or below %s utilization%s; %s", seeds, FormatFraction(q.Target), uncopied, q.missingKind(shoot, ev))
	}
	return u
}

// missingKind says which kind of seed the shoot lacks: one of its own provider and region, and why new seeds like
// the usable seeds there would not take it — of several kinds, the one the chain rejects last, which came closest
// (ties: the first by name), with every later predicate it fails too. A shoot whose own networks are invalid
// lacks no kind: no seed takes it. The shoot is passed on its own: shoots whose filters fail alike share one
// evaluation whatever their regions, and its request is the first of them.
func (q *CapacityPlanning) missingKind(shoot *gardencorev1beta1.Shoot, ev *Evaluation) string {
	if conflicts := OwnNetworkConflicts(shoot); conflicts != "" {
		return "no kind of seed takes the shoot while its own networks are invalid: " + conflicts
	}
	need := fmt.Sprintf("it needs a new kind of seed (provider %s, region %s): ", shoot.Spec.Provider.Type, shoot.Spec.Region)
	filters := StaticFilters()
	step := chainSteps(filters)
	var closest *gardencorev1beta1.Seed
	var closestRejection Rejection
	for _, c := range q.candidates {
		seed := q.Snapshot.Seeds[c]
		if seed.Spec.Provider.Type != shoot.Spec.Provider.Type || seed.Spec.Provider.Region != shoot.Spec.Region {
			continue
		}
		if r, ok := ev.Rejection(seed.Name); ok && (closest == nil || step(r.Predicate) > step(closestRejection.Predicate)) {
			closest, closestRejection = seed, r
		}
	}
	if closest == nil {
		return need + q.noTemplate(shoot.Spec.Provider.Type, shoot.Spec.Region)
	}
	advice := fmt.Sprintf("new seeds like %s would fail %s: %s", strings.TrimSuffix(closest.Name, CandidateSuffix), closestRejection.Predicate, closestRejection.Reason)
	for i, r := range q.failing(shoot, closest, filters[min(step(closestRejection.Predicate)+1, len(filters)):]) {
		also := "; and"
		if i == 0 {
			also = "; they would also fail"
		}
		advice += fmt.Sprintf("%s %s: %s", also, r.Predicate, r.Reason)
	}
	return need + advice
}

// noTemplate says why no seed of the provider and region can be copied: there is none, or each is uncopiable
// (the first three by name are named).
func (q *CapacityPlanning) noTemplate(provider, region string) string {
	var why []string
	for i, seed := range q.Snapshot.Seeds {
		if seed.Spec.Provider.Type == provider && seed.Spec.Provider.Region == region && !slices.Contains(q.candidates, i) {
			why = append(why, seed.Name+": "+uncopiable(seed, q.Target))
		}
	}
	switch {
	case len(why) == 0:
		return "the region has no seed to copy"
	case len(why) > 3:
		why = append(why[:3], fmt.Sprintf("and %d more", len(why)-3))
	}
	return "no seed of the region can be copied (" + strings.Join(why, "; ") + ")"
}

// failing are the filters' rejections of the seed for the shoot, each filter asked on its own: the chain stops at
// the first a seed fails, and a new kind of seed must pass the later ones too.
func (q *CapacityPlanning) failing(shoot *gardencorev1beta1.Shoot, seed *gardencorev1beta1.Seed, filters []Filter) []Rejection {
	if len(filters) == 0 {
		return nil
	}
	req, err := q.Snapshot.NewRequest(shoot, q.Window.Options)
	if err != nil {
		return nil // the shoot's references failed it before any seed was asked
	}
	var failing []Rejection
	for _, f := range filters {
		if _, rejected, _ := f.Filter(req, []*gardencorev1beta1.Seed{seed}, true); rejected[seed.Name].Predicate != "" {
			failing = append(failing, rejected[seed.Name])
		}
	}
	return failing
}

// chainSteps is the position of a predicate in the gardener-scheduler's chain: the static filters in their order,
// then capacity and the strategy.
func chainSteps(filters []Filter) func(predicate string) int {
	return func(predicate string) int {
		for i, f := range filters {
			if f.Name() == predicate {
				return i
			}
		}
		return len(filters)
	}
}

// VerifyCapacity checks a capacity answer against the question independently of its window and of any solver:
// every pending shoot is accounted for exactly once, placed or unplaceable; every placement passes every
// predicate and the strategy, evaluated afresh; no existing seed ends above its target and no template's new
// seeds (newSeeds, by template name) take more than their target each; and no new seed of any kind, and no
// existing seed with room left, would take a shoot called unplaceable. It returns every violation, joined.
func VerifyCapacity(q *CapacityPlanning, placements []Placement, newSeeds map[string]int, unplaceable []string) error {
	snap := q.Snapshot
	evaluator := newVerifyingEvaluator(snap, q.Window.Options)
	violations := accountedOnce(snap.Pending(q.Window.Options.SchedulerName), placements, unplaceable)
	placed := map[string]int{}
	for _, pl := range placements {
		shoot, seed := snap.Shoot(pl.Shoot), snap.Seed(pl.Seed)
		if shoot == nil || seed == nil {
			violations = append(violations, fmt.Errorf("shoot %s → seed %s: not in the landscape", pl.Shoot, pl.Seed))
			continue
		}
		placed[pl.Seed]++
		if err := evaluator.checkPlacement(evaluator.evaluate(shoot), pl, shoot, seed); err != nil {
			violations = append(violations, err)
		}
	}
	open, beyond := q.withinTargets(placed, newSeeds)
	violations = append(violations, beyond...)
	// Another new seed can always be opened: a kind of seed that takes a shoot makes it placeable. A shoot is
	// evaluated once, and only the seeds that pass its predicates are asked whether they take it.
	for _, key := range unplaceable {
		shoot := snap.Shoot(key)
		if shoot == nil {
			continue
		}
		ev := evaluator.evaluate(shoot)
		if ev.Err != nil {
			continue // no seed takes it
		}
		for _, c := range ev.Candidates {
			if seed := snap.Seeds[c]; open[seed.Name] && evaluator.violation(ev, shoot, seed) == nil {
				violations = append(violations, fmt.Errorf("shoot %s: called unplaceable, but seed %s would take it", key, seed.Name))
				break
			}
		}
	}
	return errors.Join(violations...)
}

// accountedOnce checks that the placed and the unplaceable shoots are the pending ones, each once.
func accountedOnce(pendingShoots []*gardencorev1beta1.Shoot, placements []Placement, unplaceable []string) []error {
	var violations []error
	pending := map[string]bool{}
	for _, shoot := range pendingShoots {
		pending[ShootKey(shoot)] = true
	}
	accounted := map[string]bool{}
	account := func(shoot string) {
		switch {
		case accounted[shoot]:
			violations = append(violations, fmt.Errorf("shoot %s: accounted for more than once", shoot))
		case !pending[shoot]:
			violations = append(violations, fmt.Errorf("shoot %s: not pending", shoot))
		}
		accounted[shoot] = true
	}
	for _, pl := range placements {
		account(pl.Shoot)
	}
	for _, key := range unplaceable {
		account(key)
	}
	for _, key := range slices.Sorted(maps.Keys(pending)) {
		if !accounted[key] {
			violations = append(violations, fmt.Errorf("shoot %s: pending but neither placed nor unplaceable", key))
		}
	}
	return violations
}

// withinTargets checks that the shoots placed on each seed leave it at most at its target: an existing seed with
// its usage, a template's new seeds (newSeeds, by template name) each. open are the seeds that could take one more
// shoot: every template, and the existing seeds with room left at the target.
func (q *CapacityPlanning) withinTargets(placed, newSeeds map[string]int) (open map[string]bool, violations []error) {
	snap := q.Snapshot
	open = map[string]bool{}
	isCandidate := map[string]bool{}
	for _, c := range q.candidates {
		isCandidate[snap.Seeds[c].Name] = true
	}
	for _, seed := range snap.Seeds {
		limit, n := TargetLimit(seed, q.Target), placed[seed.Name]
		switch {
		case isCandidate[seed.Name]:
			open[seed.Name] = true
			// n > seeds × limit, without the product: limit may be near 2^63.
			if seeds := newSeeds[strings.TrimSuffix(seed.Name, CandidateSuffix)]; n > 0 && (seeds == 0 || (n+seeds-1)/seeds > limit) {
				violations = append(violations, fmt.Errorf("seed kind %s: %d shoots placed on %d new seeds of %d shoots at the target", seed.Name, n, seeds, limit))
			}
		case limit == Unlimited:
			open[seed.Name] = true
		default:
			left := limit - snap.Usage(seed.Name) - n
			open[seed.Name] = left > 0
			if left < 0 && n > 0 {
				violations = append(violations, fmt.Errorf("seed %s: %d shoots placed leave it above its target of %d", seed.Name, n, limit))
			}
		}
	}
	return open, violations
}
