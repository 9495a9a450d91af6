package model

import (
	"errors"
	"fmt"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/types"
)

// Placement binds one pending shoot to one seed.
type Placement struct {
	// Shoot is namespace/name.
	Shoot string `json:"shoot"`
	Seed  string `json:"seed"`
	// Distance is the region distance of the placement (0 in the shoot's own region), from the shoot's
	// spec.region (ShootRegion) to the seed's spec.provider.region (SeedRegion). A placement a solver made states
	// both regions; one built from a binding found in a garden states neither.
	Distance    int    `json:"distance"`
	ShootRegion string `json:"shootRegion,omitempty"`
	SeedRegion  string `json:"seedRegion,omitempty"`
	// ShootVersion is the shoot's when it was planned (from a cluster): `seedplan apply` binds only this version,
	// or one changed since in nothing but its status and metadata, so that a shoot whose spec changed since the
	// plan was reviewed is skipped, not bound blindly.
	ShootVersion
}

// NewPlacement is the shoot's placement on the seed at the strategy's distance between their regions, with the
// shoot's version; key is the shoot's namespace/name.
func NewPlacement(key string, shoot *gardencorev1beta1.Shoot, seed *gardencorev1beta1.Seed, distance int) Placement {
	return Placement{Shoot: key, Seed: seed.Name, Distance: distance, ShootRegion: shoot.Spec.Region,
		SeedRegion: seed.Spec.Provider.Region, ShootVersion: VersionOf(shoot)}
}

// ShootVersion is the version of a shoot a placement or a move was planned for, read from a cluster (zero for a
// shoot read from files).
type ShootVersion struct {
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// UID and Generation tell a later version of the same shoot whose spec is unchanged (the API server counts
	// every change of a shoot's spec in its generation, none of its status): a gardenlet's reconcile or a
	// scheduler's failure report changes only the resourceVersion. A plan saved before they were recorded has
	// neither.
	UID        types.UID `json:"uid,omitempty"`
	Generation int64     `json:"generation,omitempty"`
}

// VersionOf is the version of a shoot as read from a cluster; a shoot without a resourceVersion (read from files)
// has none.
func VersionOf(shoot *gardencorev1beta1.Shoot) ShootVersion {
	if shoot.ResourceVersion == "" {
		return ShootVersion{}
	}
	return ShootVersion{ResourceVersion: shoot.ResourceVersion, UID: shoot.UID, Generation: shoot.Generation}
}

// VersionChange is how a shoot read now differs from the version planned for.
type VersionChange int

const (
	// SameVersion: the version planned for, or a later one whose spec is unchanged (the same object, the same
	// generation, not being deleted).
	SameVersion VersionChange = iota
	// Recreated: another shoot of the same name.
	Recreated
	// SpecChanged: its generation moved on: its spec changed, or its deletion began.
	SpecChanged
	// OtherVersion: another resourceVersion, where the plan recorded no generation to tell more.
	OtherVersion
)

// ChangeTo is how the shoot as read now differs from the version v.
func (v ShootVersion) ChangeTo(now *gardencorev1beta1.Shoot) VersionChange {
	switch {
	case now.ResourceVersion == v.ResourceVersion:
		return SameVersion
	case v.UID == "" || v.Generation == 0:
		return OtherVersion
	case now.UID != v.UID:
		return Recreated
	case now.Generation != v.Generation || now.DeletionTimestamp != nil:
		return SpecChanged
	}
	return SameVersion
}

// Unschedulable is a pending shoot the plan leaves unplaced.
type Unschedulable struct {
	// Shoot is namespace/name.
	Shoot string `json:"shoot"`
	// Message is what the gardener-scheduler would report for the shoot.
	Message string `json:"message"`
	// Reason is the predicate that made the shoot unschedulable (a metric label).
	Reason string `json:"reason"`
	// Rejections count, over every seed of the landscape, the seeds each predicate excluded (the first that
	// failed for the seed; Capacity for candidates without room): kube-scheduler's "0/8 nodes are available".
	// Most seeds first. Shared between shoots of the same outcome: read only.
	Rejections []SeedCount `json:"rejections,omitempty"`
}

// SeedCount is how many seeds one predicate excluded.
type SeedCount struct {
	Predicate string `json:"predicate"`
	Seeds     int    `json:"seeds"`
}

