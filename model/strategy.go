package model

import (
	"fmt"
	"math"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// DistanceSource says where a region distance comes from.
type DistanceSource string

const (
	// DistanceSameRegion is the distance 0 between a shoot and a seed in its own region under SameRegion.
	DistanceSameRegion DistanceSource = "same-region"
	// DistanceRegionConfig is a distance read from a region ConfigMap (spec §3.1).
	DistanceRegionConfig DistanceSource = "region-config"
	// DistanceLevenshtein is Gardener's name-similarity fallback (spec §3.2).
	DistanceLevenshtein DistanceSource = "levenshtein"
)

const (
	// levenshteinLimit is the fallback's initial minimum: larger distances are never chosen.
	levenshteinLimit = 1000
	// regionConfigLimit is the region-config rule's initial minimum: larger distances are never chosen.
	regionConfigLimit = math.MaxInt32
)

// ParseRegionDistances parses the value of one region key of a region ConfigMap: a YAML map from seed region to
// integer distance. The shoot's own region is added with distance 0 unless listed (spec §3.1).
func ParseRegionDistances(data, shootRegion string) (map[string]int, error) {
	if err := CheckBudget([]byte(data)); err != nil {
		return nil, err
	}
	distances := map[string]int{}
	if err := yaml.Unmarshal([]byte(data), &distances); err != nil {
		return nil, err
	}
	if _, ok := distances[shootRegion]; !ok {
		distances[shootRegion] = 0
	}
	return distances, nil
}

// parseRegionConfig returns the distances from the shoot's region, or nil when no region config applies or it
// has no entry for the region. A malformed entry is Gardener's hard error (no fallback), wrapping the parser's
// error once: MalformedRegionEntries unwraps it.
func parseRegionConfig(cm *corev1.ConfigMap, shootRegion string) (map[string]int, error) {
	if cm == nil || cm.Data[shootRegion] == "" {
		return nil, nil
	}
	distances, err := ParseRegionDistances(cm.Data[shootRegion], shootRegion)
	if err != nil {
		return nil, fmt.Errorf("failed to determine seed candidates. Wrong format in region ConfigMap %s/%s, Region %q: %w", cm.Namespace, cm.Name, shootRegion, err)
	}
	return distances, nil
}

func (r *Request) regionDistances() (map[string]int, error) { return r.distances, r.distancesErr }

// LevenshteinDistance is Gardener's fallback distance between a seed region and a shoot region (spec §3.2): twice
// the edit distance of the names with their first orientation word (north, south, east, west, central, in that
// priority) cut out, +1 when only one has an orientation, +2 when the orientations differ. Beyond what the
// fallback ever chooses, it is only some distance above levenshteinLimit (editDistance).
func LevenshteinDistance(seedRegion, shootRegion string) int {
	seedBase, seedOrientation := splitOrientation(seedRegion)
	shootBase, shootOrientation := splitOrientation(shootRegion)
	d := editDistance(seedBase, shootBase) * 2
	switch {
	case seedOrientation == shootOrientation:
		return d
	case seedOrientation == "" || shootOrientation == "":
		return d + 1
	default:
		return d + 2
	}
}

func splitOrientation(region string) (base, orientation string) {
	for _, o := range []string{"north", "south", "east", "west", "central"} {
		if before, after, ok := strings.Cut(region, o); ok {
			return before + ":" + after, o
		}
	}
	return region, ""
}

// fallbackDistance is the Levenshtein distance plus 2 for a seed of another provider type.
func (r *Request) fallbackDistance(seed *gardencorev1beta1.Seed) int {
	d := LevenshteinDistance(seed.Spec.Provider.Region, r.Shoot.Spec.Region)
	if seed.Spec.Provider.Type != r.Shoot.Spec.Provider.Type {
		d += 2
	}
	return d
}

// Distance is the region distance of placing the shoot on the seed and its source: the region ConfigMap's value
// when the seed's region is listed there, else Gardener's Levenshtein fallback. ok is false when no strategy
// could ever choose the seed for that distance. A malformed region ConfigMap entry is an error.
func (r *Request) Distance(seed *gardencorev1beta1.Seed) (distance int, source DistanceSource, ok bool, err error) {
	distances, err := r.regionDistances()
	if err != nil {
		return 0, "", false, err
	}
	if d, listed := distances[seed.Spec.Provider.Region]; listed && d <= regionConfigLimit {
		return d, DistanceRegionConfig, true, nil
	}
	d := r.fallbackDistance(seed)
	return d, DistanceLevenshtein, d <= levenshteinLimit, nil
}

// StrategyAdmits is the static part of the strategy (spec §3): whether the seed can ever be chosen for the shoot,
// whatever other seeds are available. testing shoots need the same provider type; SameRegion also the same
// region; MinimalDistance any seed with a usable distance. It returns the reason when not.
func (r *Request) StrategyAdmits(seed *gardencorev1beta1.Seed) (string, error) {
	admitted, err := r.admits(seed)
	if err != nil || admitted {
		return "", err
	}
	shoot := r.Shoot
	switch {
	case isTesting(shoot):
		return fmt.Sprintf("shoot purpose is testing: seed provider %q is not the shoot's %q", seed.Spec.Provider.Type, shoot.Spec.Provider.Type), nil
	case r.Options.Strategy == SameRegion:
		return fmt.Sprintf("strategy SameRegion: seed is %s in %s, shoot is %s in %s",
			seed.Spec.Provider.Type, seed.Spec.Provider.Region, shoot.Spec.Provider.Type, shoot.Spec.Region), nil
	}
	d, source, _, _ := r.Distance(seed)
	if source == DistanceLevenshtein && d > levenshteinLimit { // not computed further (editDistance)
		return fmt.Sprintf("strategy MinimalDistance: region distance more than %d is beyond what the scheduler ever chooses", levenshteinLimit), nil
	}
	return fmt.Sprintf("strategy MinimalDistance: region distance %d is beyond what the scheduler ever chooses", d), nil
}

// admits is the strategy's static rule (see StrategyAdmits), without wording a reason.
func (r *Request) admits(seed *gardencorev1beta1.Seed) (bool, error) {
	shoot := r.Shoot
	sameProvider := seed.Spec.Provider.Type == shoot.Spec.Provider.Type
	switch {
	case isTesting(shoot):
		return sameProvider, nil
	case r.Options.Strategy == SameRegion:
		return sameProvider && seed.Spec.Provider.Region == shoot.Spec.Region, nil
	case r.Options.Strategy == MinimalDistance:
		_, _, ok, err := r.Distance(seed)
		return ok, err
	}
	return false, fmt.Errorf("unknown strategy %q", r.Options.Strategy)
}

// PlacementDistance is the distance reported and optimised for a placement: 0 in the own region, else Distance.
func (r *Request) PlacementDistance(seed *gardencorev1beta1.Seed) (int, DistanceSource) {
	if seed.Spec.Provider.Region == r.Shoot.Spec.Region && seed.Spec.Provider.Type == r.Shoot.Spec.Provider.Type && r.Options.Strategy == SameRegion {
		return 0, DistanceSameRegion
	}
	d, source, _, err := r.Distance(seed)
	if err != nil {
		return LevenshteinDistance(seed.Spec.Provider.Region, r.Shoot.Spec.Region), DistanceLevenshtein
	}
	return d, source
}

// ApplyStrategy is the gardener-scheduler's applyStrategy on the seeds left after every filter and capacity (spec
// §3), keeping their order: the candidates among which the least utilised one is chosen. It fails with Gardener's
// message when no candidate is left. It is the literal transcription of Gardener's code; the solvers decide on
// the window's arcs instead, and a property test holds the two equal.
func (r *Request) ApplyStrategy(seeds []*gardencorev1beta1.Seed) ([]*gardencorev1beta1.Seed, error) {
	shoot := r.Shoot
	var candidates []*gardencorev1beta1.Seed
	switch {
	case isTesting(shoot):
		for _, seed := range seeds {
			if seed.Spec.Provider.Type == shoot.Spec.Provider.Type {
				candidates = append(candidates, seed)
			}
		}
	case r.Options.Strategy == SameRegion:
		for _, seed := range seeds {
			if seed.Spec.Provider.Type == shoot.Spec.Provider.Type && seed.Spec.Provider.Region == shoot.Spec.Region {
				candidates = append(candidates, seed)
			}
		}
	case r.Options.Strategy == MinimalDistance:
		distances, err := r.regionDistances()
		if err != nil {
			return nil, err
		}
		if distances != nil {
			candidates = minimalBy(seeds, regionConfigLimit, func(seed *gardencorev1beta1.Seed) (int, bool) {
				d, ok := distances[seed.Spec.Provider.Region]
				return d, ok
			})
		}
		if len(candidates) == 0 {
			candidates = minimalBy(seeds, levenshteinLimit, func(seed *gardencorev1beta1.Seed) (int, bool) {
				return r.fallbackDistance(seed), true
			})
		}
	default:
		return nil, fmt.Errorf("failed to determine seed candidates. shoot purpose: '%s', strategy: '%s', valid strategies are: [%s %s]",
			deref((*string)(shoot.Spec.Purpose)), r.Options.Strategy, SameRegion, MinimalDistance)
	}
	if candidates == nil {
		return nil, r.NoCandidateError()
	}
	return candidates, nil
}

// NoCandidateError is Gardener's error when the strategy leaves no candidate (spec §3).
func (r *Request) NoCandidateError() error {
	return fmt.Errorf("no matching seed candidate found for Configuration (Cloud Profile '%s', Region '%s', SeedDeterminationStrategy '%s')",
		cloudProfileNameForMessages(r.Shoot), r.Shoot.Spec.Region, r.Options.Strategy)
}

// minimalBy keeps all seeds at the minimal distance, scanning in order from an initial minimum exactly as the
// gardener-scheduler does (a distance equal to the initial minimum is kept when nothing is smaller).
func minimalBy(seeds []*gardencorev1beta1.Seed, initialMinimum int, distanceOf func(*gardencorev1beta1.Seed) (int, bool)) []*gardencorev1beta1.Seed {
	var candidates []*gardencorev1beta1.Seed
	minimum := initialMinimum
	for _, seed := range seeds {
		d, ok := distanceOf(seed)
		switch {
		case !ok:
		case d == minimum:
			candidates = append(candidates, seed)
		case d < minimum:
			minimum = d
			candidates = []*gardencorev1beta1.Seed{seed}
		}
	}
	return candidates
}

// IsTesting reports whether the shoot's purpose is testing, which overrides the strategy (spec §3).
func (r *Request) IsTesting() bool { return isTesting(r.Shoot) }

func isTesting(shoot *gardencorev1beta1.Shoot) bool {
	return shoot.Spec.Purpose != nil && *shoot.Spec.Purpose == gardencorev1beta1.ShootPurposeTesting
}
