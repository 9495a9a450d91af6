package plan_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	seedmanagementv1alpha1 "github.com/gardener/gardener/pkg/apis/seedmanagement/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

func pending(prefix string, n int, opts ...ShootOption) []*gardencorev1beta1.Shoot {
	var shoots []*gardencorev1beta1.Shoot
	for i := range n {
		shoots = append(shoots, Shoot(fmt.Sprintf("%s-%d", prefix, i+1), opts...))
	}
	return shoots
}

func TestCapacity(t *testing.T) {
	usEast := []SeedOption{InRegion("aws", "us-east-1"), func(s *gardencorev1beta1.Seed) {
		s.Spec.Provider.Zones = []string{"us-east-1a", "us-east-1b", "us-east-1c"}
	}}
	inUS := []ShootOption{Region("us-east-1"), func(s *gardencorev1beta1.Shoot) { s.Spec.Provider.Workers[0].Zones = []string{"us-east-1a"} }}
	tests := []struct {
		name        string
		target      float64
		seeds       []*gardencorev1beta1.Seed
		shoots      [][]*gardencorev1beta1.Shoot
		newSeeds    map[string]int // template → new seeds
		onExisting  int
		unplaceable int
	}{
		{
			name:     "room enough: no new seed",
			target:   0.8,
			seeds:    []*gardencorev1beta1.Seed{Seed("eu", Allocatable(10))},
			shoots:   [][]*gardencorev1beta1.Shoot{pending("p", 8)},
			newSeeds: map[string]int{}, onExisting: 8,
		},
		{
			name:     "the rest needs ⌈rest / (target × allocatable)⌉ new seeds like the largest seed of the region",
			target:   0.8,
			seeds:    []*gardencorev1beta1.Seed{Seed("eu-small", Allocatable(5)), Seed("eu-large", Allocatable(10))},
			shoots:   [][]*gardencorev1beta1.Shoot{hosting("eu-large", "on", 8), pending("p", 20)},
			newSeeds: map[string]int{"eu-large": 2}, onExisting: 4,
		},
		{
			name:     "each region gets its own seeds",
			target:   1,
			seeds:    []*gardencorev1beta1.Seed{Seed("eu", Allocatable(4)), Seed("us", append(usEast, Allocatable(4))...)},
			shoots:   [][]*gardencorev1beta1.Shoot{pending("eu", 6), pending("us", 9, inUS...)},
			newSeeds: map[string]int{"eu": 1, "us": 2}, onExisting: 8,
		},
		{
			// 4 + 10 shoots need two seeds of 8. The LP's fractional answer splits the testing shoots so that
			// rounding each region up gives three (what MaxNodes: 1 returns); branch and bound finds two.
			name:   "shoots that may use either region's new seeds share them: two seeds, not three",
			target: 1,
			seeds:  []*gardencorev1beta1.Seed{Seed("eu", Allocatable(8)), Seed("us", append(usEast, Allocatable(8))...)},
			shoots: [][]*gardencorev1beta1.Shoot{
				hosting("eu", "on-eu", 8), hosting("us", "on-us", 8, inUS...), pending("eu", 2), pending("us", 2, inUS...),
				pending("testing", 10, func(s *gardencorev1beta1.Shoot) { s.Spec.Purpose = new(gardencorev1beta1.ShootPurposeTesting) }),
			},
			newSeeds: map[string]int{"eu": 1, "us": 1},
		},
		{
			name:     "the region's largest seed is tainted: new seeds copy the largest one the shoots may use",
			target:   0.8,
			seeds:    []*gardencorev1beta1.Seed{Seed("eu-protected", Allocatable(50), Tainted("protected")), Seed("eu-small", Allocatable(10))},
			shoots:   [][]*gardencorev1beta1.Shoot{hosting("eu-small", "on", 8), pending("p", 10)},
			newSeeds: map[string]int{"eu-small": 2},
		},
		{
			name:     "a shoot no seed kind may take is listed, not counted",
			target:   1,
			seeds:    []*gardencorev1beta1.Seed{Seed("eu", Allocatable(1), Tainted("dedicated"))},
			shoots:   [][]*gardencorev1beta1.Shoot{pending("p", 2)},
			newSeeds: map[string]int{}, unplaceable: 2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var all []*gardencorev1beta1.Shoot
			for _, s := range tc.shoots {
				all = append(all, s...)
			}
			q, err := model.NewCapacityPlanning(fixture.Landscape(t, tc.seeds, all), model.Options{}, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			answer, err := plan.SolveCapacity(context.Background(), q, solver.Capacity{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for i, n := range answer.NewSeeds {
				if n > 0 {
					got[q.Templates[i].Template] = n
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.newSeeds) || answer.OnExisting != tc.onExisting || len(answer.Unplaceable) != tc.unplaceable {
				t.Fatalf("new seeds %v, on existing %d, unplaceable %d; want %v, %d, %d", got, answer.OnExisting, len(answer.Unplaceable), tc.newSeeds, tc.onExisting, tc.unplaceable)
			}
			onNew := answer.OnNew()
			if got := answer.OnExisting + onNew + len(answer.Unplaceable); got != len(q.Window.Shoots) {
				t.Fatalf("%d + %d + %d shoots accounted for, want the %d pending", answer.OnExisting, onNew, len(answer.Unplaceable), len(q.Window.Shoots))
			}
			if !answer.Optimal || answer.Total() != answer.LowerBound {
				t.Fatalf("optimal %v, total %d, lower bound %d", answer.Optimal, answer.Total(), answer.LowerBound)
			}
		})
	}
}

// A shoot whose seeds are full, none of them a kind new seeds could copy (at a target of 0.5 a seed of one shoot
// holds none), is listed with how many seeds it may use, in words that agree with the number.
func TestCapacityUnplaceableCountsTheSeedsInWords(t *testing.T) {
	for _, tc := range []struct {
		seeds []string
		want  string
	}{
		{[]string{"eu"}, "the one seed the shoot may use has no room left at or below 0.50 utilization and cannot be copied; it needs a new kind of seed"},
		{[]string{"eu-a", "eu-b"}, "the 2 seeds the shoot may use have no room left at or below 0.50 utilization, and none of them can be copied; it needs a new kind of seed"},
	} {
		var seeds []*gardencorev1beta1.Seed
		shoots := pending("p", 1)
		for _, name := range tc.seeds {
			seeds = append(seeds, Seed(name, Allocatable(1)))
			shoots = append(shoots, hosting(name, "on-"+name, 1)...)
		}
		answer, err := plan.Capacity(context.Background(), fixture.Landscape(t, seeds, shoots), plan.Policy{Target: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		if len(answer.Unplaceable) != 1 || !strings.HasPrefix(answer.Unplaceable[0].Message, tc.want) {
			t.Errorf("%d seeds: unplaceable %+v, want one whose message starts %q", len(tc.seeds), answer.Unplaceable, tc.want)
		}
	}
}

// Each unplaceable shoot is told about the kind of seed its own region lacks, also when shoots of several regions
// fail their filters alike and so share one evaluation; a shoot whose cloud profile is missing, or whose seed
// selector does not convert, is told that no kind of seed helps.
func TestCapacityUnplaceableNamesTheShootsOwnRegion(t *testing.T) {
	selectingNothing := func(s *gardencorev1beta1.Shoot) {
		s.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"absent": "label"}}}
	}
	selectingInvalidly := func(s *gardencorev1beta1.Shoot) { s.Spec.SeedSelector = InvalidSeedSelector() }
	profileGone := func(s *gardencorev1beta1.Shoot) { s.Spec.CloudProfile.Name = "gone" }
	seeds := []*gardencorev1beta1.Seed{
		Seed("eu", Allocatable(10)),
		Seed("us", Allocatable(10), InRegion("aws", "us-east-1"), func(s *gardencorev1beta1.Seed) { s.Spec.Provider.Zones = []string{"us-east-1a"} }),
	}
	shoots := []*gardencorev1beta1.Shoot{
		Shoot("in-eu", selectingNothing),
		Shoot("in-us", selectingNothing, Region("us-east-1"), func(s *gardencorev1beta1.Shoot) { s.Spec.Provider.Workers[0].Zones = []string{"us-east-1a"} }),
		Shoot("unresolved", profileGone),
		Shoot("invalid", selectingInvalidly),
	}
	answer, err := plan.Capacity(context.Background(), fixture.Landscape(t, seeds, shoots), plan.Policy{Target: 0.8})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"garden-dev/in-eu":      "it needs a new kind of seed (provider aws, region eu-central-1): new seeds like eu would fail ShootSeedSelector",
		"garden-dev/in-us":      "it needs a new kind of seed (provider aws, region us-east-1): new seeds like us would fail ShootSeedSelector",
		"garden-dev/unresolved": `cloudprofiles.core.gardener.cloud "gone" not found; no kind of seed takes the shoot while its reference is missing`,
		"garden-dev/invalid":    `"Likes" is not a valid label selector operator; no kind of seed takes the shoot while the Shoot's seed selector is invalid`,
	}
	if len(answer.Unplaceable) != len(want) {
		t.Fatalf("unplaceable %+v, want %d shoots", answer.Unplaceable, len(want))
	}
	for _, u := range answer.Unplaceable {
		if !strings.Contains(u.Message, want[u.Shoot]) {
			t.Errorf("%s: %q, want it to say %q", u.Shoot, u.Message, want[u.Shoot])
		}
	}
}

// A shoot whose region has no seed new ones could be made like is told why: the region has none, or each of its
// seeds is unusable, takes any number of shoots already, or has no room at the target.
func TestCapacityUnplaceableSaysWhyNoSeedOfItsRegionIsCopied(t *testing.T) {
	elsewhere := Seed("elsewhere", Allocatable(10), InRegion("aws", "eu-west-1"))
	tests := []struct {
		name  string
		seeds []*gardencorev1beta1.Seed
		want  string
	}{
		{
			name:  "the region has no seed",
			seeds: []*gardencorev1beta1.Seed{elsewhere},
			want:  "it needs a new kind of seed (provider aws, region eu-central-1): the region has no seed to copy",
		},
		{
			name: "no seed of the region can be a model",
			seeds: []*gardencorev1beta1.Seed{elsewhere,
				Seed("cordoned", Allocatable(10), func(s *gardencorev1beta1.Seed) { s.Spec.Settings.Scheduling.Visible = false }),
				Seed("open", Tainted("dedicated")), Seed("tiny", Allocatable(1)),
			},
			want: "it needs a new kind of seed (provider aws, region eu-central-1): no seed of the region can be copied (" +
				"cordoned: seed is not visible for scheduling (spec.settings.scheduling.visible); " +
				"open: it has no allocatable shoots, so it takes any number already; tiny: its allocatable shoots leave no room at 0.80 utilization)",
		},
		{
			// Gardener reads 500m as 1, no room at the target; a copy would carry the same status that says no number.
			name:  "a seed whose allocatable is no whole number is no model",
			seeds: []*gardencorev1beta1.Seed{elsewhere, Seed("fractional", AllocatableWritten("500m"))},
			want: "it needs a new kind of seed (provider aws, region eu-central-1): no seed of the region can be copied (" +
				"fractional: its allocatable shoots are not a whole number, so they do not say how many shoots a copy would take)",
		},
		{
			name: "the first three are named",
			seeds: []*gardencorev1beta1.Seed{elsewhere,
				Seed("tiny-1", Allocatable(1)), Seed("tiny-2", Allocatable(1)), Seed("tiny-3", Allocatable(1)), Seed("tiny-4", Allocatable(1)), Seed("tiny-5", Allocatable(1)),
			},
			want: "; tiny-3: its allocatable shoots leave no room at 0.80 utilization; and 2 more)",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			shoots := []*gardencorev1beta1.Shoot{Shoot("in-eu")}
			answer, err := plan.Capacity(context.Background(), fixture.Landscape(t, tc.seeds, shoots), plan.Policy{Target: 0.8})
			if err != nil {
				t.Fatal(err)
			}
			if len(answer.Unplaceable) != 1 || !strings.HasSuffix(answer.Unplaceable[0].Message, tc.want) {
				t.Errorf("unplaceable %+v, want one whose message ends %q", answer.Unplaceable, tc.want)
			}
		})
	}
}

