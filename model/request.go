package model

import (
	"errors"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// Strategy is the gardener-scheduler's candidate determination strategy (spec §3).
type Strategy string

const (
	// SameRegion keeps seeds of the shoot's provider type in the shoot's region (Gardener's default).
	SameRegion Strategy = "SameRegion"
	// MinimalDistance keeps the seeds nearest to the shoot's region by region ConfigMap or name similarity.
	MinimalDistance Strategy = "MinimalDistance"
)

// ParseStrategy validates a strategy name.
func ParseStrategy(name string) (Strategy, error) {
	switch Strategy(name) {
	case SameRegion, MinimalDistance:
		return Strategy(name), nil
	}
	return "", errors.New("strategy must be SameRegion or MinimalDistance, not " + `"` + name + `"`)
}

// Options are the scheduling settings that change decisions.
type Options struct {
	// Strategy is the candidate determination strategy; empty means SameRegion.
	Strategy Strategy
	// SchedulerName is the spec.schedulerName handled; empty means default-scheduler.
	SchedulerName string
	// StrictNetworks additionally rejects seeds whose networks overlap the shoot's IPv4 networks, the rule that
	// Gardener's seed documentation describes but the scheduler no longer applies (spec §0.4). Off by default.
	StrictNetworks bool
}

// WithDefaults fills unset options with Gardener's defaults.
func (o Options) WithDefaults() Options {
	if o.Strategy == "" {
		o.Strategy = SameRegion
	}
	if o.SchedulerName == "" {
		o.SchedulerName = v1beta1constants.DefaultSchedulerName
	}
	return o
}

// Request is everything the filters and strategies need to know about one shoot: the shoot and the objects it
// references, resolved the way the gardener-scheduler resolves them at the start of DetermineSeed.
type Request struct {
	Shoot *gardencorev1beta1.Shoot
	// CloudProfileName is the name of the referenced CloudProfile or NamespacedCloudProfile: the name that
	// region ConfigMaps are matched against.
	CloudProfileName string
	// CloudProfile is the effective profile spec (for a NamespacedCloudProfile its status.cloudProfileSpec).
	CloudProfile *gardencorev1beta1.CloudProfileSpec
	// RegionConfig is the region ConfigMap that applies to the profile, or nil.
	RegionConfig *corev1.ConfigMap
	// ProjectName is the name of the shoot's project.
	ProjectName string
	Options     Options

	// distances are the parsed region-config distances from the shoot's region (nil: none apply);
	// distancesErr is Gardener's error for a malformed entry.
	distances    map[string]int
	distancesErr error
	// modeZones are the snapshot's zones of seeds with a zone selection mode.
	modeZones map[string]bool
	seeds     []*gardencorev1beta1.Seed
	classes   *seedClasses
	// keys are the keys of the chain's filters, in its order, then the strategy's, one after the other; keyEnds[i]
	// is where filter i's key ends, and signature is their hash (preparer.prepare).
	keys      string
	keyEnds   []int32
	signature uint64
}

// filterKey is the key of the chain's filter at the given depth.
func (r *Request) filterKey(depth int) string {
	start := int32(0)
	if depth > 0 {
		start = r.keyEnds[depth-1]
	}
	return r.keys[start:r.keyEnds[depth]]
}

// strategyKey is the key of the strategy (see appendStrategyKey).
func (r *Request) strategyKey() string { return r.keys[r.keyEnds[len(r.keyEnds)-1]:] }

// snapshotSeed is the snapshot's seed with the given index.
func (r *Request) snapshotSeed(i int) *gardencorev1beta1.Seed { return r.seeds[i] }

// NewRequest resolves the shoot's references in the snapshot. The errors are those the gardener-scheduler
// reports when a reference is missing.
func (s *Snapshot) NewRequest(shoot *gardencorev1beta1.Shoot, opts Options) (*Request, error) {
	req := &Request{Shoot: shoot, Options: opts.WithDefaults(), modeZones: s.modeZones, seeds: s.Seeds, classes: &s.classes}

	kind, name := cloudProfileReference(shoot)
	switch {
	case name == "":
		return nil, errors.New("could not determine cloudprofile from shoot")
	case kind == v1beta1constants.CloudProfileReferenceKindCloudProfile:
		profile, ok := s.cloudProfiles[name]
		if !ok {
			return nil, apierrors.NewNotFound(gardencorev1beta1.Resource("cloudprofiles"), name)
		}
		req.CloudProfile = &profile.Spec
	case kind == v1beta1constants.CloudProfileReferenceKindNamespacedCloudProfile:
		profile, ok := s.namespacedCloudProfiles[shoot.Namespace+"/"+name]
		if !ok {
			return nil, apierrors.NewNotFound(gardencorev1beta1.Resource("namespacedcloudprofiles"), name)
		}
		req.CloudProfile = &profile.Status.CloudProfileSpec
	default:
		return nil, errors.New(`unsupported cloud profile kind "` + kind + `" in spec.cloudProfile.kind`)
	}
	req.CloudProfileName = name
	req.RegionConfig = s.RegionConfig(name)
	if req.RegionConfig != nil {
		parsed := s.regionDistances[req.RegionConfig.Name][shoot.Spec.Region]
		req.distances, req.distancesErr = parsed.distances, parsed.err
	}

	project := s.Project(shoot.Namespace)
	if project == nil {
		return nil, apierrors.NewNotFound(gardencorev1beta1.Resource("Project"), "<unknown>")
	}
	req.ProjectName = project.Name
	return req, nil
}

// RegionConfig returns the first region ConfigMap whose annotation scheduling.gardener.cloud/cloudprofiles lists
// the profile name (spec §3.1), or nil.
func (s *Snapshot) RegionConfig(cloudProfileName string) *corev1.ConfigMap {
	if configMaps := s.regionConfigsByProfile[cloudProfileName]; len(configMaps) > 0 {
		return configMaps[0]
	}
	return nil
}

// cloudProfileReference returns the kind and name of the shoot's cloud profile: spec.cloudProfile wins over the
// legacy spec.cloudProfileName; an empty kind means CloudProfile.
func cloudProfileReference(shoot *gardencorev1beta1.Shoot) (kind, name string) {
	if ref := shoot.Spec.CloudProfile; ref != nil {
		kind = ref.Kind
		if kind == "" {
			kind = v1beta1constants.CloudProfileReferenceKindCloudProfile
		}
		return kind, ref.Name
	}
	return v1beta1constants.CloudProfileReferenceKindCloudProfile, deref(shoot.Spec.CloudProfileName)
}

// cloudProfileNameForMessages is the profile name the scheduler prints in its "no matching seed candidate" error.
func cloudProfileNameForMessages(shoot *gardencorev1beta1.Shoot) string {
	if shoot.Spec.CloudProfile != nil {
		return shoot.Spec.CloudProfile.Name
	}
	return deref(shoot.Spec.CloudProfileName)
}
