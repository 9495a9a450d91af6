package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Names of the predicates. They appear in explanations, in rejection lists and as metric labels.
const (
	PredicateReferences               = "References"
	PredicateSeedUsable               = "SeedUsable"
	PredicateCloudProfileSeedSelector = "CloudProfileSeedSelector"
	PredicateShootSeedSelector        = "ShootSeedSelector"
	PredicateProviderType             = "ProviderType"
	PredicateZonalControlPlane        = "ZonalControlPlane"
	PredicateZoneSelection            = "ZoneSelection"
	PredicateAccessRestrictions       = "AccessRestrictions"
	PredicateDNSDomain                = "DNSDomain"
	PredicateEmergencyStop            = "EmergencyStop"
	PredicateNetworks                 = "Networks"
	PredicateTolerations              = "Tolerations"
	PredicateCapacity                 = "Capacity"
	PredicateStrategy                 = "Strategy"
)

// Rejection says which predicate excluded a seed for a shoot, and why.
type Rejection struct {
	Predicate string `json:"predicate"`
	Reason    string `json:"reason"`
}

// Filter is one step of the gardener-scheduler's filter chain (spec §2). It narrows the seed list, keeping the
// input order, and records for every seed it drops the reason. When it leaves no seed the chain stops with the
// Filter's error, worded exactly as Gardener words it; a step that is only part of a larger step (networks and
// taints inside §2.10) reports no error of its own.
type Filter interface {
	Name() string
	// AppendKey appends to key everything the filter reads from the request; two requests with the same key get
	// the same outcome from the same seeds, so the outcome is computed once.
	AppendKey(key []byte, req *Request) []byte
	// Filter keeps the seeds that pass, and with words says why each other one does not; without words rejected
	// is nil, for a chain that words rejections only when they are read.
	Filter(req *Request, seeds []*gardencorev1beta1.Seed, words bool) (kept []*gardencorev1beta1.Seed, rejected map[string]Rejection, err error)
}

// seedPredicate is a Filter that judges each seed on its own.
type seedPredicate struct {
	name string
	// check returns "" when the seed passes, otherwise the reason it does not; without words it may return any
	// other string for a seed it rejects (unworded), so that a chain which words rejections only when they are
	// read does not format them.
	check func(req *Request, seed *gardencorev1beta1.Seed, words bool) string
	// applies, when set, says whether the step runs at all for this shoot.
	applies func(req *Request) bool
	// empty is Gardener's error for a step that leaves no seed; nil for steps without their own error.
	empty func(req *Request, entering int) error
	// appendKey appends what the step reads from the request (see Filter.AppendKey); nil when it reads nothing.
	appendKey func(key []byte, req *Request) []byte
	// seedKey, when set, is what check reads from a seed: seeds with equal keys are checked once per call.
	seedKey func(req *Request, seed *gardencorev1beta1.Seed) string
}

// unworded is what a check without words returns for a seed it rejects.
const unworded = "rejected"

// Name implements Filter.
func (p seedPredicate) Name() string { return p.name }

// AppendKey implements Filter: the predicate's own key, if it has one.
func (p seedPredicate) AppendKey(key []byte, req *Request) []byte {
	if p.appendKey == nil {
		return key
	}
	return p.appendKey(key, req)
}

// Filter implements Filter: it keeps the seeds its check finds no reason against, asking once per seed key where
// the predicate has one; keeping none is its error, where it has one.
func (p seedPredicate) Filter(req *Request, seeds []*gardencorev1beta1.Seed, words bool) ([]*gardencorev1beta1.Seed, map[string]Rejection, error) {
	if p.applies != nil && !p.applies(req) {
		return seeds, nil, nil
	}
	// kept stays nil while every seed passes: most steps keep them all, and then seeds is what they keep.
	var kept []*gardencorev1beta1.Seed
	var rejected map[string]Rejection
	var memo map[string]string
	if p.seedKey != nil {
		memo = map[string]string{}
	}
	for i, seed := range seeds {
		var reason string
		if memo == nil {
			reason = p.check(req, seed, words)
		} else {
			key := p.seedKey(req, seed)
			var known bool
			if reason, known = memo[key]; !known {
				reason = p.check(req, seed, words)
				memo[key] = reason
			}
		}
		if reason != "" {
			if kept == nil {
				kept = append(make([]*gardencorev1beta1.Seed, 0, len(seeds)-1), seeds[:i]...)
			}
			if words {
				if rejected == nil {
					rejected = map[string]Rejection{}
				}
				rejected[seed.Name] = Rejection{Predicate: p.name, Reason: reason}
			}
			continue
		}
		if kept != nil {
			kept = append(kept, seed)
		}
	}
	if kept == nil {
		kept = seeds
	}
	if len(kept) == 0 && p.empty != nil {
		return nil, rejected, p.empty(req, len(seeds))
	}
	return kept, rejected, nil
}

