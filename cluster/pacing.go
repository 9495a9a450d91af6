package cluster

import (
	"context"
	"fmt"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// Pacing bounds the control plane migrations a rebalancing runs at once and how long one may take: a move is in
// flight from its binding until the shoot reports its restore on the new seed (status.seedName, and a succeeded
// Restore or later operation there).
type Pacing struct {
	// MaxInFlight bounds the migrations in flight in all; MaxPerSeed those off any one seed and those onto any
	// one seed.
	MaxInFlight, MaxPerSeed int
	// Timeout bounds one migration: a move not finished by then stops the run.
	Timeout time.Duration
	// Poll is how often the shoots of the moves in flight are read.
	Poll time.Duration
}

// flight is the moves in flight under a pacing.
type flight struct {
	pacing   Pacing
	reader   client.Reader
	moves    map[int]inFlight // by position in the moves applied
	from, to map[string]int
}

// inFlight is a started move.
type inFlight struct {
	move    model.Move
	started time.Time
}

func newFlight(p Pacing, reader client.Reader) *flight {
	return &flight{pacing: p, reader: reader, moves: map[int]inFlight{}, from: map[string]int{}, to: map[string]int{}}
}

// admits reports whether the move may start now.
func (f *flight) admits(m model.Move) bool {
	return len(f.moves) < f.pacing.MaxInFlight && f.from[m.From] < f.pacing.MaxPerSeed && f.to[m.To] < f.pacing.MaxPerSeed
}

// add counts a started move.
func (f *flight) add(i int, m model.Move) {
	f.moves[i] = inFlight{move: m, started: time.Now()}
	f.from[m.From]++
	f.to[m.To]++
}

// remove frees the slots of the i-th move, no longer in flight.
func (f *flight) remove(i int) {
	m := f.moves[i].move
	delete(f.moves, i)
	f.from[m.From]--
	f.to[m.To]--
}

// waitFor waits until ready() holds, reading the moves in flight every Poll and setting the result of each that
// finished; a move in flight longer than Timeout stops it with an error that says what the shoot reports.
func (f *flight) waitFor(ctx context.Context, ready func() bool, results []model.MoveResult) error {
	for !ready() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", report.Counted(len(f.moves), "migration", "migrations"), ctx.Err())
		case <-time.After(f.pacing.Poll):
		}
		for i, m := range f.moves {
			done, state, err := f.finished(ctx, m.move)
			switch {
			case apierrors.IsNotFound(err):
				results[i].Result, results[i].Detail = model.MoveSkipped, "the shoot was deleted during its migration"
				f.remove(i)
			case err != nil:
				return err
			case done:
				results[i].Result, results[i].Detail = model.MoveFinished, "restored on the new seed after "+time.Since(m.started).Round(time.Second).String()
				f.remove(i)
			case time.Since(m.started) > f.pacing.Timeout:
				results[i].Result, results[i].Detail = model.MoveStalled, fmt.Sprintf("not restored on seed %s after %v: %s", m.move.To, f.pacing.Timeout, state)
				return fmt.Errorf("the migration of shoot %s to seed %s did not finish within %v (%s); stopping, a later run continues where this one stopped",
					m.move.Shoot, m.move.To, f.pacing.Timeout, state)
			}
		}
	}
	return nil
}

// finished reads the shoot of a move: done when it reports its restore on the new seed; state says what it reports.
func (f *flight) finished(ctx context.Context, m model.Move) (done bool, state string, err error) {
	namespace, name, _ := strings.Cut(m.Shoot, "/")
	shoot := &gardencorev1beta1.Shoot{}
	if err := f.reader.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, shoot); err != nil {
		return false, "", fmt.Errorf("reading shoot %s in migration: %w", m.Shoot, err) // NotFound stays recognisable
	}
	op := shoot.Status.LastOperation
	state = fmt.Sprintf("status.seedName %q", ptr.Deref(shoot.Status.SeedName, ""))
	if op != nil {
		state += fmt.Sprintf(", lastOperation %s %s", op.Type, op.State)
	}
	onNewSeed := ptr.Deref(shoot.Status.SeedName, "") == m.To
	restored := op != nil && op.State == gardencorev1beta1.LastOperationStateSucceeded && op.Type != gardencorev1beta1.LastOperationTypeMigrate
	return onNewSeed && restored, state, nil
}
