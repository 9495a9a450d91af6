package model

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/seedplan/seedplan/internal/testobjects"
)

func TestUnmovableReason(t *testing.T) {
	tests := []struct {
		name  string
		shoot *gardencorev1beta1.Shoot
		want  string
	}{
		{"running", testShoot("s", boundTo("a"), testobjects.Running()), ""},
		{"not yet reconciled", testShoot("s", boundTo("a")), ""},
		{"deleting", testShoot("s", boundTo("a"), func(s *gardencorev1beta1.Shoot) { s.DeletionTimestamp = &metav1.Time{} }), "being deleted"},
		{"migrating", testShoot("s", boundTo("a"), func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("b") }), "already moving from b to a"},
		{"in a Migrate operation", testShoot("s", boundTo("a"), testobjects.Running(), func(s *gardencorev1beta1.Shoot) {
			s.Status.LastOperation = &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeMigrate, State: gardencorev1beta1.LastOperationStateSucceeded}
		}), "in a Migrate operation"},
		{"restoring", testShoot("s", boundTo("a"), testobjects.Running(), func(s *gardencorev1beta1.Shoot) {
			s.Status.LastOperation = &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeRestore, State: gardencorev1beta1.LastOperationStateProcessing}
		}), "in a Restore operation"},
		{"another scheduler", testShoot("s", boundTo("a"), func(s *gardencorev1beta1.Shoot) { s.Spec.SchedulerName = new("custom") }), `scheduled by "custom"`},
		{"opted out", testShoot("s", boundTo("a"), testobjects.Running(), func(s *gardencorev1beta1.Shoot) {
			s.Annotations = map[string]string{AnnotationRebalance: "false"}
		}), "opts out of rebalancing"},
		{"self-hosted", testShoot("s", boundTo("a"), func(s *gardencorev1beta1.Shoot) {
			s.Spec.Provider.Workers[0].ControlPlane = &gardencorev1beta1.WorkerControlPlane{}
		}), "hosts its own control plane"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := UnmovableReason(tc.shoot, "default-scheduler")
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("%q, want %q", got, tc.want)
			}
		})
	}
}

// A control plane migrates from the binding to another seed until its Restore there has succeeded; a first
// binding, a reconcile or a finished restore is none.
func TestMigration(t *testing.T) {
	operation := func(kind gardencorev1beta1.LastOperationType, state gardencorev1beta1.LastOperationState) func(*gardencorev1beta1.Shoot) {
		return func(s *gardencorev1beta1.Shoot) {
			s.Status.LastOperation = &gardencorev1beta1.LastOperation{Type: kind, State: state}
		}
	}
	tests := []struct {
		name      string
		shoot     *gardencorev1beta1.Shoot
		from, to  string
		migrating bool
	}{
		{"pending", testShoot("s"), "", "", false},
		{"bound, not yet reconciled", testShoot("s", boundTo("a"), operation(gardencorev1beta1.LastOperationTypeCreate, gardencorev1beta1.LastOperationStateProcessing)), "", "a", false},
		{"running, reconciling", testShoot("s", boundTo("a"), testobjects.Running(), operation(gardencorev1beta1.LastOperationTypeReconcile, gardencorev1beta1.LastOperationStateProcessing)), "", "a", false},
		{"rebound, still on the old seed", testShoot("s", boundTo("a"), func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("b") }), "b", "a", true},
		{"migrating off the old seed", testShoot("s", boundTo("a"), func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("b") },
			operation(gardencorev1beta1.LastOperationTypeMigrate, gardencorev1beta1.LastOperationStateProcessing)), "b", "a", true},
		{"restoring on the new seed", testShoot("s", boundTo("a"), testobjects.Running(), operation(gardencorev1beta1.LastOperationTypeRestore, gardencorev1beta1.LastOperationStateProcessing)), "", "a", true},
		{"restored", testShoot("s", boundTo("a"), testobjects.Running(), operation(gardencorev1beta1.LastOperationTypeRestore, gardencorev1beta1.LastOperationStateSucceeded)), "", "a", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if from, to, migrating := Migration(tc.shoot); from != tc.from || to != tc.to || migrating != tc.migrating {
				t.Errorf("Migration = %q, %q, %v; want %q, %q, %v", from, to, migrating, tc.from, tc.to, tc.migrating)
			}
		})
	}
}