// Of several kinds of seed in the shoot's region, the advice names the one the filter chain rejects last, which
// came closest to taking the shoot — here the one that fails Gardener's error's own filter, not the first by name
// that fails the seed selector before it.
func TestCapacityUnplaceableNamesTheClosestKind(t *testing.T) {
	prod := func(s *gardencorev1beta1.Seed) { s.Labels = map[string]string{"environment": "prod"} }
	seeds := []*gardencorev1beta1.Seed{Seed("eu-a", Allocatable(10)), Seed("eu-b", Allocatable(10), prod)}
	shoot := Shoot("restricted", func(s *gardencorev1beta1.Shoot) {
		s.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"environment": "prod"}}}
		s.Spec.AccessRestrictions = []gardencorev1beta1.AccessRestrictionWithOptions{{AccessRestriction: gardencorev1beta1.AccessRestriction{Name: "eu-access-only"}}}
	})
	answer, err := plan.Capacity(context.Background(), fixture.Landscape(t, seeds, []*gardencorev1beta1.Shoot{shoot}), plan.Policy{Target: 0.8})
	if err != nil {
		t.Fatal(err)
	}
	want := "none of the 1 seeds supports the access restrictions configured in the shoot specification; " +
		"it needs a new kind of seed (provider aws, region eu-central-1): new seeds like eu-b would fail AccessRestrictions"
	if len(answer.Unplaceable) != 1 || !strings.HasPrefix(answer.Unplaceable[0].Message, want) {
		t.Errorf("unplaceable %+v, want one whose message starts %q", answer.Unplaceable, want)
	}
}

