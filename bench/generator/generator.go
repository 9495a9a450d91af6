// Package generator builds synthetic Gardener landscapes: seeds in real provider regions with zones,
// capacities, taints, labels, access restrictions and zone selection modes; projects, cloud profiles and the real
// region-distance ConfigMaps; pending and already bound shoots with a realistic mix of purposes, selectors,
// tolerations, zone-HA, explicit control-plane zones, DNS domains and IPv6. The same Config and Seed always give
// the same landscape.
package generator

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/seedplan/seedplan/examples"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
)

// Config says what landscape to build.
type Config struct {
	// Seeds is the number of seeds.
	Seeds int
	// Shoots is the number of pending shoots.
	Shoots int
	// Existing is the number of shoots already bound to seeds.
	Existing int
	// Contention is pending demand divided by free capacity; 0 gives every seed ample room. Seeds without
	// allocatable (unlimited) are only generated when Contention is 0.
	Contention float64
	// Seed makes the landscape reproducible.
	Seed uint64
	// Providers to use; empty means aws, gcp, azure, openstack and alicloud.
	Providers []string
	// Mix sets how often each scheduling feature appears.
	Mix Mix
	// Start is the creationTimestamp of the first pending shoot; the others follow one second apart.
	Start time.Time
}

// Mix holds probabilities (0–1) of the scheduling features on seeds and shoots.
type Mix struct {
	UnusableSeed, ProtectedSeed, TaintedSeed, AccessRestrictedSeed, PreferZonesSeed, EnforceZonesSeed,
	EmergencyStopSeed, DeprecatedSeed, BackupSeed, TwoZoneSeed float64
	ZonalShoot, ControlPlaneZonesShoot, TestingShoot, SelectorShoot, TolerationShoot, AccessRestrictedShoot,
	IPv6Shoot, DNSDomainShoot, ReservedRangeShoot, GardenNamespaceShoot, NamespacedProfileShoot,
	RegionWithoutSeedShoot, WorkerlessShoot, MigratingShoot float64
	// MissingProfileShoot is the share of shoots whose cloud profile the landscape lacks, as files of some
	// objects but not all leave them: every seed is rejected for them, by the reference.
	MissingProfileShoot float64
	// CrossProvider lets the aws cloud profile admit seeds of every provider (providerTypes: ["*"]).
	CrossProvider bool
	// Distinct gives every pending shoot scheduling input of its own that changes no outcome: a seed selector
	// expression and a toleration that only it has, for a label and a taint no seed has. The landscape is
	// otherwise the one without it, and so is every plan.
	Distinct bool
}

// RealisticMix is the feature mix of the example landscape: most shoots plain, every feature present.
func RealisticMix() Mix {
	return Mix{
		UnusableSeed: 0.04, ProtectedSeed: 0.08, TaintedSeed: 0.08, AccessRestrictedSeed: 0.1, PreferZonesSeed: 0.1,
		EnforceZonesSeed: 0.05, EmergencyStopSeed: 0.02, DeprecatedSeed: 0.04, BackupSeed: 0.7, TwoZoneSeed: 0.1,
		ZonalShoot: 0.15, ControlPlaneZonesShoot: 0.03, TestingShoot: 0.08, SelectorShoot: 0.1, TolerationShoot: 0.06,
		AccessRestrictedShoot: 0.05, IPv6Shoot: 0.04, DNSDomainShoot: 0.05, ReservedRangeShoot: 0.005,
		GardenNamespaceShoot: 0.03, NamespacedProfileShoot: 0.05, RegionWithoutSeedShoot: 0.05, WorkerlessShoot: 0.03,
		MigratingShoot: 0.02,
	}
}

// StressMix exercises every predicate often: for conformance and property tests.
func StressMix() Mix {
	return Mix{
		UnusableSeed: 0.15, ProtectedSeed: 0.15, TaintedSeed: 0.2, AccessRestrictedSeed: 0.25, PreferZonesSeed: 0.25,
		EnforceZonesSeed: 0.2, EmergencyStopSeed: 0.08, DeprecatedSeed: 0.1, BackupSeed: 0.5, TwoZoneSeed: 0.25,
		ZonalShoot: 0.3, ControlPlaneZonesShoot: 0.1, TestingShoot: 0.15, SelectorShoot: 0.25, TolerationShoot: 0.3,
		AccessRestrictedShoot: 0.15, IPv6Shoot: 0.15, DNSDomainShoot: 0.15, ReservedRangeShoot: 0.03,
		GardenNamespaceShoot: 0.1, NamespacedProfileShoot: 0.15, RegionWithoutSeedShoot: 0.15, WorkerlessShoot: 0.08,
		MigratingShoot: 0.05, MissingProfileShoot: 0.03, CrossProvider: true,
	}
}

