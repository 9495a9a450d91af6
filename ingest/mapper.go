package ingest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// NotServedError is a request for a kind of Gardener's API that the cluster does not serve: the kubeconfig or its
// context names another cluster than the garden (a seed, a shoot), or the garden lacks the kind, or — Unavailable,
// and then Transient — the garden's gardener-apiserver is down (once kube-apiserver has found it unavailable,
// discovery leaves its groups out) or its kube-apiserver has just started. It wraps the REST mapper's error, so
// meta.IsNoMatchError holds for it where it held for that.
type NotServedError struct {
	Kind schema.GroupVersionKind
	Err  error
	// Unavailable says why the kind may be served soon, when it may (gardenMapper.unavailable): gardener-apiserver
	// or kube-apiserver does not answer or is not ready. It makes the error Transient.
	Unavailable error
}

// Error says which kind the cluster does not serve, and what that likely means.
func (e *NotServedError) Error() string {
	served := e.Kind.Group
	if e.Kind.Version != "" {
		served = e.Kind.GroupVersion().String()
	}
	if e.Unavailable != nil {
		return fmt.Sprintf("the garden does not serve %s (%s) now: %v", e.Kind.Kind, served, e.Unavailable)
	}
	return fmt.Sprintf("the cluster does not serve %s (%s): either it is not a garden (check the kubeconfig and its "+
		"context), or its gardener-apiserver is unavailable or lacks that API", e.Kind.Kind, served)
}

// Unwrap is the REST mapper's error and, if any, why the kind may be served soon.
func (e *NotServedError) Unwrap() []error {
	if e.Unavailable == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.Unavailable}
}

// NewRESTMapper is the REST mapper of every client of the garden: controller-runtime's dynamic mapper, but a kind of
// Gardener's API the cluster does not serve fails with a NotServedError instead of the mapper's "no matches for
// core.gardener.cloud/v1beta1, Resource=", which does not say what is wrong.
func NewRESTMapper(cfg *rest.Config, httpClient *http.Client) (meta.RESTMapper, error) {
	mapper, err := apiutil.NewDynamicRESTMapper(cfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("creating the REST mapper for %s: %w", cfg.Host, err)
	}
	discover, err := discovery.NewDiscoveryClientForConfigAndClient(cfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("creating the discovery client for %s: %w", cfg.Host, err)
	}
	return gardenMapper{RESTMapper: mapper, discovery: discover}, nil
}

// gardenMapper says which kind of Gardener's API the cluster does not serve (NotServedError), and whether that is
// because its server does not answer now.
type gardenMapper struct {
	meta.RESTMapper
	discovery *discovery.DiscoveryClient
}

// RESTMapping is the mapper's, or a NotServedError for a kind of Gardener's API the cluster does not serve.
func (m gardenMapper) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	mapping, err := m.RESTMapper.RESTMapping(gk, versions...)
	return mapping, m.notServed(gk, versions, err)
}

// RESTMappings are the mapper's, or a NotServedError for a kind of Gardener's API the cluster does not serve.
func (m gardenMapper) RESTMappings(gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	mappings, err := m.RESTMapper.RESTMappings(gk, versions...)
	return mappings, m.notServed(gk, versions, err)
}

// notServed is the mapper's error as asNotServed makes it, with Unavailable filled in, where the mapper's error
// lacks it, from kube-apiserver's discovery of the kind's group version.
func (m gardenMapper) notServed(gk schema.GroupKind, versions []string, err error) error {
	err = asNotServed(gk, versions, err)
	var nse *NotServedError
	if errors.As(err, &nse) && nse.Unavailable == nil && nse.Kind.Version != "" {
		nse.Unavailable = m.unavailable(nse.Kind)
	}
	return err
}

// unavailable says why the cluster may serve kind soon although its discovery lacks it, or is nil. kube-apiserver
// answers 503 for the group version's discovery document: an APIService registers it, but the server behind it
// does not answer (gardener-apiserver restarting). The document lists the kind: kube-apiserver serves it, but
// the discovery of all groups that the mapper reads has not caught up (kube-apiserver started moments ago). Or
// kube-apiserver is not ready. A ready cluster that answers 404 does not serve it: no garden. A mapper takes no
// context: the requests are bounded by the client's timeout, as the mapper's own discovery requests are.
func (m gardenMapper) unavailable(kind schema.GroupVersionKind) error {
	resources, err := m.discovery.ServerResourcesForGroupVersion(kind.GroupVersion().String())
	switch {
	case apierrors.IsServiceUnavailable(err):
		return gardenerAPIServerDown(err)
	case err == nil && slices.ContainsFunc(resources.APIResources, func(r metav1.APIResource) bool { return r.Kind == kind.Kind }):
		return apierrors.NewServiceUnavailable("kube-apiserver serves it, but its discovery does not list it yet")
	}
	var code int
	if err := m.discovery.RESTClient().Get().AbsPath("/readyz").Do(context.Background()).StatusCode(&code).Error(); code == 0 && err != nil {
		return fmt.Errorf("its kube-apiserver does not answer (%w)", err)
	}
	if code >= http.StatusInternalServerError { // a refusal (401, 403) says nothing of readiness
		return apierrors.NewServiceUnavailable(fmt.Sprintf("its kube-apiserver is not ready: /readyz answers %d", code))
	}
	return nil
}

// asNotServed is err as a NotServedError when it says that the cluster serves no such kind of Gardener's API: the
// mapper found no match, or its discovery of the kind's group version got kube-apiserver's 503 (the mapper knew
// the group from before gardener-apiserver stopped answering), which is then Unavailable.
func asNotServed(gk schema.GroupKind, versions []string, err error) error {
	if err == nil || !strings.HasSuffix(gk.Group, ".gardener.cloud") {
		return err
	}
	kind := gk.WithVersion("")
	if len(versions) == 1 {
		kind.Version = versions[0]
	}
	var status *apierrors.StatusError
	switch {
	case meta.IsNoMatchError(err):
		return &NotServedError{Kind: kind, Err: err}
	case errors.As(err, &status) && apierrors.IsServiceUnavailable(status):
		return &NotServedError{Kind: kind, Err: err, Unavailable: gardenerAPIServerDown(status)}
	}
	return err
}

// gardenerAPIServerDown is why a Gardener kind is not served now when kube-apiserver answers 503 for its group
// version: the aggregated gardener-apiserver behind it does not answer. It wraps the 503, which makes it Transient.
func gardenerAPIServerDown(unavailable error) error {
	return fmt.Errorf("its gardener-apiserver does not answer (%w)", unavailable)
}
