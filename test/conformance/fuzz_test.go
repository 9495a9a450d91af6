package conformance

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/seedplan/seedplan/model"
)

// FuzzGreedyMatchesGardenerScheduler has the real gardener-scheduler and seedplan's greedy solver decide small
// landscapes built from the fuzzer's bytes, under both strategies. The generator writes landscapes as gardens hold
// them; these combine what it never writes together: duplicate zones and access restrictions, taints with and
// without values against fewer or equal tolerations, IPv6 seed networks and their shoot defaults, a shoot's
// status networking or none, zonal control planes with explicit zones, legacy and namespaced cloud profile
// references, profiles' provider types and selectors, odd region ConfigMap entries and two ConfigMaps for a
// profile, fractional allocatables, DNS domains of several seeds, bound shoots being deleted, and shoots of
// namespaces without a project.
func FuzzGreedyMatchesGardenerScheduler(f *testing.F) {
	for _, seed := range [][]byte{
		nil,
		[]byte("\x05\x05\x03\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19"),
		[]byte("seedplan decides as the gardener-scheduler does, every shoot and every message alike"),
		[]byte("\x03\x02\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x03\x03\x03\x03\x03\x03\x03\x03\x03"),
		[]byte("\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0\xef\xee\xed\xec\xeb\xea\xe9\xe8\xe7\xe6\xe5"),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			compareDecisions(t, fmt.Sprintf("%s, ", strategy), fuzzLandscape(data), strategy)
		}
	})
}

// TestGreedyMatchesGardenerSchedulerOnSmallLandscapes compares FuzzGreedyMatchesGardenerScheduler's landscapes for
// pseudo-random bytes, many more than its seed corpus, without the fuzzer's instrumentation: 1,000 in make test,
// SEEDPLAN_CONFORMANCE_SMALL_LANDSCAPES others (make conformance-long: 20,000 from another seed).
func TestGreedyMatchesGardenerSchedulerOnSmallLandscapes(t *testing.T) {
	count, first := 1000, uint64(1)
	if v := os.Getenv("SEEDPLAN_CONFORMANCE_SMALL_LANDSCAPES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1000 {
			t.Fatalf("SEEDPLAN_CONFORMANCE_SMALL_LANDSCAPES=%q: want a whole number of at least 1000, enough to reach every filter", v)
		}
		count, first = n, 2
	}
	rng := rand.New(rand.NewPCG(first, 0))
	placed, compared := 0, 0
	reasons := map[string]int{}
	for i := range count {
		data := landscapeBytes(rng)
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			ours, _ := compareDecisions(t, fmt.Sprintf("landscape %d (%x), %s, ", i, data, strategy), fuzzLandscape(data), strategy)
			for reason, n := range ours.reasons {
				reasons[reason] += n
			}
			for _, key := range ours.order {
				compared++
				if ours.decisions[key].seed != "" {
					placed++
				}
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	requireDecidedBy(t, reasons, predicates())
	if placed < compared/20 {
		t.Errorf("%d of %d shoots placed: the landscapes would hardly compare the least-utilized choice", placed, compared)
	}
	t.Logf("%d decisions identical (%d placed) over %d landscapes; unschedulable by: %v", compared, placed, count, reasons)
}

// landscapeBytes are pseudo-random bytes for fuzzLandscape, more than a landscape of the most objects reads (at
// most about 240).
func landscapeBytes(rng *rand.Rand) []byte {
	data := make([]byte, 320)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	return data
}

// choices reads a fuzzer's bytes as a sequence of small choices; once they run out, every choice is the first.
type choices struct{ data []byte }

// of is a choice among n.
func (c *choices) of(n int) int {
	if len(c.data) == 0 {
		return 0
	}
	b := c.data[0]
	c.data = c.data[1:]
	return int(b) % n
}

// pick is one of the options, as the next byte chooses.
func pick[T any](c *choices, options ...T) T { return options[c.of(len(options))] }

// mostly is usual for three bytes in four, else one of the unusual options: a landscape of shoots that each
// filter rejects half the time would place none, and never compare capacity, strategy or the final choice.
func mostly[T any](c *choices, usual T, unusual ...T) T {
	n := c.of(4 * len(unusual))
	if n < 3*len(unusual) {
		return usual
	}
	return unusual[n-3*len(unusual)]
}

// The alphabets the fuzzer's landscapes draw from: few enough that seeds and shoots meet, varied enough that every
// filter and the Levenshtein fallback decide some of them.
var (
	fuzzProviders = []string{"aws", "gcp"}
	fuzzRegions   = []string{"eu-central-1", "eu-west-1", "us-east-1", "ap-northeast-1", "europe-west1", "eu-de-1"}
	fuzzZones     = [][]string{{"z1", "z2", "z3"}, {"z1", "z2"}, {"z1", "z1", "z1"}, {"z4"}, {"z2", "z3", "z4"}, nil}
	fuzzDomains   = [][]string{nil, {"example.com"}, {"other.org", "example.com"}}
)

// fuzzLandscape builds a landscape of two to six seeds, up to six pending and four bound shoots from the fuzzer's
// bytes.
func fuzzLandscape(data []byte) model.Objects {
	c := &choices{data: data}
	seeds, pending, bound := 2+c.of(5), 1+c.of(6), c.of(5)
	objs := model.Objects{Projects: []*gardencorev1beta1.Project{
		{ObjectMeta: metav1.ObjectMeta{Name: "dev"}, Spec: gardencorev1beta1.ProjectSpec{Namespace: new("garden-dev")}},
		{ObjectMeta: metav1.ObjectMeta{Name: "garden"}, Spec: gardencorev1beta1.ProjectSpec{Namespace: new("garden")}},
	}}
	objs.CloudProfiles, objs.NamespacedCloudProfiles = fuzzCloudProfiles(c)
	objs.ConfigMaps = fuzzRegionConfigs(c)
	for i := range seeds {
		objs.Seeds = append(objs.Seeds, fuzzSeed(c, fmt.Sprintf("s%d", i)))
	}
	for i := range pending {
		objs.Shoots = append(objs.Shoots, fuzzShoot(c, fmt.Sprintf("p%d", i)))
	}
	for i := range bound {
		shoot := fuzzShoot(c, fmt.Sprintf("b%d", i))
		shoot.Spec.SeedName = new(objs.Seeds[c.of(seeds)].Name)
		if c.of(3) == 0 { // migrating away from another seed
			shoot.Status.SeedName = new(objs.Seeds[c.of(seeds)].Name)
		}
		if c.of(4) == 0 { // still counted while it is deleted
			shoot.DeletionTimestamp = &metav1.Time{Time: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)}
			shoot.Finalizers = []string{"gardener"}
		}
		objs.Shoots = append(objs.Shoots, shoot)
	}
	return objs
}