// The chain stops at the first predicate a seed fails; a new kind of seed must pass the later ones too, and the
// advice names every later predicate the closest kind fails, each asked on its own, and only those.
func TestCapacityUnplaceableNamesEveryPredicateTheKindFails(t *testing.T) {
	restricted := func(s *gardencorev1beta1.Shoot) {
		s.Spec.AccessRestrictions = []gardencorev1beta1.AccessRestrictionWithOptions{{AccessRestriction: gardencorev1beta1.AccessRestriction{Name: "eu-access-only"}}}
	}
	const accessRestrictions = "new seeds like eu would fail AccessRestrictions: seed does not support the access restriction (the shoot lists 1, the seed supports 0)"
	for _, tc := range []struct {
		name  string
		seed  *gardencorev1beta1.Seed
		shoot *gardencorev1beta1.Shoot
		want  string
	}{
		{"one predicate", Seed("eu", Allocatable(10)), Shoot("s", restricted), accessRestrictions},
		{"and a later one", Seed("eu", Allocatable(10), Tainted("dedicated")), Shoot("s", restricted),
			accessRestrictions + "; they would also fail Tolerations: shoot does not tolerate the seed's taints"},
		{"and two", Seed("eu", Allocatable(10), Tainted("dedicated"), Annotated(v1beta1constants.AnnotationEmergencyStopShootReconciliations, "true")), Shoot("s", restricted),
			accessRestrictions + "; they would also fail EmergencyStop: seed has shoot reconciliations stopped (" + v1beta1constants.AnnotationEmergencyStopShootReconciliations +
				`: "true"); and Tolerations: shoot does not tolerate the seed's taints`},
	} {
		answer, err := plan.Capacity(context.Background(), fixture.Landscape(t, []*gardencorev1beta1.Seed{tc.seed}, []*gardencorev1beta1.Shoot{tc.shoot}), plan.Policy{Target: 0.8})
		if err != nil {
			t.Fatal(err)
		}
		if len(answer.Unplaceable) != 1 {
			t.Fatalf("%s: unplaceable %+v, want the shoot", tc.name, answer.Unplaceable)
		}
		_, advice, _ := strings.Cut(answer.Unplaceable[0].Message, "(provider aws, region eu-central-1): ")
		if !strings.HasPrefix(advice, tc.want) || tc.name == "one predicate" && advice != tc.want {
			t.Errorf("%s: advice %q, want %q", tc.name, advice, tc.want)
		}
	}
}