// The gardener-apiserver's ShootValidator rules for rebinding (v1.150), each with Gardener's wording.
func TestMigrationReason(t *testing.T) {
	withDNS := func(internal string, defaults ...string) seedOption {
		return func(s *gardencorev1beta1.Seed) {
			if internal != "" {
				s.Spec.DNS.Internal = &gardencorev1beta1.SeedDNSProviderConfig{Domain: internal}
			}
			for _, d := range defaults {
				s.Spec.DNS.Defaults = append(s.Spec.DNS.Defaults, gardencorev1beta1.SeedDNSProviderConfig{Domain: d})
			}
		}
	}
	domain := func(d string) shootOption {
		return func(s *gardencorev1beta1.Shoot) { s.Spec.DNS = &gardencorev1beta1.DNS{Domain: new(d)} }
	}
	backup := testobjects.WithBackup()
	tests := []struct {
		name     string
		shoot    *gardencorev1beta1.Shoot
		from, to *gardencorev1beta1.Seed
		want     string
	}{
		{"both with backup", testShoot("s"), testSeed("a", backup), testSeed("b", backup), ""},
		{"old seed without backup", testShoot("s"), testSeed("a"), testSeed("b", backup), `backup is not configured for old seed "a"`},
		{"new seed without backup", testShoot("s"), testSeed("a", backup), testSeed("b"), `backup is not configured for seed "b"`},
		{"internal domain changes", testShoot("s"), testSeed("a", backup, withDNS("int.a")), testSeed("b", backup, withDNS("int.b")), `internal domain would change from "int.a" to "int.b"`},
		{"default domain kept", testShoot("s", domain("s.dev.example.com")), testSeed("a", backup, withDNS("", "example.com")), testSeed("b", backup, withDNS("", "other.com", "example.com")), ""},
		{"default domain lost", testShoot("s", domain("s.dev.example.com")), testSeed("a", backup, withDNS("", "example.com")), testSeed("b", backup, withDNS("", "other.com")), `uses the default domain "example.com"`},
		{"own domain", testShoot("s", domain("s.mine.org")), testSeed("a", backup, withDNS("", "example.com")), testSeed("b", backup), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := MigrationReason(tc.shoot, tc.from, tc.to)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("%q, want %q", got, tc.want)
			}
		})
	}
}

func TestTargetLimit(t *testing.T) {
	tests := []struct {
		allocatable int64
		target      float64
		want        int
	}{{10, 0.8, 8}, {10, 1, 10}, {7, 0.5, 3}, {3, 0.1, 0}, {100, 0.7, 70},
		// 2^63−1 and its neighbours become 2^63 as floats, which no int holds.
		{math.MaxInt64, 1, math.MaxInt64}, {math.MaxInt64 - 1, 1, math.MaxInt64 - 1}, {math.MaxInt64, 0.5, 1 << 62}}
	for _, tc := range tests {
		if got := TargetLimit(testSeed("s", allocatable(tc.allocatable)), tc.target); got != tc.want {
			t.Errorf("TargetLimit(%d, %v) = %d, want %d", tc.allocatable, tc.target, got, tc.want)
		}
	}
	if got := TargetLimit(testSeed("s"), 0.8); got != Unlimited {
		t.Errorf("a seed without allocatable: %d", got)
	}
}

