package metrics_test

import (
	"maps"
	"testing"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
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