// fuzzCloudProfiles are the aws and gcp profiles and a namespaced profile of aws in garden-dev, each with a seed
// selector (provider types, labels) of the fuzzer's choice.
func fuzzCloudProfiles(c *choices) ([]*gardencorev1beta1.CloudProfile, []*gardencorev1beta1.NamespacedCloudProfile) {
	var profiles []*gardencorev1beta1.CloudProfile
	for _, provider := range fuzzProviders {
		profile := &gardencorev1beta1.CloudProfile{
			ObjectMeta: metav1.ObjectMeta{Name: provider},
			Spec:       gardencorev1beta1.CloudProfileSpec{Type: provider, SeedSelector: fuzzProfileSelector(c)},
		}
		for _, region := range fuzzRegions {
			profile.Spec.Regions = append(profile.Spec.Regions, gardencorev1beta1.Region{Name: region})
		}
		profiles = append(profiles, profile)
	}
	namespacedSpec := *profiles[0].Spec.DeepCopy()
	namespacedSpec.SeedSelector = fuzzProfileSelector(c)
	namespaced := &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "aws-custom", Namespace: "garden-dev"},
		Spec:       gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"}},
		Status:     gardencorev1beta1.NamespacedCloudProfileStatus{CloudProfileSpec: namespacedSpec},
	}
	return profiles, []*gardencorev1beta1.NamespacedCloudProfile{namespaced}
}

// fuzzProfileSelector is none, provider types only, labels only, or both.
func fuzzProfileSelector(c *choices) *gardencorev1beta1.SeedSelector {
	return mostly(c,
		nil,
		&gardencorev1beta1.SeedSelector{ProviderTypes: []string{"*"}},
		&gardencorev1beta1.SeedSelector{ProviderTypes: []string{"gcp"}},
		&gardencorev1beta1.SeedSelector{ProviderTypes: []string{"aws", "gcp"}},
		&gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}},
		&gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: metav1.LabelSelectorOpIn, Values: []string{"prod", "dev"}}}}},
		&gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"tier": "a"}, MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: metav1.LabelSelectorOpExists}}}},
		&gardencorev1beta1.SeedSelector{},
	)
}

