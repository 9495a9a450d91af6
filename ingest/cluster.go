package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	seedmanagementv1alpha1 "github.com/gardener/gardener/pkg/apis/seedmanagement/v1alpha1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/model"
)

// ClientOptions say how to reach the garden cluster.
type ClientOptions struct {
	// Kubeconfig is the path of a kubeconfig file; empty means $KUBECONFIG or ~/.kube/config, and the in-cluster
	// configuration when seedplan runs in a pod without either.
	Kubeconfig string
	// Context is the kubeconfig context; empty means the current one.
	Context string
	// QPS and Burst bound the client's request rate (0: client-go's defaults).
	QPS   float32
	Burst int
	// RequestTimeout bounds each request (0: none); a watch must not use it, as it would end every watch.
	RequestTimeout time.Duration
	// UserAgent names seedplan in the API server's logs and audit events.
	UserAgent string
}

// ClientOptionsOf are the client options of a configured connection.
func ClientOptionsOf(c config.ClientConnection) ClientOptions {
	opts := ClientOptions{Kubeconfig: c.Kubeconfig, Context: c.Context, QPS: c.QPS, Burst: c.Burst, UserAgent: "seedplan"}
	if c.RequestTimeout != nil {
		opts.RequestTimeout = c.RequestTimeout.Duration
	}
	return opts
}

// Garden names the garden cluster the options reach, as an operator checks it before anything is written: the
// API server and the kubeconfig context ("in-cluster" for a pod's service account).
func Garden(opts ClientOptions) (server, context string, err error) {
	k, err := loadKubeconfig(opts) // loads the kubeconfig once for both answers
	if err != nil {
		return "", "", err
	}
	cfg, err := k.restConfig(opts)
	if err != nil {
		return "", "", err
	}
	raw, err := k.loader.RawConfig()
	switch {
	case err != nil || len(raw.Contexts) == 0:
		context = "in-cluster"
	case opts.Context != "":
		context = opts.Context
	default:
		context = raw.CurrentContext
	}
	return cfg.Host, context, nil
}

// ContextNamespace is the namespace the options' kubeconfig context sets, in which kubectl takes a name given
// without one; "" when the context sets none, or without a kubeconfig (a pod's service account).
func ContextNamespace(opts ClientOptions) (string, error) {
	k, err := loadKubeconfig(opts)
	if err != nil {
		return "", err
	}
	if _, err := k.restConfig(opts); err != nil {
		return "", err // a context that does not exist, worded as every command words it
	}
	raw, err := k.loader.RawConfig()
	if err != nil {
		return "", fmt.Errorf("kubeconfig %w", config.WithPath(k.source, err))
	}
	if context, ok := raw.Contexts[cmp.Or(opts.Context, raw.CurrentContext)]; ok {
		return context.Namespace, nil
	}
	return "", nil
}

// kubeconfig is the client configuration the options name, with their context, and where it is read from.
type kubeconfig struct {
	loader clientcmd.ClientConfig
	// source names the kubeconfig files read: --kubeconfig, or those of $KUBECONFIG or ~/.kube/config that exist;
	// "" when there is none (then only a pod's service account is left).
	source string
}

// loadKubeconfig is the kubeconfig the options name. It refuses, before client-go reads them, kubeconfig files
// client-go would read without end or wait on for ever: /dev/zero, a named pipe, a file of gigabytes. Those that
// do not exist are left to client-go, which skips them in $KUBECONFIG and names a missing --kubeconfig.
func loadKubeconfig(opts ClientOptions) (*kubeconfig, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = opts.Kubeconfig
	var existing []string
	for _, path := range rules.GetLoadingPrecedence() {
		switch err := config.CheckRegularFile(path, config.MaxFileSize); {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("kubeconfig %w", err)
		default:
			existing = append(existing, path)
		}
	}
	source := strings.Join(existing, string(os.PathListSeparator))
	if opts.Kubeconfig != "" {
		source = opts.Kubeconfig
	}
	loader := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: opts.Context})
	return &kubeconfig{loader: loader, source: source}, nil
}

// RESTConfig resolves the client configuration of the garden cluster.
func RESTConfig(opts ClientOptions) (*rest.Config, error) {
	k, err := loadKubeconfig(opts)
	if err != nil {
		return nil, err
	}
	return k.restConfig(opts)
}

// restConfig is the loaded kubeconfig's client configuration with the options' rate, timeout and user agent;
// its errors name the kubeconfig files they come from.
func (k *kubeconfig) restConfig(opts ClientOptions) (*rest.Config, error) {
	cfg, err := k.loader.ClientConfig()
	switch {
	case err != nil && k.source == "":
		return nil, fmt.Errorf("no kubeconfig given, none in $KUBECONFIG or ~/.kube/config, and not in a pod: %w", err)
	case err != nil:
		return nil, fmt.Errorf("kubeconfig %w", config.WithPath(k.source, err))
	}
	cfg.QPS, cfg.Burst, cfg.Timeout = opts.QPS, opts.Burst, opts.RequestTimeout
	if opts.UserAgent != "" {
		cfg.UserAgent = opts.UserAgent
	}
	return cfg, nil
}

