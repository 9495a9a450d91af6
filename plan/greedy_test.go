package plan_test

import (
	"context"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// solveGreedy plans the pending shoots of a landscape with the greedy solver and checks the plan with Verify.
func solveGreedy(t *testing.T, opts model.Options, seeds []*gardencorev1beta1.Seed, shoots ...*gardencorev1beta1.Shoot) (*model.Plan, map[string]string) {
	t.Helper()
	plan := solve(t, solver.Greedy{}, window(t, opts, seeds, shoots...)).Plan
	decisions := map[string]string{}
	for _, p := range plan.Placements {
		decisions[strings.TrimPrefix(p.Shoot, "garden-dev/")] = p.Seed
	}
	for _, u := range plan.Unschedulable {
		decisions[strings.TrimPrefix(u.Shoot, "garden-dev/")] = "unschedulable: " + u.Message
	}
	return plan, decisions
}

// Spec §3.4: the seed with the fewest shoots wins, absolute counts, ties to the first seed by name; each
// placement counts before the next decision.
func TestGreedyLeastUtilized(t *testing.T) {
	for _, tc := range []struct {
		name   string
		seeds  []*gardencorev1beta1.Seed
		shoots []*gardencorev1beta1.Shoot
		want   map[string]string
	}{
		{
			name:   "tie goes to the first seed by name",
			seeds:  []*gardencorev1beta1.Seed{Seed("b"), Seed("a")},
			shoots: []*gardencorev1beta1.Shoot{Shoot("s1")},
			want:   map[string]string{"s1": "a"},
		},
		{
			name:   "fewest shoots, not lowest utilisation",
			seeds:  []*gardencorev1beta1.Seed{Seed("a", Allocatable(100)), Seed("b", Allocatable(3))},
			shoots: []*gardencorev1beta1.Shoot{Shoot("s1"), Shoot("x1", BoundTo("a")), Shoot("x2", BoundTo("a"))},
			want:   map[string]string{"s1": "b"},
		},
		{
			name:   "placements count for the next shoot, in creation order",
			seeds:  []*gardencorev1beta1.Seed{Seed("a"), Seed("b")},
			shoots: []*gardencorev1beta1.Shoot{Shoot("s3", CreatedAfter(2*time.Second)), Shoot("s1"), Shoot("s2", CreatedAfter(time.Second))},
			want:   map[string]string{"s1": "a", "s2": "b", "s3": "a"},
		},
		{
			name:  "a migrating shoot counts on both seeds",
			seeds: []*gardencorev1beta1.Seed{Seed("a"), Seed("b")},
			shoots: []*gardencorev1beta1.Shoot{Shoot("s1"), Shoot("m", BoundTo("b"), func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("a") }),
				Shoot("x", BoundTo("b"))},
			want: map[string]string{"s1": "a"},
		},
		{
			name:   "full seeds are skipped, and filled by the window",
			seeds:  []*gardencorev1beta1.Seed{Seed("a", Allocatable(1)), Seed("b", Allocatable(1))},
			shoots: []*gardencorev1beta1.Shoot{Shoot("s1"), Shoot("s2", CreatedAfter(time.Second)), Shoot("s3", CreatedAfter(2*time.Second))},
			want: map[string]string{"s1": "a", "s2": "b", "s3": "unschedulable: 0/2 seed cluster candidate(s) are eligible for scheduling: " +
				"{a => seed does not have available capacity for shoots, b => seed does not have available capacity for shoots}" +
				" (the free capacity of some candidate seeds was taken by other shoots of this window)"},
		},
		{
			name:   "capacity and taints are reported together",
			seeds:  []*gardencorev1beta1.Seed{Seed("a", Allocatable(0)), Seed("b", Tainted("protected"))},
			shoots: []*gardencorev1beta1.Shoot{Shoot("s1")},
			want: map[string]string{"s1": "unschedulable: 0/2 seed cluster candidate(s) are eligible for scheduling: " +
				"{a => seed does not have available capacity for shoots, b => shoot does not tolerate the seed's taints}"},
		},
		{
			// A seed status is not validated: Gardener reads Quantity.Value(), a fraction rounded up, and the window
			// counts with the same number.
			name:   "an allocatable of 2500m is 3 shoots",
			seeds:  []*gardencorev1beta1.Seed{Seed("a", AllocatableWritten("2500m"))},
			shoots: []*gardencorev1beta1.Shoot{Shoot("x1", BoundTo("a")), Shoot("x2", BoundTo("a")), Shoot("s1"), Shoot("s2", CreatedAfter(time.Second))},
			want: map[string]string{"s1": "a", "s2": "unschedulable: 0/1 seed cluster candidate(s) are eligible for scheduling: " +
				"{a => seed does not have available capacity for shoots} (the free capacity of some candidate seeds was taken by other shoots of this window)"},
		},
		{
			name:   "a negative allocatable admits no shoot, nor does one beyond int64 that Gardener reads as 0",
			seeds:  []*gardencorev1beta1.Seed{Seed("a", AllocatableWritten("-3")), Seed("b", AllocatableWritten("1e30"))},
			shoots: []*gardencorev1beta1.Shoot{Shoot("s1")},
			want: map[string]string{"s1": "unschedulable: 0/2 seed cluster candidate(s) are eligible for scheduling: " +
				"{a => seed does not have available capacity for shoots, b => seed does not have available capacity for shoots}"},
		},
		{
			name:   "SameRegion does not spill into another region",
			seeds:  []*gardencorev1beta1.Seed{Seed("fra", Allocatable(0)), Seed("dub", InRegion("aws", "eu-west-1"))},
			shoots: []*gardencorev1beta1.Shoot{Shoot("s1")},
			want:   map[string]string{"s1": "unschedulable: no matching seed candidate found for Configuration (Cloud Profile 'aws', Region 'eu-central-1', SeedDeterminationStrategy 'SameRegion')"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := solveGreedy(t, model.Options{}, tc.seeds, tc.shoots...)
			for shoot, want := range tc.want {
				if got[shoot] != want {
					t.Errorf("shoot %s: got %q\n want %q", shoot, got[shoot], want)
				}
			}
		})
	}
}