// Plan is a solver's answer for a window. Both lists are in namespace/name order, as every output shows them
// (Window.ByKey), which the property test checks.
type Plan struct {
	Placements    []Placement     `json:"placements"`
	Unschedulable []Unschedulable `json:"unschedulable"`
}

// PlacedPerSeed counts the plan's placements per seed name.
func (p *Plan) PlacedPerSeed() map[string]int {
	placed := map[string]int{}
	for _, pl := range p.Placements {
		placed[pl.Seed]++
	}
	return placed
}

// Verify checks a plan against the snapshot independently of the window and of any solver: every placed shoot
// exists, is pending, is placed once, and its seed passes every predicate of the chain and the strategy's region
// rule, evaluated afresh; the regions and the distance a placement states are the landscape's; no seed ends above
// its allocatable shoots. It returns every violation found, joined.
func Verify(snap *Snapshot, opts Options, plan *Plan) error {
	opts = opts.WithDefaults()
	var violations []error
	seen := map[string]bool{}
	mention := func(shoot string) error {
		if seen[shoot] {
			return fmt.Errorf("shoot %s: appears more than once in the plan", shoot)
		}
		seen[shoot] = true
		return nil
	}

	for _, u := range plan.Unschedulable {
		if err := mention(u.Shoot); err != nil {
			violations = append(violations, err)
		}
	}
	placed := map[string]int{}
	// Each placement adds at most one violation, in its place: the checks of the chain, which take the time, are
	// made on every processor (evaluateByProvider) and put in order after.
	byPlacement := make([]error, len(plan.Placements))
	var shoots []*gardencorev1beta1.Shoot
	var checked []int
	for i, pl := range plan.Placements {
		if byPlacement[i] = mention(pl.Shoot); byPlacement[i] != nil {
			continue
		}
		shoot := snap.Shoot(pl.Shoot)
		if byPlacement[i] = misplaced(snap, opts, pl, shoot); byPlacement[i] != nil {
			continue
		}
		placed[pl.Seed]++
		shoots, checked = append(shoots, shoot), append(checked, i)
	}
	evaluateByProvider(snap, opts, shoots, newVerifyingEvaluator, func(e *evaluator, j int, ev *Evaluation) {
		pl := plan.Placements[checked[j]]
		byPlacement[checked[j]] = e.checkPlacement(ev, pl, shoots[j], snap.Seed(pl.Seed))
	})
	for _, err := range byPlacement {
		if err != nil {
			violations = append(violations, err)
		}
	}
	violations = append(violations, beyondAllocatable(snap, placed)...)
	return errors.Join(violations...)
}

// misplaced is what makes a placement wrong before any predicate is asked: its shoot (shoot, nil if none) is not
// in the landscape or not pending, or its seed does not exist.
func misplaced(snap *Snapshot, opts Options, pl Placement, shoot *gardencorev1beta1.Shoot) error {
	switch {
	case shoot == nil:
		return fmt.Errorf("shoot %s: not in the landscape", pl.Shoot)
	case !IsPending(shoot, opts.SchedulerName):
		return fmt.Errorf("shoot %s: is not pending for scheduler %q (seedName %q), must not be placed", pl.Shoot, opts.SchedulerName, deref(shoot.Spec.SeedName))
	case snap.Seed(pl.Seed) == nil:
		return fmt.Errorf("shoot %s: seed %q does not exist", pl.Shoot, pl.Seed)
	}
	return nil
}

// beyondAllocatable are the seeds whose hosted shoots and those placed on them (placed, by seed) exceed their
// allocatable shoots.
func beyondAllocatable(snap *Snapshot, placed map[string]int) []error {
	var violations []error
	for _, seed := range snap.Seeds {
		allocatable, ok := Allocatable(seed)
		if n := placed[seed.Name]; ok && n > 0 && int64(snap.Usage(seed.Name)+n) > allocatable {
			violations = append(violations, fmt.Errorf("seed %s: capacity exceeded: %d shoots hosted + %d placed > %d allocatable",
				seed.Name, snap.Usage(seed.Name), n, allocatable))
		}
	}
	return violations
}

// Verifier checks placements one at a time, afresh and independently of any window, as Verify does: every
// predicate of the chain and the strategy's region rule. Shoots the scheduler cannot tell apart share their
// evaluation, so checking many placements costs what their distinct shoots cost.
type Verifier struct {
	evaluator *evaluator
}

