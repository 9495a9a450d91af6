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
		MigratingShoot: 0.05, CrossProvider: true,
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
var DefaultProviders = []string{"aws", "gcp", "azure", "openstack", "alicloud"}

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

// Generate builds the landscape.
func Generate(cfg Config) (model.Objects, error) {
	if cfg.Seeds <= 0 {
		return model.Objects{}, fmt.Errorf("generator: need at least one seed, got %d", cfg.Seeds)
	}
	if cfg.Shoots < 0 || cfg.Existing < 0 || cfg.Contention < 0 {
		return model.Objects{}, fmt.Errorf("generator: shoots, existing and contention must not be negative")
	}
	providers := cfg.Providers
	if len(providers) == 0 {
		providers = DefaultProviders
	}
	for _, p := range providers {
		if _, ok := providerRegions[p]; !ok {
			return model.Objects{}, fmt.Errorf("generator: unknown provider %q (known: %s)", p, strings.Join(DefaultProviders, ", "))
		}
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5eed91a4))
	chance := func(p float64) bool { return p > 0 && rng.Float64() < p }
	mix := cfg.Mix

	var objs model.Objects
	regionConfigs, err := regionConfigMaps()
	if err != nil {
		return model.Objects{}, err
	}
	objs.ConfigMaps = regionConfigs

	// Cloud profiles: one per provider, named like the provider so the upstream region ConfigMaps apply.
	for _, p := range providers {
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
		if p == "aws" && mix.CrossProvider {
			profile.Spec.SeedSelector.ProviderTypes = []string{"*"}
		}
		objs.CloudProfiles = append(objs.CloudProfiles, profile)
		if p == "aws" {
			objs.NamespacedCloudProfiles = append(objs.NamespacedCloudProfiles, &gardencorev1beta1.NamespacedCloudProfile{
				TypeMeta:   metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "NamespacedCloudProfile"},
				ObjectMeta: metav1.ObjectMeta{Name: namespacedProfileAWS, Namespace: namespacedProfileOwner},
				Spec:       gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"}},
				Status:     gardencorev1beta1.NamespacedCloudProfileStatus{CloudProfileSpec: *profile.Spec.DeepCopy()},
			})
		}
	}

	// Projects.
	projectNames := []string{"garden", "platform", "payments", "search", "ml", "web", "iot", "data", "ops", "mobile", "retail", "edge"}
	for _, name := range projectNames {
		namespace := "garden-" + name
		if name == "garden" {
			namespace = v1beta1constants.GardenNamespace
		}
		objs.Projects = append(objs.Projects, &gardencorev1beta1.Project{
			TypeMeta:   metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "Project"},
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:       gardencorev1beta1.ProjectSpec{Namespace: new(namespace)},
		})
	}

	// Seeds: spread over the providers' first regions, several per region.
	var seedRegions []seedInfo
	for _, p := range providers {
		regions := providerRegions[p]
		n := max(1, min(len(regions), int(math.Ceil(float64(cfg.Seeds)/float64(len(providers))/3))))
		for _, r := range regions[:n] {
			seedRegions = append(seedRegions, seedInfo{p, r})
		}
	}
	seedsPerRegion := map[seedInfo]int{}
	type generatedSeed struct {
		seed   *gardencorev1beta1.Seed
		info   seedInfo
		weight float64
	}
	var seeds []generatedSeed
	for i := range cfg.Seeds {
		info := seedRegions[i%len(seedRegions)]
		seedsPerRegion[info]++
		name := fmt.Sprintf("%s-%s-%d", info.provider, info.region, seedsPerRegion[info])
		zoneCount := 3
		if chance(mix.TwoZoneSeed) {
			zoneCount = 2
		}
		domain := fmt.Sprintf("%s.%s.seeds.example.com", info.region, info.provider)
		seed := &gardencorev1beta1.Seed{
			TypeMeta: metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "Seed"},
			ObjectMeta: metav1.ObjectMeta{
				Name:   name,
				Labels: map[string]string{labelEnvironment: []string{"prod", "prod", "prod", "prod", "prod", "staging"}[rng.IntN(6)], "seed.gardener.cloud/region": info.region},
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
				LastOperation: &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeReconcile, State: gardencorev1beta1.LastOperationStateSucceeded, Progress: 100, LastUpdateTime: metav1.NewTime(cfg.Start.Add(-time.Hour))},
				Conditions: []gardencorev1beta1.Condition{
					{Type: gardencorev1beta1.GardenletReady, Status: gardencorev1beta1.ConditionTrue, Reason: "GardenletReady", LastTransitionTime: metav1.NewTime(cfg.Start.Add(-24 * time.Hour)), LastUpdateTime: metav1.NewTime(cfg.Start.Add(-time.Minute))},
				},
			},
		}
		if rng.IntN(3) == 0 {
			// An IPv6-capable seed network layout some landscapes use.
			seed.Spec.Networks.ShootDefaults = &gardencorev1beta1.ShootNetworks{Pods: new("100.96.0.0/11"), Services: new("100.64.0.0/13")}
		}
		if chance(mix.BackupSeed) {
			seed.Spec.Backup = &gardencorev1beta1.Backup{Provider: info.provider, CredentialsRef: &corev1.ObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: "garden", Name: "backup-" + info.provider}}
			status := gardencorev1beta1.ConditionTrue
			if chance(mix.UnusableSeed / 2) {
				status = gardencorev1beta1.ConditionFalse
			}
			seed.Status.Conditions = append(seed.Status.Conditions, gardencorev1beta1.Condition{Type: gardencorev1beta1.SeedBackupBucketsReady, Status: status, Reason: "BackupBuckets", LastTransitionTime: metav1.NewTime(cfg.Start.Add(-24 * time.Hour)), LastUpdateTime: metav1.NewTime(cfg.Start.Add(-time.Minute))})
		}
		if chance(mix.UnusableSeed) {
			switch rng.IntN(3) {
			case 0:
				seed.Status.Conditions[0].Status = gardencorev1beta1.ConditionFalse
				seed.Status.Conditions[0].Reason = "GardenletNotReady"
			case 1:
				seed.Spec.Settings.Scheduling.Visible = false
			default:
				seed.Status.LastOperation = nil
			}
		}
		if chance(mix.ProtectedSeed) {
			seed.Spec.Taints = append(seed.Spec.Taints, gardencorev1beta1.SeedTaint{Key: gardencorev1beta1.SeedTaintProtected})
		}
		if chance(mix.TaintedSeed) {
			seed.Spec.Taints = append(seed.Spec.Taints, gardencorev1beta1.SeedTaint{Key: taintDedicated, Value: new([]string{"ml", "payments"}[rng.IntN(2)])})
		}
		if chance(mix.AccessRestrictedSeed) {
			seed.Spec.AccessRestrictions = []gardencorev1beta1.AccessRestriction{{Name: accessRestrictionEU}}
		}
		switch {
		case chance(mix.PreferZonesSeed):
			seed.Spec.Settings.ZoneSelection = &gardencorev1beta1.SeedSettingZoneSelection{Mode: gardencorev1beta1.ZoneSelectionModePrefer}
		case chance(mix.EnforceZonesSeed):
			seed.Spec.Settings.ZoneSelection = &gardencorev1beta1.SeedSettingZoneSelection{Mode: gardencorev1beta1.ZoneSelectionModeEnforce}
		}
		if chance(mix.EmergencyStopSeed) {
			seed.Annotations = map[string]string{v1beta1constants.AnnotationEmergencyStopShootReconciliations: "true"}
		}
		if chance(mix.DeprecatedSeed) {
			seed.Labels[labelDeprecated] = "true"
		}
		seeds = append(seeds, generatedSeed{seed: seed, info: info, weight: 0.5 + rng.Float64()})
	}

	// Shoot templates.
	shootRegion := func(provider string) string {
		regions := providerRegions[provider]
		var withSeeds []string
		for _, s := range seedRegions {
			if s.provider == provider {
				withSeeds = append(withSeeds, s.region)
			}
		}
		if len(withSeeds) == 0 || chance(mix.RegionWithoutSeedShoot) {
			return regions[rng.IntN(len(regions))]
		}
		return withSeeds[rng.IntN(len(withSeeds))]
	}
	newShoot := func(i int, bound bool) *gardencorev1beta1.Shoot {
		provider := providers[rng.IntN(len(providers))]
		region := shootRegion(provider)
		project := projectNames[1+rng.IntN(len(projectNames)-1)]
		if chance(mix.GardenNamespaceShoot) {
			project = "garden"
		}
		namespace := "garden-" + project
		if project == "garden" {
			namespace = v1beta1constants.GardenNamespace
		}
		name := fmt.Sprintf("%s-%s-%d", project, []string{"api", "web", "db", "batch", "ci", "dev"}[rng.IntN(6)], i)
		if bound {
			name = "live-" + name
		}
		shoot := &gardencorev1beta1.Shoot{
			TypeMeta: metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "Shoot"},
			ObjectMeta: metav1.ObjectMeta{
				Name: name, Namespace: namespace,
				CreationTimestamp: metav1.NewTime(cfg.Start.Add(time.Duration(i) * time.Second)),
			},
			Spec: gardencorev1beta1.ShootSpec{
				CloudProfile:           &gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: provider},
				CredentialsBindingName: new(provider + "-credentials"),
				Region:                 region,
				Kubernetes:             gardencorev1beta1.Kubernetes{Version: "1.34.2"},
				Networking:             &gardencorev1beta1.Networking{Type: new("calico"), Nodes: new("10.180.0.0/16")},
				Purpose:                new([]gardencorev1beta1.ShootPurpose{gardencorev1beta1.ShootPurposeProduction, gardencorev1beta1.ShootPurposeEvaluation, gardencorev1beta1.ShootPurposeDevelopment}[rng.IntN(3)]),
				Provider:               gardencorev1beta1.Provider{Type: provider},
			},
		}
		if bound {
			shoot.CreationTimestamp = metav1.NewTime(cfg.Start.Add(-time.Duration(30*24*3600-i) * time.Second))
		}
		if !chance(mix.WorkerlessShoot) {
			zones := zonesOf(provider, region, 3)
			poolZones := zones[:1+rng.IntN(3)]
			if rng.IntN(4) == 0 {
				poolZones = []string{zones[rng.IntN(3)]}
			}
			shoot.Spec.Provider.Workers = []gardencorev1beta1.Worker{{
				Name: "worker", Machine: gardencorev1beta1.Machine{Type: "m5.large"}, Minimum: 1, Maximum: 5, Zones: slices.Clone(poolZones),
			}}
		}
		if provider == "aws" && chance(mix.NamespacedProfileShoot) {
			shoot.Namespace = namespacedProfileOwner
			shoot.Spec.CloudProfile = &gardencorev1beta1.CloudProfileReference{Kind: v1beta1constants.CloudProfileReferenceKindNamespacedCloudProfile, Name: namespacedProfileAWS}
		}
		if chance(mix.TestingShoot) {
			shoot.Spec.Purpose = new(gardencorev1beta1.ShootPurposeTesting)
		}
		if chance(mix.ZonalShoot) {
			shoot.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{HighAvailability: &gardencorev1beta1.HighAvailability{FailureTolerance: gardencorev1beta1.FailureTolerance{Type: gardencorev1beta1.FailureToleranceTypeZone}}}
		} else if chance(mix.ControlPlaneZonesShoot) {
			shoot.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{Zones: []string{zonesOf(provider, region, 3)[rng.IntN(3)]}}
		}
		if chance(mix.SelectorShoot) {
			shoot.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{labelEnvironment: "prod"}}}
		}
		if chance(mix.TolerationShoot) {
			value := []string{"ml", "payments"}[rng.IntN(2)]
			shoot.Spec.Tolerations = append(shoot.Spec.Tolerations, gardencorev1beta1.Toleration{Key: taintDedicated, Value: &value})
			if chance(0.5) {
				shoot.Spec.Tolerations = append(shoot.Spec.Tolerations, gardencorev1beta1.Toleration{Key: gardencorev1beta1.SeedTaintProtected})
			}
		}
		if chance(mix.AccessRestrictedShoot) {
			shoot.Spec.AccessRestrictions = []gardencorev1beta1.AccessRestrictionWithOptions{{AccessRestriction: gardencorev1beta1.AccessRestriction{Name: accessRestrictionEU}}}
		}
		if chance(mix.IPv6Shoot) {
			shoot.Spec.Networking.IPFamilies = []gardencorev1beta1.IPFamily{gardencorev1beta1.IPFamilyIPv6}
			shoot.Spec.Networking.Nodes = new("2001:db8:10::/48")
			if rng.IntN(4) == 0 {
				shoot.Spec.Networking.Pods = new("fd8f:6d53:b97a:1::/64") // inside Gardener's VPN range
			}
		}
		if chance(mix.ReservedRangeShoot) {
			shoot.Spec.Networking.Nodes = new("242.1.0.0/16")
		}
		if chance(mix.DNSDomainShoot) {
			// Mostly a correct Gardener default domain of some seed in its region, sometimes a custom domain.
			if rng.IntN(3) > 0 {
				shoot.Spec.DNS = &gardencorev1beta1.DNS{Domain: new(fmt.Sprintf("%s.%s.%s.%s.seeds.example.com", name, project, region, provider))}
			} else {
				shoot.Spec.DNS = &gardencorev1beta1.DNS{Domain: new(name + ".example.org")}
			}
		}
		return shoot
	}

	// Existing shoots: bound to a compatible seed, weighted.
	usage := map[string]int{}
	for i := range cfg.Existing {
		shoot := newShoot(i, true)
		var compatible []generatedSeed
		for _, s := range seeds {
			if s.info.provider == shoot.Spec.Provider.Type {
				compatible = append(compatible, s)
			}
		}
		if len(compatible) == 0 {
			compatible = seeds
		}
		target := compatible[rng.IntN(len(compatible))].seed
		shoot.Spec.SeedName = new(target.Name)
		shoot.Status.SeedName = new(target.Name)
		usage[target.Name]++
		if chance(mix.MigratingShoot) {
			source := seeds[rng.IntN(len(seeds))].seed
			if source.Name != target.Name {
				shoot.Status.SeedName = new(source.Name)
				usage[source.Name]++
			}
		}
		objs.Shoots = append(objs.Shoots, shoot)
	}

	// Capacities: free capacity = pending demand / contention, split by weight.
	var totalWeight float64
	for _, s := range seeds {
		totalWeight += s.weight
	}
	for _, s := range seeds {
		var free int
		if cfg.Contention > 0 {
			free = int(math.Round(float64(cfg.Shoots) / cfg.Contention * s.weight / totalWeight))
		} else {
			if rng.IntN(5) == 0 {
				objs.Seeds = append(objs.Seeds, s.seed)
				continue // no allocatable: unlimited
			}
			free = 2*cfg.Shoots/len(seeds) + 20
		}
		allocatable := usage[s.seed.Name] + free
		s.seed.Status.Allocatable = corev1.ResourceList{gardencorev1beta1.ResourceShoots: *resource.NewQuantity(int64(allocatable), resource.DecimalSI)}
		s.seed.Status.Capacity = corev1.ResourceList{gardencorev1beta1.ResourceShoots: *resource.NewQuantity(int64(allocatable+10), resource.DecimalSI)}
		objs.Seeds = append(objs.Seeds, s.seed)
	}

	for i := range cfg.Shoots {
		shoot := newShoot(i, false)
		if mix.Distinct {
			distinguish(shoot, i)
		}
		objs.Shoots = append(objs.Shoots, shoot)
	}
	return objs, nil
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