// StaticFilters is the chain of spec §2.1–§2.10(b) in Gardener's order: everything that does not depend on how
// full the seeds are. Capacity (§2.10c) and the strategy (§3) follow in the solvers.
func StaticFilters() []Filter {
	return []Filter{
		UsableFilter(),
		CloudProfileSeedSelectorFilter(),
		ShootSeedSelectorFilter(),
		ProviderTypeFilter(),
		ZonalControlPlaneFilter(),
		ZoneSelectionFilter{},
		AccessRestrictionsFilter(),
		DNSDomainFilter{},
		EmergencyStopFilter(),
		NetworksFilter(),
		TolerationsFilter(),
	}
}

// UsableFilter keeps seeds that are not deleting, visible, have a last operation and a ready gardenlet (and ready
// backup buckets when they have backup) — spec §2.1.
func UsableFilter() Filter {
	return seedPredicate{
		name:  PredicateSeedUsable,
		check: func(_ *Request, seed *gardencorev1beta1.Seed, _ bool) string { return SeedUnusableReason(seed) },
		empty: func(_ *Request, n int) error {
			return fmt.Errorf("none of the %d seeds is valid for scheduling (not deleting, visible and ready)", n)
		},
	}
}

// SeedUnusableReason says why a seed may not receive shoots at all (spec §2.1), or "" when it may.
func SeedUnusableReason(seed *gardencorev1beta1.Seed) string {
	switch {
	case seed.DeletionTimestamp != nil:
		return "seed is being deleted"
	case !SchedulingVisible(seed):
		return "seed is not visible for scheduling (spec.settings.scheduling.visible)"
	}
	reason, _ := seedHealthReason(seed)
	return reason
}

// SchedulingVisible reports whether the seed's spec.settings.scheduling.visible is true: schedulers place shoots on
// it (it is not cordoned). A seed without the setting is not visible, as in Gardener.
func SchedulingVisible(seed *gardencorev1beta1.Seed) bool {
	return seed.Spec.Settings != nil && seed.Spec.Settings.Scheduling != nil && seed.Spec.Settings.Scheduling.Visible
}

// SeedAdmitsMore reports whether a seed's change from before (nil: the seed was created) to after may let a shoot
// go there that could not before: it is usable after, and either was not before, or what the predicates and the
// strategy read of it changed (seedKind), or it has more allocatable shoots or no limit any more. The status a
// gardenlet refreshes (a condition's lastUpdateTime) changes none of them; a seed that becomes unusable, or
// smaller, admits no more.
func SeedAdmitsMore(before, after *gardencorev1beta1.Seed) bool {
	if SeedUnusableReason(after) != "" {
		return false
	}
	if before == nil || SeedUnusableReason(before) != "" {
		return true
	}
	allocatableBefore, limitedBefore := Allocatable(before)
	allocatableAfter, limitedAfter := Allocatable(after)
	return limitedBefore && (!limitedAfter || allocatableAfter > allocatableBefore) || seedKind(before) != seedKind(after)
}

// seedHealthReason is the part of §2.1 about the seed's state: a last operation, a ready gardenlet, and ready
// backup buckets when the seed has backup. since is when it became so: the condition's lastTransitionTime, or the
// seed's creation when the status never said otherwise.
func seedHealthReason(seed *gardencorev1beta1.Seed) (reason string, since time.Time) {
	since = seed.CreationTimestamp.Time
	switch {
	case seed.Status.LastOperation == nil:
		return "seed has no status.lastOperation yet", since
	case !conditionTrue(seed.Status.Conditions, gardencorev1beta1.GardenletReady):
		return "seed condition GardenletReady is not True", conditionSince(seed, gardencorev1beta1.GardenletReady)
	case seed.Spec.Backup != nil && !conditionTrue(seed.Status.Conditions, gardencorev1beta1.SeedBackupBucketsReady):
		return "seed has backup but condition BackupBucketsReady is not True", conditionSince(seed, gardencorev1beta1.SeedBackupBucketsReady)
	}
	return "", time.Time{}
}

