package bind

import (
	"context"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/model"
)

// SetSchedulingVisible sets the seed's spec.settings.scheduling.visible — Gardener's own switch that keeps every
// scheduler, the gardener-scheduler and seedplan alike, from placing new shoots on it — and reports whether it
// changed. It reads the seed and updates it under that resourceVersion, reading again on a conflict, so that no
// other change to the seed is overwritten. With dryRun the API server admits and validates the update without
// storing it (kubectl's --dry-run=server).
func SetSchedulingVisible(ctx context.Context, c client.Client, seedName string, visible, dryRun bool) (changed bool, err error) {
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		seed := &gardencorev1beta1.Seed{}
		if err := c.Get(ctx, client.ObjectKey{Name: seedName}, seed); err != nil {
			return err
		}
		if changed = model.SchedulingVisible(seed) != visible; !changed {
			return nil
		}
		if seed.Spec.Settings == nil {
			seed.Spec.Settings = &gardencorev1beta1.SeedSettings{}
		}
		if seed.Spec.Settings.Scheduling == nil {
			seed.Spec.Settings.Scheduling = &gardencorev1beta1.SeedSettingScheduling{}
		}
		seed.Spec.Settings.Scheduling.Visible = visible
		if dryRun {
			return c.Update(ctx, seed, client.DryRunAll)
		}
		return c.Update(ctx, seed)
	})
	if err != nil {
		return false, fmt.Errorf("seed %s: setting spec.settings.scheduling.visible to %v: %w", seedName, visible, err)
	}
	return changed, nil
}
