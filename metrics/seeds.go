package metrics

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/seedplan/seedplan/report"
)

// seedCollector exports the per-seed metrics of the last window observed, the seeds as its plan left them. A
// window replaces the seeds whole, and a gathering makes their series: gauges set one series at a time cost a
// hash, a lookup and, after the reset that drops the series of seeds gone, an allocation per series on every
// window's path, a lone new shoot's too, where scrapes come far less often than windows.
type seedCollector struct {
	shoots, allocatable, utilization *prometheus.Desc
	// seeds are the last window's; a gathering may read them while the next window is observed.
	seeds atomic.Pointer[[]seedSample]
}

// seedSample is what the per-seed metrics export of one seed.
type seedSample struct {
	name, provider, region string // seedLabels
	shoots                 float64
	// allocatable is the seed's allocatable shoots; limited is false for a seed without (unlimited).
	allocatable float64
	limited     bool
}

// newSeedCollector describes the per-seed metrics; it exports none until a window is observed.
func newSeedCollector() *seedCollector {
	describe := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, seedLabels(), nil)
	}
	return &seedCollector{
		shoots: describe("seedplan_seed_shoots", "Shoots on the seed after the last window's plan."),
		allocatable: describe("seedplan_seed_allocatable_shoots",
			"The seed's status.allocatable.shoots as the gardener-scheduler reads it (a fraction rounded up, a negative number 0) when the last window was planned (seeds with allocatable only)."),
		utilization: describe("seedplan_seed_utilization_ratio",
			"Shoots on the seed divided by its allocatable shoots, after the last window's plan (seeds with allocatable only)."),
	}
}

// observe makes the seeds of a window's report the ones exported.
func (c *seedCollector) observe(seeds []report.SeedReport) {
	samples := make([]seedSample, len(seeds))
	for i, seed := range seeds {
		samples[i] = seedSample{name: seed.Name, provider: seed.Provider, region: seed.Region, shoots: float64(seed.Usage + seed.Placed)}
		if seed.Allocatable != nil {
			samples[i].allocatable, samples[i].limited = float64(*seed.Allocatable), true
		}
	}
	c.seeds.Store(&samples)
}

// Describe sends the descriptions of the per-seed metrics.
func (c *seedCollector) Describe(descs chan<- *prometheus.Desc) {
	descs <- c.shoots
	descs <- c.allocatable
	descs <- c.utilization
}

// Collect sends the series of the last window's seeds: allocatable for a seed that has it, utilization for one
// whose allocatable is above 0.
func (c *seedCollector) Collect(metrics chan<- prometheus.Metric) {
	seeds := c.seeds.Load()
	if seeds == nil {
		return
	}
	for _, seed := range *seeds {
		labels := []string{seed.name, seed.provider, seed.region}
		metrics <- prometheus.MustNewConstMetric(c.shoots, prometheus.GaugeValue, seed.shoots, labels...)
		if !seed.limited {
			continue
		}
		metrics <- prometheus.MustNewConstMetric(c.allocatable, prometheus.GaugeValue, seed.allocatable, labels...)
		if seed.allocatable > 0 {
			metrics <- prometheus.MustNewConstMetric(c.utilization, prometheus.GaugeValue, seed.shoots/seed.allocatable, labels...)
		}
	}
}
