package ingest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// A kind of Gardener's API the cluster does not serve is said as such; any other failure of the mapper, and a
// kind of another API, stay as the mapper said them. Either way meta.IsNoMatchError still holds where it held
// (a garden without ManagedSeedSets has none).
func TestNotServed(t *testing.T) {
	seed := schema.GroupKind{Group: "core.gardener.cloud", Kind: "Seed"}
	noKind := &meta.NoKindMatchError{GroupKind: seed, SearchedVersions: []string{"v1beta1"}}
	discovery := fmt.Errorf("unable to retrieve the complete list of server APIs: core.gardener.cloud/v1beta1: %w",
		&meta.NoResourceMatchError{PartialResource: schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1"}})
	other := errors.New("connection refused")
	down := apierrors.NewServiceUnavailable("the server is currently unable to handle the request")
	groupDown := fmt.Errorf("failed to get API group resources: %w",
		&apiutil.ErrResourceDiscoveryFailed{{Group: "core.gardener.cloud", Version: "v1beta1"}: down})
	for _, tc := range []struct {
		name     string
		gk       schema.GroupKind
		versions []string
		err      error
		want     string // "" means err unchanged
		// transient: a NotServedError that a retry may outlast (gardener-apiserver does not answer now)
		transient bool
	}{
		{"no such kind", seed, []string{"v1beta1"}, noKind,
			"the cluster does not serve Seed (core.gardener.cloud/v1beta1): either it is not a garden (check the kubeconfig and its context), or its gardener-apiserver is unavailable or lacks that API", false},
		{"no such group, from discovery", seed, []string{"v1beta1"}, discovery,
			"the cluster does not serve Seed (core.gardener.cloud/v1beta1): either it is not a garden", false},
		{"another Gardener group, no version asked", schema.GroupKind{Group: "seedmanagement.gardener.cloud", Kind: "ManagedSeedSet"}, nil, noKind,
			"the cluster does not serve ManagedSeedSet (seedmanagement.gardener.cloud): either it is not a garden", false},
		{"its group version's discovery answered 503", seed, []string{"v1beta1"}, groupDown,
			"the garden does not serve Seed (core.gardener.cloud/v1beta1) now: its gardener-apiserver does not answer (the server is currently unable to handle the request)", true},
		{"Kubernetes' own kinds", schema.GroupKind{Group: "coordination.k8s.io", Kind: "Lease"}, []string{"v1"}, noKind, "", false},
		{"the core group", schema.GroupKind{Kind: "ConfigMap"}, []string{"v1"}, noKind, "", false},
		{"a group named like Gardener's", schema.GroupKind{Group: "notgardener.cloud", Kind: "Seed"}, []string{"v1"}, noKind, "", false},
		{"another failure", seed, []string{"v1beta1"}, other, "", false},
		{"no failure", seed, []string{"v1beta1"}, nil, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := notServed(tc.gk, tc.versions, tc.err)
			if tc.want == "" {
				if got != tc.err {
					t.Fatalf("notServed(%v) = %v, want it unchanged", tc.err, got)
				}
				return
			}
			var notServed *NotServedError
			if !errors.As(got, &notServed) || !strings.HasPrefix(got.Error(), tc.want) {
				t.Fatalf("notServed(%v) = %v, want a NotServedError beginning %q", tc.err, got, tc.want)
			}
			if meta.IsNoMatchError(got) != meta.IsNoMatchError(tc.err) || !errors.Is(got, tc.err) {
				t.Errorf("%v no longer wraps the mapper's %v", got, tc.err)
			}
			if Transient(got) != tc.transient {
				t.Errorf("Transient(%v) = %v, want %v", got, !tc.transient, tc.transient)
			}
		})
	}
}
