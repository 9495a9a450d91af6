package model

import (
	"encoding/json"
	"fmt"

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
	// CandidateReasons are the §2.10 reasons (networks, taints) of the seeds that entered §2.10 and failed it,
	// by seed name; with the capacity reasons they make Gardener's "0/N seed cluster candidate(s)" message.
	CandidateReasons map[string]string
	// StrategyErr is Gardener's error from the strategy itself (a malformed region ConfigMap entry); it applies
	// once some candidate has capacity.
	StrategyErr error
	// Arcs are the candidates the strategy admits, ascending by seed index.
	Arcs []Arc
	// Rejections holds, for every seed that is not an arc, the first predicate that excluded it.
	Rejections map[string]Rejection
	// Signature identifies the class of shoots sharing this evaluation.
	Signature string
}

// EvaluateShoot runs the capacity-independent part of the chain for one shoot on the snapshot's seeds.
func (s *Snapshot) EvaluateShoot(shoot *gardencorev1beta1.Shoot, opts Options) *Evaluation {
	opts = opts.WithDefaults()
	ev := &Evaluation{Rejections: map[string]Rejection{}, CandidateReasons: map[string]string{}}
	req, err := s.NewRequest(shoot, opts)
	if err != nil {
		ev.Err, ev.ErrPredicate = err, PredicateReferences
		for _, seed := range s.Seeds {
			ev.Rejections[seed.Name] = Rejection{Predicate: PredicateReferences, Reason: err.Error()}
		}
		return ev
	}
	ev.Request = req

	seeds := s.Seeds
	for _, filter := range StaticFilters() {
		entering := len(seeds)
		kept, rejected, err := filter.Filter(req, seeds)
		for name, r := range rejected {
			if _, seen := ev.Rejections[name]; !seen {
				ev.Rejections[name] = r
			}
			if filter.Name() == PredicateNetworks || filter.Name() == PredicateTolerations {
				ev.CandidateReasons[name] = r.Reason
			}
		}
		if filter.Name() == PredicateNetworks {
			ev.Entering = entering
		}
		if err != nil {
			ev.Err, ev.ErrPredicate = err, filter.Name()
			ev.Entering = 0
			ev.CandidateReasons = map[string]string{}
			return ev
		}
		seeds = kept
	}

	for _, seed := range seeds {
		i := s.SeedIndex(seed.Name)
		ev.Candidates = append(ev.Candidates, i)
		reason, err := req.StrategyAdmits(seed)
		if err != nil {
			ev.StrategyErr = err
			ev.Rejections[seed.Name] = Rejection{Predicate: PredicateStrategy, Reason: err.Error()}
			continue
		}
		if reason != "" {
			ev.Rejections[seed.Name] = Rejection{Predicate: PredicateStrategy, Reason: reason}
			continue
		}
		d, source := req.PlacementDistance(seed)
		ev.Arcs = append(ev.Arcs, Arc{Seed: i, Distance: d, Source: source})
	}
	return ev
}

// Window is a set of pending shoots to be placed together: their evaluations and the seeds' free capacity. It is
// computed once and shared by every solver, so no two solvers can disagree about what is feasible.
type Window struct {
	Snapshot *Snapshot
	Options  Options
	// Shoots in scheduling order (creationTimestamp, then namespace/name).
	Shoots []*gardencorev1beta1.Shoot
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
	bySignature := map[string]*Evaluation{}
	for i, shoot := range shoots {
		sig, err := schedulingSignature(snap, shoot)
		if err != nil {
			return nil, fmt.Errorf("shoot %s: %w", ShootKey(shoot), err)
		}
		ev, ok := bySignature[sig]
		if !ok {
			ev = snap.EvaluateShoot(shoot, opts)
			ev.Signature = sig
			bySignature[sig] = ev
		}
		w.Evaluations[i] = ev
	}
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

// schedulingSignature encodes every field of the shoot (and what it references) that the scheduler reads, so
// that two shoots with the same signature get the same evaluation (spec §6).
func schedulingSignature(snap *Snapshot, shoot *gardencorev1beta1.Shoot) (string, error) {
	spec := shoot.Spec
	var workerZones [][]string
	for _, w := range spec.Provider.Workers {
		workerZones = append(workerZones, w.Zones)
	}
	var projectName, shootName string
	if spec.DNS != nil && spec.DNS.Domain != nil {
		// Only the DNS filter reads the shoot and project names.
		shootName = shoot.Name
		if p := snap.Project(shoot.Namespace); p != nil {
			projectName = p.Name
		}
	}
	kind, profile := cloudProfileReference(shoot)
	profileNamespace := ""
	if kind != "CloudProfile" {
		profileNamespace = shoot.Namespace
	}
	hasProject := snap.Project(shoot.Namespace) != nil
	key := struct {
		ProfileKind, ProfileNamespace, Profile, ProfileForMessages string
		HasProject                                                 bool
		Region, Provider                                           string
		Purpose                                                    *gardencorev1beta1.ShootPurpose
		Workers                                                    [][]string
		SeedSelector                                               *gardencorev1beta1.SeedSelector
		Tolerations                                                []gardencorev1beta1.Toleration
		AccessRestrictions                                         []gardencorev1beta1.AccessRestrictionWithOptions
		ZonalControlPlane                                          bool
		ControlPlaneZones                                          []string
		DNSDomain, ShootName, ProjectName                          string
		Networks                                                   *networksKey
		StatusNetworking                                           *gardencorev1beta1.NetworkingStatus
	}{
		ProfileKind: kind, ProfileNamespace: profileNamespace, Profile: profile, ProfileForMessages: cloudProfileNameForMessages(shoot),
		HasProject: hasProject,
		Region:     spec.Region, Provider: spec.Provider.Type, Purpose: spec.Purpose, Workers: workerZones,
		SeedSelector: spec.SeedSelector, Tolerations: spec.Tolerations, AccessRestrictions: spec.AccessRestrictions,
		ZonalControlPlane: IsZonalControlPlane(shoot), ShootName: shootName, ProjectName: projectName,
		StatusNetworking: shoot.Status.Networking,
	}
	if spec.ControlPlane != nil {
		key.ControlPlaneZones = spec.ControlPlane.Zones
	}
	if n := spec.Networking; n != nil {
		key.Networks = &networksKey{Nodes: n.Nodes, Pods: n.Pods, Services: n.Services, IPFamilies: n.IPFamilies}
	}
	if spec.DNS != nil && spec.DNS.Domain != nil {
		key.DNSDomain = *spec.DNS.Domain
	}
	if key.Purpose != nil && *key.Purpose != gardencorev1beta1.ShootPurposeTesting {
		key.Purpose = nil // only "testing" changes decisions
	}
	b, err := json.Marshal(key)
	return string(b), err
}

type networksKey struct {
	Nodes, Pods, Services *string
	IPFamilies            []gardencorev1beta1.IPFamily
}