// fuzzRegionConfigs are none, one or two region ConfigMaps. Where two name the same profile, Gardener takes the
// first in its list order; a ConfigMap outside namespace garden, or without the region-config label, is none of
// Gardener's region configs.
func fuzzRegionConfigs(c *choices) []*corev1.ConfigMap {
	switch c.of(4) {
	case 2:
		return []*corev1.ConfigMap{fuzzRegionConfig(c, "aws-regions")}
	case 3:
		second := fuzzRegionConfig(c, pick(c, "aws-regions-b", "0-aws-regions"))
		switch c.of(4) {
		case 0:
			second.Namespace = "garden-dev"
		case 1:
			second.Labels = nil
		}
		return []*corev1.ConfigMap{fuzzRegionConfig(c, "aws-regions"), second}
	}
	return nil
}

// fuzzRegionConfig is a region ConfigMap for the aws profile (and maybe its namespaced one) with entries for some
// regions: distances to some regions, negative ones, none, and empty or unparsable text.
func fuzzRegionConfig(c *choices, name string) *corev1.ConfigMap {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: v1beta1constants.GardenNamespace,
			Labels:      map[string]string{v1beta1constants.SchedulingPurpose: v1beta1constants.SchedulingPurposeRegionConfig},
			Annotations: map[string]string{v1beta1constants.AnnotationSchedulingCloudProfiles: pick(c, "aws", " aws , aws-custom", "gcp,aws-custom", "aws-custom")},
		},
		Data: map[string]string{},
	}
	for _, region := range fuzzRegions {
		if entry := pick(c, "-", "eu-west-1: 1\nus-east-1: 5\n", "eu-central-1: 3\neurope-west1: 3\n", "ap-northeast-1: -1\n",
			"", "{}\n", "eu-de-1: 2147483647\n", "eu-west-1: one\n"); entry != "-" {
			cm.Data[region] = entry
		}
	}
	return cm
}

// fuzzSeed is a seed of the fuzzer's choices, mostly usable.
func fuzzSeed(c *choices, name string) *gardencorev1beta1.Seed {
	seed := &gardencorev1beta1.Seed{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: mostly(c, map[string]string{"env": "prod"}, map[string]string{"env": "dev"}, nil,
			map[string]string{"env": "prod", "tier": "a"})},
		Spec: gardencorev1beta1.SeedSpec{
			Provider: gardencorev1beta1.SeedProvider{Type: pick(c, fuzzProviders...), Region: pick(c, fuzzRegions...), Zones: pick(c, fuzzZones...)},
			Settings: &gardencorev1beta1.SeedSettings{Scheduling: &gardencorev1beta1.SeedSettingScheduling{Visible: true}},
			Networks: pick(c,
				gardencorev1beta1.SeedNetworks{Pods: "10.243.0.0/16", Services: "10.244.0.0/16"},
				gardencorev1beta1.SeedNetworks{Nodes: new("10.250.0.0/16"), Pods: "10.243.0.0/16", Services: "10.244.0.0/16"},
				gardencorev1beta1.SeedNetworks{Nodes: new("fd00:30::/64"), Pods: "fd00:10::/56", Services: "fd00:20::/112"}),
			Taints: mostly(c, nil, []gardencorev1beta1.SeedTaint{{Key: "a"}}, []gardencorev1beta1.SeedTaint{{Key: "a", Value: new("1")}},
				[]gardencorev1beta1.SeedTaint{{Key: "a", Value: new("")}},
				[]gardencorev1beta1.SeedTaint{{Key: "a"}, {Key: "b"}}, []gardencorev1beta1.SeedTaint{{Key: gardencorev1beta1.SeedTaintProtected}}),
			AccessRestrictions: pick(c, nil, []gardencorev1beta1.AccessRestriction{{Name: "eu-access-only"}},
				[]gardencorev1beta1.AccessRestriction{{Name: "x"}, {Name: "eu-access-only"}}),
		},
		Status: gardencorev1beta1.SeedStatus{
			LastOperation: &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeReconcile, State: gardencorev1beta1.LastOperationStateSucceeded},
			Conditions:    []gardencorev1beta1.Condition{{Type: gardencorev1beta1.GardenletReady, Status: gardencorev1beta1.ConditionTrue}},
		},
	}
	seed.Spec.Networks.ShootDefaults = pick(c, nil,
		&gardencorev1beta1.ShootNetworks{Pods: new("100.96.0.0/11"), Services: new("100.64.0.0/13")},
		&gardencorev1beta1.ShootNetworks{Pods: new("fd00:10:0:1::/64"), Services: new("fd00:40::/112")})
	if mode := mostly(c, "", gardencorev1beta1.ZoneSelectionModePrefer, gardencorev1beta1.ZoneSelectionModeEnforce); mode != "" {
		seed.Spec.Settings.ZoneSelection = &gardencorev1beta1.SeedSettingZoneSelection{Mode: mode}
	}
	for _, domain := range pick(c, fuzzDomains...) {
		seed.Spec.DNS.Defaults = append(seed.Spec.DNS.Defaults, gardencorev1beta1.SeedDNSProviderConfig{Type: "aws-route53", Domain: domain})
	}
	if stop := mostly(c, "", "true", "True"); stop != "" {
		seed.Annotations = map[string]string{v1beta1constants.AnnotationEmergencyStopShootReconciliations: stop}
	}
	if allocatable := pick(c, "", "", "0", "1", "2", "3", "5", "500m", "1500m"); allocatable != "" {
		seed.Status.Allocatable = corev1.ResourceList{gardencorev1beta1.ResourceShoots: resource.MustParse(allocatable)}
	}
	fuzzUsability(c, seed)
	return seed
}

