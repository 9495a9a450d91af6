package cluster

import (
	"testing"

	"github.com/seedplan/seedplan/model"
)

// A move starts only below every bound of the pacing, and the one that holds it is named, as the log of a waiting
// move says it: the migrations in flight in all, off the move's seed, or onto its destination; a migration this run
// did not start takes a slot as one it started does.
func TestPacingNamesTheBoundThatHoldsAMove(t *testing.T) {
	move := model.Move{Shoot: "garden-dev/web", From: "fra", To: "ams"}
	for _, tc := range []struct {
		name    string
		pacing  Pacing
		started []model.Move // by this run
		others  []model.Move // found in flight
		want    string
	}{
		{"nothing in flight", Pacing{MaxInFlight: 2, MaxPerSeed: 1}, nil, nil, ""},
		{"below every bound", Pacing{MaxInFlight: 2, MaxPerSeed: 1}, []model.Move{{From: "lon", To: "par"}}, nil, ""},
		{"the bound in all", Pacing{MaxInFlight: 2, MaxPerSeed: 2},
			[]model.Move{{From: "lon", To: "par"}}, []model.Move{{From: "fra", To: "par"}}, "2 of at most 2 migrations in flight"},
		{"off its seed", Pacing{MaxInFlight: 2, MaxPerSeed: 1}, []model.Move{{From: "fra", To: "par"}}, nil,
			"1 of at most 1 migration in flight off seed fra"},
		{"onto its seed, another run's", Pacing{MaxInFlight: 3, MaxPerSeed: 1}, nil, []model.Move{{From: "lon", To: "ams"}},
			"1 of at most 1 migration in flight onto seed ams"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFlight(tc.pacing, nil)
			for i, m := range tc.started {
				f.add(i, m)
			}
			for i, m := range tc.others {
				f.others[string(rune('a'+i))] = inFlight{move: m}
			}
			if got := f.holding(move); got != tc.want || f.admits(move) != (tc.want == "") {
				t.Errorf("holding = %q, admits %v; want %q", got, f.admits(move), tc.want)
			}
		})
	}
}
