package ingest

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
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
			got := asNotServed(tc.gk, tc.versions, tc.err)
			if tc.want == "" {
				if got != tc.err {
					t.Fatalf("asNotServed(%v) = %v, want it unchanged", tc.err, got)
				}
				return
			}
			var notServed *NotServedError
			if !errors.As(got, &notServed) || !strings.HasPrefix(got.Error(), tc.want) {
				t.Fatalf("asNotServed(%v) = %v, want a NotServedError beginning %q", tc.err, got, tc.want)
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

// Whether a Gardener kind the mapper does not find may be served soon is read from what kube-apiserver answers for
// the kind's group version and for /readyz; only a ready cluster without the group version does not serve it.
func TestUnavailable(t *testing.T) {
	seed := schema.GroupVersionKind{Group: "core.gardener.cloud", Version: "v1beta1", Kind: "Seed"}
	listing := func(kinds ...string) string {
		var resources []string
		for _, kind := range kinds {
			resources = append(resources, fmt.Sprintf(`{"name":%q,"namespaced":false,"kind":%q,"verbs":["get","list"]}`, strings.ToLower(kind)+"s", kind))
		}
		return `{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"core.gardener.cloud/v1beta1","resources":[` + strings.Join(resources, ",") + `]}`
	}
	for _, tc := range []struct {
		name         string
		groupVersion int // status code of /apis/core.gardener.cloud/v1beta1
		body         string
		readyz       int
		want         string // "" means served by no one: nil
	}{
		{"gardener-apiserver does not answer", http.StatusServiceUnavailable, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"service unavailable","reason":"ServiceUnavailable","code":503}`, http.StatusOK,
			"its gardener-apiserver does not answer (service unavailable)"},
		{"discovery has not caught up", http.StatusOK, listing("Shoot", "Seed"), http.StatusOK,
			"kube-apiserver serves it, but its discovery does not list it yet"},
		{"the group version lacks the kind", http.StatusOK, listing("Shoot"), http.StatusOK, ""},
		{"kube-apiserver is starting", http.StatusNotFound, "404 page not found", http.StatusInternalServerError,
			"its kube-apiserver is not ready: /readyz answers 500"},
		{"no garden", http.StatusNotFound, "404 page not found", http.StatusOK, ""},
		{"no garden, and readiness not for us to see", http.StatusNotFound, "404 page not found", http.StatusForbidden, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/apis/core.gardener.cloud/v1beta1":
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(tc.groupVersion)
					_, _ = w.Write([]byte(tc.body))
				case "/readyz":
					w.WriteHeader(tc.readyz)
				default:
					http.NotFound(w, r)
				}
			}))
			defer server.Close()
			discover, err := discovery.NewDiscoveryClientForConfig(&rest.Config{Host: server.URL})
			if err != nil {
				t.Fatal(err)
			}
			got := gardenMapper{discovery: discover}.unavailable(seed)
			switch {
			case tc.want == "" && got != nil:
				t.Fatalf("unavailable = %v, want nil: the cluster does not serve the kind", got)
			case tc.want != "" && (got == nil || got.Error() != tc.want || !Transient(got)):
				t.Fatalf("unavailable = %v, want the transient %q", got, tc.want)
			}
		})
	}
}