// providerRegions are real regions per provider, most important first (shared/spec/regions.md).
var providerRegions = map[string][]string{
	"aws":       {"eu-central-1", "eu-west-1", "us-east-1", "us-west-2", "ap-southeast-1", "ap-northeast-1", "eu-north-1", "eu-west-2", "us-east-2", "ap-south-1", "sa-east-1", "ca-central-1"},
	"gcp":       {"europe-west1", "europe-west3", "us-central1", "us-east1", "asia-southeast1", "asia-northeast1", "europe-west4", "europe-north1", "us-west1", "asia-south1", "southamerica-east1", "australia-southeast1"},
	"azure":     {"westeurope", "northeurope", "eastus", "westus2", "southeastasia", "japaneast", "germanywestcentral", "uksouth", "eastus2", "centralindia", "brazilsouth", "australiaeast"},
	"openstack": {"eu-de-1", "eu-de-2", "eu-nl-1", "eu-fr-1"},
	"alicloud":  {"eu-central-1", "cn-hongkong", "ap-southeast-1", "us-east-1", "ap-northeast-1", "me-east-1"},
}

// continents of the regions the generator uses: Europe, North America, South America, Asia, Oceania, Middle East.
var continents = map[string]string{
	// aws and alicloud
	"eu-central-1": "EU", "eu-west-1": "EU", "eu-north-1": "EU", "eu-west-2": "EU", "us-east-1": "NA", "us-west-2": "NA",
	"us-east-2": "NA", "ca-central-1": "NA", "sa-east-1": "SA", "ap-southeast-1": "AS", "ap-northeast-1": "AS",
	"ap-south-1": "AS", "cn-hongkong": "AS", "me-east-1": "ME",
	// gcp
	"europe-west1": "EU", "europe-west3": "EU", "europe-west4": "EU", "europe-north1": "EU", "us-central1": "NA",
	"us-east1": "NA", "us-west1": "NA", "asia-southeast1": "AS", "asia-northeast1": "AS", "asia-south1": "AS",
	"southamerica-east1": "SA", "australia-southeast1": "OC",
	// azure
	"westeurope": "EU", "northeurope": "EU", "germanywestcentral": "EU", "uksouth": "EU", "eastus": "NA",
	"westus2": "NA", "eastus2": "NA", "southeastasia": "AS", "japaneast": "AS", "centralindia": "AS",
	"brazilsouth": "SA", "australiaeast": "OC",
	// openstack
	"eu-de-1": "EU", "eu-de-2": "EU", "eu-nl-1": "EU", "eu-fr-1": "EU",
}

// Continent returns the continent of a region the generator uses ("EU", "NA", "SA", "AS", "OC", "ME"), or "".
func Continent(region string) string { return continents[region] }

// DefaultProviders are the providers of a landscape when Config.Providers is empty.
func DefaultProviders() []string { return []string{"aws", "gcp", "azure", "openstack", "alicloud"} }

// zonesOf returns the zone names of a region in the provider's convention.
func zonesOf(provider, region string, n int) []string {
	zones := make([]string, n)
	for i := range zones {
		letter := string(rune('a' + i))
		switch provider {
		case "azure":
			zones[i] = fmt.Sprint(i + 1)
		case "gcp", "alicloud":
			zones[i] = region + "-" + letter
		default:
			zones[i] = region + letter
		}
	}
	return zones
}

const (
	accessRestrictionEU    = "eu-access-only"
	taintDedicated         = "seed.gardener.cloud/dedicated"
	labelDeprecated        = "seed.gardener.cloud/deprecated"
	labelEnvironment       = "environment"
	namespacedProfileAWS   = "aws-custom"
	namespacedProfileOwner = "garden-platform"
)

type seedInfo struct {
	provider, region string
}