// VerifyMoves finds every kind of bad move on its own.
func TestVerifyMoves(t *testing.T) {
	backup := testobjects.WithBackup()
	seeds := []*gardencorev1beta1.Seed{
		testSeed("a", backup, allocatable(4)), testSeed("b", backup, allocatable(2)),
		testSeed("c", allocatable(10)), testSeed("d", backup, allocatable(10), testobjects.InRegion("aws", "us-east-1")),
	}
	var shoots []*gardencorev1beta1.Shoot
	for _, name := range []string{"s1", "s2", "s3", "s4", "s5", "s6"} {
		shoots = append(shoots, testShoot(name, boundTo("a"), testobjects.Running()))
	}
	shoots = append(shoots, testShoot("mig", boundTo("a"), func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("b") }))
	snap := testLandscape(seeds, shoots)
	target := RebalanceOptions{TargetUtilization: 1}
	move := func(shoot, from, to string) Move { return Move{Shoot: "garden-dev/" + shoot, From: from, To: to} }
	if err := VerifyMoves(snap, Options{}, target, []Move{move("s1", "a", "b")}); err != nil {
		t.Fatalf("a good move: %v", err)
	}
	// Without a region ConfigMap, Gardener's edit distance: eu-:-1 to us-:-1 is 2, doubled, and 2 more for central
	// against east.
	far := move("s1", "a", "d")
	far.Distance = 6
	if err := VerifyMoves(snap, Options{Strategy: MinimalDistance}, target, []Move{far}); err != nil {
		t.Fatalf("a good move to another region: %v", err)
	}
	bad := []Move{
		move("s1", "a", "b"), move("s1", "a", "b"), // twice
		move("s2", "a", "b"),   // b: 1 (mig) + 2 > 2
		move("s3", "a", "c"),   // c has no backup
		move("s4", "a", "d"),   // SameRegion
		move("mig", "a", "b"),  // migrating
		move("nope", "a", "b"), // unknown
		move("s5", "b", "a"),   // wrong source
		{Shoot: "garden-dev/s6", From: "a", To: "b", Distance: 3}, // b is in a's region
	}
	err := VerifyMoves(snap, Options{}, target, bad)
	for _, want := range []string{"moved more than once", "seed b: would end above its target", `backup is not configured for seed "c"`,
		"violates predicate Strategy", "already moving", "shoot garden-dev/nope: not in the landscape", `is on seed "a", not "b"`,
		"shoot garden-dev/s6 → seed b: moves 0 far, not the 3 the move states"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("VerifyMoves missed %q: %v", want, err)
		}
	}
}

