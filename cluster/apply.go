package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// Reviewed applies a plan an operator reviewed (`schedule -o json`): exactly its placements, none planned anew.
type Reviewed struct {
	// Reader reads the API server, not a cache.
	Reader   client.Reader
	PageSize int64
	Binder   *bind.Binder
	Options  model.Options
}

// Apply binds each placement only while its shoot is still the version the plan recorded (changedSince) and is
// pending for the Options' scheduler name (a plan file can be edited, or be another scheduler's), and its seed
// still passes every predicate at the distance the plan states and has room, counting the placements before it
// (model.Verify on a fresh read); the binding carries the resourceVersion of that read. Anything else is Skipped
// with the reason. A placement without a resourceVersion (a plan made from files) refuses the whole plan: it could
// not be guarded. With the Binder's DryRun the bindings are sent as dry runs (model.Admitted) and nothing is
// written. The results are one per placement, in the plan's order, as a rebalancing's are; a plan without
// placements reads nothing.
func (r *Reviewed) Apply(ctx context.Context, placements []model.Placement) ([]bind.Result, error) {
	if len(placements) == 0 {
		return nil, nil // a whole garden read for nothing to check
	}
	for _, pl := range placements {
		if pl.ResourceVersion == "" {
			return nil, fmt.Errorf("placement of shoot %s has no resourceVersion: apply plans made from the garden (schedule --kubeconfig --dry-run -o json)", pl.Shoot)
		}
	}
	landscape, err := ingest.LoadClusterPatiently(ctx, r.Reader, r.PageSize)
	if err != nil {
		return nil, fmt.Errorf("reading the garden cluster: %w", err)
	}
	read := make(map[string]*gardencorev1beta1.Shoot, len(landscape.Objects.Shoots))
	for _, shoot := range landscape.Objects.Shoots {
		read[model.ShootKey(shoot)] = shoot.DeepCopy() // as read: the snapshot defaults its objects in place
	}
	snap, err := model.NewSnapshot(landscape.Objects)
	if err != nil {
		return nil, fmt.Errorf("reading the garden cluster: %w", err)
	}
	var skipped []bind.Result
	kept := &model.Plan{}
	opts := r.Options.WithDefaults()
	verifier := model.NewVerifier(snap, opts)
	placedOn := map[string]int{} // the placements kept so far count against their seed's room: they go first
	for _, pl := range placements {
		if reason := check(snap, verifier, opts.SchedulerName, read[pl.Shoot], placedOn[pl.Seed], pl); reason != "" {
			skipped = append(skipped, bind.Result{Shoot: pl.Shoot, Seed: pl.Seed, Result: model.Skipped, Err: errors.New(reason)})
			continue
		}
		kept.Placements = append(kept.Placements, pl)
		placedOn[pl.Seed]++
	}
	results, err := r.Binder.Apply(ctx, read, kept)
	r.Binder.Flush()
	return inPlanOrder(placements, append(skipped, results...)), err
}

// inPlanOrder orders the results as their placements are ordered (a plan names each shoot once).
func inPlanOrder(placements []model.Placement, results []bind.Result) []bind.Result {
	position := make(map[string]int, len(placements))
	for i, pl := range placements {
		position[pl.Shoot] = i
	}
	slices.SortFunc(results, func(a, b bind.Result) int { return cmp.Compare(position[a.Shoot], position[b.Shoot]) })
	return results
}

// check says why a reviewed placement no longer holds, or "": placed is how many shoots the placements kept
// before it put on its seed.
func check(snap *model.Snapshot, verifier *model.Verifier, schedulerName string, shoot *gardencorev1beta1.Shoot, placed int, pl model.Placement) string {
	if shoot == nil {
		return "the shoot no longer exists"
	}
	if changed := changedSince(pl.ShootVersion, shoot, "", pl.Seed, "the plan was made"); changed != "" {
		return changed
	}
	seed := snap.Seed(pl.Seed)
	switch {
	case model.WhyNotPending(shoot, schedulerName) != "":
		return fmt.Sprintf("the shoot is not pending for scheduler %q: %s", schedulerName, report.NotPending(shoot, schedulerName))
	case seed == nil:
		return fmt.Sprintf("seed %s no longer exists", pl.Seed)
	}
	// The snapshot's own, defaulted shoot: the one read is kept as read for the binding.
	if err := verifier.Check(pl); err != nil {
		return err.Error()
	}
	if free := model.FreeCapacity(seed, snap.Usage(pl.Seed)); free != model.Unlimited && placed >= free {
		return fmt.Sprintf("seed %s has no room left: %d free, %d taken by the placements before", pl.Seed, free, placed)
	}
	return ""
}

// seedChangedSince says where a shoot is whose seed changed since the version v was planned for (from: its seed
// then, "" for a pending shoot): on seed to, as planned — the plan applied before, or another writer's same choice —
// or on another. That, not "its spec changed" (which the binding changed), tells an operator applying the same file
// again what happened. Another shoot of the same name is not the one planned for: changedSince says so.
func seedChangedSince(v model.ShootVersion, now *gardencorev1beta1.Shoot, from, to, since string) string {
	change := v.ChangeTo(now)
	seed := ptr.Deref(now.Spec.SeedName, "")
	switch {
	case seed == from || seed == "" || change == model.SameVersion || change == model.Recreated:
		return ""
	case seed == to:
		return fmt.Sprintf("the shoot is on seed %s already, as planned", to)
	case from == "":
		return fmt.Sprintf("the shoot was bound to seed %s since %s", seed, since)
	}
	return fmt.Sprintf("the shoot moved to seed %s since %s", seed, since)
}

// changedSince says how the shoot as read now differs from the version v it was planned for — to go from seed from
// ("" when pending) to seed to — since when: where it is when its seed changed (seedChangedSince), else what else
// changed; "" when it is that version, or a later one with the same spec (a gardenlet's reconcile or a scheduler's
// failure report changed its status), which the binding then carries.
func changedSince(v model.ShootVersion, now *gardencorev1beta1.Shoot, from, to, since string) string {
	if moved := seedChangedSince(v, now, from, to, since); moved != "" {
		return moved
	}
	switch v.ChangeTo(now) {
	case model.OtherVersion:
		return fmt.Sprintf("the shoot changed since %s (resourceVersion %s, now %s)", since, v.ResourceVersion, now.ResourceVersion)
	case model.Recreated:
		return fmt.Sprintf("the shoot was deleted and created again since %s", since)
	case model.SpecChanged:
		if now.DeletionTimestamp != nil {
			return fmt.Sprintf("the shoot's deletion began after %s", since)
		}
		return fmt.Sprintf("the shoot's spec changed since %s (generation %d, now %d)", since, v.Generation, now.Generation)
	}
	return ""
}