// projectNames are the projects of a landscape; "garden" owns the garden namespace.
var projectNames = []string{"garden", "platform", "payments", "search", "ml", "web", "iot", "data", "ops", "mobile", "retail", "edge"}

// Generate builds the landscape.
func Generate(cfg Config) (model.Objects, error) {
	g, err := newGeneration(cfg)
	if err != nil {
		return model.Objects{}, err
	}
	regionConfigs, err := regionConfigMaps()
	if err != nil {
		return model.Objects{}, err
	}
	objs := model.Objects{ConfigMaps: regionConfigs, Projects: projects()}
	objs.CloudProfiles, objs.NamespacedCloudProfiles = g.cloudProfiles()
	seeds := g.seeds()
	bound, usage := g.boundShoots(seeds)
	objs.Seeds = g.withCapacity(seeds, usage)
	objs.Shoots = append(bound, g.pendingShoots()...)
	return objs, nil
}

// generation is one run of Generate. Its random source is drawn from in one fixed order — seeds, bound shoots,
// capacities, pending shoots, each field in turn — which is what makes a Config's landscape always the same.
type generation struct {
	cfg       Config
	mix       Mix
	providers []string
	rng       *rand.Rand
	// seedRegions are the provider regions seeds are spread over, in turn.
	seedRegions []seedInfo
}

// ConfigError is an invalid field of a Config, named as seedplan generate's flag for it is (seeds, shoots,
// existing, contention, providers).
type ConfigError struct {
	Field   string
	Value   any
	Problem string
}

// Error is the field, its value and what is wrong with it.
func (e *ConfigError) Error() string {
	return fmt.Sprintf("generator: %s %v: %s", e.Field, e.Value, e.Problem)
}

// MaxSeeds and MaxShoots bound a landscape. They lie far above any garden yet keep a generated landscape within
// a minute and a few GiB of memory; past them a typo such as an extra zero would run until memory ran out.
const (
	MaxSeeds = 10_000
	// MaxShoots bounds the pending and the existing shoots together.
	MaxShoots = 1_000_000
)

// newGeneration checks the configuration and fills in its defaults.
func newGeneration(cfg Config) (*generation, error) {
	switch {
	case cfg.Seeds < 1:
		return nil, &ConfigError{"seeds", cfg.Seeds, "must be at least 1"}
	case cfg.Seeds > MaxSeeds:
		return nil, &ConfigError{"seeds", cfg.Seeds, fmt.Sprintf("must be at most %d", MaxSeeds)}
	case cfg.Shoots < 0:
		return nil, &ConfigError{"shoots", cfg.Shoots, "must not be negative"}
	case cfg.Shoots > MaxShoots:
		return nil, &ConfigError{"shoots", cfg.Shoots, fmt.Sprintf("must be at most %d", MaxShoots)}
	case cfg.Existing < 0:
		return nil, &ConfigError{"existing", cfg.Existing, "must not be negative"}
	case cfg.Existing > MaxShoots-cfg.Shoots:
		return nil, &ConfigError{"existing", cfg.Existing, fmt.Sprintf("with %d pending shoots, must be at most %d (%d shoots in all)", cfg.Shoots, MaxShoots-cfg.Shoots, MaxShoots)}
	case !(cfg.Contention >= 0) || math.IsInf(cfg.Contention, 0):
		return nil, &ConfigError{"contention", cfg.Contention, "must be a finite number, at least 0"}
	}
	providers := cfg.Providers
	if len(providers) == 0 {
		providers = DefaultProviders()
	}
	for _, p := range providers {
		if _, ok := providerRegions[p]; !ok {
			return nil, &ConfigError{"providers", p, "unknown provider (known: " + strings.Join(DefaultProviders(), ", ") + ")"}
		}
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	}
	g := &generation{cfg: cfg, mix: cfg.Mix, providers: providers, rng: rand.New(rand.NewPCG(cfg.Seed, 0x5eed91a4))}
	// Seeds are spread over each provider's first regions, several per region.
	for _, p := range providers {
		regions := providerRegions[p]
		n := max(1, min(len(regions), int(math.Ceil(float64(cfg.Seeds)/float64(len(providers))/3))))
		for _, r := range regions[:n] {
			g.seedRegions = append(g.seedRegions, seedInfo{p, r})
		}
	}
	return g, nil
}

