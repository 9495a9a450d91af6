package ingest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/gardentest"
	"github.com/seedplan/seedplan/model"
)

var garden gardentest.Shared

func TestMain(m *testing.M) { garden.Run(m) }

// LoadCluster reads, through the real garden API and in pages, exactly the objects the gardener-scheduler's cache
// holds: every Seed, Shoot, CloudProfile and Project, and only the region-config ConfigMaps of namespace garden.
func TestLoadCluster(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	c := cp.Client

	if err := c.Create(ctx, gardentest.CloudProfile("aws", "aws", map[string][]string{"eu-west-1": {"eu-west-1a", "eu-west-1b"}})); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := cp.CreateSeed(ctx, gardentest.Seed(fmt.Sprintf("aws-eu%d", i), "aws", "eu-west-1", "eu-west-1a"), 10); err != nil {
			t.Fatal(err)
		}
	}
	if err := cp.CreateProject(ctx, gardentest.Project("ingest"), "aws"); err != nil {
		t.Fatal(err)
	}
	if err := cp.Create(ctx, &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Namespace: "garden-ingest", Name: "aws-custom"},
		Spec:       gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"}},
	}); err != nil {
		t.Fatal(err)
	}
	const shoots = 7 // more than one page of 3
	for i := range shoots {
		if err := cp.Create(ctx, gardentest.Shoot("garden-ingest", fmt.Sprintf("shoot-%d", i), "aws", "aws", "eu-west-1", "eu-west-1a")); err != nil {
			t.Fatal(err)
		}
	}
	if err := cp.EnsureNamespace(ctx, v1beta1constants.GardenNamespace); err != nil {
		t.Fatal(err)
	}
	for _, cm := range []*corev1.ConfigMap{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "garden", Name: "aws-regions", Labels: map[string]string{
			v1beta1constants.SchedulingPurpose: v1beta1constants.SchedulingPurposeRegionConfig,
		}}, Data: map[string]string{"eu-west-1": "eu-west-1: 0\n"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "garden", Name: "unrelated"}, Data: map[string]string{"x": "y"}},
	} {
		if err := c.Create(ctx, cm); err != nil {
			t.Fatal(err)
		}
	}

	landscape, err := ingest.LoadCluster(ctx, c, 3)
	if err != nil {
		t.Fatal(err)
	}
	objs := landscape.Objects
	if len(objs.Seeds) != 3 || len(objs.Shoots) != shoots || len(objs.CloudProfiles) != 1 || len(objs.Projects) != 1 || len(objs.NamespacedCloudProfiles) != 1 {
		t.Fatalf("read %d seeds, %d shoots, %d cloud profiles, %d namespaced cloud profiles, %d projects; want 3, %d, 1, 1, 1",
			len(objs.Seeds), len(objs.Shoots), len(objs.CloudProfiles), len(objs.NamespacedCloudProfiles), len(objs.Projects), shoots)
	}
	if len(objs.ConfigMaps) != 1 || objs.ConfigMaps[0].Name != "aws-regions" {
		t.Fatalf("read ConfigMaps %v, want only the region config", objs.ConfigMaps)
	}
	for _, shoot := range objs.Shoots {
		if shoot.ResourceVersion == "" || shoot.ManagedFields != nil {
			t.Fatalf("shoot %s read with resourceVersion %q and %d managedFields entries, want one and none",
				shoot.Name, shoot.ResourceVersion, len(shoot.ManagedFields))
		}
	}
	snap, err := model.NewSnapshot(objs)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(snap.Pending("default-scheduler")); got != shoots {
		t.Fatalf("%d pending shoots, want %d", got, shoots)
	}
	var seed gardencorev1beta1.Seed
	if err := c.Get(ctx, client.ObjectKey{Name: "aws-eu0"}, &seed); err != nil || seed.Status.Allocatable == nil {
		t.Fatalf("seed status not written: %v", err)
	}
	checkLoadsAsKubectlPrintsIt(t, c, objs)
}

