package metrics_test

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// seedplan_bindings_total counts the garden's answers to the bindings sent, every result exported from the start;
// a binding that seedplan's own stop left unsent or cut off is no such answer and is not counted.
func TestBindingsCountTheGardensAnswers(t *testing.T) {
	m := metrics.NewMetrics(false)
	m.ObserveBindings([]bind.Result{
		{Result: model.Bound}, {Result: model.Bound}, {Result: model.Failed}, {Result: model.Interrupted}, {Result: model.Interrupted},
	}, 0.1)
	want := map[string]float64{"bound": 2, "conflict": 0, "taken": 0, "gone": 0, "refused": 0, "failed": 1, "deferred": 0}
	if got := byLabel(t, m.Registry, "seedplan_bindings_total", "result"); !maps.Equal(got, want) {
		t.Errorf("seedplan_bindings_total = %v, want %v", got, want)
	}
}

// seedplan_landscape_warnings is how many warnings the landscape of the last window has, one per line the log
// gives them: an alert can tell of what the run loop logs once.
func TestLandscapeWarningsCountTheLastWindowsWarnings(t *testing.T) {
	m := metrics.NewMetrics(false)
	for _, tc := range []struct {
		warnings []string
		want     float64
	}{
		{[]string{"seed a: status.allocatable.shoots is 2500m, …", "region ConfigMap garden/regions: entry …"}, 2},
		{nil, 0},
	} {
		m.ObserveWindow(&report.Report{}, tc.warnings)
		if got := byLabel(t, m.Registry, "seedplan_landscape_warnings", ""); got[""] != tc.want {
			t.Errorf("after a window of %d warnings: seedplan_landscape_warnings = %v, want %v", len(tc.warnings), got, tc.want)
		}
	}
}

// A shadow's metrics (run --dry-run) count how its decisions compare with the bindings made, every outcome exported
// from the start, and have no seedplan_leader: a loop that binds nothing neither pages as one without a leader
// nor passes for a leading one.
func TestShadowMetrics(t *testing.T) {
	if got := byLabel(t, metrics.NewMetrics(true).Registry, "seedplan_leader", ""); len(got) != 1 {
		t.Fatalf("a run loop's seedplan_leader: %v", got)
	}
	m := metrics.NewShadowMetrics()
	m.SetLeader(true)
	m.ObserveShadowBinding(model.ShadowOtherSeed)
	m.ObserveShadowOtherSeed(model.ShadowFartherHere, model.ShadowEmptierHere)
	m.ObserveShadowUnschedulableThere()
	if got := byLabel(t, m.Registry, "seedplan_leader", ""); len(got) != 0 {
		t.Errorf("a shadow's seedplan_leader: %v, want none", got)
	}
	want := map[string]float64{"same-seed": 0, "other-seed": 1, "unschedulable-here": 0, "undecided": 0}
	if got := byLabel(t, m.Registry, "seedplan_shadow_bindings_total", "outcome"); !maps.Equal(got, want) {
		t.Errorf("seedplan_shadow_bindings_total = %v, want %v", got, want)
	}
	if got := byLabel(t, m.Registry, "seedplan_shadow_unschedulable_there_total", ""); got[""] != 1 {
		t.Errorf("seedplan_shadow_unschedulable_there_total = %v, want 1", got)
	}
	distances := map[string]float64{"nearer-here": 0, "as-near": 0, "farther-here": 1, "not-a-candidate-here": 0}
	if got := byLabel(t, m.Registry, "seedplan_shadow_other_seed_total", "distance"); !maps.Equal(got, distances) {
		t.Errorf("seedplan_shadow_other_seed_total by distance = %v, want %v", got, distances)
	}
	utilizations := map[string]float64{"emptier-here": 1, "as-full": 0, "fuller-here": 0, "not-comparable": 0}
	if got := byLabel(t, m.Registry, "seedplan_shadow_other_seed_total", "utilization"); !maps.Equal(got, utilizations) {
		t.Errorf("seedplan_shadow_other_seed_total by utilization = %v, want %v", got, utilizations)
	}
	m = metrics.NewMetrics(true)
	m.ObserveShadowOtherSeed(model.ShadowFartherHere, model.ShadowEmptierHere) // a loop that binds compares nothing
	if got := byLabel(t, m.Registry, "seedplan_shadow_other_seed_total", "distance"); len(got) != 0 {
		t.Errorf("a binding loop's seedplan_shadow_other_seed_total: %v, want none", got)
	}
}