// conditionSince is the condition's lastTransitionTime, or the seed's creation when it has none.
func conditionSince(seed *gardencorev1beta1.Seed, conditionType gardencorev1beta1.ConditionType) time.Time {
	for _, c := range seed.Status.Conditions {
		if c.Type == conditionType && !c.LastTransitionTime.IsZero() {
			return c.LastTransitionTime.Time
		}
	}
	return seed.CreationTimestamp.Time
}

func conditionTrue(conditions []gardencorev1beta1.Condition, conditionType gardencorev1beta1.ConditionType) bool {
	for _, c := range conditions {
		if c.Type == conditionType {
			return c.Status == gardencorev1beta1.ConditionTrue
		}
	}
	return false
}

// CloudProfileSeedSelectorFilter keeps seeds whose labels match the cloud profile's seed selector (spec §2.2).
func CloudProfileSeedSelectorFilter() Filter {
	return labelFilter{name: PredicateCloudProfileSeedSelector, kind: "CloudProfile",
		selectorOf: func(req *Request) *gardencorev1beta1.SeedSelector { return req.CloudProfile.SeedSelector },
		// A profile's selector is the same for every shoot that references the profile: its kind, name and, for a
		// NamespacedCloudProfile, namespace identify it.
		appendKey: func(key []byte, req *Request) []byte {
			kind, name := cloudProfileReference(req.Shoot)
			key = appendString(appendString(key, kind), name)
			if kind == v1beta1constants.CloudProfileReferenceKindNamespacedCloudProfile {
				key = appendString(key, req.Shoot.Namespace)
			}
			return key
		},
	}
}

// ShootSeedSelectorFilter keeps seeds whose labels match the shoot's seed selector (spec §2.3). The shoot's
// providerTypes are ignored, as Gardener ignores them.
func ShootSeedSelectorFilter() Filter {
	return labelFilter{name: PredicateShootSeedSelector, kind: "Shoot",
		selectorOf: func(req *Request) *gardencorev1beta1.SeedSelector { return req.Shoot.Spec.SeedSelector },
	}
}

type labelFilter struct {
	name       string
	kind       string
	selectorOf func(*Request) *gardencorev1beta1.SeedSelector
	// appendKey, when set, replaces the printed selector as the filter's key.
	appendKey func(key []byte, req *Request) []byte
}

// Name implements Filter.
func (f labelFilter) Name() string { return f.name }

// AppendKey implements Filter: the selector the filter applies, printed, unless the filter keys itself.
func (f labelFilter) AppendKey(key []byte, req *Request) []byte {
	if f.appendKey != nil {
		return f.appendKey(key, req)
	}
	if sel := f.selectorOf(req); sel != nil {
		return appendSelector(key, &sel.LabelSelector)
	}
	return append(key, '-')
}

// Filter implements Filter with the predicate of the request's selector, if it has one. A selector that does not
// convert is the error, and excludes every seed for that reason: explanations, rejection counts and capacity's
// answer name it for each seed, as they name a predicate that leaves no seed.
func (f labelFilter) Filter(req *Request, seeds []*gardencorev1beta1.Seed, words bool) ([]*gardencorev1beta1.Seed, map[string]Rejection, error) {
	p, err := f.predicate(req, len(seeds))
	if err != nil {
		var rejected map[string]Rejection
		if words {
			rejected = rejectingAll(seeds, Rejection{Predicate: f.name, Reason: err.Error()})
		}
		return nil, rejected, err
	}
	if p == nil {
		return seeds, nil, nil
	}
	return p.Filter(req, seeds, words)
}

// rejectingAll rejects every one of the seeds for the same reason: a step that fails whatever the seeds are.
func rejectingAll(seeds []*gardencorev1beta1.Seed, r Rejection) map[string]Rejection {
	rejected := make(map[string]Rejection, len(seeds))
	for _, seed := range seeds {
		rejected[seed.Name] = r
	}
	return rejected
}

// selectorError is a seed selector that does not convert, worded as Gardener words it: no seed, existing or new,
// passes it, whatever its labels.
type selectorError struct {
	kind string // Shoot or CloudProfile, whose selector it is
	err  error
}

// Error is the conversion's error, Gardener's words.
func (e *selectorError) Error() string { return e.err.Error() }

// Unwrap is the conversion's error.
func (e *selectorError) Unwrap() error { return e.err }

