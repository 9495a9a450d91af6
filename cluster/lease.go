package cluster

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
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
