package model

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Spec §3.2: twice the edit distance of the bases, +1 when one region has an orientation, +2 when they differ.
func TestLevenshteinDistance(t *testing.T) {
	for _, tc := range []struct {
		seed, shoot string
		want        int
	}{
		{"eu-central-1", "eu-central-1", 0},
		{"eu-central-2", "eu-central-1", 2},     // eu-:-2 vs eu-:-1: one edit, same orientation
		{"eu-west-1", "eu-central-1", 2},        // same base, different orientations
		{"eu-de-1", "eu-central-1", 2*2 + 1},    // eu-de-1 vs eu-:-1: two edits, one orientation
		{"ap-northeast-1", "ap-southeast-1", 2}, // ap-:east-1 both, north vs south
		{"southeastasia", "eastasia", 2*4 + 2},  // :eastasia (south) vs :asia (east)
		{"westcentralus", "centralus", 2*7 + 2}, // :centralus (west) vs :us (central)
		{"europe-west3", "europe-west1", 2},     // europe-:3 vs europe-:1
		{"eu-nl-1", "eu-de-1", 2 * 2},           // no orientations
	} {
		if got := LevenshteinDistance(tc.seed, tc.shoot); got != tc.want {
			t.Errorf("LevenshteinDistance(%q, %q) = %d, want %d", tc.seed, tc.shoot, got, tc.want)
		}
	}
}

// Spec §3.2 examples of the orientation split.
func TestSplitOrientation(t *testing.T) {
	for _, tc := range []struct{ region, base, orientation string }{
		{"eu-central-1", "eu-:-1", "central"},
		{"us-east-1", "us-:-1", "east"},
		{"ap-northeast-1", "ap-:east-1", "north"},
		{"southeastasia", ":eastasia", "south"},
		{"westcentralus", ":centralus", "west"},
		{"eu-de-1", "eu-de-1", ""},
	} {
		base, orientation := splitOrientation(tc.region)
		if base != tc.base || orientation != tc.orientation {
			t.Errorf("splitOrientation(%q) = (%q, %q), want (%q, %q)", tc.region, base, orientation, tc.base, tc.orientation)
		}
	}
}

func regionConfig(profiles string, data map[string]string) func(*Objects) {
	return namedRegionConfig("garden", "region-config", profiles, data)
}

// namedRegionConfig adds a ConfigMap labelled as a region config, in the namespace, for the profiles.
func namedRegionConfig(namespace, name, profiles string, data map[string]string) func(*Objects) {
	return func(o *Objects) {
		o.ConfigMaps = append(o.ConfigMaps, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{
				Name: name, Namespace: namespace,
				Labels:      map[string]string{"scheduling.gardener.cloud/purpose": "region-config"},
				Annotations: map[string]string{"scheduling.gardener.cloud/cloudprofiles": profiles},
			},
			Data: data,
		})
	}
}

// What is wrong with the region ConfigMaps is found when they are read, before any shoot meets it: every entry
// Gardener cannot parse (the well-formed, the empty and the negative are not), and every cloud profile that more
// than one ConfigMap of namespace garden names, with those ConfigMaps in the order the snapshot takes them. A
// ConfigMap elsewhere is none of Gardener's region configs.
func TestRegionConfigProblems(t *testing.T) {
	snap := testLandscape(nil, nil,
		namedRegionConfig("garden", "b-regions", "aws, gcp", map[string]string{
			"eu-central-1": "eu-west-1: 10", "eu-west-1": "eu-central-1: -3", "us-east-1": "", "ap-south-1": "eu-west-1: far",
		}),
		namedRegionConfig("garden", "a-regions", "aws", map[string]string{"eu-west-1": "[1, 2]"}),
		namedRegionConfig("garden", "c-regions", "gcp,, azure", nil),
		namedRegionConfig("elsewhere", "d-regions", "aws", map[string]string{"eu-west-1": "not: [a map"}),
	)
	var malformed []string
	for _, e := range snap.MalformedRegionEntries() {
		if e.Err == nil {
			t.Errorf("%s %s: malformed without an error", e.ConfigMap, e.Region)
		}
		malformed = append(malformed, e.ConfigMap+" "+e.Region)
	}
	if want := []string{"garden/a-regions eu-west-1", "garden/b-regions ap-south-1"}; !slices.Equal(malformed, want) {
		t.Errorf("malformed entries %q, want %q", malformed, want)
	}
	want := map[string][]string{"aws": {"a-regions", "b-regions"}, "gcp": {"b-regions", "c-regions"}}
	if got := snap.ProfilesOfSeveralRegionConfigs(); !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("profiles of several region configs %v, want %v", got, want)
	}
}

