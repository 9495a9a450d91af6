package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// Rebalance applies rebalancing moves to a garden cluster, one at a time.
type Rebalance struct {
	// Reader lists the garden's objects; it must read the API server, not a cache.
	Reader   client.Reader
	PageSize int64
	Binder   *bind.Binder
	Options  model.Options
	Target   model.RebalanceOptions
	// Pacing, when set, bounds the migrations in flight and waits for each to finish; without it the moves are
	// started one after another and their migrations not awaited.
	Pacing *Pacing
	// MaxMovesPerProject, when positive, bounds the moves of one project's shoots (a namespace) in one run.
	MaxMovesPerProject int
}

// read lists the landscape and keeps every shoot as read (the snapshot defaults its objects in place). Without a
// Pacing, a read that fails for a transient reason is read again for up to ingest.RestartPatience.
func (r *Rebalance) read(ctx context.Context) (*model.Snapshot, map[string]*gardencorev1beta1.Shoot, error) {
	load := ingest.LoadClusterPatiently
	if r.Pacing != nil {
		load = ingest.LoadCluster // a paced run waits out an unreadable garden by its own Timeout
	}
	landscape, err := load(ctx, r.Reader, r.PageSize)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the garden cluster: %w", err)
	}
	read := make(map[string]*gardencorev1beta1.Shoot, len(landscape.Objects.Shoots))
	for _, shoot := range landscape.Objects.Shoots {
		read[shoot.Namespace+"/"+shoot.Name] = shoot.DeepCopy()
	}
	snap, err := model.NewSnapshot(landscape.Objects)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the garden cluster: %w", err)
	}
	return snap, read, nil
}

// Apply executes the moves one at a time. Before each it reads the cluster afresh and checks the move with
// model.VerifyMoves against what it finds — the shoot still on its seed and movable, the new seed still passing every
// predicate and the migration rules, and still below its target counting the moves made so far (their shoots count on
// both seeds until their migrations complete, as the gardener-apiserver counts them) — and skips it with the reason
// when not, as it skips a move whose shoot's spec changed since it was planned (changedSince). A move whose shoot's
// maintenance window is closed now waits for it (MoveScheduled, with the time it opens) unless the target ignores
// maintenance windows. The binding carries the resourceVersion of that read. It stops when ctx ends, and returns an
// error, after trying every move, when a binding failed for another reason than a skip, a conflict or Gardener's
// refusal (those are results, not errors). With Pacing a move starts only while the migrations in flight allow it —
// those it started and those the garden shows that it did not — Apply waits for every migration it started, and a
// migration that does not finish in time, a slot not freed in that time, or a garden that fails to be read for that
// time for a transient reason, stops it: the moves not started are not in the results, and running the same moves again
// skips the finished ones (their shoots are no longer where the moves start). With the Binder's DryRun each move is
// checked and sent as a dry run (MoveAdmitted) against the garden as it is: the moves before it are not made, so none
// counts on its seeds and nothing waits for a migration.
func (r *Rebalance) Apply(ctx context.Context, moves []model.Move) ([]model.MoveResult, error) {
	results := make([]model.MoveResult, 0, len(moves))
	var failed []error
	var paced *flight
	if r.Pacing != nil {
		paced = newFlight(*r.Pacing, r.Reader)
	}
	perProject := map[string]int{}
	for _, m := range moves {
		if err := ctx.Err(); err != nil {
			return results, fmt.Errorf("applying moves: %w", err)
		}
		project, _, _ := strings.Cut(m.Shoot, "/")
		if r.MaxMovesPerProject > 0 && perProject[project] == r.MaxMovesPerProject {
			results = append(results, model.MoveResult{Shoot: m.Shoot, To: m.To, Result: model.MoveCapped,
				Detail: fmt.Sprintf("namespace %s had its %s of this run; a later run moves it", project, report.Counted(r.MaxMovesPerProject, "move", "moves"))})
			continue
		}
		result, err := r.startPaced(ctx, m, paced, results)
		if err != nil {
			return results, err
		}
		if result.Result == model.MoveApplied || result.Result == model.MoveAdmitted {
			perProject[project]++ // a dry run shows the cap as the moves would meet it
		}
		if result.Result == model.MoveFailed {
			failed = append(failed, fmt.Errorf("moving shoot %s to seed %s: %s", m.Shoot, m.To, result.Detail))
		}
		if paced != nil && result.Result == model.MoveApplied {
			paced.add(len(results), m)
		}
		results = append(results, result)
	}
	if paced != nil {
		if len(paced.moves) > 0 {
			slog.InfoContext(ctx, "Waiting for the migrations started to finish", "migrations", len(paced.moves))
		}
		if err := paced.waitFor(ctx, func() (bool, error) { return len(paced.moves) == 0, nil }, results); err != nil {
			return results, err
		}
	}
	return results, errors.Join(failed...)
}

