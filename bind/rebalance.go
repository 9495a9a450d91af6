package bind

import (
	"context"
	"fmt"
	"log/slog"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/seedplan/seedplan/model"
)

// ReasonRebalanced is the reason of the event seedplan writes on a shoot it moved to another seed.
const ReasonRebalanced = "Rebalanced"

// Rebind moves a bound shoot to the move's seed through the binding subresource, which is how Gardener triggers a
// control plane migration, with the resourceVersion of the object read: a shoot changed since is not touched. A
// Normal event Rebalanced records the move. With DryRun the rebinding is sent as a dry run: MoveAdmitted, or the
// API server's refusal, and nothing written.
func (b *Binder) Rebind(ctx context.Context, read *gardencorev1beta1.Shoot, m model.Move) model.MoveResult {
	result := model.MoveResult{Shoot: m.Shoot, To: m.To}
	shoot, err := b.updateBinding(ctx, read, m.To)
	switch {
	case err == nil && b.DryRun:
		result.Result = model.MoveAdmitted
		return result
	case err == nil:
		result.Result = model.MoveApplied
		b.event(ctx, shoot, corev1.EventTypeNormal, ReasonRebalanced, fmt.Sprintf("Moved from seed %q to seed %q by seedplan rebalance (%s)", m.From, m.To, m.Reason))
		slog.InfoContext(ctx, "Shoot moved", "shoot", m.Shoot, "from", m.From, "to", m.To, "reason", m.Reason)
	case apierrors.IsConflict(err):
		result.Result, result.Detail = model.MoveConflict, err.Error()
	case refused(err):
		result.Result, result.Detail = model.MoveRefused, err.Error()
	default:
		result.Result, result.Detail = model.MoveFailed, err.Error()
	}
	if result.Result != model.MoveApplied {
		slog.WarnContext(ctx, "Shoot not moved", "shoot", m.Shoot, "to", m.To, "result", result.Result, "detail", result.Detail)
	}
	return result
}