// chance reports true with probability p; a feature that never appears draws nothing.
func (g *generation) chance(p float64) bool {
	return p > 0 && g.rng.Float64() < p
}

// cloudProfiles are one per provider, named like the provider so that the upstream region ConfigMaps apply, and
// aws's namespaced profile.
func (g *generation) cloudProfiles() ([]*gardencorev1beta1.CloudProfile, []*gardencorev1beta1.NamespacedCloudProfile) {
	var profiles []*gardencorev1beta1.CloudProfile
	var namespaced []*gardencorev1beta1.NamespacedCloudProfile
	for _, p := range g.providers {
		profile := &gardencorev1beta1.CloudProfile{
			TypeMeta:   metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "CloudProfile"},
			ObjectMeta: metav1.ObjectMeta{Name: p},
			Spec: gardencorev1beta1.CloudProfileSpec{
				Type:       p,
				Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.33.4"}, {Version: "1.34.2"}}},
				MachineTypes: []gardencorev1beta1.MachineType{{
					Name: "m5.large", CPU: resource.MustParse("2"), Memory: resource.MustParse("8Gi"), GPU: resource.MustParse("0"),
				}},
				SeedSelector: &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{
					MatchExpressions: []metav1.LabelSelectorRequirement{{Key: labelDeprecated, Operator: metav1.LabelSelectorOpDoesNotExist}},
				}},
			},
		}
		for _, r := range providerRegions[p] {
			profile.Spec.Regions = append(profile.Spec.Regions, gardencorev1beta1.Region{Name: r})
		}
		if p == "aws" && g.mix.CrossProvider {
			profile.Spec.SeedSelector.ProviderTypes = []string{"*"}
		}
		profiles = append(profiles, profile)
		if p == "aws" {
			namespaced = append(namespaced, &gardencorev1beta1.NamespacedCloudProfile{
				TypeMeta:   metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "NamespacedCloudProfile"},
				ObjectMeta: metav1.ObjectMeta{Name: namespacedProfileAWS, Namespace: namespacedProfileOwner},
				Spec:       gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"}},
				Status:     gardencorev1beta1.NamespacedCloudProfileStatus{CloudProfileSpec: *profile.Spec.DeepCopy()},
			})
		}
	}
	return profiles, namespaced
}

// projects are the projects of projectNames, each with its namespace.
func projects() []*gardencorev1beta1.Project {
	var projects []*gardencorev1beta1.Project
	for _, name := range projectNames {
		projects = append(projects, &gardencorev1beta1.Project{
			TypeMeta:   metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "Project"},
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:       gardencorev1beta1.ProjectSpec{Namespace: new(projectNamespace(name))},
		})
	}
	return projects
}

// projectNamespace is the namespace of the project name.
func projectNamespace(name string) string {
	if name == "garden" {
		return v1beta1constants.GardenNamespace
	}
	return "garden-" + name
}

// generatedSeed is a seed, where it is, and its share of the free capacity (withCapacity).
type generatedSeed struct {
	seed   *gardencorev1beta1.Seed
	info   seedInfo
	weight float64
}

// seeds are the configured number of seeds, spread over the seed regions in turn, without capacities yet.
func (g *generation) seeds() []generatedSeed {
	seedsPerRegion := map[seedInfo]int{}
	var seeds []generatedSeed
	for i := range g.cfg.Seeds {
		info := g.seedRegions[i%len(g.seedRegions)]
		seedsPerRegion[info]++
		seed := g.seed(fmt.Sprintf("%s-%s-%d", info.provider, info.region, seedsPerRegion[info]), info)
		g.varySeed(seed, info)
		seeds = append(seeds, generatedSeed{seed: seed, info: info, weight: 0.5 + g.rng.Float64()})
	}
	return seeds
}