// predicate is the request's selector as a predicate on the given number of seeds; nil without a selector.
func (f labelFilter) predicate(req *Request, seeds int) (*seedPredicate, error) {
	seedSelector := f.selectorOf(req)
	if seedSelector == nil {
		return nil, nil
	}
	selector, err := metav1.LabelSelectorAsSelector(&seedSelector.LabelSelector)
	if err != nil {
		return nil, &selectorError{kind: f.kind, err: fmt.Errorf("label selector conversion failed: %v for seedSelector: %w", seedSelector.LabelSelector, err)}
	}
	mismatch := fmt.Sprintf("seed labels do not match the seed selector of the %s (selector: '%s')", f.kind, selector)
	// The selector is matched once per label set, not once per seed: when the sets are no more than the seeds,
	// all at once, so that a selector every set matches keeps the seeds without a look at them; otherwise as the
	// seeds come.
	const unknown, match, mismatches = 0, 1, 2
	verdicts := make([]int8, len(req.classes.labelSets))
	matches := func(class int) bool {
		if verdicts[class] == unknown {
			verdicts[class] = mismatches
			if selector.Matches(labels.Set(req.classes.labelSets[class])) {
				verdicts[class] = match
			}
		}
		return verdicts[class] == match
	}
	all := false
	if len(verdicts) <= seeds {
		all = true
		for class := range verdicts {
			all = matches(class) && all
		}
	}
	return &seedPredicate{
		name:    f.name,
		applies: func(*Request) bool { return !all },
		check: func(req *Request, seed *gardencorev1beta1.Seed, _ bool) string {
			if matches(req.classes.labels[seed]) {
				return ""
			}
			return mismatch
		},
		empty: func(_ *Request, n int) error {
			return fmt.Errorf("none out of the %d seeds has the matching labels required by seed selector of '%s' (selector: '%s')", n, f.kind, selector)
		},
	}, nil
}

// ProviderTypeFilter keeps seeds of the shoot's provider type, or of a type the cloud profile's
// seedSelector.providerTypes admits ("*" admits all) — spec §2.4.
func ProviderTypeFilter() Filter {
	return seedPredicate{
		name:    PredicateProviderType,
		seedKey: func(_ *Request, seed *gardencorev1beta1.Seed) string { return seed.Spec.Provider.Type },
		check: func(req *Request, seed *gardencorev1beta1.Seed, words bool) string {
			var enabled []string
			if req.CloudProfile.SeedSelector != nil {
				enabled = req.CloudProfile.SeedSelector.ProviderTypes
			}
			switch {
			case ProviderMatches(seed.Spec.Provider.Type, req.Shoot.Spec.Provider.Type, enabled):
				return ""
			case !words:
				return unworded
			}
			if len(enabled) == 0 {
				return fmt.Sprintf("seed provider %q is not the shoot's provider %q", seed.Spec.Provider.Type, req.Shoot.Spec.Provider.Type)
			}
			return fmt.Sprintf("seed provider %q is not among the cloud profile's providerTypes %v", seed.Spec.Provider.Type, enabled)
		},
		empty: func(req *Request, n int) error {
			return fmt.Errorf("none out of the %d seeds has a matching provider for %q", n, req.Shoot.Spec.Provider.Type)
		},
		appendKey: func(key []byte, req *Request) []byte {
			key = appendString(key, req.Shoot.Spec.Provider.Type)
			if req.CloudProfile.SeedSelector != nil {
				key = append(key, '|')
				for _, t := range req.CloudProfile.SeedSelector.ProviderTypes {
					key = appendString(key, t)
				}
			}
			return key
		},
	}
}

// ProviderMatches is Gardener's provider rule: without enabled types the seed type must equal the shoot's;
// otherwise it must be listed, or "*" must be.
func ProviderMatches(seedType, shootType string, enabledTypes []string) bool {
	if len(enabledTypes) == 0 {
		return seedType == shootType
	}
	return slices.Contains(enabledTypes, "*") || slices.Contains(enabledTypes, seedType)
}

// IsZonalControlPlane reports whether the shoot asks for a control plane that tolerates a zone failure.
func IsZonalControlPlane(shoot *gardencorev1beta1.Shoot) bool {
	cp := shoot.Spec.ControlPlane
	return cp != nil && cp.HighAvailability != nil && cp.HighAvailability.FailureTolerance.Type == gardencorev1beta1.FailureToleranceTypeZone
}

