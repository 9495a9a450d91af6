// Package model holds seedplan's picture of a Gardener landscape and the exact scheduling semantics of the
// gardener-scheduler (v1.150): the snapshot, the filter chain, the strategies and the window of pending shoots.
// It does no I/O and is deterministic: the same snapshot always yields the same window.
package model

import (
	"cmp"
	"errors"
	"fmt"
	"hash/maphash"
	"maps"
	"math"
	"slices"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	seedmanagementv1alpha1 "github.com/gardener/gardener/pkg/apis/seedmanagement/v1alpha1"
	"gopkg.in/inf.v0"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

// Objects is a landscape as read from files or a cluster, before defaulting and indexing.
type Objects struct {
	Seeds                   []*gardencorev1beta1.Seed
	Shoots                  []*gardencorev1beta1.Shoot
	CloudProfiles           []*gardencorev1beta1.CloudProfile
	NamespacedCloudProfiles []*gardencorev1beta1.NamespacedCloudProfile
	Projects                []*gardencorev1beta1.Project
	// ConfigMaps may hold any ConfigMaps; only region configs (namespace garden, label
	// scheduling.gardener.cloud/purpose=region-config) are used, exactly as the gardener-scheduler's cache does.
	ConfigMaps []*corev1.ConfigMap
	// ManagedSeedSets, when present, tell capacity planning which sets its new seeds belong to.
	ManagedSeedSets []*seedmanagementv1alpha1.ManagedSeedSet
	// Defaulted says that every object was defaulted already (Defaulter): NewSnapshot leaves them as they are,
	// so that objects kept from one snapshot to the next are never written to.
	Defaulted bool
	// RegionConfigCache, when set, keeps the parsed region ConfigMap entries from one snapshot to the next.
	RegionConfigCache *RegionConfigCache
}

// Defaulter applies Gardener's own API defaulting, as the gardener-apiserver does.
type Defaulter struct {
	scheme *runtime.Scheme
}

// NewDefaulter returns a Defaulter.
func NewDefaulter() (*Defaulter, error) {
	scheme := runtime.NewScheme()
	if err := gardencorev1beta1.AddToScheme(scheme); err != nil {
		return nil, fmt.Errorf("registering Gardener core types: %w", err)
	}
	return &Defaulter{scheme: scheme}, nil
}

// Default defaults the object in place.
func (d *Defaulter) Default(obj runtime.Object) {
	shoot, isShoot := obj.(*gardencorev1beta1.Shoot)
	noWindow := isShoot && (shoot.Spec.Maintenance == nil || shoot.Spec.Maintenance.TimeWindow == nil)
	d.scheme.Default(obj)
	if noWindow && shoot.Spec.Maintenance != nil {
		// Gardener's defaulting draws a random maintenance window; the gardener-apiserver stores it once, but a
		// landscape from files would get a new one per run, and the same input must give the same plan. A shoot
		// without a window may be migrated at any time.
		shoot.Spec.Maintenance.TimeWindow = nil
	}
}

// Snapshot is a defaulted, indexed and immutable view of a landscape: what the gardener-scheduler's informer
// cache holds when it makes a decision. Lists are in the order of controller-runtime's cache listing in tests
// (namespace/name), which is also the tie-break order of seedplan's greedy decisions.
type Snapshot struct {
	// Seeds sorted by name.
	Seeds []*gardencorev1beta1.Seed
	// Shoots sorted by namespace/name: every Shoot, bound or not.
	Shoots []*gardencorev1beta1.Shoot
	// RegionConfigs are the region-config ConfigMaps in namespace garden, sorted by name.
	RegionConfigs []*corev1.ConfigMap
	// ManagedSeedSets sorted by namespace/name.
	ManagedSeedSets []*seedmanagementv1alpha1.ManagedSeedSet

	cloudProfiles           map[string]*gardencorev1beta1.CloudProfile
	namespacedCloudProfiles map[string]*gardencorev1beta1.NamespacedCloudProfile // key namespace/name
	projectsByNamespace     map[string]*gardencorev1beta1.Project
	seedIndex               map[string]int
	// taints are the taint effects of every seed, by index; a seed's whose annotation does not parse are none, and
	// it is in malformedTaintEffects, in the order of the seeds.
	taints                []SeedTaints
	malformedTaintEffects []MalformedTaintEffects
	// classes group the seeds by what filters read of them; see seedClasses.
	classes seedClasses
	usage   map[string]int
	// unboundOnStatusSeeds are the shoots usage counts on their status seed alone (seedUsage).
	unboundOnStatusSeeds []UnboundOnStatusSeed
	// modeZones are the zones of seeds with a zone selection mode: the only worker zones that can matter.
	modeZones map[string]bool
	// regionConfigsByProfile are the region ConfigMaps that name each cloud profile, by name: RegionConfig is the
	// first, the others are ProfilesOfSeveralRegionConfigs'.
	regionConfigsByProfile map[string][]*corev1.ConfigMap
	// regionDistances holds every region ConfigMap entry parsed once, by ConfigMap name and shoot region.
	regionDistances map[string]map[string]parsedRegion
	// signatureSeed hashes the keys of requests into their signatures (preparer.prepare), the same for every
	// evaluator of the snapshot.
	signatureSeed maphash.Seed
}

// parsedRegion is one parsed region ConfigMap entry, or Gardener's error for a malformed one, which wraps the
// parser's error (parseRegionConfig).
type parsedRegion struct {
	distances map[string]int
	err       error
}

// NewSnapshot defaults the objects with Gardener's own API defaulting (so a landscape means what it means to the
// gardener-apiserver) unless they are Defaulted, indexes them and counts every seed's usage. It takes ownership of
// the objects: they are defaulted in place and must not be changed afterwards. Duplicate objects are an error.
func NewSnapshot(objs Objects) (*Snapshot, error) {
	defaults := func(runtime.Object) {} // Defaulted: kept copies are never written to
	if !objs.Defaulted {
		defaulter, err := NewDefaulter()
		if err != nil {
			return nil, err
		}
		defaults = defaulter.Default
	}
	snap := &Snapshot{
		cloudProfiles:           map[string]*gardencorev1beta1.CloudProfile{},
		namespacedCloudProfiles: map[string]*gardencorev1beta1.NamespacedCloudProfile{},
		projectsByNamespace:     map[string]*gardencorev1beta1.Project{},
		seedIndex:               map[string]int{},
		signatureSeed:           maphash.MakeSeed(),
	}
	seen := newObjectSet(objs)
	for _, add := range []func(func(runtime.Object), objectSet, Objects) error{
		snap.addSeeds, snap.addShoots, snap.addCloudProfiles, snap.addProjects, snap.addRegionConfigs, snap.addManagedSeedSets,
	} {
		if err := add(defaults, seen, objs); err != nil {
			return nil, err
		}
	}
	snap.usage, snap.unboundOnStatusSeeds = seedUsage(snap.Shoots)
	return snap, nil
}

// objectSet remembers the objects of a landscape, so that a duplicate is an error.
type objectSet map[objectKey]bool

// objectKey names an object of a landscape.
type objectKey struct {
	kind, namespace, name string
}

// newObjectSet is an empty set with room for the objects.
func newObjectSet(objs Objects) objectSet {
	return make(objectSet, len(objs.Seeds)+len(objs.Shoots)+len(objs.CloudProfiles)+len(objs.NamespacedCloudProfiles)+
		len(objs.Projects)+len(objs.ConfigMaps)+len(objs.ManagedSeedSets))
}

// add records an object; it fails for one recorded before.
func (s objectSet) add(kind, namespace, name string) error {
	key := objectKey{kind: kind, namespace: namespace, name: name}
	if s[key] {
		return fmt.Errorf("%s %s: duplicate object", kind, objectName(namespace, name))
	}
	s[key] = true
	return nil
}

// addSeeds defaults and indexes the seeds, by name, with their taint effects and the zones that matter.
func (snap *Snapshot) addSeeds(defaults func(runtime.Object), seen objectSet, objs Objects) error {
	for _, seed := range objs.Seeds {
		if err := seen.add("Seed", "", seed.Name); err != nil {
			return err
		}
		defaults(seed)
		snap.Seeds = append(snap.Seeds, seed)
	}
	slices.SortFunc(snap.Seeds, func(a, b *gardencorev1beta1.Seed) int { return strings.Compare(a.Name, b.Name) })
	snap.modeZones = map[string]bool{}
	snap.taints = make([]SeedTaints, len(snap.Seeds))
	for i, seed := range snap.Seeds {
		snap.seedIndex[seed.Name] = i
		taints, err := ParseTaintEffects(seed)
		if err != nil {
			// Read as the gardener-scheduler reads the seed, which knows no such annotation: every taint of
			// spec.taints is NoSchedule. One seed's typo must not stop the planning of a whole garden.
			snap.malformedTaintEffects = append(snap.malformedTaintEffects, MalformedTaintEffects{Seed: seed.Name, Err: err})
		}
		snap.taints[i] = taints
		if zoneSelectionMode(seed) != "" {
			for _, z := range seed.Spec.Provider.Zones {
				snap.modeZones[z] = true
			}
		}
	}
	snap.classes = newSeedClasses(snap.Seeds, snap.taints)
	return nil
}

// addShoots defaults the shoots, on every processor (defaulting one object touches no other), and sorts them by
// namespace/name.
func (snap *Snapshot) addShoots(defaults func(runtime.Object), seen objectSet, objs Objects) error {
	for _, shoot := range objs.Shoots {
		if err := seen.add("Shoot", shoot.Namespace, shoot.Name); err != nil {
			return err
		}
		snap.Shoots = append(snap.Shoots, shoot)
	}
	OnEveryProcessor(len(snap.Shoots), func(i int) { defaults(snap.Shoots[i]) })
	slices.SortFunc(snap.Shoots, CompareShootKeys)
	return nil
}

// addCloudProfiles defaults and indexes the cloud profiles and the namespaced ones.
func (snap *Snapshot) addCloudProfiles(defaults func(runtime.Object), seen objectSet, objs Objects) error {
	for _, profile := range objs.CloudProfiles {
		if err := seen.add("CloudProfile", "", profile.Name); err != nil {
			return err
		}
		defaults(profile)
		snap.cloudProfiles[profile.Name] = profile
	}
	for _, profile := range objs.NamespacedCloudProfiles {
		if err := seen.add("NamespacedCloudProfile", profile.Namespace, profile.Name); err != nil {
			return err
		}
		defaults(profile)
		snap.namespacedCloudProfiles[profile.Namespace+"/"+profile.Name] = profile
	}
	return nil
}

// addProjects defaults the projects and indexes them by namespace.
func (snap *Snapshot) addProjects(defaults func(runtime.Object), seen objectSet, objs Objects) error {
	projects := make([]*gardencorev1beta1.Project, 0, len(objs.Projects))
	for _, project := range objs.Projects {
		if err := seen.add("Project", "", project.Name); err != nil {
			return err
		}
		defaults(project)
		projects = append(projects, project)
	}
	// The scheduler takes the first project listed for a namespace; the list is sorted by name.
	slices.SortFunc(projects, func(a, b *gardencorev1beta1.Project) int { return strings.Compare(a.Name, b.Name) })
	for _, project := range projects {
		if project.Spec.Namespace == nil {
			continue
		}
		if _, taken := snap.projectsByNamespace[*project.Spec.Namespace]; !taken {
			snap.projectsByNamespace[*project.Spec.Namespace] = project
		}
	}
	return nil
}

// addManagedSeedSets keeps the ManagedSeedSets.
func (snap *Snapshot) addManagedSeedSets(_ func(runtime.Object), seen objectSet, objs Objects) error {
	for _, set := range objs.ManagedSeedSets {
		if err := seen.add("ManagedSeedSet", set.Namespace, set.Name); err != nil {
			return err
		}
		snap.ManagedSeedSets = append(snap.ManagedSeedSets, set)
	}
	slices.SortFunc(snap.ManagedSeedSets, func(a, b *seedmanagementv1alpha1.ManagedSeedSet) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	return nil
}

// addRegionConfigs keeps the region-config ConfigMaps of namespace garden and parses every entry once.
func (snap *Snapshot) addRegionConfigs(_ func(runtime.Object), seen objectSet, objs Objects) error {
	for _, cm := range objs.ConfigMaps {
		if err := seen.add("ConfigMap", cm.Namespace, cm.Name); err != nil {
			return err
		}
		if cm.Namespace != v1beta1constants.GardenNamespace ||
			cm.Labels[v1beta1constants.SchedulingPurpose] != v1beta1constants.SchedulingPurposeRegionConfig {
			continue
		}
		snap.RegionConfigs = append(snap.RegionConfigs, cm)
	}
	slices.SortFunc(snap.RegionConfigs, func(a, b *corev1.ConfigMap) int { return strings.Compare(a.Name, b.Name) })
	snap.regionDistances = map[string]map[string]parsedRegion{}
	snap.regionConfigsByProfile = map[string][]*corev1.ConfigMap{}
	kept, read := objs.RegionConfigCache.take(), map[regionEntry]parsedRegion{}
	for _, cm := range snap.RegionConfigs {
		for name := range strings.SplitSeq(cm.Annotations[v1beta1constants.AnnotationSchedulingCloudProfiles], ",") {
			if name = strings.TrimSpace(name); !slices.Contains(snap.regionConfigsByProfile[name], cm) {
				snap.regionConfigsByProfile[name] = append(snap.regionConfigsByProfile[name], cm) // by name
			}
		}
		byRegion := map[string]parsedRegion{}
		for region, text := range cm.Data {
			entry := regionEntry{configMap: cm.Name, region: region, text: text}
			parsed, ok := kept[entry]
			if !ok {
				parsed.distances, parsed.err = parseRegionConfig(cm, region)
			}
			read[entry] = parsed
			byRegion[region] = parsed
		}
		snap.regionDistances[cm.Name] = byRegion
	}
	objs.RegionConfigCache.keep(read)
	return nil
}

// SeedUsage counts the shoots on each seed exactly as the gardener-scheduler does (spec §2.10c): every Shoot
// counts once for spec.seedName and once more for status.seedName when that differs (a migrating shoot).
// Deleting, hibernated and failed shoots count too; pending shoots count nowhere, but for one whose
// status.seedName names a seed (UnboundOnStatusSeed), which counts there.
func SeedUsage(shoots []*gardencorev1beta1.Shoot) map[string]int {
	usage, _ := seedUsage(shoots)
	return usage
}

// seedUsage is SeedUsage, and the shoots it counts on their status seed alone, which have no spec.seedName
// (UnboundOnStatusSeed), in the order of shoots: the snapshot finds them in the same pass over a garden's shoots.
func seedUsage(shoots []*gardencorev1beta1.Shoot) (usage map[string]int, unbound []UnboundOnStatusSeed) {
	usage = map[string]int{}
	for _, shoot := range shoots {
		specSeed, statusSeed := deref(shoot.Spec.SeedName), deref(shoot.Status.SeedName)
		if specSeed != "" {
			usage[specSeed]++
		}
		if statusSeed != "" && statusSeed != specSeed {
			usage[statusSeed]++
			if specSeed == "" {
				unbound = append(unbound, UnboundOnStatusSeed{Shoot: ShootKey(shoot), Seed: statusSeed})
			}
		}
	}
	return usage, unbound
}

// SeedsLeft are the seeds a shoot's change from before to after (nil: deleted) leaves, which it counted on
// (SeedUsage): room there that a shoot waiting for one may take.
func SeedsLeft(before, after *gardencorev1beta1.Shoot) []string {
	var left []string
	for _, seed := range []string{deref(before.Spec.SeedName), deref(before.Status.SeedName)} {
		if seed != "" && !slices.Contains(left, seed) &&
			(after == nil || seed != deref(after.Spec.SeedName) && seed != deref(after.Status.SeedName)) {
			left = append(left, seed)
		}
	}
	return left
}

// SamePlacementInput reports whether a shoot read before its binding and the shoot as it is now ask the same of
// placement (PlacementInput): what else may have changed — labels, annotations, the last operation a failure
// report writes — no predicate reads, so a decision made for the one stands for the other.
func SamePlacementInput(read, now *gardencorev1beta1.Shoot) bool {
	return equality.Semantic.DeepEqual(PlacementInput(read), PlacementInput(now))
}

// PlacementInput is what placement reads of a shoot, cloud profile, namespaced cloud profile, project or region
// config (the gardener-scheduler's fields read, §6), to compare two versions of one: a shoot's identity, whether
// it is being deleted, its spec and the networks its status records; a profile's seed selector (a namespaced
// one's as its status makes it of its parent's); a project's name and namespace; a region config's purpose, the
// profiles it names and its distances. What else changes — a profile's versions and machine images, a project's
// members, what controllers refresh in metadata and status — no predicate or strategy reads. Any other object is
// its own input.
func PlacementInput(obj any) any {
	switch o := obj.(type) {
	case *gardencorev1beta1.Shoot:
		return []any{o.UID, o.DeletionTimestamp != nil, o.Spec, o.Status.Networking}
	case *gardencorev1beta1.CloudProfile:
		return o.Spec.SeedSelector
	case *gardencorev1beta1.NamespacedCloudProfile:
		return o.Status.CloudProfileSpec.SeedSelector
	case *gardencorev1beta1.Project:
		return []any{o.Name, o.Spec.Namespace}
	case *corev1.ConfigMap:
		return []any{o.Namespace, o.Labels[v1beta1constants.SchedulingPurpose], o.Annotations[v1beta1constants.AnnotationSchedulingCloudProfiles], o.Data}
	}
	return obj
}

// Assume is the shoots with those that bound names (namespace/name → seed) bound there, when they show no seed
// yet: a binding in flight, or one a cache does not show yet, counts as made — as kube-scheduler assumes a pod on
// its node. The shoots given are not changed; an assumed one is a shallow copy.
func Assume(shoots []*gardencorev1beta1.Shoot, bound map[string]string) []*gardencorev1beta1.Shoot {
	if len(bound) == 0 {
		return shoots
	}
	out := slices.Clone(shoots)
	for i, shoot := range out {
		if seed, ok := bound[shoot.Namespace+"/"+shoot.Name]; ok && shoot.Spec.SeedName == nil {
			assumed := *shoot
			assumed.Spec.SeedName = &seed
			out[i] = &assumed
		}
	}
	return out
}

// Usage is the number of shoots the seed hosts now (see SeedUsage).
func (s *Snapshot) Usage(seedName string) int { return s.usage[seedName] }

// SeedsNotHeld counts, as Usage does, the shoots on each seed the snapshot does not hold (nil when there is none):
// files of some seeds but not all leave such shoots, which then count on no seed and move nowhere.
func (s *Snapshot) SeedsNotHeld() map[string]int {
	var missing map[string]int
	for name, n := range s.usage {
		if _, held := s.seedIndex[name]; !held {
			if missing == nil {
				missing = map[string]int{}
			}
			missing[name] = n
		}
	}
	return missing
}

// MalformedTaintEffects is a seed whose taint-effects annotation does not parse, and why: the snapshot reads the
// seed without it, as the gardener-scheduler does (every taint of spec.taints NoSchedule, no soft taint).
type MalformedTaintEffects struct {
	Seed string
	Err  error
}

// MalformedTaintEffects are the seeds whose taint-effects annotation does not parse, in the order of the seeds.
func (s *Snapshot) MalformedTaintEffects() []MalformedTaintEffects {
	return slices.Clone(s.malformedTaintEffects)
}

// MalformedRegionEntry is an entry of a region ConfigMap that Gardener cannot parse.
type MalformedRegionEntry struct {
	// ConfigMap is the ConfigMap's namespace/name, Region the entry's key.
	ConfigMap, Region string
	// Err is why the entry does not parse.
	Err error
}

// MalformedRegionEntries are the entries of the region ConfigMaps Gardener cannot parse, by ConfigMap and region.
// Nothing tells of one before a shoot of its region meets it: the MinimalDistance strategy then refuses every
// such shoot whose cloud profile the ConfigMap names.
func (s *Snapshot) MalformedRegionEntries() []MalformedRegionEntry {
	var entries []MalformedRegionEntry
	for _, cm := range s.RegionConfigs {
		byRegion := s.regionDistances[cm.Name]
		for _, region := range slices.Sorted(maps.Keys(byRegion)) {
			if err := byRegion[region].err; err != nil { // Gardener's words around the cause (parseRegionConfig)
				entries = append(entries, MalformedRegionEntry{ConfigMap: cm.Namespace + "/" + cm.Name, Region: region, Err: errors.Unwrap(err)})
			}
		}
	}
	return entries
}

// ProfilesOfSeveralRegionConfigs are the cloud profiles that more than one region ConfigMap names, each with the
// names of those ConfigMaps in order (the first is the one the snapshot uses; the gardener-scheduler uses
// whichever its cache lists first).
func (s *Snapshot) ProfilesOfSeveralRegionConfigs() map[string][]string {
	named := map[string][]string{}
	for profile, configMaps := range s.regionConfigsByProfile {
		if profile != "" && len(configMaps) > 1 {
			for _, cm := range configMaps {
				named[profile] = append(named[profile], cm.Name)
			}
		}
	}
	return named
}

// Seed returns the seed with the given name, or nil.
func (s *Snapshot) Seed(name string) *gardencorev1beta1.Seed {
	if i, ok := s.seedIndex[name]; ok {
		return s.Seeds[i]
	}
	return nil
}

// SeedIndex returns the position of the named seed in Seeds, or -1.
func (s *Snapshot) SeedIndex(name string) int {
	if i, ok := s.seedIndex[name]; ok {
		return i
	}
	return -1
}

// Shoot returns the shoot with the given namespace/name key, or nil.
func (s *Snapshot) Shoot(key string) *gardencorev1beta1.Shoot {
	namespace, name, ok := strings.Cut(key, "/")
	if !ok {
		return nil // every key has a namespace
	}
	i, found := slices.BinarySearchFunc(s.Shoots, key, func(shoot *gardencorev1beta1.Shoot, _ string) int {
		return compareJoined(shoot.Namespace, shoot.Name, namespace, name)
	})
	if !found {
		return nil
	}
	return s.Shoots[i]
}

// Allocatable returns how many shoots the seed's status.allocatable.shoots allows, as the gardener-scheduler reads
// it, and whether it is set; a seed without it has no limit. Gardener compares usage >= Quantity.Value(), which
// rounds a fraction up and wraps a number beyond int64; a negative number is read as 0, which admits no shoot
// either.
func Allocatable(seed *gardencorev1beta1.Seed) (int64, bool) {
	quantity, ok := seed.Status.Allocatable[gardencorev1beta1.ResourceShoots]
	if !ok {
		return 0, false
	}
	return max(quantity.Value(), 0), true
}

// WholeShoots reports whether an allocatable is read as written: a whole number of shoots from 0 to 2^63−1.
// AsInt64 alone refuses numbers of more than 18 digits however written, 2^63−1 among them, while it takes 9.2e18.
func WholeShoots(q resource.Quantity) bool {
	if q.Sign() < 0 {
		return false
	}
	if _, ok := q.AsInt64(); ok {
		return true
	}
	d := q.AsDec()
	return new(inf.Dec).Round(d, 0, inf.RoundDown).Cmp(d) == 0 && d.Cmp(inf.NewDec(math.MaxInt64, 0)) <= 0
}

// MalformedAllocatable is a seed whose status.allocatable.shoots is not a whole number of shoots from 0 to
// 2^63−1 (WholeShoots), and the number of shoots read from it (Allocatable).
type MalformedAllocatable struct {
	Seed    string
	Written resource.Quantity
	Read    int64
}

// MalformedAllocatables are the seeds whose allocatable is not read as written, in the order of the seeds: a
// garden's seed status is not validated, and the plan then counts with Gardener's reading of it.
func (s *Snapshot) MalformedAllocatables() []MalformedAllocatable {
	var malformed []MalformedAllocatable
	for _, seed := range s.Seeds {
		if !allocatableAsWritten(seed) {
			read, _ := Allocatable(seed)
			malformed = append(malformed, MalformedAllocatable{Seed: seed.Name, Written: seed.Status.Allocatable[gardencorev1beta1.ResourceShoots], Read: read})
		}
	}
	return malformed
}

// UnboundOnStatusSeed is a shoot without spec.seedName whose status.seedName names a seed. A garden cannot hold
// one — the gardener-apiserver refuses to unset spec.seedName, and a gardenlet writes status.seedName only after
// it is set — but a landscape's files can. It counts on that seed as the gardener-scheduler counts it (SeedUsage);
// placed there, seedplan counts it once more, where the gardener-scheduler's count stays as it was.
type UnboundOnStatusSeed struct {
	// Shoot is namespace/name.
	Shoot, Seed string
}

// UnboundOnStatusSeeds are the landscape's shoots without spec.seedName and with a status.seedName, in the order
// of the snapshot's shoots.
func (s *Snapshot) UnboundOnStatusSeeds() []UnboundOnStatusSeed {
	return slices.Clone(s.unboundOnStatusSeeds)
}

// allocatableAsWritten reports whether the seed's allocatable, if it has one, is read as written (WholeShoots).
func allocatableAsWritten(seed *gardencorev1beta1.Seed) bool {
	q, ok := seed.Status.Allocatable[gardencorev1beta1.ResourceShoots]
	return !ok || WholeShoots(q)
}

// Project returns the project whose spec.namespace is the given namespace, or nil.
func (s *Snapshot) Project(namespace string) *gardencorev1beta1.Project {
	return s.projectsByNamespace[namespace]
}

// IsPending reports whether the gardener-scheduler (configured with schedulerName) would pick the shoot up
// (spec §1): no seed assigned, handled by this scheduler, not self-hosted and not being deleted.
func IsPending(shoot *gardencorev1beta1.Shoot, schedulerName string) bool {
	return WhyNotPending(shoot, schedulerName) == ""
}

// NotPending is why a scheduler does not place a shoot.
type NotPending string

// The reasons a shoot is not pending for a scheduler, in the order they are checked.
const (
	NotPendingBound          NotPending = "Bound"
	NotPendingDeleting       NotPending = "Deleting"
	NotPendingOtherScheduler NotPending = "OtherScheduler"
	NotPendingSelfHosted     NotPending = "SelfHosted"
)

// WhyNotPending is the one reason the scheduler named schedulerName does not place the shoot, "" when it does:
// it has a seed, is being deleted, names another scheduler, or hosts its own control plane.
func WhyNotPending(shoot *gardencorev1beta1.Shoot, schedulerName string) NotPending {
	switch {
	case shoot.Spec.SeedName != nil:
		return NotPendingBound
	case shoot.DeletionTimestamp != nil:
		return NotPendingDeleting
	case SchedulerName(shoot) != schedulerName:
		return NotPendingOtherScheduler
	case hostsOwnControlPlane(shoot):
		return NotPendingSelfHosted
	}
	return ""
}

// PendingForOthers counts, by spec.schedulerName, the shoots other schedulers than schedulerName would place:
// what an operator who finds nothing pending for seedplan wants to know.
func (s *Snapshot) PendingForOthers(schedulerName string) map[string]int {
	others := map[string]int{}
	for _, shoot := range s.Shoots {
		if name := SchedulerName(shoot); name != schedulerName && IsPending(shoot, name) {
			others[name]++
		}
	}
	return others
}

// hostsOwnControlPlane reports a self-hosted shoot (a worker pool runs its control plane): no scheduler places it.
func hostsOwnControlPlane(shoot *gardencorev1beta1.Shoot) bool {
	return slices.ContainsFunc(shoot.Spec.Provider.Workers, func(w gardencorev1beta1.Worker) bool { return w.ControlPlane != nil })
}

// Pending returns the shoots the scheduler named schedulerName would place, in scheduling order:
// creationTimestamp, then namespace/name.
func (s *Snapshot) Pending(schedulerName string) []*gardencorev1beta1.Shoot {
	var pending []*gardencorev1beta1.Shoot
	for _, shoot := range s.Shoots {
		if IsPending(shoot, schedulerName) {
			pending = append(pending, shoot)
		}
	}
	slices.SortStableFunc(pending, func(a, b *gardencorev1beta1.Shoot) int {
		return cmp.Or(a.CreationTimestamp.Time.Compare(b.CreationTimestamp.Time), CompareShootKeys(a, b))
	})
	return pending
}

// SchedulerName is the shoot's spec.schedulerName, defaulted as Gardener does.
func SchedulerName(shoot *gardencorev1beta1.Shoot) string {
	if name := deref(shoot.Spec.SchedulerName); name != "" {
		return name
	}
	return v1beta1constants.DefaultSchedulerName
}

// ShootKey is the namespace/name of a shoot, the way every output of seedplan names it.
func ShootKey(shoot *gardencorev1beta1.Shoot) string { return shoot.Namespace + "/" + shoot.Name }

// CheckShootKey refuses a shoot an operator names other than as a ShootKey, NAMESPACE/NAME, both non-empty.
func CheckShootKey(key string) error {
	namespace, name, ok := strings.Cut(key, "/")
	if !ok || namespace == "" || name == "" || strings.Contains(name, "/") {
		return fmt.Errorf("%q: the shoot must be given as NAMESPACE/NAME", key)
	}
	return nil
}

// CompareShootKeys orders shoots as their ShootKeys order, without making the keys.
func CompareShootKeys(a, b *gardencorev1beta1.Shoot) int {
	return compareJoined(a.Namespace, a.Name, b.Namespace, b.Name)
}

// compareJoined compares a1 + "/" + a2 with b1 + "/" + b2 without joining them.
func compareJoined(a1, a2, b1, b2 string) int {
	if a1 == b1 {
		return strings.Compare(a2, b2)
	}
	if !strings.HasPrefix(a1, b1) && !strings.HasPrefix(b1, a1) {
		return strings.Compare(a1, b1) // they differ within both
	}
	// One namespace starts the other: the slash and the name take part.
	at := func(first, second string, i int) int {
		switch {
		case i < len(first):
			return int(first[i])
		case i == len(first):
			return '/'
		case i-len(first)-1 < len(second):
			return int(second[i-len(first)-1])
		}
		return -1
	}
	for i := 0; ; i++ {
		ca, cb := at(a1, a2, i), at(b1, b2, i)
		if ca != cb || ca < 0 {
			return cmp.Compare(ca, cb)
		}
	}
}

func objectName(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