// seed is a ready, visible seed in the region of info, with its zones, DNS, ingress and networks.
func (g *generation) seed(name string, info seedInfo) *gardencorev1beta1.Seed {
	zoneCount := 3
	if g.chance(g.mix.TwoZoneSeed) {
		zoneCount = 2
	}
	environment := []string{"prod", "prod", "prod", "prod", "prod", "staging"}[g.rng.IntN(6)]
	domain := fmt.Sprintf("%s.%s.seeds.example.com", info.region, info.provider)
	return &gardencorev1beta1.Seed{
		TypeMeta: metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "Seed"},
		ObjectMeta: metav1.ObjectMeta{
			Name:   name,
			Labels: map[string]string{labelEnvironment: environment, "seed.gardener.cloud/region": info.region},
		},
		Spec: gardencorev1beta1.SeedSpec{
			Provider: gardencorev1beta1.SeedProvider{Type: info.provider, Region: info.region, Zones: zonesOf(info.provider, info.region, zoneCount)},
			DNS: gardencorev1beta1.SeedDNS{
				Internal: &gardencorev1beta1.SeedDNSProviderConfig{Type: "aws-route53", Domain: "internal." + domain, CredentialsRef: corev1.ObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: "garden", Name: "internal-domain"}},
				Defaults: []gardencorev1beta1.SeedDNSProviderConfig{{Type: "aws-route53", Domain: domain, CredentialsRef: corev1.ObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: "garden", Name: "default-domain"}}},
			},
			Ingress: &gardencorev1beta1.Ingress{Domain: "ingress." + domain, Controller: gardencorev1beta1.IngressController{Kind: "nginx"}},
			Networks: gardencorev1beta1.SeedNetworks{
				Nodes:    new("10.250.0.0/16"),
				Pods:     "100.64.0.0/12",
				Services: "100.96.0.0/13",
			},
			Settings: &gardencorev1beta1.SeedSettings{Scheduling: &gardencorev1beta1.SeedSettingScheduling{Visible: true}},
		},
		Status: gardencorev1beta1.SeedStatus{
			LastOperation: &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeReconcile, State: gardencorev1beta1.LastOperationStateSucceeded, Progress: 100, LastUpdateTime: metav1.NewTime(g.cfg.Start.Add(-time.Hour))},
			Conditions:    []gardencorev1beta1.Condition{g.condition(gardencorev1beta1.GardenletReady, gardencorev1beta1.ConditionTrue, "GardenletReady")},
		},
	}
}

// condition is a seed's condition, true or not for a day and updated a minute before the start.
func (g *generation) condition(typ gardencorev1beta1.ConditionType, status gardencorev1beta1.ConditionStatus, reason string) gardencorev1beta1.Condition {
	return gardencorev1beta1.Condition{Type: typ, Status: status, Reason: reason, LastTransitionTime: metav1.NewTime(g.cfg.Start.Add(-24 * time.Hour)), LastUpdateTime: metav1.NewTime(g.cfg.Start.Add(-time.Minute))}
}

// varySeed gives the seed the features of the mix that it draws: shoot networks, a backup, unusability, taints,
// access restrictions, zone selection, an emergency stop, deprecation.
func (g *generation) varySeed(seed *gardencorev1beta1.Seed, info seedInfo) {
	if g.rng.IntN(3) == 0 {
		// An IPv6-capable seed network layout some landscapes use.
		seed.Spec.Networks.ShootDefaults = &gardencorev1beta1.ShootNetworks{Pods: new("100.96.0.0/11"), Services: new("100.64.0.0/13")}
	}
	if g.chance(g.mix.BackupSeed) {
		seed.Spec.Backup = &gardencorev1beta1.Backup{Provider: info.provider, CredentialsRef: &corev1.ObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: "garden", Name: "backup-" + info.provider}}
		status := gardencorev1beta1.ConditionTrue
		if g.chance(g.mix.UnusableSeed / 2) {
			status = gardencorev1beta1.ConditionFalse
		}
		seed.Status.Conditions = append(seed.Status.Conditions, g.condition(gardencorev1beta1.SeedBackupBucketsReady, status, "BackupBuckets"))
	}
	if g.chance(g.mix.UnusableSeed) {
		switch g.rng.IntN(3) {
		case 0:
			seed.Status.Conditions[0].Status = gardencorev1beta1.ConditionFalse
			seed.Status.Conditions[0].Reason = "GardenletNotReady"
		case 1:
			seed.Spec.Settings.Scheduling.Visible = false
		default:
			seed.Status.LastOperation = nil
		}
	}
	if g.chance(g.mix.ProtectedSeed) {
		seed.Spec.Taints = append(seed.Spec.Taints, gardencorev1beta1.SeedTaint{Key: gardencorev1beta1.SeedTaintProtected})
	}
	if g.chance(g.mix.TaintedSeed) {
		seed.Spec.Taints = append(seed.Spec.Taints, gardencorev1beta1.SeedTaint{Key: taintDedicated, Value: new([]string{"ml", "payments"}[g.rng.IntN(2)])})
	}
	if g.chance(g.mix.AccessRestrictedSeed) {
		seed.Spec.AccessRestrictions = []gardencorev1beta1.AccessRestriction{{Name: accessRestrictionEU}}
	}
	switch {
	case g.chance(g.mix.PreferZonesSeed):
		seed.Spec.Settings.ZoneSelection = &gardencorev1beta1.SeedSettingZoneSelection{Mode: gardencorev1beta1.ZoneSelectionModePrefer}
	case g.chance(g.mix.EnforceZonesSeed):
		seed.Spec.Settings.ZoneSelection = &gardencorev1beta1.SeedSettingZoneSelection{Mode: gardencorev1beta1.ZoneSelectionModeEnforce}
	}
	if g.chance(g.mix.EmergencyStopSeed) {
		seed.Annotations = map[string]string{v1beta1constants.AnnotationEmergencyStopShootReconciliations: "true"}
	}
	if g.chance(g.mix.DeprecatedSeed) {
		seed.Labels[labelDeprecated] = "true"
	}
}