// ZonalControlPlaneFilter keeps seeds with at least three zones for shoots whose control plane must survive a
// zone outage (spec §2.5).
func ZonalControlPlaneFilter() Filter {
	return seedPredicate{
		name:      PredicateZonalControlPlane,
		applies:   func(req *Request) bool { return IsZonalControlPlane(req.Shoot) },
		appendKey: func(key []byte, req *Request) []byte { return strconv.AppendBool(key, IsZonalControlPlane(req.Shoot)) },
		check: func(_ *Request, seed *gardencorev1beta1.Seed, words bool) string {
			switch {
			case len(seed.Spec.Provider.Zones) >= 3:
				return ""
			case !words:
				return unworded
			}
			return fmt.Sprintf("seed has %d zones, a control plane with failure tolerance type 'zone' needs at least 3", len(seed.Spec.Provider.Zones))
		},
		empty: func(_ *Request, n int) error {
			return fmt.Errorf("none of the %d seeds has at least 3 zones for hosting a shoot control plane with failure tolerance type 'zone'", n)
		},
	}
}

// ZoneSelectionFilter applies explicit control-plane zones and the seeds' zone selection modes Enforce and Prefer
// (spec §2.6). It depends on the whole seed list: a Prefer seed without zone overlap survives only when every
// remaining seed is such a seed. Zone-HA shoots skip it.
type ZoneSelectionFilter struct{}

// Name implements Filter.
func (ZoneSelectionFilter) Name() string { return PredicateZoneSelection }

// AppendKey implements Filter: worker zones matter only through whether there are any and their overlap with the
// zones of seeds that have a zone selection mode.
func (ZoneSelectionFilter) AppendKey(key []byte, req *Request) []byte {
	shoot := req.Shoot
	if IsZonalControlPlane(shoot) {
		return append(key, "zonal"...)
	}
	if cp := shoot.Spec.ControlPlane; cp != nil && len(cp.Zones) > 0 {
		key = append(key, "cp:"...)
		for _, z := range cp.Zones {
			key = appendString(key, z)
		}
		return key
	}
	// The worker zones that are zones of seeds with a mode, sorted and without repeats; most shoots have none.
	zoned := false
	var relevant []string
	for _, pool := range shoot.Spec.Provider.Workers {
		for _, z := range pool.Zones {
			zoned = true
			if req.modeZones[z] && !slices.Contains(relevant, z) {
				relevant = append(relevant, z)
			}
		}
	}
	slices.Sort(relevant)
	key = strconv.AppendBool(key, zoned)
	for _, z := range relevant {
		key = appendString(key, z)
	}
	return key
}

// Filter implements Filter.
func (ZoneSelectionFilter) Filter(req *Request, seeds []*gardencorev1beta1.Seed, words bool) ([]*gardencorev1beta1.Seed, map[string]Rejection, error) {
	shoot := req.Shoot
	if IsZonalControlPlane(shoot) {
		return seeds, nil, nil
	}
	if cp := shoot.Spec.ControlPlane; cp != nil && len(cp.Zones) > 0 {
		return controlPlaneZones(cp.Zones).Filter(req, seeds, words)
	}
	shootZones := WorkerZones(shoot)
	kept, rejected, err := enforcedZones(shootZones).Filter(req, seeds, words)
	if err != nil || len(shootZones) == 0 {
		return kept, rejected, err
	}
	return preferZones(kept, rejected, shootZones, words)
}

// controlPlaneZones keeps the seeds that have every zone the shoot's control plane asks for.
func controlPlaneZones(zones []string) seedPredicate {
	return seedPredicate{
		name: PredicateZoneSelection,
		check: func(_ *Request, seed *gardencorev1beta1.Seed, words bool) string {
			for _, zone := range zones {
				if slices.Contains(seed.Spec.Provider.Zones, zone) {
					continue
				}
				if !words {
					return unworded
				}
				return fmt.Sprintf("seed zones %v do not contain the requested control plane zone %q", seed.Spec.Provider.Zones, zone)
			}
			return ""
		},
		empty: func(_ *Request, n int) error {
			return fmt.Errorf("none of the %d seeds contains all requested control plane zones %v", n, zones)
		},
	}
}