// Scheme returns the types seedplan reads and writes in a garden cluster: Gardener's core API, ManagedSeedSets,
// ConfigMaps, Events and Leases.
func Scheme() (*runtime.Scheme, error) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		gardencorev1beta1.AddToScheme, seedmanagementv1alpha1.AddToScheme, corev1.AddToScheme, eventsv1.AddToScheme,
		coordinationv1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			return nil, fmt.Errorf("building the client scheme: %w", err)
		}
	}
	// Gardener's API speaks protobuf, as Kubernetes' does; controller-runtime uses it only for the groups in its
	// (process-wide) protobuf scheme. Decoding every watched shoot as JSON was most of the run loop's CPU while it
	// bound a burst, on the cores the API servers need.
	for _, add := range []func(*runtime.Scheme) error{gardencorev1beta1.AddToScheme, seedmanagementv1alpha1.AddToScheme} {
		if err := apiutil.AddToProtobufScheme(add); err != nil {
			return nil, fmt.Errorf("registering Gardener's protobuf types: %w", err)
		}
	}
	return scheme, nil
}

// NewClient returns a typed client of the garden cluster, which maps kinds with NewRESTMapper.
func NewClient(cfg *rest.Config) (client.Client, error) {
	scheme, httpClient, mapper, err := transport(cfg)
	if err != nil {
		return nil, err
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme, HTTPClient: httpClient, Mapper: mapper})
	if err != nil {
		return nil, fmt.Errorf("creating the garden client for %s: %w", cfg.Host, err)
	}
	return c, nil
}

// NewCache returns informers of the garden cluster, not yet started, which map kinds with NewRESTMapper;
// byObject restricts what they hold of a kind, as cache.Options.ByObject does. They hold objects without their
// managedFields, as kube-scheduler's informers do: nothing here reads them, and in a garden whose shoots are
// applied with kubectl or server-side apply and whose status the gardenlet writes they can be as large as the
// rest of the object, held once by the informers and again by the window's defaulted copies (Copies). A
// binding sent without them leaves the shoot's as they are.
func NewCache(cfg *rest.Config, byObject map[client.Object]cache.ByObject) (cache.Cache, error) {
	scheme, httpClient, mapper, err := transport(cfg)
	if err != nil {
		return nil, err
	}
	informers, err := cache.New(cfg, cache.Options{Scheme: scheme, HTTPClient: httpClient, Mapper: mapper, ByObject: byObject,
		DefaultTransform: cache.TransformStripManagedFields()})
	if err != nil {
		return nil, fmt.Errorf("creating the garden informers for %s: %w", cfg.Host, err)
	}
	return informers, nil
}

// transport is what every client of the garden shares: seedplan's scheme, an HTTP client of cfg and the REST
// mapper over it.
func transport(cfg *rest.Config) (*runtime.Scheme, *http.Client, meta.RESTMapper, error) {
	scheme, err := Scheme()
	if err != nil {
		return nil, nil, nil, err
	}
	httpClient, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("creating the HTTP client for %s: %w", cfg.Host, err)
	}
	mapper, err := NewRESTMapper(cfg, httpClient)
	if err != nil {
		return nil, nil, nil, err
	}
	return scheme, httpClient, mapper, nil
}

// ListPageSize is how many objects one list request of LoadCluster asks for: large landscapes are read in pages
// so that no single response holds tens of thousands of shoots.
const ListPageSize = 500

// LoadCluster reads the landscape from a garden cluster: every Seed, Shoot, CloudProfile, NamespacedCloudProfile
// and Project, and the region-config ConfigMaps in namespace garden — exactly the objects the gardener-scheduler's
// cache holds. pageSize > 0 reads the API server in pages of that size; a cache-backed reader needs 0 (no paging).
// The objects keep their resourceVersions, which binding relies on.
func LoadCluster(ctx context.Context, reader client.Reader, pageSize int64) (*Landscape, error) {
	landscape, err := loadCluster(ctx, reader, pageSize)
	if err != nil {
		return nil, err
	}
	if landscape.Objects.ManagedSeedSets, err = managedSeedSets(ctx, reader, pageSize); err != nil {
		return nil, err
	}
	return landscape, nil
}

// LoadClusterPatiently is LoadCluster for a run that reads the garden once: a read that fails for a transient
// reason is read again, whole, for up to RestartPatience (RetryTransient), so that the run outlasts a restart of the
// garden's API server.
func LoadClusterPatiently(ctx context.Context, reader client.Reader, pageSize int64) (landscape *Landscape, err error) {
	err = RetryTransient(ctx, RestartPatience, func() (err error) {
		landscape, err = LoadCluster(ctx, reader, pageSize)
		return err
	})
	return landscape, err
}

// managedSeedSets lists the ManagedSeedSets of the garden namespace; a garden whose API does not serve them has
// none.
func managedSeedSets(ctx context.Context, reader client.Reader, pageSize int64) ([]*seedmanagementv1alpha1.ManagedSeedSet, error) {
	var sets seedmanagementv1alpha1.ManagedSeedSetList
	err := listAll(ctx, reader, &sets, pageSize, client.InNamespace(v1beta1constants.GardenNamespace))
	switch {
	case meta.IsNoMatchError(err) || apierrors.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("listing ManagedSeedSets: %w", err)
	}
	return pointers(sets.Items), nil
}

