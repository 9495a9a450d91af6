package model

import (
	"fmt"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// maintenanceLayout is how Gardener writes a shoot's maintenance time window bounds: HHMMSS and a zone offset.
const maintenanceLayout = "150405-0700"

// MaintenanceStart is when a control plane migration of the shoot may start: now when the shoot's
// spec.maintenance.timeWindow is open at now, or when it has none; otherwise the window's next begin. A window
// whose end is not after its begin runs over midnight, as Gardener's do.
func MaintenanceStart(shoot *gardencorev1beta1.Shoot, now time.Time) (time.Time, error) {
	if shoot.Spec.Maintenance == nil || shoot.Spec.Maintenance.TimeWindow == nil {
		return now, nil
	}
	window := shoot.Spec.Maintenance.TimeWindow
	begin, err := time.Parse(maintenanceLayout, window.Begin)
	if err != nil {
		return time.Time{}, fmt.Errorf("spec.maintenance.timeWindow.begin %q: want HHMMSS+ZONE (e.g. 220000+0100): %w", window.Begin, err)
	}
	end, err := time.Parse(maintenanceLayout, window.End)
	if err != nil {
		return time.Time{}, fmt.Errorf("spec.maintenance.timeWindow.end %q: want HHMMSS+ZONE (e.g. 230000+0100): %w", window.End, err)
	}
	length := clockOf(end).Sub(clockOf(begin)) // both as UTC clock times of one day
	for length <= 0 {
		length += 24 * time.Hour
	}
	// The window that began last before now, and the next one.
	start := onDayOf(now, begin)
	for start.After(now) {
		start = start.Add(-24 * time.Hour)
	}
	if now.Before(start.Add(length)) {
		return now, nil
	}
	return start.Add(24 * time.Hour), nil
}

// clockOf is t's clock time on one fixed day, in UTC.
func clockOf(t time.Time) time.Time {
	u := t.UTC()
	return time.Date(2000, 1, 1, u.Hour(), u.Minute(), u.Second(), 0, time.UTC)
}

// onDayOf is the clock time of t (a parsed window bound, with its zone) on the UTC day of now.
func onDayOf(now, t time.Time) time.Time {
	c, day := clockOf(t), now.UTC()
	return time.Date(day.Year(), day.Month(), day.Day(), c.Hour(), c.Minute(), c.Second(), 0, time.UTC)
}