// enforcedZones keeps the seeds that do not enforce zone selection, or share a zone with the shoot's workers, or
// every seed when the shoot has no worker zones.
func enforcedZones(shootZones []string) seedPredicate {
	return seedPredicate{
		name: PredicateZoneSelection,
		check: func(_ *Request, seed *gardencorev1beta1.Seed, words bool) string {
			switch {
			case zoneSelectionMode(seed) != gardencorev1beta1.ZoneSelectionModeEnforce || len(shootZones) == 0 || zonesOverlap(seed.Spec.Provider.Zones, shootZones):
				return ""
			case !words:
				return unworded
			}
			return fmt.Sprintf("seed enforces zone selection and none of its zones %v is a worker zone of the shoot", seed.Spec.Provider.Zones)
		},
		empty: func(_ *Request, n int) error {
			return fmt.Errorf("none of the %d seeds has any zone overlap with the shoot's worker pool zones (zone selection mode: %s)", n, gardencorev1beta1.ZoneSelectionModeEnforce)
		},
	}
}

// preferZones drops, of the seeds kept, those that prefer zones the shoot's workers are not in, unless that would
// drop them all: a preference, unlike enforcement, never leaves a shoot without a seed.
func preferZones(kept []*gardencorev1beta1.Seed, rejected map[string]Rejection, shootZones []string, words bool) ([]*gardencorev1beta1.Seed, map[string]Rejection, error) {
	preferred := make([]*gardencorev1beta1.Seed, 0, len(kept))
	for _, seed := range kept {
		if zoneSelectionMode(seed) != gardencorev1beta1.ZoneSelectionModePrefer || zonesOverlap(seed.Spec.Provider.Zones, shootZones) {
			preferred = append(preferred, seed)
		}
	}
	if len(preferred) == 0 {
		return kept, rejected, nil
	}
	for _, seed := range kept {
		if words && !slices.Contains(preferred, seed) {
			if rejected == nil {
				rejected = map[string]Rejection{}
			}
			rejected[seed.Name] = Rejection{Predicate: PredicateZoneSelection, Reason: fmt.Sprintf(
				"seed prefers worker zones and none of its zones %v is a worker zone of the shoot, while other seeds are not restricted that way", seed.Spec.Provider.Zones)}
		}
	}
	return preferred, rejected, nil
}

// WorkerZones is the sorted set of zones of all worker pools of the shoot.
func WorkerZones(shoot *gardencorev1beta1.Shoot) []string {
	var zones []string
	for _, pool := range shoot.Spec.Provider.Workers {
		zones = append(zones, pool.Zones...)
	}
	slices.Sort(zones)
	return slices.Compact(zones)
}

func zoneSelectionMode(seed *gardencorev1beta1.Seed) gardencorev1beta1.ZoneSelectionMode {
	if seed.Spec.Settings == nil || seed.Spec.Settings.ZoneSelection == nil {
		return ""
	}
	return seed.Spec.Settings.ZoneSelection.Mode
}

func zonesOverlap(seedZones, shootZones []string) bool {
	return slices.ContainsFunc(shootZones, func(z string) bool { return slices.Contains(seedZones, z) })
}

// AccessRestrictionsFilter keeps seeds that support every access restriction of the shoot (spec §2.7).
func AccessRestrictionsFilter() Filter {
	return seedPredicate{
		name:    PredicateAccessRestrictions,
		applies: func(req *Request) bool { return len(req.Shoot.Spec.AccessRestrictions) > 0 },
		check: func(req *Request, seed *gardencorev1beta1.Seed, words bool) string {
			missing, ok := unsupportedAccessRestriction(seed.Spec.AccessRestrictions, req.Shoot.Spec.AccessRestrictions, words)
			switch {
			case ok:
				return ""
			case !words:
				return unworded
			}
			return "seed does not support the access restriction " + missing
		},
		empty: func(_ *Request, n int) error {
			return fmt.Errorf("none of the %d seeds supports the access restrictions configured in the shoot specification", n)
		},
		appendKey: func(key []byte, req *Request) []byte {
			for _, r := range req.Shoot.Spec.AccessRestrictions {
				key = appendString(key, r.Name)
			}
			return key
		},
	}
}