// Spec §3: testing purpose, SameRegion, MinimalDistance with a region ConfigMap and the Levenshtein fallback.
func TestApplyStrategy(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{
		testSeed("fra"),
		testSeed("dub", inRegion("aws", "eu-west-1")),
		testSeed("use", inRegion("aws", "us-east-1")),
		testSeed("gcp-fra", inRegion("gcp", "europe-west3")),
	}
	// laughs expands 6 lines of aliases to 10^5 "lol"s, beyond the budget of a document of its size.
	laughs := "l0: &l0 [lol]\n"
	for level := 1; level <= 5; level++ {
		laughs += fmt.Sprintf("l%d: &l%d [%s]\n", level, level, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", level-1), 10), ", "))
	}
	distances := regionConfig(" other , aws", map[string]string{"eu-north-1": "eu-west-1: 20\nus-east-1: 90\neu-central-1: 20\n", "eu-south-1": "eu-west-1: [1]", "eu-central-1": "europe-west3: 0\neu-west-1: 5",
		"eu-west-2": laughs, "eu-west-3": "eu-west-1: *nearest\n"})
	testingPurpose := func(s *gardencorev1beta1.Shoot) { s.Spec.Purpose = new(gardencorev1beta1.ShootPurposeTesting) }
	region := func(r string) shootOption { return func(s *gardencorev1beta1.Shoot) { s.Spec.Region = r } }
	for _, tc := range []struct {
		name     string
		strategy Strategy
		shoot    *gardencorev1beta1.Shoot
		config   bool
		want     []string
		wantErr  string
	}{
		{name: "SameRegion keeps provider and region", strategy: SameRegion, shoot: testShoot("s"), want: []string{"fra"}},
		{name: "SameRegion without seed in region", strategy: SameRegion, shoot: testShoot("s", region("eu-north-1")),
			wantErr: "no matching seed candidate found for Configuration (Cloud Profile 'aws', Region 'eu-north-1', SeedDeterminationStrategy 'SameRegion')"},
		{name: "testing ignores the region", strategy: SameRegion, shoot: testShoot("s", region("eu-north-1"), testingPurpose), want: []string{"dub", "fra", "use"}},
		{name: "MinimalDistance by region ConfigMap keeps ties", strategy: MinimalDistance, config: true, shoot: testShoot("s", region("eu-north-1")), want: []string{"dub", "fra"}},
		{name: "MinimalDistance adds the own region as 0 and ignores provider types", strategy: MinimalDistance, config: true, shoot: testShoot("s"), want: []string{"fra", "gcp-fra"}},
		{name: "MinimalDistance falls back to Levenshtein without config", strategy: MinimalDistance, shoot: testShoot("s", region("eu-central-2")), want: []string{"fra"}},
		{name: "malformed region entry is a hard error", strategy: MinimalDistance, config: true, shoot: testShoot("s", region("eu-south-1")),
			wantErr: `failed to determine seed candidates. Wrong format in region ConfigMap garden/region-config, Region "eu-south-1": error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type int`},
		{name: "an alias no parser reads is Gardener's error, in its words", strategy: MinimalDistance, config: true, shoot: testShoot("s", region("eu-west-3")),
			wantErr: `failed to determine seed candidates. Wrong format in region ConfigMap garden/region-config, Region "eu-west-3": error converting YAML to JSON: yaml: unknown anchor 'nearest' referenced`},
		{name: "a region entry beyond the input budget costs its region's shoots only", strategy: MinimalDistance, config: true, shoot: testShoot("s", region("eu-west-2")),
			wantErr: `failed to determine seed candidates. Wrong format in region ConfigMap garden/region-config, Region "eu-west-2": beyond the input budget: its aliases expand it to more than ` +
				fmt.Sprintf("%d bytes (4 times its %d bytes, and 65536)", 4*len(laughs)+65536, len(laughs))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var more []func(*Objects)
			if tc.config {
				more = append(more, distances)
			}
			snap := testLandscape(seeds, []*gardencorev1beta1.Shoot{tc.shoot}, more...)
			req, err := snap.NewRequest(snap.Shoot(ShootKey(tc.shoot)), Options{Strategy: tc.strategy})
			if err != nil {
				t.Fatal(err)
			}
			got, err := req.ApplyStrategy(snap.Seeds)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v\nwant    %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names(got), tc.want) {
				t.Fatalf("candidates %v, want %v", names(got), tc.want)
			}
		})
	}
}