// LoadOccupancy reads only the seeds and the shoots, for the re-check just before binding: from the API server in
// pages of pageSize, or (pageSize 0) from a cache without copying its objects, which are only counted and must not
// be changed.
func LoadOccupancy(ctx context.Context, reader client.Reader, pageSize int64) ([]*gardencorev1beta1.Seed, []*gardencorev1beta1.Shoot, error) {
	var seeds gardencorev1beta1.SeedList
	if err := listAll(ctx, reader, &seeds, pageSize, client.UnsafeDisableDeepCopy); err != nil {
		return nil, nil, fmt.Errorf("listing Seeds: %w", err)
	}
	var shoots gardencorev1beta1.ShootList
	if err := listAll(ctx, reader, &shoots, pageSize, client.UnsafeDisableDeepCopy); err != nil {
		return nil, nil, fmt.Errorf("listing Shoots: %w", err)
	}
	return pointers(seeds.Items), pointers(shoots.Items), nil
}

// LoadShared reads the landscape from an informer cache without copying its objects: they are the cache's own,
// must not be changed, and Copies.Own replaces them by copies that may be defaulted.
func LoadShared(ctx context.Context, cache client.Reader) (*Landscape, error) {
	return loadCluster(ctx, cache, 0, client.UnsafeDisableDeepCopy)
}

func loadCluster(ctx context.Context, reader client.Reader, pageSize int64, all ...client.ListOption) (*Landscape, error) {
	var (
		seeds          gardencorev1beta1.SeedList
		shoots         gardencorev1beta1.ShootList
		cloudProfiles  gardencorev1beta1.CloudProfileList
		namespacedCPs  gardencorev1beta1.NamespacedCloudProfileList
		projects       gardencorev1beta1.ProjectList
		regionConfigMs corev1.ConfigMapList
	)
	lists := []struct {
		list client.ObjectList
		opts []client.ListOption
		kind string
	}{
		{&seeds, nil, "Seeds"},
		{&shoots, nil, "Shoots"},
		{&cloudProfiles, nil, "CloudProfiles"},
		{&namespacedCPs, nil, "NamespacedCloudProfiles"},
		{&projects, nil, "Projects"},
		{&regionConfigMs, []client.ListOption{
			client.InNamespace(v1beta1constants.GardenNamespace),
			client.MatchingLabels{v1beta1constants.SchedulingPurpose: v1beta1constants.SchedulingPurposeRegionConfig},
		}, "region-config ConfigMaps"},
	}
	for _, l := range lists {
		if err := listAll(ctx, reader, l.list, pageSize, append(l.opts, all...)...); err != nil {
			return nil, fmt.Errorf("listing %s: %w", l.kind, err)
		}
	}

	landscape := &Landscape{Objects: model.Objects{
		Seeds:                   pointers(seeds.Items),
		Shoots:                  pointers(shoots.Items),
		CloudProfiles:           pointers(cloudProfiles.Items),
		NamespacedCloudProfiles: pointers(namespacedCPs.Items),
		Projects:                pointers(projects.Items),
		ConfigMaps:              pointers(regionConfigMs.Items),
	}}
	for _, seed := range landscape.Objects.Seeds {
		if err := validateSeed("cluster", objectName("Seed", "", seed.Name), seed); err != nil {
			return nil, err
		}
	}
	for _, shoot := range landscape.Objects.Shoots {
		if err := validateShoot("cluster", objectName("Shoot", shoot.Namespace, shoot.Name), shoot); err != nil {
			return nil, err
		}
	}
	return landscape, nil
}

// listAll lists every object of the list's kind into list, in pages of pageSize when pageSize > 0. Objects read
// in pages, from the API server, are kept without their managedFields, as the loop's informers keep them
// (NewCache): a large garden's would be a third or more of what a run holds.
func listAll(ctx context.Context, reader client.Reader, list client.ObjectList, pageSize int64, opts ...client.ListOption) error {
	if pageSize <= 0 {
		return reader.List(ctx, list, opts...)
	}
	page := list.DeepCopyObject().(client.ObjectList)
	var items []runtime.Object
	continueToken := ""
	for {
		pageOpts := append([]client.ListOption{client.Limit(pageSize), client.Continue(continueToken)}, opts...)
		if err := reader.List(ctx, page, pageOpts...); err != nil {
			return err
		}
		pageItems, err := meta.ExtractList(page)
		if err != nil {
			return err
		}
		for _, item := range pageItems {
			if object, err := meta.Accessor(item); err == nil {
				object.SetManagedFields(nil)
			}
		}
		items = append(items, pageItems...)
		continueToken = page.GetContinue()
		if continueToken == "" {
			break
		}
	}
	return meta.SetList(list, items)
}

// pointers returns pointers to the elements of items, which it keeps alive.
func pointers[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}