// unsupportedAccessRestriction mirrors Gardener's AccessRestrictionsAreSupported, including its shortcut: a shoot
// listing more entries than the seed (duplicates count) is rejected. With words it says what is missing.
func unsupportedAccessRestriction(seedRestrictions []gardencorev1beta1.AccessRestriction, shootRestrictions []gardencorev1beta1.AccessRestrictionWithOptions, words bool) (string, bool) {
	if len(shootRestrictions) == 0 {
		return "", true
	}
	if len(shootRestrictions) > len(seedRestrictions) {
		if !words {
			return "", false
		}
		return fmt.Sprintf("(the shoot lists %d, the seed supports %d)", len(shootRestrictions), len(seedRestrictions)), false
	}
	for _, wanted := range shootRestrictions {
		if !slices.ContainsFunc(seedRestrictions, func(r gardencorev1beta1.AccessRestriction) bool { return r.Name == wanted.Name }) {
			if !words {
				return "", false
			}
			return `"` + wanted.Name + `"`, false
		}
	}
	return "", true
}

// DNSDomainFilter keeps, for a shoot whose domain is a Gardener default domain of some seed, only the seeds that
// offer it as <shoot>.<project>.<domain>; a custom domain keeps every seed (spec §2.8).
type DNSDomainFilter struct{}

// Name implements Filter.
func (DNSDomainFilter) Name() string { return PredicateDNSDomain }

// AppendKey implements Filter.
func (DNSDomainFilter) AppendKey(key []byte, req *Request) []byte {
	if dns := req.Shoot.Spec.DNS; dns != nil && dns.Domain != nil {
		return appendString(appendString(appendString(key, *dns.Domain), req.Shoot.Name), req.ProjectName)
	}
	return key
}

// isSubdomain reports whether domain ends in "." + parent.
func isSubdomain(domain, parent string) bool {
	return len(domain) > len(parent) && strings.HasSuffix(domain, parent) && domain[len(domain)-len(parent)-1] == '.'
}

// Filter implements Filter.
func (DNSDomainFilter) Filter(req *Request, seeds []*gardencorev1beta1.Seed, words bool) ([]*gardencorev1beta1.Seed, map[string]Rejection, error) {
	shoot := req.Shoot
	if shoot.Spec.DNS == nil || shoot.Spec.DNS.Domain == nil {
		return seeds, nil, nil
	}
	domain := *shoot.Spec.DNS.Domain
	// Only a domain below some seed's default domain is checked at all; most are below none.
	recognised := slices.ContainsFunc(seeds, func(seed *gardencorev1beta1.Seed) bool {
		return slices.ContainsFunc(seed.Spec.DNS.Defaults, func(d gardencorev1beta1.SeedDNSProviderConfig) bool { return isSubdomain(domain, d.Domain) })
	})
	if !recognised {
		return seeds, nil, nil
	}
	var (
		supporting []*gardencorev1beta1.Seed
		rejected   map[string]Rejection
		prefix     = shoot.Name + "." + req.ProjectName + "."
		mismatch   Rejection
	)
	if words {
		rejected = map[string]Rejection{}
		mismatch = Rejection{Predicate: PredicateDNSDomain, Reason: fmt.Sprintf("seed has no default domain D with shoot domain %q = <shoot>.<project>.D", domain)}
	}
	for _, seed := range seeds {
		supports := slices.ContainsFunc(seed.Spec.DNS.Defaults, func(d gardencorev1beta1.SeedDNSProviderConfig) bool {
			return isSubdomain(domain, d.Domain) && len(domain) == len(prefix)+len(d.Domain) && strings.HasPrefix(domain, prefix)
		})
		if supports {
			supporting = append(supporting, seed)
		} else if words {
			rejected[seed.Name] = mismatch
		}
	}
	if len(supporting) == 0 {
		return nil, rejected, fmt.Errorf("none of the %d seeds support the domain %q configured in the shoot specification", len(seeds), domain)
	}
	return supporting, rejected, nil
}

// EmergencyStopFilter drops seeds whose shoot reconciliations are stopped by annotation (spec §2.9).
func EmergencyStopFilter() Filter {
	return seedPredicate{
		name: PredicateEmergencyStop,
		check: func(_ *Request, seed *gardencorev1beta1.Seed, _ bool) string {
			if seed.Annotations[v1beta1constants.AnnotationEmergencyStopShootReconciliations] == "true" {
				return "seed has shoot reconciliations stopped (" + v1beta1constants.AnnotationEmergencyStopShootReconciliations + `: "true")`
			}
			return ""
		},
		empty: func(_ *Request, n int) error {
			return fmt.Errorf("none of the %d seeds have enabled shoot reconciliations currently", n)
		},
	}
}

