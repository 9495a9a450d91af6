package cluster

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// Pacing bounds the control plane migrations a rebalancing runs at once and how long one may take: a move is in
// flight from its binding until the shoot reports its restore on the new seed (status.seedName there, and no longer
// migrating by model.Migration: its Restore has succeeded).
type Pacing struct {
	// MaxInFlight bounds the migrations in flight in all; MaxPerSeed those off any one seed and those onto any
	// one seed.
	MaxInFlight, MaxPerSeed int
	// Timeout bounds one migration: a move not finished by then stops the run.
	Timeout time.Duration
	// Poll is how often the shoots of the moves in flight are read.
	Poll time.Duration
}

// flight is the migrations in flight under a pacing: the moves this run started, and those the garden showed in
// flight that it did not start — a run stopped or interrupted before, another operator's — which take slots alike.
type flight struct {
	pacing Pacing
	reader client.Reader
	moves  map[int]inFlight    // by position in the moves applied
	others map[string]inFlight // by shoot, started when first seen
}

// inFlight is a migration in flight: a started move, or one this run found.
type inFlight struct {
	move    model.Move
	started time.Time
	// state is what the shoot reported last (migrationState).
	state string
}

func newFlight(p Pacing, reader client.Reader) *flight {
	return &flight{pacing: p, reader: reader, moves: map[int]inFlight{}, others: map[string]inFlight{}}
}

// admits reports whether the move may start now: below the bound in all, off its seed and onto its seed.
func (f *flight) admits(m model.Move) bool {
	return f.holding(m) == ""
}

// holding says which bound keeps the move from starting now — the migrations in flight in all, off its seed or onto
// its seed — or "" when none does.
func (f *flight) holding(m model.Move) string {
	total, from, to := 0, 0, 0
	count := func(in inFlight) {
		total++
		if in.move.From == m.From {
			from++
		}
		if in.move.To == m.To {
			to++
		}
	}
	for _, in := range f.moves {
		count(in)
	}
	for _, in := range f.others {
		count(in)
	}
	atMost := func(n int) string { return report.Counted(n, "migration", "migrations") }
	switch {
	case total >= f.pacing.MaxInFlight:
		return fmt.Sprintf("%d of at most %s in flight", total, atMost(f.pacing.MaxInFlight))
	case from >= f.pacing.MaxPerSeed:
		return fmt.Sprintf("%d of at most %s in flight off seed %s", from, atMost(f.pacing.MaxPerSeed), m.From)
	case to >= f.pacing.MaxPerSeed:
		return fmt.Sprintf("%d of at most %s in flight onto seed %s", to, atMost(f.pacing.MaxPerSeed), m.To)
	}
	return ""
}

// add counts a started move.
func (f *flight) add(i int, m model.Move) {
	f.moves[i] = inFlight{move: m, started: time.Now()}
}

// observe takes from shoots just read the migrations in flight this run did not start (model.Migration); one
// seen before keeps the time it was first seen.
func (f *flight) observe(shoots map[string]*gardencorev1beta1.Shoot) {
	own := map[string]bool{}
	for _, in := range f.moves {
		own[in.move.Shoot] = true
	}
	for key := range f.others {
		if shoot := shoots[key]; shoot == nil || !migrating(shoot) {
			delete(f.others, key)
		}
	}
	for key, shoot := range shoots {
		from, to, inMigration := model.Migration(shoot)
		if !inMigration || own[key] {
			continue
		}
		in, seen := f.others[key]
		if !seen {
			in.started = time.Now()
		}
		in.move, in.state = model.Move{Shoot: key, From: from, To: to}, migrationState(shoot)
		f.others[key] = in
	}
}

// waitForSlot waits until the move may start. Moves this run started stall within the Timeout, so a move still
// waiting after it waits for migrations this run did not start: that stops the run, naming them.
func (f *flight) waitForSlot(ctx context.Context, m model.Move, results []model.MoveResult) error {
	since := time.Now()
	if holding := f.holding(m); holding != "" { // said, because the wait may last as long as a migration: minutes
		slog.InfoContext(ctx, "Move waits for migrations in flight", "shoot", m.Shoot, "from", m.From, "to", m.To, "heldBy", holding)
	}
	return f.waitFor(ctx, func() (bool, error) {
		if f.admits(m) {
			return true, nil
		}
		if waited := time.Since(since); waited > f.pacing.Timeout {
			return false, fmt.Errorf("the move of shoot %s to seed %s waited %v for a slot held by migrations this run did not start (%s); "+
				"stopping, a later run continues where this one stopped", m.Shoot, m.To, waited.Round(time.Second), f.othersInWords())
		}
		return false, nil
	}, results)
}

// waitOutUnread polls the migrations in flight once (poll) after the read of the garden before a move failed for a
// transient reason; a garden unread since longer than the Timeout stops the run.
func (f *flight) waitOutUnread(ctx context.Context, m model.Move, since time.Time, err error, results []model.MoveResult) error {
	if unread := time.Since(since); unread > f.pacing.Timeout {
		return fmt.Errorf("the move of shoot %s to seed %s found the garden unreadable for %v (%w); stopping, a later run continues where this one stopped",
			m.Shoot, m.To, unread.Round(time.Second), err)
	}
	return f.poll(ctx, results)
}

