package model

import (
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/testobjects"
)

// Verify is the independent check of every plan: each kind of wrong placement is refused, naming the shoot, the
// seed and what it violates, and a right plan passes.
func TestVerify(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{
		testSeed("a", allocatable(1)), testSeed("b", allocatable(5)),
		testSeed("tainted", allocatable(5), testobjects.Tainted("x")),
		testSeed("far", allocatable(5), testobjects.InRegion("aws", "us-east-1")),
	}
	shoots := []*gardencorev1beta1.Shoot{testShoot("s1"), testShoot("s2"), testShoot("bound", testobjects.BoundTo("b"))}
	snap := testLandscape(seeds, shoots)
	for _, tc := range []struct {
		name       string
		placements []Placement
		want       string // "" when the plan is right
	}{
		{"a right plan", []Placement{{Shoot: "garden-dev/s1", Seed: "a"}, {Shoot: "garden-dev/s2", Seed: "b"}}, ""},
		{"a seed the chain rejects", []Placement{{Shoot: "garden-dev/s1", Seed: "tainted"}},
			"shoot garden-dev/s1 → seed tainted: violates predicate " + PredicateTolerations},
		{"a seed the strategy rejects", []Placement{{Shoot: "garden-dev/s1", Seed: "far"}},
			"shoot garden-dev/s1 → seed far: violates predicate " + PredicateStrategy},
		{"more shoots than the seed's allocatable", []Placement{{Shoot: "garden-dev/s1", Seed: "a"}, {Shoot: "garden-dev/s2", Seed: "a"}},
			"seed a: capacity exceeded"},
		{"a shoot placed twice", []Placement{{Shoot: "garden-dev/s1", Seed: "a"}, {Shoot: "garden-dev/s1", Seed: "b"}},
			"shoot garden-dev/s1: appears more than once"},
		{"a seed that does not exist", []Placement{{Shoot: "garden-dev/s1", Seed: "nope"}}, `seed "nope" does not exist`},
		{"a shoot not in the landscape", []Placement{{Shoot: "garden-dev/nope", Seed: "a"}}, "not in the landscape"},
		{"a shoot bound already", []Placement{{Shoot: "garden-dev/bound", Seed: "a"}}, "is not pending"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Verify(snap, Options{}, &Plan{Placements: tc.placements})
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
