package model_test

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
)

// A scheduler places a shoot unless exactly one reason says otherwise, checked in this order: bound, being
// deleted, another scheduler's, self-hosted.
func TestWhyNotPending(t *testing.T) {
	for _, tc := range []struct {
		name      string
		shoot     *gardencorev1beta1.Shoot
		scheduler string
		want      model.NotPending
	}{
		{name: "pending, no scheduler name", shoot: Shoot("a"), scheduler: "default-scheduler"},
		{name: "pending, its scheduler named", shoot: Shoot("a", ScheduledBy("seedplan")), scheduler: "seedplan"},
		{name: "bound", shoot: Shoot("a", BoundTo("s")), scheduler: "default-scheduler", want: model.NotPendingBound},
		{name: "bound and deleting: bound first", shoot: Shoot("a", BoundTo("s"), BeingDeleted()), scheduler: "default-scheduler", want: model.NotPendingBound},
		{name: "deleting", shoot: Shoot("a", BeingDeleted()), scheduler: "default-scheduler", want: model.NotPendingDeleting},
		{name: "another scheduler's", shoot: Shoot("a", ScheduledBy("other")), scheduler: "default-scheduler", want: model.NotPendingOtherScheduler},
		{name: "no name is default-scheduler's", shoot: Shoot("a"), scheduler: "seedplan", want: model.NotPendingOtherScheduler},
		{name: "self-hosted", shoot: Shoot("a", SelfHosted()), scheduler: "default-scheduler", want: model.NotPendingSelfHosted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := model.WhyNotPending(tc.shoot, tc.scheduler); got != tc.want {
				t.Fatalf("WhyNotPending = %q, want %q", got, tc.want)
			}
			if model.IsPending(tc.shoot, tc.scheduler) != (tc.want == "") {
				t.Fatalf("IsPending disagrees with WhyNotPending %q", tc.want)
			}
		})
	}
}

// A shoot leaves a seed, and so frees room there, when it is deleted or stops counting on it: its control plane
// migrated away, or its binding undone; a binding or the start of a migration leaves none.
func TestLeavesASeed(t *testing.T) {
	onA := Shoot("s", BoundTo("a"))
	migrating := Shoot("s", BoundTo("b"), func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("a") })
	for _, tc := range []struct {
		name          string
		before, after *gardencorev1beta1.Shoot
		want          bool
	}{
		{"a bound shoot deleted", onA, nil, true},
		{"a pending shoot deleted", Shoot("s"), nil, false},
		{"a pending shoot bound", Shoot("s"), onA, false},
		{"a migration starts: counted on both", onA, migrating, false},
		{"a migration ends: it leaves the old seed", migrating, Shoot("s", BoundTo("b")), true},
		{"a migrating shoot deleted", migrating, nil, true},
		{"its status only refreshed", onA, onA.DeepCopy(), false},
	} {
		if got := model.LeavesASeed(tc.before, tc.after); got != tc.want {
			t.Errorf("%s: LeavesASeed = %v, want %v", tc.name, got, tc.want)
		}
	}
}
