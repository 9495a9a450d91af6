package cluster

import (
	"maps"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
)

// The loop takes the room changes at its next look, together when several came, and no sooner than
// roomLookSpacing after its last such look: then it says when it may.
func TestRoomLook(t *testing.T) {
	w := &windowLoop{nudge: make(chan struct{}, 1)}
	start := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	for _, step := range []struct {
		name    string
		at      time.Duration // after start
		appear  []roomChange  // before the look
		changes roomChange
		later   time.Duration // 0: none
	}{
		{"nothing appeared", 0, nil, roomChange{}, 0},
		{"a seed created", 0, []roomChange{landscapeChanged}, landscapeChanged, 0},
		{"taken already", 100 * time.Millisecond, nil, roomChange{}, 0},
		{"a shoot deleted too soon after", 200 * time.Millisecond, []roomChange{roomFreedOn("a")}, roomChange{}, roomLookSpacing},
		{"and a seed changed, and another shoot left: still too soon", 900 * time.Millisecond,
			[]roomChange{landscapeChanged, roomFreedOn("b", "a")}, roomChange{}, roomLookSpacing},
		{"the spacing passed: all of them", roomLookSpacing, nil, roomChange{landscape: true, freed: map[string]bool{"a": true, "b": true}}, 0},
		{"nothing since", 3 * roomLookSpacing, nil, roomChange{}, 0},
	} {
		for _, change := range step.appear {
			w.roomAppeared(change)
		}
		changes, later := w.roomLook(start.Add(step.at))
		wantLater := time.Time{}
		if step.later > 0 {
			wantLater = start.Add(step.later)
		}
		if changes.landscape != step.changes.landscape || !maps.Equal(changes.freed, step.changes.freed) || !later.Equal(wantLater) {
			t.Errorf("%s: changes %+v, later %v; want %+v, %v", step.name, changes, later, step.changes, wantLater)
		}
	}
}

// Room brings a waiting shoot's next try forward when it may let the shoot be placed: a changed landscape any
// shoot, at once; room freed only a shoot turned away for lack of room on a seed it may use (any seed, when the
// re-check before binding found its seed full), and one that room made due comes again by freed room no sooner
// than roomRetry later, so that shoots coming and going do not have it tried every second.
func TestRoomFor(t *testing.T) {
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	later := now.Add(time.Hour)
	mayUse := map[string]bool{"a": true, "b": true}
	for _, tc := range []struct {
		name          string
		state         tracked
		changes       roomChange
		wantNotBefore time.Time
	}{
		{"nothing changed", tracked{notBefore: later}, roomChange{}, later},
		{"a seed admits more", tracked{notBefore: later}, landscapeChanged, now},
		{"room freed on a seed it may use", tracked{notBefore: later, turnedAwayForRoom: true, roomSeeds: mayUse}, roomFreedOn("x", "b"), now},
		{"room freed only on seeds it may not use", tracked{notBefore: later, turnedAwayForRoom: true, roomSeeds: mayUse}, roomFreedOn("x", "y"), later},
		{"room freed anywhere, its seed found full before binding", tracked{notBefore: later, turnedAwayForRoom: true}, roomFreedOn("x"), now},
		{"room freed, turned away for another reason", tracked{notBefore: later}, roomFreedOn("a"), later},
		{"made due by room a moment ago, then room freed", tracked{notBefore: later, roomDue: now.Add(-time.Second), turnedAwayForRoom: true, roomSeeds: mayUse},
			roomFreedOn("a"), now.Add(roomRetry - time.Second)},
		{"made due by room a moment ago, then room freed: its backoff ends sooner",
			tracked{notBefore: now.Add(time.Second), roomDue: now.Add(-time.Second), turnedAwayForRoom: true, roomSeeds: mayUse}, roomFreedOn("a"), now.Add(time.Second)},
		{"made due by room long ago, then room freed", tracked{notBefore: later, roomDue: now.Add(-time.Minute), turnedAwayForRoom: true, roomSeeds: mayUse}, roomFreedOn("a"), now},
		{"made due by room a moment ago, then another seed admits more", tracked{notBefore: later, roomDue: now.Add(-time.Second)}, landscapeChanged, now},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := tc.state
			brought := state.roomFor(tc.changes, now)
			if !state.notBefore.Equal(tc.wantNotBefore) || brought != !tc.wantNotBefore.Equal(tc.state.notBefore) {
				t.Errorf("next try %v (brought forward: %v), want %v", state.notBefore, brought, tc.wantNotBefore)
			}
			if brought && !state.roomDue.Equal(state.notBefore) {
				t.Errorf("roomDue %v, want the new next try %v", state.roomDue, state.notBefore)
			}
		})
	}
}

