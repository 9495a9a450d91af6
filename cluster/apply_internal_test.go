package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
)

// A reviewed placement is bound only while everything the plan relied on still holds; otherwise check says
// which thing changed, in the words apply reports the skip with.
func TestCheckReviewedPlacement(t *testing.T) {
	pending := Shoot("web", func(s *gardencorev1beta1.Shoot) { s.ResourceVersion, s.UID, s.Generation = "7", "uid-web", 2 })
	deleting := pending.DeepCopy()
	deleting.ResourceVersion = "8"
	BeingDeleted()(deleting)
	bound := Shoot("bound", BoundTo("full"), Running(), func(s *gardencorev1beta1.Shoot) { s.ResourceVersion, s.UID, s.Generation = "9", "uid-bound", 2 })
	snap := fixture.Landscape(t, []*gardencorev1beta1.Seed{
		Seed("fra", Allocatable(2)), Seed("full", Allocatable(1)), Seed("tainted", Tainted("gpu"), Allocatable(5)),
	}, []*gardencorev1beta1.Shoot{pending, bound})
	verifier := model.NewVerifier(snap, model.Options{})
	asPlanned := model.VersionOf(pending)
	for _, tc := range []struct {
		name    string
		shoot   *gardencorev1beta1.Shoot // as read just before the binding
		placed  int                      // placements kept before it on its seed
		seed    string
		planned model.ShootVersion
		want    string
	}{
		{"everything holds", pending, 0, "fra", asPlanned, ""},
		{"the seed's last room", pending, 1, "fra", asPlanned, ""},
		{"the shoot deleted", nil, 0, "fra", asPlanned, "the shoot no longer exists"},
		{"only its status or metadata changed", pending, 0, "fra", model.ShootVersion{ResourceVersion: "6", UID: "uid-web", Generation: 2}, ""},
		{"its spec changed", pending, 0, "fra", model.ShootVersion{ResourceVersion: "6", UID: "uid-web", Generation: 1},
			"the shoot's spec changed since the plan was made (generation 1, now 2)"},
		{"its deletion began", deleting, 0, "fra", asPlanned, "the shoot's deletion began after the plan was made"},
		{"another shoot of its name", pending, 0, "fra", model.ShootVersion{ResourceVersion: "6", UID: "uid-old", Generation: 2},
			"the shoot was deleted and created again since the plan was made"},
		{"the shoot changed, in a plan without its generation", pending, 0, "fra", model.ShootVersion{ResourceVersion: "6"},
			"the shoot changed since the plan was made (resourceVersion 6, now 7)"},
		{"a bound shoot named by the plan", bound, 0, "fra", model.VersionOf(bound), `the shoot is not pending for scheduler "default-scheduler": it is bound to seed full`},
		{"the shoot bound elsewhere since", bound, 0, "fra", model.ShootVersion{ResourceVersion: "6", UID: "uid-bound", Generation: 1},
			"the shoot was bound to seed full since the plan was made"},
		{"the shoot bound as planned, by this plan applied before", bound, 0, "full", model.ShootVersion{ResourceVersion: "6", UID: "uid-bound", Generation: 1},
			"the shoot is on seed full already, as planned"},
		{"the shoot bound since, in a plan without its generation", bound, 0, "full", model.ShootVersion{ResourceVersion: "6"},
			"the shoot is on seed full already, as planned"},
		{"another shoot of its name, bound", bound, 0, "full", model.ShootVersion{ResourceVersion: "6", UID: "uid-old", Generation: 1},
			"the shoot was deleted and created again since the plan was made"},
		{"the seed deleted", pending, 0, "gone", asPlanned, "seed gone no longer exists"},
		{"a predicate fails now", pending, 0, "tainted", asPlanned, "violates predicate Tolerations: shoot does not tolerate the seed's taints"},
		{"the seed full", pending, 0, "full", asPlanned, "seed full has no room left: 0 free, 0 taken by the placements before"},
		{"the room taken by the placements before", pending, 2, "fra", asPlanned, "seed fra has no room left: 2 free, 2 taken by the placements before"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := "garden-dev/web"
			if tc.shoot != nil {
				key = tc.shoot.Namespace + "/" + tc.shoot.Name
			}
			got := check(snap, verifier, "default-scheduler", tc.shoot, tc.placed, model.Placement{Shoot: key, Seed: tc.seed, ShootVersion: tc.planned})
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("check = %q, want %q", got, tc.want)
			}
		})
	}
}