// othersInWords lists the migrations in flight this run did not start, by shoot.
func (f *flight) othersInWords() string {
	var words []string
	for _, key := range slices.Sorted(maps.Keys(f.others)) {
		in := f.others[key]
		words = append(words, fmt.Sprintf("shoot %s to seed %s for %v: %s", key, in.move.To, time.Since(in.started).Round(time.Second), in.state))
	}
	return strings.Join(words, "; ")
}

// waitFor waits until ready() holds or fails, reading the migrations in flight every Poll and setting the result
// of each move that finished; a move in flight longer than Timeout stops it with an error that says what the
// shoot reports.
func (f *flight) waitFor(ctx context.Context, ready func() (bool, error), results []model.MoveResult) error {
	for {
		if done, err := ready(); done || err != nil {
			return err
		}
		if err := f.poll(ctx, results); err != nil {
			return err
		}
	}
}

// poll waits one Poll and reads the migrations in flight: it sets the result of each move that finished, lets go
// of each migration this run did not start that is over, and stops at a stalled move.
func (f *flight) poll(ctx context.Context, results []model.MoveResult) error {
	select {
	case <-ctx.Done():
		return fmt.Errorf("waiting for %s: %w", report.Counted(len(f.moves)+len(f.others), "migration", "migrations"), ctx.Err())
	case <-time.After(f.pacing.Poll):
	}
	if err := f.pollMoves(ctx, results); err != nil {
		return err
	}
	return f.pollOthers(ctx)
}

// pollMoves reads the shoot of every move in flight and sets the result of each that finished. A read that failed
// for a transient reason (ingest.Transient: an API server restarting, overloaded or out of reach) tells nothing: the
// move is read again at the next poll, and stalls as any other once in flight longer than Timeout.
func (f *flight) pollMoves(ctx context.Context, results []model.MoveResult) error {
	for i, m := range f.moves {
		shoot, err := f.read(ctx, m.move.Shoot)
		switch {
		case apierrors.IsNotFound(err):
			results[i].Result, results[i].Detail = model.MoveSkipped, "the shoot was deleted during its migration"
			delete(f.moves, i)
		case err != nil && !ingest.Transient(err):
			return err
		case err == nil && ptr.Deref(shoot.Status.SeedName, "") == m.move.To && !migrating(shoot): // restored on the new seed
			took := time.Since(m.started).Round(time.Second)
			results[i].Result, results[i].Detail = model.MoveFinished, "restored on the new seed after "+took.String()
			delete(f.moves, i)
			slog.InfoContext(ctx, "Migration finished", "shoot", m.move.Shoot, "seed", m.move.To, "after", took)
		case err == nil && migrationState(shoot) != m.state: // progress, for the operator waiting on it
			m.state = migrationState(shoot)
			f.moves[i] = m
			slog.InfoContext(ctx, "Migration in progress", "shoot", m.move.Shoot, "seed", m.move.To, "state", m.state)
		}
		if _, still := f.moves[i]; still && time.Since(m.started) > f.pacing.Timeout {
			state := fmt.Sprint(err) // what the last read said when it failed
			if err == nil {
				state = migrationState(shoot)
			}
			results[i].Result, results[i].Detail = model.MoveStalled, fmt.Sprintf("not restored on seed %s after %v: %s", m.move.To, f.pacing.Timeout, state)
			return fmt.Errorf("the migration of shoot %s to seed %s did not finish within %v (%s); stopping, a later run continues where this one stopped",
				m.move.Shoot, m.move.To, f.pacing.Timeout, state)
		}
	}
	return nil
}

// pollOthers reads the shoot of every migration in flight this run did not start and lets go of each that is over.
// One whose read failed for a transient reason keeps its slot and what it reported last.
func (f *flight) pollOthers(ctx context.Context) error {
	for key, in := range f.others {
		shoot, err := f.read(ctx, key)
		switch {
		case apierrors.IsNotFound(err) || err == nil && !migrating(shoot):
			delete(f.others, key)
		case err != nil && !ingest.Transient(err):
			return err
		case err == nil:
			in.state = migrationState(shoot)
			f.others[key] = in
		}
	}
	return nil
}

// read reads the shoot (namespace/name) of a migration in flight; NotFound stays recognisable.
func (f *flight) read(ctx context.Context, key string) (*gardencorev1beta1.Shoot, error) {
	namespace, name, _ := strings.Cut(key, "/")
	shoot := &gardencorev1beta1.Shoot{}
	if err := f.reader.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, shoot); err != nil {
		return nil, fmt.Errorf("reading shoot %s in migration: %w", key, err)
	}
	return shoot, nil
}

// migrating reports whether the shoot's control plane is moving between seeds (model.Migration).
func migrating(shoot *gardencorev1beta1.Shoot) bool {
	_, _, migrating := model.Migration(shoot)
	return migrating
}

// migrationState says what a shoot in migration reports: where its control plane is, and its last operation.
func migrationState(shoot *gardencorev1beta1.Shoot) string {
	state := fmt.Sprintf("status.seedName %q", ptr.Deref(shoot.Status.SeedName, ""))
	if op := shoot.Status.LastOperation; op != nil {
		state += fmt.Sprintf(", lastOperation %s %s", op.Type, op.State)
	}
	return state
}