// seedplan_greedy_duration_seconds is the time of the greedy plan the LP solver makes beside its own, the time
// below which its timeout cannot be kept; the greedy solver makes no plan beside its own, and no sample is taken.
func TestGreedyDurationTimesThePlanMadeBesideTheLP(t *testing.T) {
	m := metrics.NewMetrics(false)
	for _, seconds := range []report.Seconds{
		{Solve: 0.30, Greedy: 0.04}, // the LP's window
		{Solve: 0.05},               // the greedy solver's
		{Solve: 0.12, Greedy: 0.02}, // the LP's, after a fallback too
	} {
		m.ObserveWindow(&report.Report{Window: report.WindowReport{Seconds: seconds}}, nil)
	}
	count, sum := histogram(t, m.Registry, "seedplan_greedy_duration_seconds")
	if count != 2 || math.Abs(sum-0.06) > 1e-9 {
		t.Errorf("seedplan_greedy_duration_seconds: %d samples summing to %g, want 2 summing to 0.06", count, sum)
	}
}

// histogram is the sample count and sum of the unlabelled histogram of that name.
func histogram(t *testing.T, registry *prometheus.Registry, name string) (uint64, float64) {
	t.Helper()
	all := series(t, registry, name)
	if len(all) != 1 {
		t.Fatalf("%s: %d series, want one histogram", name, len(all))
	}
	h := all[0].GetHistogram()
	return h.GetSampleCount(), h.GetSampleSum()
}

// A scrape never sees a window half observed: the window that seedplan_window_shoots counts comes with its own
// seeds in seedplan_seed_shoots, not with the last window's or with none (ObserveWindow counts the window before
// it sets the seeds).
func TestGatherSeesWholeWindows(t *testing.T) {
	m := metrics.NewMetrics(true)
	// Windows are observed until the gatherings are done, so that every gathering runs beside them.
	const gatherings = 300
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for i := 1; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			seeds := []report.SeedReport{{Name: "a", Provider: "aws", Region: "eu-1", Usage: i}, {Name: "b", Provider: "aws", Region: "eu-1", Usage: i}}
			m.ObserveWindow(&report.Report{Seeds: seeds}, nil)
		}
	}()
	defer func() { close(stop); <-stopped }()
	for checked := 0; checked < gatherings; {
		families, err := m.Gather()
		if err != nil {
			t.Fatal(err)
		}
		var counted uint64
		var seeds []float64
		for _, family := range families {
			switch family.GetName() {
			case "seedplan_window_shoots":
				counted = family.GetMetric()[0].GetHistogram().GetSampleCount()
			case "seedplan_seed_shoots":
				for _, series := range family.GetMetric() {
					seeds = append(seeds, series.GetGauge().GetValue())
				}
			}
		}
		if counted == 0 {
			continue // before the first window
		}
		checked++
		if want := []float64{float64(counted), float64(counted)}; !slices.Equal(seeds, want) {
			t.Fatalf("a gathering after %d windows: seedplan_seed_shoots %v, want %v", counted, seeds, want)
		}
	}
}