// A failure is written and backs the shoot off, as the gardener-scheduler's; but a try that room brought forward
// and that fails for the reason last written writes nothing and leaves the backoff where it was: the garden hears
// of it at the end of the backoff, as from the gardener-scheduler.
func TestUnschedulableAfterRoom(t *testing.T) {
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	backoffEnd := now.Add(20 * time.Second)
	waiting := func(lastReason string) tracked {
		return tracked{failures: 12, notBefore: backoffEnd, lastReason: lastReason, turnedAwayForRoom: true}
	}
	for _, tc := range []struct {
		name          string
		state         tracked
		room          bool // room brought its try forward
		reason        string
		wantReport    bool
		wantFailures  int
		wantNotBefore time.Time
	}{
		{"its backoff ended", waiting("Capacity"), false, "Capacity", true, 13, now.Add(retryDelay(13))},
		{"room, and the same reason", waiting("Capacity"), true, "Capacity", false, 12, backoffEnd},
		{"room, and another reason", waiting("Capacity"), true, "Tolerations", true, 13, now.Add(retryDelay(13))},
		{"room, and nothing written before (a new loop)", waiting(""), true, "Capacity", true, 13, now.Add(retryDelay(13))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := tc.state
			if tc.room && !state.roomFor(landscapeChanged, now) {
				t.Fatal("the landscape's change did not bring the try forward")
			}
			if tc.room && (!state.roomTry || !state.backoffEnd.Equal(backoffEnd)) {
				t.Fatalf("roomTry %v, backoffEnd %v; want true, %v", state.roomTry, state.backoffEnd, backoffEnd)
			}
			report := state.unschedulable(tc.reason, now)
			if report != tc.wantReport || state.failures != tc.wantFailures || !state.notBefore.Equal(tc.wantNotBefore) || state.lastReason != tc.reason {
				t.Errorf("report %v, failures %d, next try %v, last reason %q; want %v, %d, %v, %q",
					report, state.failures, state.notBefore, state.lastReason, tc.wantReport, tc.wantFailures, tc.wantNotBefore, tc.reason)
			}
		})
	}
}

// What a window's bindings leave: a refusal is written, so it, not the failure before it, is what the shoot shows
// last; a placement deferred for its seed's room waits for room on any seed; a conflict is tried again soon,
// without backing off.
func TestSettleRemembersWhatWasWritten(t *testing.T) {
	key := types.NamespacedName{Namespace: "garden-dev", Name: "web"}
	for _, tc := range []struct {
		result         model.BindResult
		wantLastReason string
		wantFailures   int
		wantTurnedAway bool // for room on any seed
	}{
		{model.Refused, "", 3, false},
		{model.Deferred, "Capacity", 3, true},
		{model.Conflict, "Capacity", 2, false},
	} {
		t.Run(string(tc.result), func(t *testing.T) {
			w := &windowLoop{metrics: metrics.NewMetrics(true), binding: true, shoots: map[types.NamespacedName]*tracked{
				key: {failures: 2, lastReason: "Capacity", boundTo: "seed-a", inFlight: true, roomSeeds: map[string]bool{"seed-a": true}},
			}}
			w.settle([]bind.Result{{Shoot: key.String(), Seed: "seed-a", Result: tc.result}})
			state := w.shoots[key]
			if state.lastReason != tc.wantLastReason || state.failures != tc.wantFailures || state.boundTo != "" || state.inFlight ||
				state.turnedAwayForRoom != tc.wantTurnedAway || state.turnedAwayForRoom && state.roomSeeds != nil {
				t.Errorf("%+v; want last reason %q, %d failures, unbound, turned away for room on any seed %v",
					*state, tc.wantLastReason, tc.wantFailures, tc.wantTurnedAway)
			}
		})
	}
}