// boundShoots are the configured number of existing shoots, each bound to a seed of its provider (any seed where
// there is none), a few migrating from another; and how many shoots each seed hosts.
func (g *generation) boundShoots(seeds []generatedSeed) ([]*gardencorev1beta1.Shoot, map[string]int) {
	var shoots []*gardencorev1beta1.Shoot
	usage := map[string]int{}
	byProvider := map[string][]generatedSeed{}
	for _, s := range seeds {
		byProvider[s.info.provider] = append(byProvider[s.info.provider], s)
	}
	for i := range g.cfg.Existing {
		shoot := g.shoot(i, true)
		compatible := byProvider[shoot.Spec.Provider.Type]
		if len(compatible) == 0 {
			compatible = seeds
		}
		target := compatible[g.rng.IntN(len(compatible))].seed
		shoot.Spec.SeedName = new(target.Name)
		shoot.Status.SeedName = new(target.Name)
		usage[target.Name]++
		if g.chance(g.mix.MigratingShoot) {
			source := seeds[g.rng.IntN(len(seeds))].seed
			if source.Name != target.Name {
				shoot.Status.SeedName = new(source.Name)
				usage[source.Name]++
			}
		}
		shoots = append(shoots, shoot)
	}
	return shoots, usage
}

// withCapacity gives the seeds, hosting usage, their allocatable shoots: the free capacity is the pending demand
// divided by the contention, split by weight. Without contention every seed has ample room, and one in five no
// allocatable at all (unlimited).
func (g *generation) withCapacity(seeds []generatedSeed, usage map[string]int) []*gardencorev1beta1.Seed {
	var totalWeight float64
	for _, s := range seeds {
		totalWeight += s.weight
	}
	var out []*gardencorev1beta1.Seed
	for _, s := range seeds {
		var free int
		if g.cfg.Contention > 0 {
			free = int(math.Round(float64(g.cfg.Shoots) / g.cfg.Contention * s.weight / totalWeight))
		} else {
			if g.rng.IntN(5) == 0 {
				out = append(out, s.seed)
				continue // no allocatable: unlimited
			}
			free = 2*g.cfg.Shoots/len(seeds) + 20
		}
		allocatable := usage[s.seed.Name] + free
		s.seed.Status.Allocatable = corev1.ResourceList{gardencorev1beta1.ResourceShoots: *resource.NewQuantity(int64(allocatable), resource.DecimalSI)}
		s.seed.Status.Capacity = corev1.ResourceList{gardencorev1beta1.ResourceShoots: *resource.NewQuantity(int64(allocatable+10), resource.DecimalSI)}
		out = append(out, s.seed)
	}
	return out
}

// pendingShoots are the configured number of shoots without a seed.
func (g *generation) pendingShoots() []*gardencorev1beta1.Shoot {
	var shoots []*gardencorev1beta1.Shoot
	for i := range g.cfg.Shoots {
		shoot := g.shoot(i, false)
		if g.mix.Distinct {
			distinguish(shoot, i)
		}
		shoots = append(shoots, shoot)
	}
	return shoots
}

