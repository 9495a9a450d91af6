package bind

import (
	"context"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
)

// SetSchedulingVisible sets the seed's spec.settings.scheduling.visible — Gardener's own switch that keeps every
// scheduler, the gardener-scheduler and seedplan alike, from placing new shoots on it — and reports whether it
// changed. It reads the seed and updates it under that resourceVersion, reading again on a conflict, so that no
// other change to the seed is overwritten. With dryRun the API server admits and validates the update without
// storing it (kubectl's --dry-run=server). A garden that does not answer, as while an upgrade restarts its
// gardener-apiserver, is asked again for up to ingest.RestartPatience, as the schedule job's read is; an update whose
// answer was lost is then found made, and reported unchanged.
func SetSchedulingVisible(ctx context.Context, c client.Client, seedName string, visible, dryRun bool) (changed bool, err error) {
	err = ingest.RetryTransient(ctx, ingest.RestartPatience, func() error {
		return retry.RetryOnConflict(retry.DefaultRetry, func() (err error) {
			changed, err = setVisible(ctx, c, seedName, visible, dryRun)
			return err
		})
	})
	if err != nil {
		return false, fmt.Errorf("seed %s: setting spec.settings.scheduling.visible to %v: %w", seedName, visible, err)
	}
	return changed, nil
}

// setVisible reads the seed and, unless it is as wanted already, updates it under the resourceVersion read.
func setVisible(ctx context.Context, c client.Client, seedName string, visible, dryRun bool) (changed bool, err error) {
	seed := &gardencorev1beta1.Seed{}
	if err := c.Get(ctx, client.ObjectKey{Name: seedName}, seed); err != nil {
		return false, err
	}
	if model.SchedulingVisible(seed) == visible {
		return false, nil
	}
	if seed.Spec.Settings == nil {
		seed.Spec.Settings = &gardencorev1beta1.SeedSettings{}
	}
	if seed.Spec.Settings.Scheduling == nil {
		seed.Spec.Settings.Scheduling = &gardencorev1beta1.SeedSettingScheduling{}
	}
	seed.Spec.Settings.Scheduling.Visible = visible
	if dryRun {
		return true, c.Update(ctx, seed, client.DryRunAll)
	}
	return true, c.Update(ctx, seed)
}