// startPaced starts the move once the migrations in flight leave it a slot (without a pacing, at once). The
// migrations the fresh read before the binding shows in flight that this run did not start take slots too: when
// they leave the move none, it waits again. A paced run, which may last hours, also waits out a read that failed
// for a transient reason (ingest.Transient) for as long as the Timeout; a one-shot run reads again for up to
// ingest.RestartPatience, as the job does, and then fails the move. A move whose binding met a conflict is checked
// once more against a fresh read.
func (r *Rebalance) startPaced(ctx context.Context, m model.Move, paced *flight, results []model.MoveResult) (model.MoveResult, error) {
	var unreadSince time.Time
	checkedAgain := false
	for {
		if paced != nil {
			if err := paced.waitForSlot(ctx, m, results); err != nil {
				return model.MoveResult{}, err
			}
		}
		snap, read, err := r.read(ctx)
		if err != nil && paced != nil && ingest.Transient(err) {
			if unreadSince.IsZero() {
				unreadSince = time.Now()
			}
			if err := paced.waitOutUnread(ctx, m, unreadSince, err, results); err != nil {
				return model.MoveResult{}, err
			}
			continue
		}
		if err != nil {
			return model.MoveResult{Shoot: m.Shoot, To: m.To, Result: model.MoveFailed, Detail: err.Error()}, nil
		}
		unreadSince = time.Time{}
		result, held := r.start(ctx, m, snap, read, paced)
		if result.Result == model.MoveConflict && !checkedAgain {
			// The shoot changed between the read and the binding — most often its gardenlet writing its status:
			// the move is checked once more against a fresh read, which makes it when the shoot is still the
			// version planned for and the move still holds, and says why not otherwise.
			checkedAgain = true
			continue
		}
		if !held {
			return result, nil
		}
	}
}

// start checks a move against a fresh read of the garden (snap, and the shoots as read) and, when it still holds,
// rebinds its shoot; held is true, and nothing done, when the move holds but the read shows migrations in flight
// that leave it no slot. A dry run takes none into account: it makes no migration to pace.
func (r *Rebalance) start(ctx context.Context, m model.Move, snap *model.Snapshot, read map[string]*gardencorev1beta1.Shoot, paced *flight) (result model.MoveResult, held bool) {
	skip := func(detail string) model.MoveResult {
		return model.MoveResult{Shoot: m.Shoot, To: m.To, Result: model.MoveSkipped, Detail: detail}
	}
	// A shoot gone is VerifyMoves' to say; one that changed since the move was planned is skipped for that first,
	// where it is when its seed changed rather than that it is not on the seed the move leaves.
	if shoot := read[m.Shoot]; shoot != nil && m.ResourceVersion != "" {
		if changed := changedSince(m.ShootVersion, shoot, m.From, m.To, "the move was planned"); changed != "" {
			return skip(changed), false
		}
	}
	if err := model.VerifyMoves(snap, r.Options, r.Target, []model.Move{m}); err != nil {
		return skip(err.Error()), false
	}
	if !r.Target.IgnoreMaintenanceWindows {
		now := time.Now()
		start, err := model.MaintenanceStart(read[m.Shoot], now)
		if err != nil {
			return skip(err.Error()), false
		}
		if start.After(now) {
			return model.MoveResult{Shoot: m.Shoot, To: m.To, Result: model.MoveScheduled,
				Detail: "waits for its maintenance window, which opens at " + start.UTC().Format(time.RFC3339)}, false
		}
	}
	if paced != nil && !r.Binder.DryRun {
		if paced.observe(read); !paced.admits(m) {
			return model.MoveResult{}, true
		}
	}
	return r.Binder.Rebind(ctx, read[m.Shoot], m), false
}