// Spec §2.0 and §2: missing references fail with Gardener's errors.
func TestNewRequestReferences(t *testing.T) {
	for _, tc := range []struct {
		name    string
		shoot   *gardencorev1beta1.Shoot
		wantErr string
	}{
		{name: "no profile", shoot: testShoot("s", func(s *gardencorev1beta1.Shoot) { s.Spec.CloudProfile = nil }), wantErr: "could not determine cloudprofile from shoot"},
		{name: "legacy cloudProfileName", shoot: testShoot("s", func(s *gardencorev1beta1.Shoot) { s.Spec.CloudProfile, s.Spec.CloudProfileName = nil, new("aws") })},
		{name: "unknown profile", shoot: testShoot("s", func(s *gardencorev1beta1.Shoot) { s.Spec.CloudProfile.Name = "gcp" }), wantErr: `cloudprofiles.core.gardener.cloud "gcp" not found`},
		{name: "unknown namespaced profile", shoot: testShoot("s", func(s *gardencorev1beta1.Shoot) {
			s.Spec.CloudProfile = &gardencorev1beta1.CloudProfileReference{Kind: "NamespacedCloudProfile", Name: "custom"}
		}), wantErr: `namespacedcloudprofiles.core.gardener.cloud "custom" not found`},
		{name: "no project", shoot: testShoot("s", func(s *gardencorev1beta1.Shoot) { s.Namespace = "garden-other" }), wantErr: `Project.core.gardener.cloud "<unknown>" not found`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := testLandscape(nil, []*gardencorev1beta1.Shoot{tc.shoot})
			_, err := snap.NewRequest(snap.Shoot(ShootKey(tc.shoot)), Options{})
			if (err == nil && tc.wantErr != "") || (err != nil && err.Error() != tc.wantErr) {
				t.Fatalf("error = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// Spec §1 and §2.10c: which shoots are pending, and how usage counts migrating shoots.
func TestPendingAndUsage(t *testing.T) {
	later := testShoot("a-later", func(s *gardencorev1beta1.Shoot) { s.CreationTimestamp = metav1.NewTime(s.CreationTimestamp.Add(1)) })
	shoots := []*gardencorev1beta1.Shoot{
		later,
		testShoot("b-first"),
		testShoot("bound", boundTo("fra")),
		testShoot("migrating", boundTo("fra"), func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("dub") }),
		testShoot("settled", boundTo("fra"), func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("fra") }),
		testShoot("other-scheduler", func(s *gardencorev1beta1.Shoot) { s.Spec.SchedulerName = new("custom") }),
		testShoot("self-hosted", func(s *gardencorev1beta1.Shoot) {
			s.Spec.Provider.Workers[0].ControlPlane = &gardencorev1beta1.WorkerControlPlane{}
		}),
		testShoot("deleting", func(s *gardencorev1beta1.Shoot) { now := metav1.Now(); s.DeletionTimestamp = &now }),
	}
	snap := testLandscape(nil, shoots)
	var pending []string
	for _, s := range snap.Pending("default-scheduler") {
		pending = append(pending, s.Name)
	}
	if want := []string{"b-first", "a-later"}; !slices.Equal(pending, want) {
		t.Fatalf("pending %v, want %v (creationTimestamp order)", pending, want)
	}
	if got := snap.Pending("custom"); len(got) != 1 || got[0].Name != "other-scheduler" {
		t.Fatalf("pending for scheduler custom: %v", got)
	}
	if snap.Usage("fra") != 3 || snap.Usage("dub") != 1 {
		t.Fatalf("usage fra=%d dub=%d, want 3 and 1", snap.Usage("fra"), snap.Usage("dub"))
	}
}

// Shoots on seeds the landscape does not hold are counted per seed as usage counts them: a migrating shoot on
// both of its seeds.
func TestSeedsNotHeld(t *testing.T) {
	migrating := testShoot("migrating", boundTo("fra"), func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("dub") })
	for _, tc := range []struct {
		name  string
		seeds []string
		want  map[string]int
	}{
		{"every seed held", []string{"fra", "dub", "ams"}, nil},
		{"one held", []string{"fra"}, map[string]int{"dub": 1, "ams": 2}},
		{"none held", nil, map[string]int{"fra": 2, "dub": 1, "ams": 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var seeds []*gardencorev1beta1.Seed
			for _, name := range tc.seeds {
				seeds = append(seeds, testSeed(name))
			}
			shoots := []*gardencorev1beta1.Shoot{testShoot("pending"), testShoot("a", boundTo("fra")), migrating,
				testShoot("b", boundTo("ams")), testShoot("c", boundTo("ams"))}
			if got := testLandscape(seeds, shoots).SeedsNotHeld(); !maps.Equal(got, tc.want) {
				t.Fatalf("SeedsNotHeld() = %v, want %v", got, tc.want)
			}
		})
	}
}