// A shoot whose own networks meet Gardener's reserved ranges is taken by no seed whatever its kind: capacity says
// so, not which kind it lacks.
func TestCapacityUnplaceableOnItsOwnNetworksLacksNoKind(t *testing.T) {
	reserved := func(s *gardencorev1beta1.Shoot) {
		s.Spec.Networking = &gardencorev1beta1.Networking{Nodes: new("242.1.0.0/16"), IPFamilies: []gardencorev1beta1.IPFamily{gardencorev1beta1.IPFamilyIPv4}}
	}
	answer, err := plan.Capacity(context.Background(), fixture.Landscape(t, []*gardencorev1beta1.Seed{Seed("eu", Allocatable(10))}, []*gardencorev1beta1.Shoot{Shoot("s", reserved)}), plan.Policy{Target: 0.8})
	if err != nil {
		t.Fatal(err)
	}
	want := `; no kind of seed takes the shoot while its own networks are invalid: invalid networks: [Invalid value: "242.1.0.0/16": node network intersects with reserved shoot node network mapping range (242.0.0.0/8)]`
	if len(answer.Unplaceable) != 1 || !strings.HasSuffix(answer.Unplaceable[0].Message, want) || answer.Unplaceable[0].Reason != "Networks" {
		t.Errorf("unplaceable %+v, want the shoot, for Networks, its message ending %q", answer.Unplaceable, want)
	}
}