// fuzzUsability leaves the seed usable, or makes it unusable (or usable) in one of the ways Gardener looks at.
func fuzzUsability(c *choices, seed *gardencorev1beta1.Seed) {
	switch c.of(24) {
	case 0:
		seed.Spec.Settings.Scheduling.Visible = false
	case 1:
		seed.DeletionTimestamp = &metav1.Time{Time: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
		seed.Finalizers = []string{"gardener"}
	case 2:
		seed.Status.LastOperation = nil
	case 3:
		seed.Status.LastOperation.State = gardencorev1beta1.LastOperationStateFailed
	case 4:
		seed.Status.Conditions[0].Status = gardencorev1beta1.ConditionFalse
	case 5:
		seed.Status.Conditions = nil
	case 6:
		seed.Spec.Backup = &gardencorev1beta1.Backup{Provider: seed.Spec.Provider.Type}
	case 7:
		seed.Spec.Backup = &gardencorev1beta1.Backup{Provider: seed.Spec.Provider.Type}
		seed.Status.Conditions = append(seed.Status.Conditions, gardencorev1beta1.Condition{Type: gardencorev1beta1.SeedBackupBucketsReady, Status: gardencorev1beta1.ConditionTrue})
	}
}

// fuzzShoot is a pending shoot of the fuzzer's choices.
func fuzzShoot(c *choices, name string) *gardencorev1beta1.Shoot {
	provider := pick(c, fuzzProviders...)
	shoot := &gardencorev1beta1.Shoot{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: mostly(c, "garden-dev", "garden", "garden-nobody"),
			CreationTimestamp: metav1.NewTime(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))},
		Spec: gardencorev1beta1.ShootSpec{
			Region:   pick(c, fuzzRegions...),
			Provider: gardencorev1beta1.Provider{Type: provider},
			Purpose: pick(c, nil, nil, new(gardencorev1beta1.ShootPurposeTesting), new(gardencorev1beta1.ShootPurposeProduction),
				new(gardencorev1beta1.ShootPurposeEvaluation)),
			SeedSelector: mostly(c, nil,
				&gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}},
				&gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"prod"}}}}},
				&gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: metav1.LabelSelectorOpDoesNotExist}}}},
				&gardencorev1beta1.SeedSelector{ProviderTypes: []string{"gcp"}},
				&gardencorev1beta1.SeedSelector{ProviderTypes: []string{"*"}, LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"tier": "a"}}}),
			Tolerations: pick(c, nil, []gardencorev1beta1.Toleration{{Key: "a"}}, []gardencorev1beta1.Toleration{{Key: "a", Value: new("1")}},
				[]gardencorev1beta1.Toleration{{Key: "a", Value: new("2")}}, []gardencorev1beta1.Toleration{{Key: "a", Value: new("")}},
				[]gardencorev1beta1.Toleration{{Key: "a"}, {Key: "b"}},
				[]gardencorev1beta1.Toleration{{Key: "a"}, {Key: "a"}}, []gardencorev1beta1.Toleration{{Key: gardencorev1beta1.SeedTaintProtected}}),
			AccessRestrictions: mostly(c, nil, []gardencorev1beta1.AccessRestrictionWithOptions{{AccessRestriction: gardencorev1beta1.AccessRestriction{Name: "eu-access-only"}}},
				[]gardencorev1beta1.AccessRestrictionWithOptions{{AccessRestriction: gardencorev1beta1.AccessRestriction{Name: "eu-access-only"}}, {AccessRestriction: gardencorev1beta1.AccessRestriction{Name: "eu-access-only"}}},
				[]gardencorev1beta1.AccessRestrictionWithOptions{{AccessRestriction: gardencorev1beta1.AccessRestriction{Name: "x"}}}),
		},
	}
	switch c.of(5) {
	case 0, 1:
		shoot.Spec.CloudProfile = &gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: provider}
	case 2:
		shoot.Spec.CloudProfileName = new(provider) // the legacy field
	case 3:
		shoot.Spec.CloudProfile = &gardencorev1beta1.CloudProfileReference{Kind: "NamespacedCloudProfile", Name: "aws-custom"}
	case 4:
		shoot.Spec.CloudProfile = &gardencorev1beta1.CloudProfileReference{Name: pick(c, fuzzProviders...)} // kind defaults
	}
	if zones := pick(c, fuzzZones...); zones != nil {
		shoot.Spec.Provider.Workers = []gardencorev1beta1.Worker{{Name: "w", Machine: gardencorev1beta1.Machine{Type: "m"}, Minimum: 1, Maximum: 2, Zones: zones}}
	}
	switch c.of(8) {
	case 1:
		shoot.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{HighAvailability: &gardencorev1beta1.HighAvailability{FailureTolerance: gardencorev1beta1.FailureTolerance{Type: gardencorev1beta1.FailureToleranceTypeZone}}}
	case 2:
		shoot.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{HighAvailability: &gardencorev1beta1.HighAvailability{FailureTolerance: gardencorev1beta1.FailureTolerance{Type: gardencorev1beta1.FailureToleranceTypeNode}}}
	case 3:
		shoot.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{Zones: pick(c, []string{"z1"}, []string{"z1", "z4"})}
	case 4: // a zonal control plane skips the zone filter, its explicit zones too
		shoot.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{Zones: []string{"z4"},
			HighAvailability: &gardencorev1beta1.HighAvailability{FailureTolerance: gardencorev1beta1.FailureTolerance{Type: gardencorev1beta1.FailureToleranceTypeZone}}}
	}
	if domain := mostly(c, "", "%s.dev.example.com", "%s.garden.example.com", "%s.dev.other.org", "x.example.com", "custom.io"); domain != "" {
		shoot.Spec.DNS = &gardencorev1beta1.DNS{Domain: new(fmt.Sprintf(domain, name))}
	}
	fuzzShootNetworking(c, shoot)
	return shoot
}