// checkLoadsAsKubectlPrintsIt writes the garden as `kubectl get seeds,shoots,cloudprofiles,namespacedcloudprofiles,
// projects -A` and `kubectl get cm -n garden -l scheduling.gardener.cloud/purpose=region-config` print it, with -o
// yaml and with -o json (managedFields and all), and checks that each loads from the files into the objects the
// cluster read gave, but for the managedFields the cluster read leaves out: a landscape saved with kubectl is planned
// as the garden itself is.
func checkLoadsAsKubectlPrintsIt(t *testing.T, c client.Client, fromCluster model.Objects) {
	t.Helper()
	core := gardencorev1beta1.SchemeGroupVersion
	garden := kubectlList(t, c, nil, core.WithKind("Seed"), core.WithKind("Shoot"), core.WithKind("CloudProfile"),
		core.WithKind("NamespacedCloudProfile"), core.WithKind("Project"))
	regions := kubectlList(t, c, []client.ListOption{client.InNamespace(v1beta1constants.GardenNamespace),
		client.MatchingLabels{v1beta1constants.SchedulingPurpose: v1beta1constants.SchedulingPurposeRegionConfig}}, corev1.SchemeGroupVersion.WithKind("ConfigMap"))
	dir := t.TempDir()
	for _, format := range []struct {
		name    string
		marshal func(any) ([]byte, error)
	}{
		{"yaml", func(v any) ([]byte, error) { return yaml.Marshal(v) }},
		{"json", func(v any) ([]byte, error) { return json.MarshalIndent(v, "", "    ") }},
	} {
		var paths []string
		for _, list := range []struct {
			name    string
			objects map[string]any
		}{{"garden", garden}, {"regions", regions}} {
			data, err := format.marshal(list.objects)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, list.name+"."+format.name)
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, path)
		}
		fromFiles, err := ingest.LoadPaths(paths)
		if err != nil {
			t.Fatalf("%s as kubectl prints it: %v", format.name, err)
		}
		files := fromFiles.Objects
		sameObjects(t, format.name, "Seed", fromCluster.Seeds, files.Seeds)
		sameObjects(t, format.name, "Shoot", fromCluster.Shoots, files.Shoots)
		sameObjects(t, format.name, "CloudProfile", fromCluster.CloudProfiles, files.CloudProfiles)
		sameObjects(t, format.name, "NamespacedCloudProfile", fromCluster.NamespacedCloudProfiles, files.NamespacedCloudProfiles)
		sameObjects(t, format.name, "Project", fromCluster.Projects, files.Projects)
		sameObjects(t, format.name, "ConfigMap", fromCluster.ConfigMaps, files.ConfigMaps)
	}
}

// sameObjects checks that the files gave the objects of the kind the cluster read gave, by namespace/name, each
// compared without its managedFields and type meta (which the cluster's typed read leaves out).
func sameObjects[T client.Object](t *testing.T, format, kind string, fromCluster, fromFiles []T) {
	t.Helper()
	files := map[string]client.Object{}
	for _, object := range fromFiles {
		files[client.ObjectKeyFromObject(object).String()] = withoutServerFields(object)
	}
	if len(fromCluster) != len(files) {
		t.Fatalf("%s: %d %ss from the cluster, %d from the files", format, len(fromCluster), kind, len(files))
	}
	for _, object := range fromCluster {
		key := client.ObjectKeyFromObject(object).String()
		if want, got := withoutServerFields(object), files[key]; !equality.Semantic.DeepEqual(want, got) {
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(want)
			t.Errorf("%s: %s %s from the files:\n%s\nfrom the cluster:\n%s", format, kind, key, gotJSON, wantJSON)
		}
	}
}

// withoutServerFields is a copy of the object without its managedFields and type meta.
func withoutServerFields(object client.Object) client.Object {
	c := object.DeepCopyObject().(client.Object)
	c.SetManagedFields(nil)
	c.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	return c
}

// kubectlList lists the kinds as kubectl get does — each object as the API server sends it — into one List.
func kubectlList(t *testing.T, c client.Client, opts []client.ListOption, kinds ...schema.GroupVersionKind) map[string]any {
	t.Helper()
	items := []any{}
	for _, kind := range kinds {
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(kind.GroupVersion().WithKind(kind.Kind + "List"))
		if err := c.List(context.Background(), list, opts...); err != nil {
			t.Fatal(err)
		}
		for _, item := range list.Items {
			item.SetAPIVersion(kind.GroupVersion().String()) // as kubectl prints every item
			item.SetKind(kind.Kind)
			items = append(items, item.Object)
		}
	}
	return map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]any{"resourceVersion": ""}}
}