// Spec §3.1/§3.2: under MinimalDistance the nearest seed with room wins.
func TestGreedyMinimalDistanceSpillsToNearestRegion(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{
		Seed("fra", Allocatable(1)),
		Seed("zrh", InRegion("aws", "eu-central-2")),
		Seed("use", InRegion("aws", "us-east-1")),
	}
	_, got := solveGreedy(t, model.Options{Strategy: model.MinimalDistance}, seeds, Shoot("s1"), Shoot("s2", CreatedAfter(time.Second)))
	if got["s1"] != "fra" || got["s2"] != "zrh" {
		t.Fatalf("decisions %v, want s1→fra (own region) and s2→zrh (nearest by name)", got)
	}
}

// The greedy stops when its context is done.
func TestGreedyHonoursContext(t *testing.T) {
	w := window(t, model.Options{}, []*gardencorev1beta1.Seed{Seed("a")}, Shoot("s"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := plan.Solve(ctx, w, plan.Policy{Solver: solver.Greedy{}}); err == nil {
		t.Fatal("want an error from a cancelled context")
	}
}

// Spec §3.1: a malformed region ConfigMap entry fails MinimalDistance with Gardener's error, once some candidate
// has room; testing shoots ignore the strategy and are placed.
func TestGreedyMalformedRegionConfig(t *testing.T) {
	tester := Shoot("tester", func(s *gardencorev1beta1.Shoot) { s.Spec.Purpose = new(gardencorev1beta1.ShootPurposeTesting) })
	snap := fixture.Landscape(t, []*gardencorev1beta1.Seed{Seed("a")}, []*gardencorev1beta1.Shoot{Shoot("plain"), tester}, func(o *model.Objects) {
		o.ConfigMaps = []*corev1.ConfigMap{{
			ObjectMeta: metav1.ObjectMeta{Name: "regions", Namespace: "garden",
				Labels:      map[string]string{"scheduling.gardener.cloud/purpose": "region-config"},
				Annotations: map[string]string{"scheduling.gardener.cloud/cloudprofiles": "aws"}},
			Data: map[string]string{"eu-central-1": "eu-west-1: far"},
		}}
	})
	opts := model.Options{Strategy: model.MinimalDistance}
	w, err := model.NewWindow(snap, opts, snap.Pending("default-scheduler"))
	if err != nil {
		t.Fatal(err)
	}
	solution, err := plan.Solve(context.Background(), w, plan.Policy{Solver: solver.Greedy{}})
	if err != nil {
		t.Fatal(err)
	}
	got := solution.Plan
	if len(got.Placements) != 1 || got.Placements[0].Shoot != "garden-dev/tester" {
		t.Fatalf("want only the testing shoot placed, got %+v", got)
	}
	if u := got.Unschedulable; len(u) != 1 || !strings.HasPrefix(u[0].Message, `failed to determine seed candidates. Wrong format in region ConfigMap garden/regions, Region "eu-central-1": `) {
		t.Fatalf("want Gardener's wrong-format error, got %+v", u)
	}
	r, ok := w.Evaluations[0].Rejection("a")
	if !ok || r.Predicate != model.PredicateStrategy || !strings.Contains(r.Reason, "Wrong format") {
		t.Fatalf("the seed should be rejected by the strategy with the format error, got %+v %v", r, ok)
	}
}