// shoot is the i-th pending or bound shoot: of a provider, in a region, of a project, with the features of the
// mix that it draws. Pending shoots are created a second apart from the start; bound ones in the month before.
func (g *generation) shoot(i int, bound bool) *gardencorev1beta1.Shoot {
	provider := g.providers[g.rng.IntN(len(g.providers))]
	region := g.shootRegion(provider)
	project := projectNames[1+g.rng.IntN(len(projectNames)-1)]
	if g.chance(g.mix.GardenNamespaceShoot) {
		project = "garden"
	}
	name := fmt.Sprintf("%s-%s-%d", project, []string{"api", "web", "db", "batch", "ci", "dev"}[g.rng.IntN(6)], i)
	created := g.cfg.Start.Add(time.Duration(i) * time.Second)
	if bound {
		name = "live-" + name
		created = g.cfg.Start.Add(-time.Duration(30*24*3600-i) * time.Second)
	}
	purpose := []gardencorev1beta1.ShootPurpose{gardencorev1beta1.ShootPurposeProduction, gardencorev1beta1.ShootPurposeEvaluation, gardencorev1beta1.ShootPurposeDevelopment}[g.rng.IntN(3)]
	shoot := &gardencorev1beta1.Shoot{
		TypeMeta:   metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "Shoot"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: projectNamespace(project), CreationTimestamp: metav1.NewTime(created)},
		Spec: gardencorev1beta1.ShootSpec{
			CloudProfile:           &gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: provider},
			CredentialsBindingName: new(provider + "-credentials"),
			Region:                 region,
			Kubernetes:             gardencorev1beta1.Kubernetes{Version: "1.34.2"},
			Networking:             &gardencorev1beta1.Networking{Type: new("calico"), Nodes: new("10.180.0.0/16")},
			Purpose:                &purpose,
			Provider:               gardencorev1beta1.Provider{Type: provider, Workers: g.workers(provider, region)},
		},
	}
	g.varyPlacement(shoot, provider, region)
	g.varyNetworking(shoot.Spec.Networking)
	if g.chance(g.mix.DNSDomainShoot) {
		// Mostly a correct Gardener default domain of some seed in its region, sometimes a custom domain.
		domain := name + ".example.org"
		if g.rng.IntN(3) > 0 {
			domain = fmt.Sprintf("%s.%s.%s.%s.seeds.example.com", name, project, region, provider)
		}
		shoot.Spec.DNS = &gardencorev1beta1.DNS{Domain: &domain}
	}
	return shoot
}

// shootRegion is a region of the provider for a shoot: mostly one with seeds, sometimes any.
func (g *generation) shootRegion(provider string) string {
	regions := providerRegions[provider]
	var withSeeds []string
	for _, s := range g.seedRegions {
		if s.provider == provider {
			withSeeds = append(withSeeds, s.region)
		}
	}
	if len(withSeeds) == 0 || g.chance(g.mix.RegionWithoutSeedShoot) {
		return regions[g.rng.IntN(len(regions))]
	}
	return withSeeds[g.rng.IntN(len(withSeeds))]
}

// workers is a shoot's one worker pool in some of the region's zones, none for a workerless shoot.
func (g *generation) workers(provider, region string) []gardencorev1beta1.Worker {
	if g.chance(g.mix.WorkerlessShoot) {
		return nil
	}
	zones := zonesOf(provider, region, 3)
	poolZones := zones[:1+g.rng.IntN(3)]
	if g.rng.IntN(4) == 0 {
		poolZones = []string{zones[g.rng.IntN(3)]}
	}
	return []gardencorev1beta1.Worker{{
		Name: "worker", Machine: gardencorev1beta1.Machine{Type: "m5.large"}, Minimum: 1, Maximum: 5, Zones: slices.Clone(poolZones),
	}}
}

