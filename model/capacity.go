package model

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// SeedTemplate is a kind of seed that could be added: a copy of an existing seed of a provider type and region.
type SeedTemplate struct {
	Provider, Region string
	// Template is the existing seed the new ones would copy: the usable one with the most allocatable shoots
	// (then by name).
	Template string
	// Candidate is the index in the planning snapshot of the seed that stands for every new seed of this kind.
	Candidate int
	// PerSeed is how many shoots one new seed takes at the target utilization.
	PerSeed int
}

// CapacityPlanning is the question "how many new seeds of which kind let every pending shoot be placed with all
// seeds at or below the target utilization". Its snapshot is the landscape plus one candidate seed per template
// (named after the template with suffix CandidateSuffix, with no shoots): the window's predicates and strategy
// judge the candidates as they would judge the new seeds.
type CapacityPlanning struct {
	// Snapshot is the landscape with the candidate seeds.
	Snapshot *Snapshot
	Window   *Window
	Target   float64
	// Templates by provider and region.
	Templates []SeedTemplate
	// Room is how many pending shoots each existing seed (by index) may take below its target, or Unlimited;
	// candidates have 0 here (their room is PerSeed per seed opened).
	Room []int
}

// CandidateSuffix ends the name of the candidate seed that stands for new seeds like a template.
const CandidateSuffix = "-new"

// NewCapacityPlanning builds the question for the snapshot's pending shoots.
func NewCapacityPlanning(snap *Snapshot, opts Options, target float64) (*CapacityPlanning, error) {
	opts = opts.WithDefaults()
	if err := CheckTargetUtilization(target); err != nil {
		return nil, err
	}
	byKind := map[string]*gardencorev1beta1.Seed{}
	for _, seed := range snap.Seeds {
		allocatable, ok := Allocatable(seed)
		if !ok || SeedUnusableReason(seed) != "" || TargetLimit(seed, target) == 0 {
			continue
		}
		key := seed.Spec.Provider.Type + "/" + seed.Spec.Provider.Region
		if best, ok := byKind[key]; ok {
			bestAllocatable, _ := Allocatable(best)
			if cmp.Or(cmp.Compare(allocatable, bestAllocatable), strings.Compare(best.Name, seed.Name)) <= 0 {
				continue
			}
		}
		byKind[key] = seed
	}
	var candidates []*gardencorev1beta1.Seed
	templateOf := map[string]string{} // candidate name → template name
	for _, key := range slices.Sorted(maps.Keys(byKind)) {
		candidate := byKind[key].DeepCopy()
		candidate.Name += CandidateSuffix
		if snap.Seed(candidate.Name) != nil {
			return nil, fmt.Errorf("seed %s: its name is taken by the candidate for new seeds like %s", candidate.Name, byKind[key].Name)
		}
		candidates = append(candidates, candidate)
		templateOf[candidate.Name] = byKind[key].Name
	}
	extended, err := snap.withSeeds(candidates)
	if err != nil {
		return nil, err
	}
	c := &CapacityPlanning{Snapshot: extended, Target: target, Room: make([]int, len(extended.Seeds))}
	for i, seed := range extended.Seeds {
		if template, ok := templateOf[seed.Name]; ok {
			c.Templates = append(c.Templates, SeedTemplate{Provider: seed.Spec.Provider.Type, Region: seed.Spec.Provider.Region,
				Template: template, Candidate: i, PerSeed: TargetLimit(seed, target)})
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
	return c, nil
}

// withSeeds is the snapshot's landscape with more seeds.
func (s *Snapshot) withSeeds(seeds []*gardencorev1beta1.Seed) (*Snapshot, error) {
	objs := Objects{
		Seeds:         append(slices.Clone(s.Seeds), seeds...),
		Shoots:        s.Shoots,
		CloudProfiles: slices.Collect(maps.Values(s.cloudProfiles)),
		ConfigMaps:    s.RegionConfigs,
	}
	for _, p := range s.namespacedCloudProfiles {
		objs.NamespacedCloudProfiles = append(objs.NamespacedCloudProfiles, p)
	}
	for _, p := range s.projectsByNamespace {
		objs.Projects = append(objs.Projects, p)
	}
	return NewSnapshot(objs)
}

// Unplaceable is why the window's i-th shoot can go neither to an existing seed below its target nor to a new
// seed like a template.
func (q *CapacityPlanning) Unplaceable(i int) Unschedulable {
	ev := q.Window.Evaluations[i]
	u := Unschedulable{Shoot: q.Window.Keys[i], Reason: PredicateStrategy,
		Message: "no seed, and no new seed like an existing usable one, passes the shoot's predicates and strategy"}
	switch {
	case ev.Err != nil:
		u.Reason, u.Message = ev.ErrPredicate, ev.Err.Error()
	case ev.StrategyErr != nil:
		u.Message = ev.StrategyErr.Error()
	case len(ev.Arcs) > 0:
		u.Reason = PredicateCapacity
		u.Message = fmt.Sprintf("the %d seeds the shoot may use are at the target utilization, and a new seed like the template of their provider and region would not pass the shoot's predicates", len(ev.Arcs))
	}
	return u
}
