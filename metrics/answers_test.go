package metrics_test

import (
	"maps"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// The rebalance answer says whether its moves were found greedily and why, with both reasons always exported, so
// that an alert tells "CLP found the moves" (0) from "no answer pushed" (no series).
func TestRebalanceAnswerSaysWhyTheMovesWereFoundGreedily(t *testing.T) {
	tests := []struct {
		fallback string
		want     map[string]float64
	}{
		{fallback: "", want: map[string]float64{"timeout": 0, "range": 0}},
		{fallback: "timeout", want: map[string]float64{"timeout": 1, "range": 0}},
		{fallback: "range", want: map[string]float64{"timeout": 0, "range": 1}},
	}
	for _, tt := range tests {
		t.Run("fallback "+tt.fallback, func(t *testing.T) {
			answer := metrics.RebalanceAnswer(&report.RebalanceReport{
				Moves:    []model.Move{{Reason: model.LeaveOverloaded}, {Reason: model.LeaveDrain}, {Reason: model.LeaveOverloaded}},
				Fallback: tt.fallback,
			})
			if got := byLabel(t, answer.Registry, "seedplan_rebalance_fallback", "reason"); !maps.Equal(got, tt.want) {
				t.Errorf("seedplan_rebalance_fallback = %v, want %v", got, tt.want)
			}
			wantMoves := map[string]float64{"overloaded": 2, "drain": 1, "unusable": 0, "NoExecute": 0}
			if got := byLabel(t, answer.Registry, "seedplan_rebalance_moves", "reason"); !maps.Equal(got, wantMoves) {
				t.Errorf("seedplan_rebalance_moves = %v, want %v", got, wantMoves)
			}
		})
	}
}

// A rebalance with no moves exports every reason at 0, so that the dashboard's sum of the moves reads 0, not
// no data.
func TestRebalanceAnswerWithoutMovesExportsEveryReasonAtZero(t *testing.T) {
	answer := metrics.RebalanceAnswer(&report.RebalanceReport{})
	want := map[string]float64{"overloaded": 0, "drain": 0, "unusable": 0, "NoExecute": 0}
	if got := byLabel(t, answer.Registry, "seedplan_rebalance_moves", "reason"); !maps.Equal(got, want) {
		t.Errorf("seedplan_rebalance_moves = %v, want %v", got, want)
	}
}

// The capacity answer says whether its count was found greedily, the reason always exported.
func TestCapacityAnswerSaysWhenFoundGreedily(t *testing.T) {
	for fallback, want := range map[string]map[string]float64{"": {"timeout": 0}, "timeout": {"timeout": 1}} {
		answer := metrics.CapacityAnswer(&report.CapacityReport{Fallback: fallback})
		if got := byLabel(t, answer.Registry, "seedplan_capacity_fallback", "reason"); !maps.Equal(got, want) {
			t.Errorf("fallback %q: seedplan_capacity_fallback = %v, want %v", fallback, got, want)
		}
	}
}

// The capacity answer exports, beside the count, how many of its new seeds are proven necessary: all of them when
// the count is proven minimal, fewer when the search ran out of time.
func TestCapacityAnswerExportsTheProvenBound(t *testing.T) {
	for _, tc := range []struct{ newSeeds, bound int }{{14, 14}, {137, 134}} {
		answer := metrics.CapacityAnswer(&report.CapacityReport{NewSeeds: tc.newSeeds, LowerBound: tc.bound, Optimal: tc.newSeeds == tc.bound})
		total := byLabel(t, answer.Registry, "seedplan_capacity_new_seeds_total", "")
		bound := byLabel(t, answer.Registry, "seedplan_capacity_new_seeds_lower_bound", "")
		if total[""] != float64(tc.newSeeds) || bound[""] != float64(tc.bound) {
			t.Errorf("%d new seeds, bound %d: exported total %v, lower bound %v", tc.newSeeds, tc.bound, total, bound)
		}
	}
}

// byLabel is the value of each of the gauge's or counter's series in the registry, by the value of its label, the
// series of other labels summed as PromQL's sum by (label) sums them; with label "", an unlabelled one's value,
// under "".
func byLabel(t *testing.T, registry *prometheus.Registry, name, label string) map[string]float64 {
	t.Helper()
	values := map[string]float64{}
	for _, m := range series(t, registry, name) {
		value := m.GetGauge().GetValue()
		if m.GetCounter() != nil {
			value = m.GetCounter().GetValue()
		}
		if label == "" && len(m.GetLabel()) == 0 {
			values[""] = value
		}
		for _, l := range m.GetLabel() {
			if l.GetName() == label {
				values[l.GetValue()] += value
			}
		}
	}
	return values
}

// series are the series of the metric of that name the registry gathers; none when it has no such metric.
func series(t *testing.T, registry *prometheus.Registry, name string) []*dto.Metric {
	t.Helper()
	families, err := registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, family := range families {
		if family.GetName() == name {
			return family.GetMetric()
		}
	}
	return nil
}
