package metrics

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/push"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
	"github.com/seedplan/seedplan/solver"
)

// Answer is what `capacity` or `rebalance` recommends, as gauges a seed autoscaler, a dashboard or an alert reads
// from a Pushgateway. Each command pushes under its own grouping key (answer="capacity" or "rebalance") beside
// the schedule job's metrics, replacing only its own previous answer.
type Answer struct {
	// Registry holds the answer's gauges and seedplan_build_info.
	Registry *prometheus.Registry
	name     string
}

// newAnswer is an answer named for its grouping key, with seedplan_build_info and the time it was computed.
func newAnswer(name string) *Answer {
	a := &Answer{Registry: prometheus.NewRegistry(), name: name}
	a.Registry.MustRegister(buildInfo())
	a.set("seedplan_"+name+"_timestamp_seconds", "Unix time the answer was computed.", float64(time.Now().UnixMilli())/1000)
	return a
}

// gaugeVec registers a labelled gauge of the answer.
func (a *Answer) gaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels)
	a.Registry.MustRegister(g)
	return g
}

// set registers an unlabelled gauge with its value.
func (a *Answer) set(name, help string, value float64) {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	g.Set(value)
	a.Registry.MustRegister(g)
}

// CapacityAnswer is the capacity report as gauges: new seeds per provider, region and template seed, their total
// and how many are proven necessary, replicas to add per ManagedSeedSet, and the counts that add up to the pending
// shoots.
func CapacityAnswer(r *report.CapacityReport) *Answer {
	a := newAnswer("capacity")
	newSeeds := a.gaugeVec("seedplan_capacity_new_seeds", "New seeds needed so that every pending shoot is placed at or below the target utilization, by provider, region and the seed they are copied from.",
		"provider", "region", "template")
	for _, c := range r.Regions {
		newSeeds.WithLabelValues(c.Provider, c.Region, c.Template).Add(float64(c.NewSeeds))
	}
	replicas := a.gaugeVec("seedplan_capacity_managedseedset_replicas_to_add", "Replicas to add to the ManagedSeedSet whose seeds the new seeds are.",
		"namespace", "name")
	for _, s := range r.ManagedSeedSets {
		replicas.WithLabelValues(s.Namespace, s.Name).Set(float64(s.Add))
	}
	a.set("seedplan_capacity_new_seeds_total", "New seeds needed in all.", float64(r.NewSeeds))
	a.set("seedplan_capacity_new_seeds_lower_bound", "The fewest new seeds proven necessary: seedplan_capacity_new_seeds_total when that count is proven minimal.", float64(r.LowerBound))
	a.set("seedplan_capacity_pending_shoots", "Pending shoots the answer is for.", float64(r.Pending))
	a.set("seedplan_capacity_existing_seeds_shoots", "Pending shoots that fit on existing seeds at or below the target utilization.", float64(r.OnExisting))
	a.set("seedplan_capacity_new_seeds_shoots", "Pending shoots the new seeds take.", float64(r.OnNew))
	a.set("seedplan_capacity_unplaceable_shoots", "Pending shoots no existing seed and no new seed like one may take.", float64(len(r.Unplaceable)))
	a.set("seedplan_capacity_target_utilization_ratio", "The target utilization the answer is for.", r.TargetUtilization)
	a.fallback("seedplan_capacity_fallback", "the count was found greedily, in whole or in part, because CLP ran out of time before the LP's first answer",
		solver.CapacityFallbackReasons(), r.Fallback)
	return a
}

// RebalanceAnswer is the rebalance report as gauges: moves recommended by reason, the lower bound, the shoots
// the moves cannot resolve, and whether the moves were found greedily instead of by CLP, and why.
func RebalanceAnswer(r *report.RebalanceReport) *Answer {
	a := newAnswer("rebalance")
	moves := byReason(a, "seedplan_rebalance_moves", "Moves recommended, by why the shoot leaves its seed ("+joined(model.LeaveReasons())+").",
		model.LeaveReasons())
	for _, m := range r.Moves {
		moves.WithLabelValues(string(m.Reason)).Inc()
	}
	a.set("seedplan_rebalance_moves_lower_bound", "The fewest moves any plan needs.", float64(r.LowerBound))
	a.set("seedplan_rebalance_unresolved_shoots", "Shoots by which seeds stay above their limits, or that must leave and cannot.", float64(r.Unresolved))
	a.set("seedplan_rebalance_seeds_in_grace", "Unhealthy seeds whose shoots do not have to leave yet.", float64(len(r.InGrace)))
	a.fallback("seedplan_rebalance_fallback", "the moves were found greedily instead of by CLP", solver.MovesFallbackReasons(), r.Fallback)
	return a
}

// byReason registers a gauge of the answer labelled reason, with a series for every one of reasons at 0 until it
// is set: a dashboard's sum then reads 0 rather than no data, and an alert tells "CLP found it" (0) from "no
// answer pushed" (no series).
func byReason[T ~string](a *Answer, name, help string, reasons []T) *prometheus.GaugeVec {
	gauge := a.gaugeVec(name, help, "reason")
	for _, reason := range reasons {
		gauge.WithLabelValues(string(reason))
	}
	return gauge
}

// fallback sets the gauge of an answer found greedily instead of by CLP: 1 for the reason why, 0 for the others.
func (a *Answer) fallback(name, what string, reasons []string, why string) {
	gauge := byReason(a, name, "1 when "+what+", for the reason why ("+joined(reasons)+"); 0 for the others.", reasons)
	if why != "" {
		gauge.WithLabelValues(why).Set(1)
	}
}

// Push replaces the answer of its kind on the Pushgateway at url, under job, waiting at most timeout for its
// answer (0: for ever).
func (a *Answer) Push(ctx context.Context, url, job string, timeout time.Duration) error {
	if err := pushWithin(ctx, timeout, push.New(url, job).Grouping("answer", a.name).Gatherer(a.Registry)); err != nil {
		return fmt.Errorf("pushing the %s answer to %s: %w", a.name, url, err)
	}
	return nil
}