// A reviewed placement states its regions and the distance between them: one no longer as far as reviewed (its
// region ConfigMap changed since) is skipped, saying so; one from a plan saved before placements stated them is
// checked by its predicates alone.
func TestCheckReviewedPlacementDistance(t *testing.T) {
	pending := Shoot("web", func(s *gardencorev1beta1.Shoot) { s.ResourceVersion, s.UID, s.Generation = "7", "uid-web", 2 })
	snap := fixture.Landscape(t, []*gardencorev1beta1.Seed{Seed("fra", Allocatable(2))}, []*gardencorev1beta1.Shoot{pending})
	verifier := model.NewVerifier(snap, model.Options{})
	region := pending.Spec.Region
	for _, tc := range []struct {
		name        string
		distance    int
		seedRegion  string // "", as shootRegion: a plan saved before placements stated their regions
		shootRegion string
		want        string
	}{
		{"as far as reviewed", 0, region, region, ""},
		{"farther than reviewed", 3, region, region, fmt.Sprintf("states distance 3 from %s to %s, the strategy's is 0", region, region)},
		{"a plan without regions", 3, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl := model.Placement{Shoot: "garden-dev/web", Seed: "fra", Distance: tc.distance, ShootRegion: tc.shootRegion, SeedRegion: tc.seedRegion,
				ShootVersion: model.VersionOf(pending)}
			if got := check(snap, verifier, "default-scheduler", pending, 0, pl); (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("check = %q, want %q", got, tc.want)
			}
		})
	}
}

// A reviewed move whose shoot changed seed since it was planned says where the shoot is; one still on the seed it
// was to leave is left to the other checks (its spec changed otherwise, or nothing did).
func TestSeedChangedSinceTheMoveWasPlanned(t *testing.T) {
	planned := model.ShootVersion{ResourceVersion: "6", UID: "uid-web", Generation: 2}
	on := func(seed string) *gardencorev1beta1.Shoot {
		return Shoot("web", BoundTo(seed), func(s *gardencorev1beta1.Shoot) { s.ResourceVersion, s.UID, s.Generation = "9", "uid-web", 3 })
	}
	for _, tc := range []struct {
		name  string
		shoot *gardencorev1beta1.Shoot
		want  string
	}{
		{"still on the seed it was to leave", on("fra"), ""},
		{"moved as planned", on("ams"), "the shoot is on seed ams already, as planned"},
		{"moved elsewhere", on("lon"), "the shoot moved to seed lon since the move was planned"},
		{"the version planned for", Shoot("web", BoundTo("lon"), func(s *gardencorev1beta1.Shoot) { s.ResourceVersion = "6" }), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := seedChangedSince(planned, tc.shoot, "fra", "ams", "the move was planned"); got != tc.want {
				t.Errorf("seedChangedSince = %q, want %q", got, tc.want)
			}
		})
	}
}

// A reviewed plan without placements binds nothing and reads nothing: a schedule --dry-run=server or apply -f of a
// window that placed no shoot costs no read of the whole garden.
func TestReviewedPlanWithoutPlacementsReadsNothing(t *testing.T) {
	r := &Reviewed{Reader: unreadable{}}
	if results, err := r.Apply(context.Background(), nil); results != nil || err != nil {
		t.Fatalf("Apply of no placements = %v, %v; want nothing", results, err)
	}
}

// unreadable is a reader of a garden that fails every read.
type unreadable struct{ client.Reader }

func (unreadable) Get(context.Context, client.ObjectKey, client.Object, ...client.GetOption) error {
	return errors.New("read")
}

func (unreadable) List(context.Context, client.ObjectList, ...client.ListOption) error {
	return errors.New("read")
}