// Once kube-apiserver has found gardener-apiserver unavailable, discovery leaves Gardener's groups out and the REST
// mapper answers as for a cluster that never served them; but kube-apiserver answers 503 for their discovery
// documents, where a cluster without them answers 404. The read says that gardener-apiserver does not answer now,
// its error is Transient (a patient read waits for it), and it reads again once it is back.
func TestLoadClusterWhileGardenerAPIServerIsDown(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	restart := cp.TakeDownGardenerAPIServer(t)
	load := func() error {
		c, err := ingest.NewClient(cp.Config) // a mapper of its own, which has seen no discovery yet
		if err != nil {
			t.Fatal(err)
		}
		_, err = ingest.LoadCluster(ctx, c, ingest.ListPageSize)
		return err
	}
	// Discovery follows the APIServices' availability within moments; until then the read gets 503.
	var notServed *ingest.NotServedError
	err := load()
	for deadline := time.Now().Add(30 * time.Second); !errors.As(err, &notServed) && time.Now().Before(deadline); err = load() {
		time.Sleep(100 * time.Millisecond)
	}
	const want = "listing Seeds: the garden does not serve Seed (core.gardener.cloud/v1beta1) now: its gardener-apiserver " +
		"does not answer (the server is currently unable to handle the request)"
	if !errors.As(err, &notServed) || err.Error() != want || !ingest.Transient(err) {
		t.Fatalf("reading the garden while gardener-apiserver is down: %v (transient: %v), want %q, transient", err, ingest.Transient(err), want)
	}
	if err := restart(ctx); err != nil {
		t.Fatal(err)
	}
	// A read just after the restart may still get a 503 from an availability check kube-apiserver began before it
	// (a ManagedSeedSet list did, once): read patiently, as every caller does.
	c, err := ingest.NewClient(cp.Config)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.LoadClusterPatiently(ctx, c, ingest.ListPageSize); err != nil {
		t.Fatalf("reading the garden once gardener-apiserver is back: %v", err)
	}
}

// The informers hold objects without their managedFields, and a binding made from such a copy leaves the
// shoot's managedFields in the garden as they were, but for the binding's own entry.
func TestCacheHoldsObjectsWithoutManagedFields(t *testing.T) {
	cp := garden.Get(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	namespace := cp.Landscape(t, "stripped", []int64{2}, 1, "seedplan-stripped")
	key := client.ObjectKey{Namespace: namespace, Name: "shoot-0"}
	var stored gardencorev1beta1.Shoot
	if err := cp.Client.Get(ctx, key, &stored); err != nil {
		t.Fatal(err)
	}
	if len(stored.ManagedFields) == 0 {
		t.Fatal("the garden keeps no managedFields of the shoot: nothing to strip")
	}
	informers, err := ingest.NewCache(cp.Config, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := informers.GetInformer(ctx, &gardencorev1beta1.Shoot{}); err != nil {
		t.Fatal(err)
	}
	go func() { _ = informers.Start(ctx) }()
	if !informers.WaitForCacheSync(ctx) {
		t.Fatal("the informers did not sync")
	}
	var cached gardencorev1beta1.Shoot
	if err := informers.Get(ctx, key, &cached); err != nil {
		t.Fatal(err)
	}
	if cached.ManagedFields != nil || cached.ResourceVersion != stored.ResourceVersion {
		t.Fatalf("cached shoot with %d managedFields entries at resourceVersion %s, want none at %s",
			len(cached.ManagedFields), cached.ResourceVersion, stored.ResourceVersion)
	}

	cached.Spec.SeedName = ptr.To("stripped-seed0")
	if err := cp.Client.SubResource("binding").Update(ctx, &cached); err != nil {
		t.Fatal(err)
	}
	var bound gardencorev1beta1.Shoot
	if err := cp.Client.Get(ctx, key, &bound); err != nil {
		t.Fatal(err)
	}
	for _, entry := range stored.ManagedFields {
		if !slices.ContainsFunc(bound.ManagedFields, func(e metav1.ManagedFieldsEntry) bool {
			return e.Manager == entry.Manager && e.Operation == entry.Operation && e.Subresource == entry.Subresource
		}) {
			t.Errorf("the binding dropped the managedFields entry of %s (%s %q)", entry.Manager, entry.Operation, entry.Subresource)
		}
	}
	if ptr.Deref(bound.Spec.SeedName, "") != "stripped-seed0" {
		t.Fatalf("bound to %q", ptr.Deref(bound.Spec.SeedName, ""))
	}
}
