package model

import (
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/testobjects"
)

// Verify is the independent check of every plan: each kind of wrong placement is refused, naming the shoot, the
// seed and what it violates or misstates, and a right plan passes.
func TestVerify(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{
		testSeed("a", allocatable(1)), testSeed("b", allocatable(5)),
		testSeed("tainted", allocatable(5), testobjects.Tainted("x")),
		testSeed("far", allocatable(5), testobjects.InRegion("aws", "us-east-1")),
	}
	shoots := []*gardencorev1beta1.Shoot{testShoot("s1"), testShoot("s2"), testShoot("bound", testobjects.BoundTo("b"))}
	snap := testLandscape(seeds, shoots)
	// stated is a placement as a solver states it: with its regions and distance.
	stated := func(shoot, seed string, distance int, shootRegion, seedRegion string) Placement {
		return Placement{Shoot: "garden-dev/" + shoot, Seed: seed, Distance: distance, ShootRegion: shootRegion, SeedRegion: seedRegion}
	}
	minimalDistance := Options{Strategy: MinimalDistance}
	for _, tc := range []struct {
		name       string
		opts       Options
		placements []Placement
		want       string // "" when the plan is right
	}{
		{"a right plan", Options{}, []Placement{{Shoot: "garden-dev/s1", Seed: "a"}, {Shoot: "garden-dev/s2", Seed: "b"}}, ""},
		{"a seed the chain rejects", Options{}, []Placement{{Shoot: "garden-dev/s1", Seed: "tainted"}},
			"shoot garden-dev/s1 → seed tainted: violates predicate " + PredicateTolerations},
		{"a seed the strategy rejects", Options{}, []Placement{{Shoot: "garden-dev/s1", Seed: "far"}},
			"shoot garden-dev/s1 → seed far: violates predicate " + PredicateStrategy},
		{"more shoots than the seed's allocatable", Options{}, []Placement{{Shoot: "garden-dev/s1", Seed: "a"}, {Shoot: "garden-dev/s2", Seed: "a"}},
			"seed a: capacity exceeded"},
		{"a shoot placed twice", Options{}, []Placement{{Shoot: "garden-dev/s1", Seed: "a"}, {Shoot: "garden-dev/s1", Seed: "b"}},
			"shoot garden-dev/s1: appears more than once"},
		{"a seed that does not exist", Options{}, []Placement{{Shoot: "garden-dev/s1", Seed: "nope"}}, `seed "nope" does not exist`},
		{"a shoot not in the landscape", Options{}, []Placement{{Shoot: "garden-dev/nope", Seed: "a"}}, "not in the landscape"},
		{"a shoot bound already", Options{}, []Placement{{Shoot: "garden-dev/bound", Seed: "a"}}, "is not pending"},
		{"a right plan stating regions and distances", Options{}, []Placement{stated("s1", "a", 0, "eu-central-1", "eu-central-1")}, ""},
		{"a distance the strategy does not give", Options{}, []Placement{stated("s1", "a", 2, "eu-central-1", "eu-central-1")},
			"shoot garden-dev/s1 → seed a: states distance 2 from eu-central-1 to eu-central-1, the strategy's is 0"},
		{"the shoot's region misstated", Options{}, []Placement{stated("s1", "a", 0, "eu-west-1", "eu-central-1")},
			`shoot garden-dev/s1 → seed a: states the shoot's region as "eu-west-1", it is "eu-central-1"`},
		{"the seed's region misstated", Options{}, []Placement{stated("s1", "a", 0, "eu-central-1", "us-east-1")},
			`shoot garden-dev/s1 → seed a: states the seed's region as "us-east-1", it is "eu-central-1"`},
		// Without a region ConfigMap, Gardener's edit distance: eu-:-1 to us-:-1 is 2, doubled, and 2 more for central
		// against east.
		{"another region at its distance", minimalDistance, []Placement{stated("s1", "far", 6, "eu-central-1", "us-east-1")}, ""},
		{"another region stated as near", minimalDistance, []Placement{stated("s1", "far", 0, "eu-central-1", "us-east-1")},
			"shoot garden-dev/s1 → seed far: states distance 0 from eu-central-1 to us-east-1, the strategy's is 6"},
		{"a binding found in a garden states no distance to check", minimalDistance, []Placement{{Shoot: "garden-dev/s1", Seed: "far"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Verify(snap, tc.opts, &Plan{Placements: tc.placements})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Verify refused a right plan: %v", err)
			case tc.want != "" && err == nil:
				t.Fatalf("Verify passed the plan, want an error with %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("Verify: %v\nwant an error with %q", err, tc.want)
			}
		})
	}
}
