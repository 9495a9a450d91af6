package cluster

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/internal/fixture"
	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
)

// A shadow's comparison, as a table: its last decision for the shoot against the seed another scheduler bound it to.
func TestShadowOutcome(t *testing.T) {
	for _, tc := range []struct {
		name    string
		d       decision
		decided bool
		seed    string
		want    model.ShadowOutcome
	}{
		{"placed on the same seed", decision{seed: "fra"}, true, "fra", model.ShadowSameSeed},
		{"placed on another seed", decision{seed: "fra"}, true, "ams", model.ShadowOtherSeed},
		{"left unplaced here", decision{}, true, "ams", model.ShadowUnschedulable},
		{"bound before the shadow planned it", decision{}, false, "ams", model.ShadowUndecided},
	} {
		if got := shadowOutcome(tc.d, tc.decided, tc.seed); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// How far another scheduler's seed is against the shadow's, as a table: by the distance of each among the shoot's
// candidates, and not comparable when the other seed is none of them.
func TestShadowDistance(t *testing.T) {
	// Seeds fra, lon, ams, par of the window; the shoot's candidates fra (0), ams (4) and par (0); lon is rejected.
	shoot := candidates{arcs: []model.Arc{{Seed: 0, Distance: 0}, {Seed: 2, Distance: 4}, {Seed: 3, Distance: 0}},
		seeds: []seedLoad{{name: "fra"}, {name: "lon"}, {name: "ams"}, {name: "par"}}}
	for _, tc := range []struct {
		name      string
		d         decision
		seed      string
		want      model.ShadowDistance
		wantThere int // -1: none
	}{
		{"the shadow's seed in the region, the other's farther", decision{seed: "fra", candidates: shoot}, "ams", model.ShadowNearerHere, 4},
		{"both in the region", decision{seed: "fra", candidates: shoot}, "par", model.ShadowAsNear, 0},
		{"the other's seed in the region, the shadow's farther", decision{seed: "ams", candidates: shoot}, "par", model.ShadowFartherHere, 0},
		{"the other's seed rejected here", decision{seed: "fra", candidates: shoot}, "lon", model.ShadowNotACandidateHere, -1},
		{"the other's seed unknown to the window", decision{seed: "fra", candidates: shoot}, "new", model.ShadowNotACandidateHere, -1},
	} {
		got, _, there := shadowDistance(tc.d, tc.seed)
		if got != tc.want || (there == nil) != (tc.wantThere < 0) || there != nil && *there != tc.wantThere {
			t.Errorf("%s: %s, distance there %v; want %s, %d", tc.name, got, there, tc.want, tc.wantThere)
		}
	}
}

// How utilized another scheduler's seed ends against the shadow's, as a table: each seed's shoots once the shadow's
// window placed its shoots, the shoot counted on the other seed too, over its allocatable shoots; exact, however
// large the allocatable; not comparable without a limit on either seed or for a seed the window did not know.
func TestShadowUtilization(t *testing.T) {
	limited := func(name string, after int, allocatable int64) seedLoad {
		return seedLoad{name: name, after: after, allocatable: allocatable, limited: true}
	}
	const huge = 1<<63 - 1
	for _, tc := range []struct {
		name                string
		mine, other         seedLoad // the shadow's seed, the shoot on it; the other scheduler's, without it
		want                model.ShadowUtilization
		wantHere, wantThere string
	}{
		{"the shadow's seed emptier", limited("fra", 2, 10), limited("ams", 4, 10), model.ShadowEmptierHere, "2/10", "5/10"},
		{"as full by count", limited("fra", 5, 10), limited("ams", 4, 10), model.ShadowAsFull, "5/10", "5/10"},
		{"as full by ratio, not by count", limited("fra", 5, 10), limited("ams", 9, 20), model.ShadowAsFull, "5/10", "10/20"},
		{"fewer shoots, but fuller for its allocatable", limited("fra", 3, 4), limited("ams", 9, 20), model.ShadowFullerHere, "3/4", "10/20"},
		{"more shoots, but emptier for its allocatable", limited("fra", 30, 100), limited("ams", 4, 10), model.ShadowEmptierHere, "30/100", "5/10"},
		{"allocatables beyond any float's precision", limited("fra", 3, huge), limited("ams", 2, huge-1), model.ShadowEmptierHere,
			"3/9223372036854775807", "3/9223372036854775806"},
		{"the other seed takes no shoot (allocatable 0)", limited("fra", 7, 7), limited("ams", 0, 0), model.ShadowEmptierHere, "7/7", "1/0"},
		{"the other seed without allocatable", limited("fra", 2, 10), seedLoad{name: "ams", after: 4}, model.ShadowNotComparable, "", ""},
		{"the shadow's seed without allocatable", seedLoad{name: "fra", after: 2}, limited("ams", 4, 10), model.ShadowNotComparable, "", ""},
		{"the other seed unknown to the window", limited("fra", 2, 10), limited("new", 0, 10), model.ShadowNotComparable, "", ""},
	} {
		seeds := []seedLoad{tc.mine}
		if tc.other.name != "new" {
			seeds = append(seeds, tc.other)
		}
		d := decision{seed: "fra", candidates: candidates{seeds: seeds}}
		got, here, there := shadowUtilization(d, tc.other.name)
		if got != tc.want || here != tc.wantHere || there != tc.wantThere {
			t.Errorf("%s: %s (%q here, %q there), want %s (%q, %q)", tc.name, got, here, there, tc.want, tc.wantHere, tc.wantThere)
		}
	}
}

// A shadow compares a binding with its last decision for that very shoot, and then forgets it: a decision for
// another shoot of the name (another uid) is none, and so is one for a shoot that was deleted; a nil shadow (a
// loop that binds) keeps no decisions. Its log line says, for a binding to another seed, both distances and
// utilizations, and for a shoot it left unplaced, why.
func TestShadowComparesEachBindingWithItsLastDecision(t *testing.T) {
	var logged bytes.Buffer
	defer fixture.RestoreLogging()()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&logged, nil)))
	m := metrics.NewShadowMetrics()
	s := &shadow{decisions: map[types.NamespacedName]decision{}, metrics: m}
	key := func(name string) types.NamespacedName {
		return types.NamespacedName{Namespace: "garden-dev", Name: name}
	}
	bound := func(name string, uid types.UID, seed string) {
		s.bound(&gardencorev1beta1.Shoot{ObjectMeta: metav1.ObjectMeta{Namespace: "garden-dev", Name: name, UID: uid},
			Spec: gardencorev1beta1.ShootSpec{SeedName: ptr.To(seed)}})
	}
	s.decide(key("a"), decision{uid: "a1"})
	s.decide(key("a"), decision{uid: "a1", seed: "fra"}) // the last decision counts
	s.decide(key("b"), decision{uid: "b1", seed: "fra", candidates: candidates{
		arcs:  []model.Arc{{Seed: 0, Distance: 0}, {Seed: 2, Distance: 4}},
		seeds: []seedLoad{{name: "fra", after: 3, allocatable: 10, limited: true}, {name: "lon"}, {name: "ams", after: 1, allocatable: 10, limited: true}}}})
	s.decide(key("c"), decision{uid: "c-old", seed: "fra"})
	s.decide(key("d"), decision{uid: "d1", seed: "fra"})
	s.forget(key("d"))
	s.decide(key("e"), decision{uid: "e1", reason: model.PredicateCapacity})
	bound("a", "a1", "fra")
	bound("b", "b1", "ams")
	bound("c", "c-new", "fra")
	bound("d", "d1", "fra")
	bound("e", "e1", "ams")
	for outcome, want := range map[model.ShadowOutcome]float64{
		model.ShadowSameSeed: 1, model.ShadowOtherSeed: 1, model.ShadowUndecided: 2, model.ShadowUnschedulable: 1,
	} {
		if got := counter(t, m, "seedplan_shadow_bindings_total", string(outcome)); got != want {
			t.Errorf("%s: %v, want %v", outcome, got, want)
		}
	}
	if got := counter(t, m, "seedplan_shadow_other_seed_total", string(model.ShadowNearerHere), string(model.ShadowFullerHere)); got != 1 {
		t.Errorf("b, bound to ams (distance 4, 2 of 10 with it) where the shadow chose fra (0, 3 of 10): nearer-here and fuller-here %v, want 1", got)
	}
	records := map[string]map[string]any{}
	for line := range strings.Lines(logged.String()) {
		var record map[string]any
		if err := json.Unmarshal([]byte(line), &record); err != nil {
			t.Fatal(err)
		}
		records[record["shoot"].(string)] = record
	}
	for shoot, want := range map[string]map[string]any{
		"garden-dev/b": {"outcome": "other-seed", "distance": "nearer-here", "seedplanDistance": 0.0, "distanceThere": 4.0,
			"utilization": "fuller-here", "seedplanUtilization": "3/10", "utilizationThere": "2/10"},
		"garden-dev/e": {"outcome": "unschedulable-here", "seedplanSeed": "", "seedplanReason": "Capacity"},
	} {
		for attr, value := range want {
			if got := records[shoot][attr]; got != value {
				t.Errorf("%s logged %s=%v, want %v (the record: %v)", shoot, attr, got, value, records[shoot])
			}
		}
	}
	var none *shadow
	none.decide(key("f"), decision{uid: "f1", seed: "fra"}) // a loop that binds keeps no decisions
	if len(s.decisions) != 0 {
		t.Errorf("decisions left after every shoot was bound or deleted: %v", s.decisions)
	}
}

