package model

import (
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// A move may start inside the shoot's maintenance window, in the zone the window names, also over midnight;
// otherwise at the window's next begin.
func TestMaintenanceStart(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name, begin, end, now, want string
	}{
		{"inside", "220000+0000", "230000+0000", "2026-11-22T22:30:00Z", "2026-11-22T22:30:00Z"},
		{"before, the same day", "220000+0000", "230000+0000", "2026-11-22T10:00:00Z", "2026-11-22T22:00:00Z"},
		{"after: the next day", "220000+0000", "230000+0000", "2026-11-22T23:00:00Z", "2026-11-23T22:00:00Z"},
		{"in the window's zone", "220000+0100", "230000+0100", "2026-11-22T21:30:00Z", "2026-11-22T21:30:00Z"},
		{"over midnight, after it", "230000+0000", "010000+0000", "2026-11-23T00:30:00Z", "2026-11-23T00:30:00Z"},
		{"over midnight, before it", "230000+0000", "010000+0000", "2026-11-22T12:00:00Z", "2026-11-22T23:00:00Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shoot := testShoot("s")
			shoot.Spec.Maintenance = &gardencorev1beta1.Maintenance{TimeWindow: &gardencorev1beta1.MaintenanceTimeWindow{Begin: tc.begin, End: tc.end}}
			got, err := MaintenanceStart(shoot, at(tc.now))
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(at(tc.want)) {
				t.Fatalf("starts %s, want %s", got.UTC().Format(time.RFC3339), tc.want)
			}
		})
	}
	shoot := testShoot("s")
	if got, err := MaintenanceStart(shoot, at("2026-11-22T12:00:00Z")); err != nil || !got.Equal(at("2026-11-22T12:00:00Z")) {
		t.Fatalf("without a window: %v, %v; want now", got, err)
	}
	shoot.Spec.Maintenance = &gardencorev1beta1.Maintenance{TimeWindow: &gardencorev1beta1.MaintenanceTimeWindow{Begin: "10pm", End: "230000+0000"}}
	if _, err := MaintenanceStart(shoot, at("2026-11-22T12:00:00Z")); err == nil {
		t.Fatal("an unreadable window is no error")
	}
}

// Defaulting leaves a shoot without a maintenance window without one — Gardener's defaulting would draw a random
// one, and the same landscape must give the same plan — and keeps a window the shoot has.
func TestDefaultingKeepsMaintenanceWindows(t *testing.T) {
	defaulter, err := NewDefaulter()
	if err != nil {
		t.Fatal(err)
	}
	without := testShoot("without")
	with := testShoot("with")
	with.Spec.Maintenance = &gardencorev1beta1.Maintenance{TimeWindow: &gardencorev1beta1.MaintenanceTimeWindow{Begin: "220000+0000", End: "230000+0000"}}
	defaulter.Default(without)
	defaulter.Default(with)
	if without.Spec.Maintenance != nil && without.Spec.Maintenance.TimeWindow != nil {
		t.Fatalf("a shoot without a window got %+v", without.Spec.Maintenance.TimeWindow)
	}
	if w := with.Spec.Maintenance.TimeWindow; w == nil || w.Begin != "220000+0000" {
		t.Fatalf("the shoot's window became %+v", w)
	}
}
