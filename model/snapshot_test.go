package model

import (
	"math"
	"slices"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/testobjects"
)

// A seed's allocatable is the number of shoots the gardener-scheduler compares its usage with
// (Quantity.Value(): a fraction rounded up, a number beyond int64 wrapped), a negative one 0, since both admit no
// shoot; only a whole number from 0 to 2^63−1 is read as written.
func TestAllocatableIsGardenersReading(t *testing.T) {
	for _, tc := range []struct {
		written string
		read    int64
		whole   bool
	}{
		{"100", 100, true},
		{"0", 0, true},
		{"2.5k", 2500, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"9.2e18", 9_200_000_000_000_000_000, true},
		{"2500m", 3, false},
		{"0.5", 1, false},
		{"-3", 0, false},
		{"-0.5", 0, false},
		{"1e30", 0, false},
		{"9223372036854775808", 0, false}, // Value() wraps to −2^63
		{"99999999999999999999999", 200376420520689663, false},
	} {
		t.Run(tc.written, func(t *testing.T) {
			seed := testSeed("a", testobjects.AllocatableWritten(tc.written))
			if got, ok := Allocatable(seed); !ok || got != tc.read {
				t.Errorf("Allocatable = %d, %v; want %d, true", got, ok, tc.read)
			}
			if got := WholeShoots(seed.Status.Allocatable[gardencorev1beta1.ResourceShoots]); got != tc.whole {
				t.Errorf("WholeShoots = %v, want %v", got, tc.whole)
			}
		})
	}
	if _, ok := Allocatable(testSeed("unlimited", func(s *gardencorev1beta1.Seed) { s.Status.Allocatable = nil })); ok {
		t.Error("a seed without allocatable has a limit")
	}
}

// The seeds whose allocatable is not read as written are named, in the order of the seeds, with both numbers;
// the others are not.
func TestMalformedAllocatablesNameSeedsNotReadAsWritten(t *testing.T) {
	snap := testLandscape([]*gardencorev1beta1.Seed{
		testSeed("c", testobjects.AllocatableWritten("-3")),
		testSeed("b", allocatable(10)),
		testSeed("a", testobjects.AllocatableWritten("2500m")),
	}, nil)
	got := snap.MalformedAllocatables()
	if len(got) != 2 {
		t.Fatalf("MalformedAllocatables = %v, want seeds a and c", got)
	}
	for i, want := range []struct {
		seed, written string
		read          int64
	}{{"a", "2500m", 3}, {"c", "-3", 0}} {
		if got[i].Seed != want.seed || got[i].Written.String() != want.written || got[i].Read != want.read {
			t.Errorf("MalformedAllocatables[%d] = %s %s → %d, want %s %s → %d", i, got[i].Seed, got[i].Written.String(), got[i].Read,
				want.seed, want.written, want.read)
		}
	}
}

// A shoot without spec.seedName but with a status.seedName is named with that seed; bound shoots, migrating ones
// and pending ones without a status seed are not.
func TestUnboundOnStatusSeedsNamesPendingShootsWithAStatusSeed(t *testing.T) {
	withStatusSeed := func(seed string) testobjects.ShootOption {
		return func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new(seed) }
	}
	snap := testLandscape([]*gardencorev1beta1.Seed{testSeed("a"), testSeed("b")}, []*gardencorev1beta1.Shoot{
		testobjects.Shoot("pending"),
		testobjects.Shoot("unbound", withStatusSeed("a")),
		testobjects.Shoot("bound", testobjects.BoundTo("a"), testobjects.Running()),
		testobjects.Shoot("migrating", testobjects.BoundTo("b"), withStatusSeed("a")),
		testobjects.Shoot("empty-status", withStatusSeed("")),
	})
	want := []UnboundOnStatusSeed{{Shoot: "garden-dev/unbound", Seed: "a"}}
	if got := snap.UnboundOnStatusSeeds(); !slices.Equal(got, want) {
		t.Errorf("UnboundOnStatusSeeds = %v, want %v", got, want)
	}
	if got := snap.Usage("a"); got != 3 {
		t.Errorf("usage of seed a = %d, want 3 (bound, migrating's status seed, and unbound's, as Gardener counts them)", got)
	}
}

// An object twice in a landscape is an error naming it; objects of one name are distinct by kind and namespace.
func TestSnapshotRefusesDuplicateObjects(t *testing.T) {
	inNamespace := func(namespace string) func(*gardencorev1beta1.Shoot) {
		return func(s *gardencorev1beta1.Shoot) { s.Namespace = namespace }
	}
	for _, tc := range []struct {
		name    string
		objs    Objects
		wantErr string
	}{{
		name:    "a seed twice",
		objs:    Objects{Seeds: []*gardencorev1beta1.Seed{testobjects.Seed("a"), testobjects.Seed("b"), testobjects.Seed("a")}},
		wantErr: "Seed a: duplicate object",
	}, {
		name:    "a shoot twice",
		objs:    Objects{Shoots: []*gardencorev1beta1.Shoot{testobjects.Shoot("s"), testobjects.Shoot("s")}},
		wantErr: "Shoot garden-dev/s: duplicate object",
	}, {
		name: "shoots of one name in two namespaces",
		objs: Objects{Shoots: []*gardencorev1beta1.Shoot{testobjects.Shoot("s"), testobjects.Shoot("s", inNamespace("garden-other"))}},
	}, {
		name: "a seed and a cloud profile of one name",
		objs: Objects{Seeds: []*gardencorev1beta1.Seed{testobjects.Seed("aws")}, CloudProfiles: []*gardencorev1beta1.CloudProfile{testobjects.CloudProfile()}},
	}, {
		name:    "a cloud profile twice",
		objs:    Objects{CloudProfiles: []*gardencorev1beta1.CloudProfile{testobjects.CloudProfile(), testobjects.CloudProfile()}},
		wantErr: "CloudProfile aws: duplicate object",
	}} {
		_, err := NewSnapshot(tc.objs)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.wantErr)
		}
	}
}