// NewVerifier is a Verifier of placements in the snapshot.
func NewVerifier(snap *Snapshot, opts Options) *Verifier {
	return &Verifier{evaluator: newVerifyingEvaluator(snap, opts.WithDefaults())}
}

// Placement says why the shoot may not go to the seed, or nil when it may. Whether the seed has room is the
// caller's to count.
func (v *Verifier) Placement(shoot *gardencorev1beta1.Shoot, seed *gardencorev1beta1.Seed) error {
	return v.evaluator.placementViolation(shoot, seed)
}

// Check says why a plan's placement does not hold, or nil when it does: Placement, and what the placement states of
// itself (its regions and the distance between them), as Verify checks it. Its shoot and seed are in the snapshot.
func (v *Verifier) Check(pl Placement) error {
	shoot, seed := v.evaluator.snap.Shoot(pl.Shoot), v.evaluator.snap.Seed(pl.Seed)
	return v.evaluator.checkPlacement(v.evaluator.evaluate(shoot), pl, shoot, seed)
}

// placementViolation checks a shoot on a seed afresh: every predicate of the chain and the strategy's region rule.
func (e *evaluator) placementViolation(shoot *gardencorev1beta1.Shoot, seed *gardencorev1beta1.Seed) error {
	return e.violation(e.evaluate(shoot), shoot, seed)
}

// checkPlacement is violation, then what the placement states of itself (misstated).
func (e *evaluator) checkPlacement(ev *Evaluation, pl Placement, shoot *gardencorev1beta1.Shoot, seed *gardencorev1beta1.Seed) error {
	if err := e.violation(ev, shoot, seed); err != nil {
		return err
	}
	return e.misstated(pl, shoot, seed)
}

// misstated is what a placement of the shoot on the seed, admitted by the strategy, states of itself against the
// landscape: its regions and the strategy's distance between them. The distance is the shoot's own request's, not
// that of the evaluation it shares with shoots the scheduler cannot tell from it, so that how evaluations are
// shared cannot hide a wrong one. A placement that states no seed region (one built from a binding found in a
// garden) states nothing to check.
func (e *evaluator) misstated(pl Placement, shoot *gardencorev1beta1.Shoot, seed *gardencorev1beta1.Seed) error {
	if pl.SeedRegion == "" {
		return nil
	}
	req, err := e.snap.NewRequest(shoot, e.opts)
	if err != nil {
		return fmt.Errorf("shoot %s → seed %s: %w", pl.Shoot, pl.Seed, err)
	}
	d, _ := req.PlacementDistance(seed)
	switch {
	case pl.ShootRegion != shoot.Spec.Region:
		return fmt.Errorf("shoot %s → seed %s: states the shoot's region as %q, it is %q", pl.Shoot, pl.Seed, pl.ShootRegion, shoot.Spec.Region)
	case pl.SeedRegion != seed.Spec.Provider.Region:
		return fmt.Errorf("shoot %s → seed %s: states the seed's region as %q, it is %q", pl.Shoot, pl.Seed, pl.SeedRegion, seed.Spec.Provider.Region)
	case pl.Distance != d:
		return fmt.Errorf("shoot %s → seed %s: states distance %d from %s to %s, the strategy's is %d", pl.Shoot, pl.Seed, pl.Distance, pl.ShootRegion, pl.SeedRegion, d)
	}
	return nil
}

// violation is placementViolation with the shoot's evaluation made.
func (e *evaluator) violation(ev *Evaluation, shoot *gardencorev1beta1.Shoot, seed *gardencorev1beta1.Seed) error {
	if ev.Err != nil {
		return fmt.Errorf("shoot %s → seed %s: the shoot is unschedulable: %w", ShootKey(shoot), seed.Name, ev.Err)
	}
	if !slices.Contains(ev.Candidates, e.snap.SeedIndex(seed.Name)) {
		r, _ := ev.Rejection(seed.Name)
		return fmt.Errorf("shoot %s → seed %s: violates predicate %s: %s", ShootKey(shoot), seed.Name, r.Predicate, r.Reason)
	}
	reason, err := ev.Request.StrategyAdmits(seed)
	if err != nil {
		return fmt.Errorf("shoot %s → seed %s: strategy: %w", ShootKey(shoot), seed.Name, err)
	}
	if reason != "" {
		return fmt.Errorf("shoot %s → seed %s: violates predicate %s: %s", ShootKey(shoot), seed.Name, PredicateStrategy, reason)
	}
	return nil
}