// The shadow's loop compares the bindings of the shoots pending for its scheduler name, each once, and counts the
// reports that one it placed is unschedulable there; no other change counts: a shoot of another scheduler name
// reported or bound, a bound shoot changed, a pending shoot changed.
func TestShadowLoopComparesTheBindingsOfItsSchedulerNamesShoots(t *testing.T) {
	m := metrics.NewShadowMetrics()
	w := newWindowLoop(&Scheduler{Metrics: m, DryRun: true}, nil, config.Default().Window)
	pending := func(name, schedulerName string) *gardencorev1beta1.Shoot {
		return &gardencorev1beta1.Shoot{ObjectMeta: metav1.ObjectMeta{Namespace: "garden-dev", Name: name, UID: types.UID(name)},
			Spec: gardencorev1beta1.ShootSpec{SchedulerName: ptr.To(schedulerName)}}
	}
	boundTo := func(shoot *gardencorev1beta1.Shoot, seed string) *gardencorev1beta1.Shoot {
		bound := shoot.DeepCopy()
		bound.Spec.SeedName = ptr.To(seed)
		return bound
	}
	ours, theirs := pending("ours", "default-scheduler"), pending("theirs", "another-scheduler")
	w.shadow.decide(types.NamespacedName{Namespace: "garden-dev", Name: "ours"}, decision{uid: "ours", seed: "fra"})
	update := w.shootEvents().UpdateFunc
	changed := ours.DeepCopy()
	changed.Labels = map[string]string{"changed": "true"}
	failing := func(shoot *gardencorev1beta1.Shoot) *gardencorev1beta1.Shoot {
		reported := shoot.DeepCopy()
		reported.Status.LastOperation = &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeCreate,
			State: gardencorev1beta1.LastOperationStatePending, Description: "Failed to schedule Shoot: full"}
		return reported
	}
	update(ours, changed)                                 // still pending
	update(theirs, failing(theirs))                       // another scheduler name's shoot reported
	update(theirs, boundTo(theirs, "ams"))                // and bound
	update(ours, failing(ours))                           // reported unschedulable where the shadow placed it
	update(ours, boundTo(ours, "fra"))                    // bound where the shadow placed it
	update(boundTo(ours, "fra"), boundTo(changed, "fra")) // changed once bound
	if got := counter(t, m, "seedplan_shadow_unschedulable_there_total", ""); got != 1 {
		t.Errorf("unschedulable there: %v, want 1", got)
	}
	for outcome, want := range map[model.ShadowOutcome]float64{model.ShadowSameSeed: 1, model.ShadowUndecided: 0} {
		if got := counter(t, m, "seedplan_shadow_bindings_total", string(outcome)); got != want {
			t.Errorf("%s: %v, want %v", outcome, got, want)
		}
	}
}

