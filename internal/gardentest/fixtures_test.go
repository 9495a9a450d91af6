package gardentest

import (
	"context"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A fixture created while kube-apiserver answers 503 for Gardener's API — as it may just after gardener-apiserver
// restarted, when a check begun before the restart marks it unavailable again — is created once it answers, with
// its status, instead of failing the test that wanted it (a CredentialsBinding of the test after such a restart
// did fail so on CI).
func TestFixturesWaitForGardenersAPI(t *testing.T) {
	cp := ownControlPlane(t) // taken down and up again, which tests of a shared one should not see
	ctx := context.Background()
	restart := cp.TakeDownGardenerAPIServer(t)
	if err := cp.Client.Create(ctx, Seed("probe", "aws", "waits-1", "waits-1a")); !apierrors.IsServiceUnavailable(err) {
		t.Fatalf("creating a seed while gardener-apiserver is down: %v, want 503", err)
	}
	seed := Seed("waits", "aws", "waits-1", "waits-1a")
	created := make(chan error, 1)
	go func() { created <- cp.CreateSeed(ctx, seed, 7) }()
	if err := restart(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-created; err != nil {
		t.Fatalf("creating a seed while gardener-apiserver was down, and after: %v", err)
	}
	stored := &gardencorev1beta1.Seed{}
	if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(seed), stored); err != nil {
		t.Fatal(err)
	}
	if allocatable := stored.Status.Allocatable[gardencorev1beta1.ResourceShoots]; allocatable.Value() != 7 || stored.UID != seed.UID {
		t.Fatalf("stored seed %s with allocatable %s, want %s with 7", stored.UID, allocatable.String(), seed.UID)
	}
}
