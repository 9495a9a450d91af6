package cluster

import (
	"context"
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"github.com/seedplan/seedplan/ingest"
)

// leaseLock is the Lease the loop's replicas elect their leader with, held under the loop's Identity — the name its
// logs and events carry — rather than under one controller-runtime would make up. Its leader election events are
// recorded once the manager has a recorder (leaseEvents).
func (l *Loop) leaseLock() (*resourcelock.LeaseLock, error) {
	le := l.Config.LeaderElection
	electing := rest.AddUserAgent(rest.CopyConfig(l.REST), "leader-election")
	// A hung request must not outlast the renew deadline and cost the lead, as controller-runtime bounds its own.
	electing.Timeout = max(le.RenewDeadline.Duration/2, time.Second)
	coordination, err := coordinationv1client.NewForConfig(electing)
	if err != nil {
		return nil, fmt.Errorf("creating the leader election client: %w", err)
	}
	return &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: le.ResourceNamespace, Name: le.ResourceName},
		Client:     coordination,
		LockConfig: resourcelock.ResourceLockConfig{Identity: l.Identity},
	}, nil
}

// leaseEvents records the Lease's leader election events ("IDENTITY became leader") through the events API, as
// the loop records every other event.
type leaseEvents struct{ recorder events.EventRecorder }

// Eventf records an event about the Lease; message is what resourcelock says, with its args.
func (r leaseEvents) Eventf(lease runtime.Object, eventType, reason, message string, args ...any) {
	r.recorder.Eventf(lease, nil, eventType, reason, "LeaderElection", message, args...)
}

// checkLease makes sure the loop can take the Lease before it seeks it: leader election itself only logs why it
// cannot, every retry period, and a loop whose Lease the garden cannot hold — its namespace missing, or its RBAC
// short — would stand by, ready, and never bind. Taking a Lease that exists updates it, and one that does not is
// created: each is tried as a server-side dry run, which writes nothing and fails as the election's own request
// would. The garden authorizes a request before it compares versions or names, so a conflict with another replica
// that wrote the Lease meanwhile answers the question as well as a success does.
func checkLease(ctx context.Context, lock *resourcelock.LeaseLock) error {
	leases := lock.Client.Leases(lock.LeaseMeta.Namespace)
	lease := fmt.Sprintf("the leader election Lease %s/%s", lock.LeaseMeta.Namespace, lock.LeaseMeta.Name)
	dryRun := []string{metav1.DryRunAll}
	err := ingest.RetryTransient(ctx, ingest.RestartPatience, func() error {
		existing, err := leases.Get(ctx, lock.LeaseMeta.Name, metav1.GetOptions{})
		if err == nil {
			_, err = leases.Update(ctx, existing, metav1.UpdateOptions{DryRun: dryRun})
		}
		if apierrors.IsNotFound(err) { // absent, or deleted since it was read
			_, err = leases.Create(ctx, &coordinationv1.Lease{ObjectMeta: lock.LeaseMeta}, metav1.CreateOptions{DryRun: dryRun})
		}
		if apierrors.IsConflict(err) || apierrors.IsAlreadyExists(err) {
			return nil
		}
		return err
	})
	switch {
	case apierrors.IsNotFound(err):
		return fmt.Errorf("%s cannot be created: the garden has no namespace %q "+
			"(leaderElection.resourceNamespace): create it, or name one that exists: %w", lease, lock.LeaseMeta.Namespace, err)
	case err != nil:
		return fmt.Errorf("checking %s: %w", lease, err)
	}
	return nil
}