// NetworksFilter rejects seeds whose networks the shoot's networks must not overlap (spec §2.10a). It has no
// error of its own: §2.10 reports networks, taints and capacity together (see AppendCandidatesMessage).
func NetworksFilter() Filter {
	return seedPredicate{
		name: PredicateNetworks,
		// The outcome depends on the seed only through its networks, which seeds mostly share.
		seedKey: func(req *Request, seed *gardencorev1beta1.Seed) string { return req.classes.networks[seed] },
		check: func(req *Request, seed *gardencorev1beta1.Seed, _ bool) string {
			if req.Shoot.Spec.Networking == nil {
				return ""
			}
			return NetworkConflicts(seed, req.Shoot, req.Options.StrictNetworks)
		},
		appendKey: func(key []byte, req *Request) []byte {
			n := req.Shoot.Spec.Networking
			if n == nil {
				return append(key, '-')
			}
			key = strconv.AppendBool(key, req.Options.StrictNetworks)
			key = strconv.AppendBool(key, len(req.Shoot.Spec.Provider.Workers) == 0)
			for _, network := range []*string{n.Nodes, n.Pods, n.Services} {
				key = appendString(key, nilMarked(network))
			}
			key = strconv.AppendInt(append(key, '|'), int64(len(n.IPFamilies)), 10)
			for _, f := range n.IPFamilies {
				key = appendString(key, string(f))
			}
			if st := req.Shoot.Status.Networking; st != nil {
				for _, networks := range [][]string{st.Nodes, st.Pods, st.Services} {
					key = strconv.AppendInt(append(key, '|'), int64(len(networks)), 10)
					for _, network := range networks {
						key = appendString(key, network)
					}
				}
			}
			return key
		},
	}
}

// TolerationsFilter rejects seeds with taints the shoot does not tolerate (spec §2.10b).
func TolerationsFilter() Filter {
	return seedPredicate{
		name: PredicateTolerations,
		check: func(req *Request, seed *gardencorev1beta1.Seed, _ bool) string {
			if TaintsTolerated(seed.Spec.Taints, req.Shoot.Spec.Tolerations) {
				return ""
			}
			return ReasonTaints
		},
		// What the tolerations decide, not what they are: the reason is the same for every shoot.
		appendKey: func(key []byte, req *Request) []byte {
			return req.classes.appendToleratedTaints(key, req.Shoot.Spec.Tolerations)
		},
	}
}

// nilMarked tells a nil string apart from every string a CIDR or name can be.
func nilMarked(s *string) string {
	if s == nil {
		return "\x00nil"
	}
	return *s
}

// Reasons of §2.10 as Gardener words them.
const (
	ReasonTaints   = "shoot does not tolerate the seed's taints"
	ReasonCapacity = "seed does not have available capacity for shoots"
)

// TaintsTolerated is Gardener's rule (spec §2.10b): every taint needs a toleration with its key, and with its value
// when the taint has one; a shoot with fewer tolerations than the seed has taints tolerates nothing. When a key is
// tolerated twice the last toleration counts.
func TaintsTolerated(taints []gardencorev1beta1.SeedTaint, tolerations []gardencorev1beta1.Toleration) bool {
	if len(taints) == 0 {
		return true
	}
	if len(taints) > len(tolerations) {
		return false
	}
	tolerated := make(map[string]string, len(tolerations))
	for _, t := range tolerations {
		tolerated[t.Key] = deref(t.Value)
	}
	for _, taint := range taints {
		value, ok := tolerated[taint.Key]
		if !ok || (taint.Value != nil && *taint.Value != value) {
			return false
		}
	}
	return true
}

// SeedReason is one entry of Gardener's §2.10 message.
type SeedReason struct{ Seed, Reason string }

// AppendCandidatesMessage appends to dst Gardener's error message when no seed passes §2.10: the number of seeds
// that entered the step and the reason of every seed that failed it, which must be sorted by seed name. It appends
// rather than returns a string so that a scheduler deciding many shoots can build each message in one buffer and
// keep only the distinct ones: a message can list every seed of the landscape.
func AppendCandidatesMessage(dst []byte, entering int, reasons []SeedReason) []byte {
	dst = append(dst, "0/"...)
	dst = strconv.AppendInt(dst, int64(entering), 10)
	dst = append(dst, " seed cluster candidate(s) are eligible for scheduling: {"...)
	for i, r := range reasons {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = append(dst, r.Seed...)
		dst = append(dst, " => "...)
		dst = append(dst, r.Reason...)
	}
	return append(dst, '}')
}
