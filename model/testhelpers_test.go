package model

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/testobjects"
)

type (
	seedOption  = testobjects.SeedOption
	shootOption = testobjects.ShootOption
)

var (
	testSeed    = testobjects.Seed
	testShoot   = testobjects.Shoot
	allocatable = testobjects.Allocatable
	inRegion    = testobjects.InRegion
	boundTo     = testobjects.BoundTo
)

// testLandscape is a snapshot with the aws cloud profile and the dev project, plus the given objects.
func testLandscape(seeds []*gardencorev1beta1.Seed, shoots []*gardencorev1beta1.Shoot, more ...func(*Objects)) *Snapshot {
	objs := Objects{
		Seeds:         seeds,
		Shoots:        shoots,
		CloudProfiles: []*gardencorev1beta1.CloudProfile{testobjects.CloudProfile()},
		Projects:      []*gardencorev1beta1.Project{testobjects.Project()},
	}
	for _, m := range more {
		m(&objs)
	}
	snap, err := NewSnapshot(objs)
	if err != nil {
		panic(err)
	}
	return snap
}

// requestFor resolves a shoot in a landscape made of just the given seeds.
func requestFor(shoot *gardencorev1beta1.Shoot, opts Options, seeds ...*gardencorev1beta1.Seed) (*Request, *Snapshot) {
	snap := testLandscape(seeds, []*gardencorev1beta1.Shoot{shoot})
	req, err := snap.NewRequest(snap.Shoot(ShootKey(shoot)), opts)
	if err != nil {
		panic(err)
	}
	return req, snap
}

func names(seeds []*gardencorev1beta1.Seed) []string {
	out := make([]string, 0, len(seeds))
	for _, s := range seeds {
		out = append(out, s.Name)
	}
	return out
}