// varyPlacement gives the shoot the placement features of the mix that it draws: a namespaced cloud profile, the
// testing purpose, a highly available or zone-pinned control plane, a seed selector, tolerations, access
// restrictions, a cloud profile the landscape lacks.
func (g *generation) varyPlacement(shoot *gardencorev1beta1.Shoot, provider, region string) {
	if provider == "aws" && g.chance(g.mix.NamespacedProfileShoot) {
		shoot.Namespace = namespacedProfileOwner
		shoot.Spec.CloudProfile = &gardencorev1beta1.CloudProfileReference{Kind: v1beta1constants.CloudProfileReferenceKindNamespacedCloudProfile, Name: namespacedProfileAWS}
	}
	if g.chance(g.mix.TestingShoot) {
		shoot.Spec.Purpose = new(gardencorev1beta1.ShootPurposeTesting)
	}
	if g.chance(g.mix.ZonalShoot) {
		shoot.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{HighAvailability: &gardencorev1beta1.HighAvailability{FailureTolerance: gardencorev1beta1.FailureTolerance{Type: gardencorev1beta1.FailureToleranceTypeZone}}}
	} else if g.chance(g.mix.ControlPlaneZonesShoot) {
		shoot.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{Zones: []string{zonesOf(provider, region, 3)[g.rng.IntN(3)]}}
	}
	if g.chance(g.mix.SelectorShoot) {
		shoot.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{labelEnvironment: "prod"}}}
	}
	if g.chance(g.mix.TolerationShoot) {
		value := []string{"ml", "payments"}[g.rng.IntN(2)]
		shoot.Spec.Tolerations = append(shoot.Spec.Tolerations, gardencorev1beta1.Toleration{Key: taintDedicated, Value: &value})
		if g.chance(0.5) {
			shoot.Spec.Tolerations = append(shoot.Spec.Tolerations, gardencorev1beta1.Toleration{Key: gardencorev1beta1.SeedTaintProtected})
		}
	}
	if g.chance(g.mix.AccessRestrictedShoot) {
		shoot.Spec.AccessRestrictions = []gardencorev1beta1.AccessRestrictionWithOptions{{AccessRestriction: gardencorev1beta1.AccessRestriction{Name: accessRestrictionEU}}}
	}
	if g.chance(g.mix.MissingProfileShoot) {
		shoot.Spec.CloudProfile = &gardencorev1beta1.CloudProfileReference{Kind: v1beta1constants.CloudProfileReferenceKindCloudProfile, Name: provider + "-retired"}
	}
}

// varyNetworking gives a shoot's networking the features of the mix that it draws: IPv6, or a node range
// Gardener reserves.
func (g *generation) varyNetworking(networking *gardencorev1beta1.Networking) {
	if g.chance(g.mix.IPv6Shoot) {
		networking.IPFamilies = []gardencorev1beta1.IPFamily{gardencorev1beta1.IPFamilyIPv6}
		networking.Nodes = new("2001:db8:10::/48")
		if g.rng.IntN(4) == 0 {
			networking.Pods = new("fd8f:6d53:b97a:1::/64") // inside Gardener's VPN range
		}
	}
	if g.chance(g.mix.ReservedRangeShoot) {
		networking.Nodes = new("242.1.0.0/16")
	}
}

// regionConfigMaps reads the embedded upstream region ConfigMaps. The aws one also applies to the namespaced
// profile the generator creates, as an operator would annotate it.
func regionConfigMaps() ([]*corev1.ConfigMap, error) {
	l, err := ingest.LoadFS(examples.Regions, examples.RegionsDir)
	if err != nil {
		return nil, fmt.Errorf("generator: reading the embedded region ConfigMaps: %w", err)
	}
	for _, cm := range l.Objects.ConfigMaps {
		if cm.Annotations[v1beta1constants.AnnotationSchedulingCloudProfiles] == "aws" {
			cm.Annotations[v1beta1constants.AnnotationSchedulingCloudProfiles] = "aws, " + namespacedProfileAWS
		}
	}
	return l.Objects.ConfigMaps, nil
}

// distinguish gives the i-th pending shoot input of its own that no seed is affected by: the requirement that
// seeds lack a label none has, and the toleration of a taint none has.
func distinguish(shoot *gardencorev1beta1.Shoot, i int) {
	key := fmt.Sprintf("seedplan.io/shoot-%d", i)
	if shoot.Spec.SeedSelector == nil {
		shoot.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{}
	}
	shoot.Spec.SeedSelector.MatchExpressions = append(shoot.Spec.SeedSelector.MatchExpressions,
		metav1.LabelSelectorRequirement{Key: key, Operator: metav1.LabelSelectorOpDoesNotExist})
	shoot.Spec.Tolerations = append(shoot.Spec.Tolerations, gardencorev1beta1.Toleration{Key: key})
}