// The per-seed series are the last window's seeds, each as that window left it: a seed without allocatable has no
// allocatable or utilization series, one with allocatable 0 no utilization, and a seed gone from the garden, or
// one whose provider or region changed, leaves no series behind.
func TestSeedSeriesAreTheLastWindowsSeeds(t *testing.T) {
	allocatable := func(n int64) *int64 { return &n }
	m := metrics.NewMetrics(false)
	for _, tc := range []struct {
		name  string
		seeds []report.SeedReport
		want  []string
	}{{
		name: "first window",
		seeds: []report.SeedReport{
			{Name: "a", Provider: "aws", Region: "eu-1", Usage: 3, Placed: 2, Allocatable: allocatable(10)},
			{Name: "b", Provider: "gcp", Region: "us-1", Usage: 5},
			{Name: "c", Provider: "aws", Region: "eu-1", Allocatable: allocatable(0)},
		},
		want: []string{
			"seedplan_seed_allocatable_shoots{a,aws,eu-1} 10", "seedplan_seed_allocatable_shoots{c,aws,eu-1} 0",
			"seedplan_seed_shoots{a,aws,eu-1} 5", "seedplan_seed_shoots{b,gcp,us-1} 5", "seedplan_seed_shoots{c,aws,eu-1} 0",
			"seedplan_seed_utilization_ratio{a,aws,eu-1} 0.5",
		},
	}, {
		name: "a gone, b given allocatable, c moved to another region",
		seeds: []report.SeedReport{
			{Name: "b", Provider: "gcp", Region: "us-1", Usage: 5, Allocatable: allocatable(20)},
			{Name: "c", Provider: "aws", Region: "eu-2", Usage: 1, Placed: 1, Allocatable: allocatable(4)},
		},
		want: []string{
			"seedplan_seed_allocatable_shoots{b,gcp,us-1} 20", "seedplan_seed_allocatable_shoots{c,aws,eu-2} 4",
			"seedplan_seed_shoots{b,gcp,us-1} 5", "seedplan_seed_shoots{c,aws,eu-2} 2",
			"seedplan_seed_utilization_ratio{b,gcp,us-1} 0.25", "seedplan_seed_utilization_ratio{c,aws,eu-2} 0.5",
		},
	}, {
		name:  "b loses its allocatable",
		seeds: []report.SeedReport{{Name: "b", Provider: "gcp", Region: "us-1", Usage: 5}},
		want:  []string{"seedplan_seed_shoots{b,gcp,us-1} 5"},
	}, {
		name: "no seeds",
	}} {
		m.ObserveWindow(&report.Report{Seeds: tc.seeds}, nil)
		if got := seedSeries(t, m); !slices.Equal(got, tc.want) {
			t.Errorf("%s: per-seed series\n%s\nwant\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// seedSeries are the per-seed series gathered, each written as name{seed,provider,region} value, in order.
func seedSeries(t *testing.T, m *metrics.Metrics) []string {
	t.Helper()
	families, err := m.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, family := range families {
		if !strings.HasPrefix(family.GetName(), "seedplan_seed_") {
			continue
		}
		for _, s := range family.GetMetric() {
			labels := map[string]string{}
			for _, l := range s.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			all = append(all, fmt.Sprintf("%s{%s,%s,%s} %g", family.GetName(), labels["seed"], labels["provider"], labels["region"], s.GetGauge().GetValue()))
		}
	}
	slices.Sort(all)
	return all
}

// BenchmarkObserveWindow observes windows of one pending shoot in a garden of 1,000 seeds: the time it takes is on
// every window's path, a lone new shoot's too, before its binding is sent.
// Run: go test ./metrics -run '^$' -bench ObserveWindow
func BenchmarkObserveWindow(b *testing.B) {
	seeds := make([]report.SeedReport, 1000)
	for i := range seeds {
		allocatable := int64(250)
		seeds[i] = report.SeedReport{Name: fmt.Sprintf("seed-%04d", i), Provider: "aws", Region: fmt.Sprintf("region-%d", i%20), Usage: i % 250, Allocatable: &allocatable}
	}
	r := &report.Report{Window: report.WindowReport{Pending: 1, Solver: "lp"}, Seeds: seeds}
	m := metrics.NewMetrics(true)
	for b.Loop() {
		m.ObserveWindow(r, nil)
	}
}
