package cluster_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/seedplan/seedplan/model"
)

// BenchmarkScheduleJob10k is the schedule job on the real control plane: 10,000 pending shoots over 500 seeds,
// one batch run, bound through the binding subresource; it reports bindings per second and then checks every
// binding independently (list everything, model.Verify). Run with -benchtime 1x (make bench-cluster): a
// landscape can be scheduled only once.
func BenchmarkScheduleJob10k(b *testing.B) {
	const seeds, shoots, allocatable = 500, 10_000, 25
	cp := garden.Get(b)
	ctx := context.Background()
	start := time.Now()
	namespace := cp.Landscape(b, "bench", slices.Repeat([]int64{allocatable}, seeds), shoots, "bench")
	b.Logf("created %d seeds and %d shoots through the API in %.0fs", seeds, shoots, time.Since(start).Seconds())
	before := snapshot(b, cp.Client)
	scheduler := newScheduler(b, cp.Client, namespace, false)
	scheduler.Binder.Concurrency = 32

	b.ResetTimer()
	start = time.Now()
	report, err := scheduler.RunJob(ctx, 3)
	elapsed := time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	bound := report.Bindings[model.Bound]
	if bound != shoots {
		b.Fatalf("bound %d of %d shoots (bindings %v)", bound, shoots, report.Bindings)
	}
	b.ReportMetric(float64(bound)/elapsed.Seconds(), "bindings/s")
	b.ReportMetric(report.Window.Seconds.Model, "model-s")
	b.ReportMetric(report.Window.Seconds.Solve, "solve-s")
	b.ReportMetric(report.Window.Seconds.Total, "read+plan-s")
	b.ReportMetric(elapsed.Seconds(), "job-s")
	if n := verifyBindings(b, cp.Client, before, namespace); n != shoots {
		b.Fatalf("independent check: %d shoots bound, want %d", n, shoots)
	}
}