// A scheduler's report that it could not schedule a shoot is a lastOperation {Create, Pending, "Failed to schedule
// Shoot: …"} that is new or written again; any other update is none.
func TestFailureReported(t *testing.T) {
	at := func(minute int) metav1.Time {
		return metav1.NewTime(time.Date(2026, 11, 30, 12, minute, 0, 0, time.UTC))
	}
	op := func(state gardencorev1beta1.LastOperationState, description string, minute int) *gardencorev1beta1.LastOperation {
		return &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeCreate, State: state, Description: description, LastUpdateTime: at(minute)}
	}
	const failed = "Failed to schedule Shoot: no matching seed candidate found"
	for _, tc := range []struct {
		name          string
		before, after *gardencorev1beta1.LastOperation
		want          bool
	}{
		{"the first report", nil, op(gardencorev1beta1.LastOperationStatePending, failed, 1), true},
		{"written again", op(gardencorev1beta1.LastOperationStatePending, failed, 1), op(gardencorev1beta1.LastOperationStatePending, failed, 2), true},
		{"another message", op(gardencorev1beta1.LastOperationStatePending, failed, 1), op(gardencorev1beta1.LastOperationStatePending, failed+" either", 1), true},
		{"unchanged, another field updated", op(gardencorev1beta1.LastOperationStatePending, failed, 1), op(gardencorev1beta1.LastOperationStatePending, failed, 1), false},
		{"no last operation", nil, nil, false},
		{"a creation under way", nil, op(gardencorev1beta1.LastOperationStateProcessing, "Creating", 1), false},
		{"pending for another reason", nil, op(gardencorev1beta1.LastOperationStatePending, "Waiting", 1), false},
	} {
		before, after := &gardencorev1beta1.Shoot{}, &gardencorev1beta1.Shoot{}
		before.Status.LastOperation, after.Status.LastOperation = tc.before, tc.after
		if got := failureReported(before, after); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A shoot the shadow placed and the scheduler that binds it reported unschedulable is counted once while that
// placement stands, however often the report is written; a shoot the shadow left unplaced, or that another shoot
// of the name is, is not; a new placement counts anew.
func TestShadowCountsAShootItPlacedThatIsUnschedulableThere(t *testing.T) {
	m := metrics.NewShadowMetrics()
	s := &shadow{decisions: map[types.NamespacedName]decision{}, metrics: m}
	reported := func(name string, uid types.UID) {
		shoot := &gardencorev1beta1.Shoot{ObjectMeta: metav1.ObjectMeta{Namespace: "garden-dev", Name: name, UID: uid}}
		shoot.Status.LastOperation = &gardencorev1beta1.LastOperation{Description: "Failed to schedule Shoot: full"}
		s.failed(shoot)
	}
	key := func(name string) types.NamespacedName {
		return types.NamespacedName{Namespace: "garden-dev", Name: name}
	}
	s.decide(key("placed"), decision{uid: "p1", seed: "fra"})
	s.decide(key("unplaced"), decision{uid: "u1"})
	s.decide(key("renamed"), decision{uid: "r-old", seed: "fra"})
	reported("placed", "p1")
	reported("placed", "p1") // written again
	s.decide(key("placed"), decision{uid: "p1", seed: "fra"})
	reported("placed", "p1") // planned again, the same placement
	reported("unplaced", "u1")
	reported("renamed", "r-new")
	want := 1.0
	if got := counter(t, m, "seedplan_shadow_unschedulable_there_total", ""); got != want {
		t.Fatalf("counted %v, want %v", got, want)
	}
	s.decide(key("placed"), decision{uid: "p1", seed: "ams"}) // a new placement
	reported("placed", "p1")
	if got := counter(t, m, "seedplan_shadow_unschedulable_there_total", ""); got != want+1 {
		t.Fatalf("counted %v after a new placement, want %v", got, want+1)
	}
}

// counter is the value of the named counter as the registry exports it: its sample whose labels, by name, have the
// values, or its only sample for the value "".
func counter(t *testing.T, m *metrics.Metrics, name string, values ...string) float64 {
	t.Helper()
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, family := range families {
		if family.GetName() != name {
			continue
		}
		for _, sample := range family.GetMetric() {
			var got []string
			for _, label := range sample.GetLabel() {
				got = append(got, label.GetValue())
			}
			if slices.Equal(got, values) || len(got) == 0 && slices.Equal(values, []string{""}) {
				return sample.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no sample of %s for %q", name, values)
	return 0
}