// Unresolved is per seed what moves leave unresolved: the excess over the limit after every move out and in, and
// the shoots that must leave and did not; Count is whichever is more.
func TestUnresolved(t *testing.T) {
	backup := testobjects.WithBackup()
	retiring := testobjects.Annotated(AnnotationTaintEffects, "retire=NoExecute")
	seeds := []*gardencorev1beta1.Seed{
		testSeed("a", backup, allocatable(4), testobjects.Tainted("retire"), retiring), testSeed("b", backup, allocatable(4)),
		testSeed("c", backup, allocatable(10)),
	}
	var shoots []*gardencorev1beta1.Shoot
	for _, name := range []string{"a1", "a2", "a3", "a4", "a5"} { // a: one above its limit, a1 and a2 must leave
		opts := []testobjects.ShootOption{boundTo("a"), testobjects.Running()}
		if name != "a1" && name != "a2" {
			opts = append(opts, testobjects.Tolerating("retire"))
		}
		shoots = append(shoots, testShoot(name, opts...))
	}
	for _, name := range []string{"b1", "b2", "b3"} {
		shoots = append(shoots, testShoot(name, boundTo("b"), testobjects.Running()))
	}
	r, err := NewRebalancing(testLandscape(seeds, shoots), Options{}, RebalanceOptions{TargetUtilization: 1})
	if err != nil {
		t.Fatal(err)
	}
	move := func(shoot, from, to string) Move { return Move{Shoot: "garden-dev/" + shoot, From: from, To: to} }
	tests := []struct {
		name  string
		moves []Move
		want  []Unresolved
	}{
		{"nothing moved: a has 2 to leave and is 1 above its limit", nil, []Unresolved{{Above: 1, Stuck: 2}, {}, {}}},
		{"a tolerating shoot leaves: the excess is gone, the 2 must still leave", []Move{move("a3", "a", "c")}, []Unresolved{{Stuck: 2}, {}, {}}},
		{"one that must leave: 1 left, and that is all", []Move{move("a1", "a", "c")}, []Unresolved{{Stuck: 1}, {}, {}}},
		{"both leave", []Move{move("a1", "a", "c"), move("a2", "a", "c")}, []Unresolved{{}, {}, {}}},
		{"moved into a seed beyond its limit: that seed's excess counts", []Move{move("a1", "a", "b"), move("a2", "a", "b")}, []Unresolved{{}, {Above: 1}, {}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := r.Unresolved(tc.moves); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("Unresolved = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// A seed above its target sheds the excess, unless its allocatable is no whole number of shoots: Gardener reads
// -3 or 1e30 as a full seed, and so does the plan (no room), but a status that does not say how many shoots the
// seed takes moves none off it.
func TestSeedLoadOfAnAllocatableNotWhole(t *testing.T) {
	for _, tc := range []struct {
		allocatable  string
		excess, room int
	}{
		{"2", 3, 0},
		{"-3", 0, 0},
		{"1e30", 0, 0},
		{"1500m", 0, 0},
		{"8500m", 0, 4},
	} {
		seed := testSeed("a", testobjects.AllocatableWritten(tc.allocatable))
		t.Run(tc.allocatable, func(t *testing.T) {
			var shoots []*gardencorev1beta1.Shoot
			for i := range 5 {
				shoots = append(shoots, testShoot(fmt.Sprint("s", i), boundTo("a"), testobjects.Running()))
			}
			snap := testLandscape([]*gardencorev1beta1.Seed{seed}, shoots)
			load := seedLoad(snap, snap.Seeds[0], RebalanceOptions{TargetUtilization: 1})
			if load.Excess() != tc.excess || load.Room != tc.room {
				t.Errorf("excess %d, room %d; want %d, %d", load.Excess(), load.Room, tc.excess, tc.room)
			}
		})
	}
}

// An unhealthy seed's shoots must leave only once its condition has been bad for the grace period, counted from
// the condition's lastTransitionTime (the seed's creation when it never reported); inside the grace the seed says
// what is wrong and how long is left. A seed being deleted is evacuated at once.
func TestUnusableGrace(t *testing.T) {
	now := testobjects.Created.Add(time.Hour)
	notReady := func(ago time.Duration) seedOption {
		return func(s *gardencorev1beta1.Seed) {
			s.Status.Conditions = []gardencorev1beta1.Condition{{Type: gardencorev1beta1.GardenletReady, Status: gardencorev1beta1.ConditionFalse,
				LastTransitionTime: metav1.NewTime(now.Add(-ago))}}
		}
	}
	neverReported := func(ago time.Duration) seedOption {
		return func(s *gardencorev1beta1.Seed) {
			s.Status = gardencorev1beta1.SeedStatus{Allocatable: s.Status.Allocatable}
			s.CreationTimestamp = metav1.NewTime(now.Add(-ago))
		}
	}
	for _, tc := range []struct {
		name      string
		seed      seedOption
		leave     string // the Leave's detail, "" when the shoots may stay
		graceLeft time.Duration
	}{
		{"not ready for a minute: inside the grace", notReady(time.Minute), "", 4 * time.Minute},
		{"not ready for ten minutes: evacuated", notReady(10 * time.Minute),
			"seed condition GardenletReady is not True since " + now.Add(-10*time.Minute).UTC().Format(time.RFC3339), 0},
		{"brand new, no lastOperation yet: inside the grace", neverReported(30 * time.Second), "", 4*time.Minute + 30*time.Second},
		{"no lastOperation and no creation time (a file's seed): evacuated, since when unknown", func(s *gardencorev1beta1.Seed) {
			s.Status = gardencorev1beta1.SeedStatus{Allocatable: s.Status.Allocatable}
			s.CreationTimestamp = metav1.Time{}
		}, "seed has no status.lastOperation yet", 0},
		{"being deleted: at once", testobjects.Deleting(), "seed is being deleted", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := testLandscape([]*gardencorev1beta1.Seed{testSeed("sick", allocatable(10), tc.seed)}, nil)
			load := seedLoad(snap, snap.Seeds[0], RebalanceOptions{TargetUtilization: 0.8, UnusableGrace: DefaultUnusableGrace, Now: now})
			if load.Drain.Detail != tc.leave {
				t.Fatalf("leave %q, want %q", load.Drain.Detail, tc.leave)
			}
			switch {
			case tc.graceLeft == 0 && load.Grace != nil:
				t.Fatalf("in grace %+v, want none", load.Grace)
			case tc.graceLeft != 0 && (load.Grace == nil || load.Grace.Left != tc.graceLeft):
				t.Fatalf("grace %+v, want %v left", load.Grace, tc.graceLeft)
			}
		})
	}
}
