package ingest

import (
	"fmt"
	"net/http"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// NotServedError is a request for a kind of Gardener's API that the cluster does not serve: the kubeconfig or its
// context names another cluster than the garden (a seed, a shoot), or the garden's gardener-apiserver is down (once
// kube-apiserver has found it unavailable, discovery leaves its groups out) or lacks the kind. It wraps the REST
// mapper's error, so meta.IsNoMatchError still holds for it.
type NotServedError struct {
	Kind schema.GroupVersionKind
	Err  error
}

// Error says which kind the cluster does not serve, and what that likely means.
func (e *NotServedError) Error() string {
	served := e.Kind.Group
	if e.Kind.Version != "" {
		served = e.Kind.GroupVersion().String()
	}
	return fmt.Sprintf("the cluster does not serve %s (%s): either it is not a garden (check the kubeconfig and its "+
		"context), or its gardener-apiserver is unavailable or lacks that API", e.Kind.Kind, served)
}

// Unwrap is the REST mapper's error.
func (e *NotServedError) Unwrap() error { return e.Err }

// NewRESTMapper is the REST mapper of every client of the garden: controller-runtime's dynamic mapper, but a kind of
// Gardener's API the cluster does not serve fails with a NotServedError instead of the mapper's "no matches for
// core.gardener.cloud/v1beta1, Resource=", which does not say what is wrong.
func NewRESTMapper(cfg *rest.Config, httpClient *http.Client) (meta.RESTMapper, error) {
	mapper, err := apiutil.NewDynamicRESTMapper(cfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("creating the REST mapper for %s: %w", cfg.Host, err)
	}
	return gardenMapper{mapper}, nil
}

// gardenMapper says which kind of Gardener's API the cluster does not serve (NotServedError).
type gardenMapper struct{ meta.RESTMapper }

func (m gardenMapper) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	mapping, err := m.RESTMapper.RESTMapping(gk, versions...)
	return mapping, notServed(gk, versions, err)
}

func (m gardenMapper) RESTMappings(gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	mappings, err := m.RESTMapper.RESTMappings(gk, versions...)
	return mappings, notServed(gk, versions, err)
}

// notServed is err as a NotServedError when it says that the cluster serves no such kind of Gardener's API.
func notServed(gk schema.GroupKind, versions []string, err error) error {
	if !meta.IsNoMatchError(err) || !strings.HasSuffix(gk.Group, ".gardener.cloud") {
		return err
	}
	kind := gk.WithVersion("")
	if len(versions) == 1 {
		kind.Version = versions[0]
	}
	return &NotServedError{Kind: kind, Err: err}
}
