package plan_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/internal/fixture"
	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// defaultPolicy is the policy of the default configuration, with the strategy given.
func defaultPolicy(t *testing.T, strategy model.Strategy) plan.Policy {
	t.Helper()
	c := config.Default()
	c.Strategy = string(strategy)
	p, err := plan.NewPolicy(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Headroom: under the default policy a shoot goes above its nearest seed's target only when no seed it may use
// has room at or below its own; without a target, distance first fills the nearest seed to its allocatable.
func TestScheduleKeepsHeadroom(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{
		Seed("fra", Allocatable(10)), // eu-central-1, the shoots' region: 7 hosted, target 8
		Seed("zrh", InRegion("aws", "eu-central-2"), Allocatable(10)),
	}
	shoots := append(hosting("fra", "on-fra", 7), pending("p", 3)...)
	snap := fixture.Landscape(t, seeds, shoots)
	for _, tc := range []struct {
		name     string
		target   float64
		balanced bool
		want     map[string]int
	}{
		{"target 0.8: one to the target, the rest to the next region", 0.8, false, map[string]int{"fra": 1, "zrh": 2}},
		{"no target: the nearest region up to allocatable", 0, false, map[string]int{"fra": 3}},
		{"balanced weights: distance 1 is cheaper than fra's eighth tenth", 0.8, true, map[string]int{"zrh": 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := defaultPolicy(t, model.MinimalDistance)
			p.Target = tc.target
			if tc.balanced {
				p.Weights = solver.DefaultWeights()
				p.Solver = solver.LP{Weights: p.Weights}
			}
			o, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), p)
			if err != nil {
				t.Fatal(err)
			}
			if got := o.Plan.PlacedPerSeed(); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("placed %v, want %v", got, tc.want)
			}
		})
	}
}

// Fairness: when too little room exists, the shoots placed are chosen by priority — purpose in the configured
// order, then the older — even where others would be cheaper to place: here the low-priority shoots live in
// eu-central-1, next to the two free slots, and the high-priority one far away in us-east-1.
func TestSchedulePrioritizesUnderScarcity(t *testing.T) {
	purpose := func(p gardencorev1beta1.ShootPurpose) ShootOption {
		return func(s *gardencorev1beta1.Shoot) { s.Spec.Purpose = &p }
	}
	far := Region("us-east-1")
	tests := []struct {
		name   string
		shoots []*gardencorev1beta1.Shoot
		want   []string
	}{
		{"by purpose, the same age",
			[]*gardencorev1beta1.Shoot{
				Shoot("a-evaluation", purpose(gardencorev1beta1.ShootPurposeEvaluation)),
				Shoot("b-evaluation", purpose(gardencorev1beta1.ShootPurposeEvaluation)),
				Shoot("c-production", far, purpose(gardencorev1beta1.ShootPurposeProduction)),
			},
			[]string{"garden-dev/a-evaluation", "garden-dev/c-production"}},
		{"by age, the same purpose",
			[]*gardencorev1beta1.Shoot{
				Shoot("a", CreatedAfter(2*time.Second)), Shoot("b", CreatedAfter(time.Second)), Shoot("c-oldest", far),
			},
			[]string{"garden-dev/b", "garden-dev/c-oldest"}},
		{"purpose before age",
			[]*gardencorev1beta1.Shoot{
				Shoot("a-old-testing", purpose(gardencorev1beta1.ShootPurposeTesting)),
				Shoot("b-old-testing", purpose(gardencorev1beta1.ShootPurposeTesting)),
				Shoot("c-new-development", far, CreatedAfter(time.Hour), purpose(gardencorev1beta1.ShootPurposeDevelopment)),
			},
			[]string{"garden-dev/a-old-testing", "garden-dev/c-new-development"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			seeds := []*gardencorev1beta1.Seed{Seed("fra", Allocatable(1)), Seed("zrh", InRegion("aws", "eu-central-2"), Allocatable(1))}
			snap := fixture.Landscape(t, seeds, tc.shoots)
			o, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), defaultPolicy(t, model.MinimalDistance))
			if err != nil {
				t.Fatal(err)
			}
			var placed []string
			for _, p := range o.Plan.Placements {
				placed = append(placed, p.Shoot)
			}
			slices.Sort(placed)
			if fmt.Sprint(placed) != fmt.Sprint(tc.want) {
				t.Fatalf("placed %v, want %v", placed, tc.want)
			}
		})
	}
}

// TestHeadroomIsUnavoidable is the property test of the placement policy on random landscapes with room: the
// shoots a schedule plan places above their seed's target are exactly as many as must be — those placed beyond
// what capacity says fits at or below the target — and rebalancing the landscape the plan leaves moves none of
// the shoots it just placed.
func TestHeadroomIsUnavoidable(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		contention := []float64{0.5, 0.8, 1.0}[seed%3]
		t.Run(fmt.Sprintf("seed=%d/contention=%.1f", seed, contention), func(t *testing.T) {
			objs, err := generator.Generate(generator.Config{Seeds: 30, Shoots: 300, Existing: 300, Contention: contention, Seed: seed, Mix: generator.StressMix()})
			if err != nil {
				t.Fatal(err)
			}
			snap, err := model.NewSnapshot(objs)
			if err != nil {
				t.Fatal(err)
			}
			p := defaultPolicy(t, model.SameRegion)
			o, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), p)
			if err != nil {
				t.Fatal(err)
			}
			added := 0 // counted afresh from the plan: how far each seed ends above its target beyond where it was
			for name, n := range o.Plan.PlacedPerSeed() {
				seed := snap.Seed(name)
				limit, usage := model.TargetLimit(seed, p.Target), snap.Usage(name)
				if limit != model.Unlimited {
					added += max(usage+n-limit, 0) - max(usage-limit, 0)
				}
			}
			c, err := plan.Capacity(context.Background(), snap, p)
			if err != nil {
				t.Fatal(err)
			}
			if unavoidable := len(o.Plan.Placements) - c.OnExisting; added != unavoidable {
				t.Fatalf("the plan places %d shoots above their seed's target; %d placed, %d fit at or below it: %d were unavoidable",
					added, len(o.Plan.Placements), c.OnExisting, unavoidable)
			}

			placed := map[string]string{}
			for _, pl := range o.Plan.Placements {
				placed[pl.Shoot] = pl.Seed
			}
			after := objs
			after.Shoots = nil
			for _, shoot := range objs.Shoots {
				if seed := placed[model.ShootKey(shoot)]; seed != "" {
					shoot = shoot.DeepCopy()
					shoot.Spec.SeedName, shoot.Status.SeedName = &seed, &seed
				}
				after.Shoots = append(after.Shoots, shoot)
			}
			scheduled, err := model.NewSnapshot(after)
			if err != nil {
				t.Fatal(err)
			}
			r, err := plan.Rebalance(context.Background(), scheduled, p, model.RebalanceOptions{TargetUtilization: p.Target}, plan.MoveLimits{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d placed, %d above the target, all unavoidable; rebalancing then moves %d other shoots", len(o.Plan.Placements), added, len(r.Moves))
			for _, m := range r.Moves {
				if placed[m.Shoot] != "" {
					t.Errorf("rebalancing moves %s, which schedule just placed on %s, to %s", m.Shoot, m.From, m.To)
				}
			}
		})
	}
}