// fuzzShootNetworking gives the shoot IPv4 or IPv6 networks, some set and some left to the seed's defaults, some
// in Gardener's reserved ranges or unparsable, and maybe a status.networking.
func fuzzShootNetworking(c *choices, shoot *gardencorev1beta1.Shoot) {
	v4, v6 := []gardencorev1beta1.IPFamily{gardencorev1beta1.IPFamilyIPv4}, []gardencorev1beta1.IPFamily{gardencorev1beta1.IPFamilyIPv6}
	shoot.Spec.Networking = mostly(c,
		&gardencorev1beta1.Networking{Nodes: new("10.250.0.0/16"), IPFamilies: v4},
		&gardencorev1beta1.Networking{Nodes: new("10.250.0.0/16"), Pods: new("100.96.0.0/11"), Services: new("100.64.0.0/13"), IPFamilies: v4},
		&gardencorev1beta1.Networking{Nodes: new("fd00:30::/64"), IPFamilies: v6},
		&gardencorev1beta1.Networking{Nodes: new("2001:db8::/48"), Pods: new("fd8f:6d53:b97a:1::/64"), IPFamilies: v6},
		&gardencorev1beta1.Networking{Nodes: new("242.1.0.0/16"), IPFamilies: v4},
		&gardencorev1beta1.Networking{Nodes: new("not-a-cidr"), IPFamilies: v4},
		&gardencorev1beta1.Networking{IPFamilies: []gardencorev1beta1.IPFamily{gardencorev1beta1.IPFamilyIPv4, gardencorev1beta1.IPFamilyIPv6}},
		nil, // a workerless shoot may have none
	)
	shoot.Status.Networking = mostly(c, nil,
		&gardencorev1beta1.NetworkingStatus{Nodes: []string{"10.250.0.0/16"}, Services: []string{"100.64.0.0/13"}},
		&gardencorev1beta1.NetworkingStatus{Nodes: []string{"10.250.0.0/16"}, Pods: []string{"100.96.0.0/11"}},
		&gardencorev1beta1.NetworkingStatus{Pods: []string{"fd00:10::/64"}, Services: []string{"243.0.0.0/16"}})
}