// A shoot whose filters leave no seed, new seeds like the existing ones included, is told Gardener's error as the
// landscape gives it, as schedule tells it: the seeds Gardener's message counts are the landscape's, not also the
// candidates that stand for new seeds.
func TestCapacityUnplaceableGivesGardenersErrorForTheLandscape(t *testing.T) {
	twoZones := func(s *gardencorev1beta1.Seed) { s.Spec.Provider.Zones = s.Spec.Provider.Zones[:2] }
	seeds := []*gardencorev1beta1.Seed{
		Seed("eu-a", Allocatable(10), twoZones), Seed("eu-b", Allocatable(10), twoZones),
		Seed("us", Allocatable(10), InRegion("aws", "us-east-1"), twoZones),
	}
	shoots := []*gardencorev1beta1.Shoot{
		Shoot("selecting-nothing", func(s *gardencorev1beta1.Shoot) {
			s.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"absent": "label"}}}
		}),
		Shoot("zonal", func(s *gardencorev1beta1.Shoot) {
			s.Spec.ControlPlane = &gardencorev1beta1.ControlPlane{HighAvailability: &gardencorev1beta1.HighAvailability{
				FailureTolerance: gardencorev1beta1.FailureTolerance{Type: gardencorev1beta1.FailureToleranceTypeZone}}}
		}),
		Shoot("of-another-provider", func(s *gardencorev1beta1.Shoot) { s.Spec.Provider.Type = "gcp" }),
	}
	snap := fixture.Landscape(t, seeds, shoots)
	scheduled, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), plan.Policy{Solver: solver.Greedy{}})
	if err != nil {
		t.Fatal(err)
	}
	answer, err := plan.Capacity(context.Background(), snap, plan.Policy{Target: 0.8})
	if err != nil {
		t.Fatal(err)
	}
	gardeners := map[string]string{}
	for _, u := range scheduled.Plan.Unschedulable {
		gardeners[u.Shoot] = u.Message
	}
	if len(answer.Unplaceable) != len(shoots) || len(gardeners) != len(shoots) {
		t.Fatalf("unplaceable %+v, unschedulable %v; want every shoot in both", answer.Unplaceable, gardeners)
	}
	for _, u := range answer.Unplaceable {
		if message, _, _ := strings.Cut(u.Message, "; "); message != gardeners[u.Shoot] {
			t.Errorf("%s: capacity says %q, want Gardener's error as schedule gives it, %q", u.Shoot, u.Message, gardeners[u.Shoot])
		}
	}
}

// Capacity under a scheduler name no shoot waits for counts the shoots pending for the other names, as schedule
// does; under the name they wait for it counts none.
func TestCapacityCountsShootsPendingForOtherSchedulers(t *testing.T) {
	snap := fixture.Landscape(t, []*gardencorev1beta1.Seed{Seed("eu", Allocatable(10))},
		append(pending("mine", 2), pending("theirs", 3, ScheduledBy("their-scheduler"))...))
	for _, tc := range []struct {
		scheduler string
		want      map[string]int
	}{
		{"default-scheduler", nil},
		{"nobody", map[string]int{"default-scheduler": 2, "their-scheduler": 3}},
	} {
		answer, err := plan.Capacity(context.Background(), snap, plan.Policy{Options: model.Options{SchedulerName: tc.scheduler}, Target: 0.8})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(answer.PendingForOthers) != fmt.Sprint(tc.want) {
			t.Errorf("scheduler %s: pending for others %v, want %v", tc.scheduler, answer.PendingForOthers, tc.want)
		}
	}
}

// New seeds like a replica of a ManagedSeedSet (<set>-<ordinal> in namespace garden) are replicas to add to the
// set; seeds named like a set elsewhere, or with no ordinal, are not its replicas.
func TestCapacityManagedSeedSetReplicas(t *testing.T) {
	set := func(namespace, name string, replicas int32) *seedmanagementv1alpha1.ManagedSeedSet {
		return &seedmanagementv1alpha1.ManagedSeedSet{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
			Spec: seedmanagementv1alpha1.ManagedSeedSetSpec{Replicas: &replicas}}
	}
	for _, tc := range []struct {
		name string
		sets []*seedmanagementv1alpha1.ManagedSeedSet
		want string
	}{
		{"a replica of the set", []*seedmanagementv1alpha1.ManagedSeedSet{set("garden", "edge", 2)}, "[{garden/edge 2 2}]"},
		{"a set of that name in another namespace", []*seedmanagementv1alpha1.ManagedSeedSet{set("garden-other", "edge", 2)}, "[]"},
		{"a set whose name is a prefix, without an ordinal", []*seedmanagementv1alpha1.ManagedSeedSet{set("garden", "ed", 2)}, "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seeds := []*gardencorev1beta1.Seed{Seed("edge-0", Allocatable(10)), Seed("edge-1", Allocatable(10))}
			snap := fixture.Landscape(t, seeds, pending("p", 30), func(o *model.Objects) { o.ManagedSeedSets = tc.sets })
			answer, err := plan.Capacity(context.Background(), snap, plan.Policy{Target: 0.8})
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, s := range answer.ManagedSeedSets {
				got = append(got, fmt.Sprint(s))
			}
			if answer.Total() != 2 || "["+strings.Join(got, " ")+"]" != tc.want {
				t.Fatalf("%d new seeds, sets %v; want 2 new seeds, sets %s", answer.Total(), got, tc.want)
			}
		})
	}
}
