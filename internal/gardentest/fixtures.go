package gardentest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	securityv1alpha1 "github.com/gardener/gardener/pkg/apis/security/v1alpha1"
	seedmanagementv1alpha1 "github.com/gardener/gardener/pkg/apis/seedmanagement/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/ingest"
)

// The Kubernetes version, machine type and image every fixture cloud profile offers and every fixture shoot uses.
const (
	KubernetesVersion = "1.33.2"
	MachineType       = "m5.large"
	MachineImage      = "gardenlinux"
	machineImageVer   = "1877.1.0"
	// CredentialsBindingName is the CredentialsBinding every fixture project has.
	CredentialsBindingName = "cloud-credentials"
)

// CloudProfile returns a cloud profile of the provider type with the given regions and their zones.
func CloudProfile(name, providerType string, regions map[string][]string) *gardencorev1beta1.CloudProfile {
	cp := &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type:       providerType,
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: KubernetesVersion}}},
			MachineImages: []gardencorev1beta1.MachineImage{{
				Name: MachineImage,
				Versions: []gardencorev1beta1.MachineImageVersion{{
					ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: machineImageVer},
					CRI:              []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
					Architectures:    []string{"amd64"},
				}},
			}},
			MachineTypes: []gardencorev1beta1.MachineType{{
				Name: MachineType, CPU: resource.MustParse("2"), GPU: resource.MustParse("0"),
				Memory: resource.MustParse("8Gi"), Usable: new(true), Architecture: new("amd64"),
			}},
		},
	}
	for _, region := range slices.Sorted(maps.Keys(regions)) {
		r := gardencorev1beta1.Region{Name: region}
		for _, zone := range regions[region] {
			r.Zones = append(r.Zones, gardencorev1beta1.AvailabilityZone{Name: zone})
		}
		cp.Spec.Regions = append(cp.Spec.Regions, r)
	}
	return cp
}

// Seed returns a seed of the provider type in the region with a DNS, ingress and networks that pass Gardener's
// validation. CreateSeed gives it the status a healthy gardenlet reports.
func Seed(name, providerType, region string, zones ...string) *gardencorev1beta1.Seed {
	return &gardencorev1beta1.Seed{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: gardencorev1beta1.SeedSpec{
			Provider: gardencorev1beta1.SeedProvider{Type: providerType, Region: region, Zones: zones},
			DNS: gardencorev1beta1.SeedDNS{
				Provider: &gardencorev1beta1.SeedDNSProvider{
					Type:           providerType + "-dns",
					CredentialsRef: &corev1.ObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: "garden", Name: "dns"},
				},
				Internal: &gardencorev1beta1.SeedDNSProviderConfig{
					Type: providerType + "-dns", Domain: "internal." + name + ".example.com",
					CredentialsRef: corev1.ObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: "garden", Name: "dns"},
				},
			},
			Ingress: &gardencorev1beta1.Ingress{
				Domain:     "ingress." + name + ".example.com",
				Controller: gardencorev1beta1.IngressController{Kind: "nginx"},
			},
			Networks: gardencorev1beta1.SeedNetworks{
				Nodes: new("10.250.0.0/16"), Pods: "100.96.0.0/11", Services: "100.64.0.0/13",
				// Admission copies these into a shoot bound to the seed; without them a binding is invalid.
				ShootDefaults: &gardencorev1beta1.ShootNetworks{Pods: new("100.128.0.0/11"), Services: new("100.72.0.0/13")},
			},
		},
	}
}

// ManagedSeedSet returns a set of the given replicas in namespace garden whose ManagedSeeds would register seeds
// like the given one, on shoots like the given one: what Gardener's validation asks of a set and no more.
func ManagedSeedSet(name string, replicas int32, seed *gardencorev1beta1.Seed, shoot *gardencorev1beta1.Shoot) (*seedmanagementv1alpha1.ManagedSeedSet, error) {
	labels := map[string]string{"seedmanagement.gardener.cloud/set": name}
	gardenlet, err := json.Marshal(map[string]any{
		"apiVersion": "gardenlet.config.gardener.cloud/v1alpha1", "kind": "GardenletConfiguration",
		"seedConfig": map[string]any{"metadata": map[string]any{"labels": labels}, "spec": seed.Spec},
	})
	if err != nil {
		return nil, fmt.Errorf("the gardenlet configuration of set %s: %w", name, err)
	}
	set := &seedmanagementv1alpha1.ManagedSeedSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: v1beta1constants.GardenNamespace, Name: name},
		Spec: seedmanagementv1alpha1.ManagedSeedSetSpec{
			Replicas: &replicas,
			Selector: metav1.LabelSelector{MatchLabels: labels},
			Template: seedmanagementv1alpha1.ManagedSeedTemplate{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       seedmanagementv1alpha1.ManagedSeedSpec{Gardenlet: seedmanagementv1alpha1.GardenletConfig{Config: runtime.RawExtension{Raw: gardenlet}}},
			},
		},
	}
	set.Spec.ShootTemplate.Labels = labels
	set.Spec.ShootTemplate.Spec = *shoot.Spec.DeepCopy()
	surge := intstr.FromInt32(1) // a worker of a seed's shoot may not have both maxSurge and maxUnavailable 0
	set.Spec.ShootTemplate.Spec.Provider.Workers[0].MaxSurge = &surge
	return set, nil
}

// RegionConfig returns a region ConfigMap in namespace garden, as the gardener-scheduler finds them (label
// scheduling.gardener.cloud/purpose: region-config), for the cloud profiles named (comma-separated), with the
// distances from each region as data.
func RegionConfig(name, profiles string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: v1beta1constants.GardenNamespace, Name: name,
			Labels:      map[string]string{v1beta1constants.SchedulingPurpose: v1beta1constants.SchedulingPurposeRegionConfig},
			Annotations: map[string]string{v1beta1constants.AnnotationSchedulingCloudProfiles: profiles}},
		Data: data,
	}
}

// Project returns a project owning namespace garden-<name>.
func Project(name string) *gardencorev1beta1.Project {
	return &gardencorev1beta1.Project{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       gardencorev1beta1.ProjectSpec{Namespace: new("garden-" + name)},
	}
}

// Shoot returns a pending shoot of the project namespace with one worker pool in the given zones of the region.
func Shoot(namespace, name, cloudProfile, providerType, region string, zones ...string) *gardencorev1beta1.Shoot {
	return &gardencorev1beta1.Shoot{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: gardencorev1beta1.ShootSpec{
			CloudProfile:           &gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: cloudProfile},
			Region:                 region,
			CredentialsBindingName: new(CredentialsBindingName),
			Kubernetes:             gardencorev1beta1.Kubernetes{Version: KubernetesVersion},
			Networking:             &gardencorev1beta1.Networking{Type: new("calico"), Nodes: new("10.180.0.0/16")},
			Provider: gardencorev1beta1.Provider{
				Type: providerType,
				Workers: []gardencorev1beta1.Worker{{
					Name:    "worker",
					Machine: gardencorev1beta1.Machine{Type: MachineType, Image: &gardencorev1beta1.ShootMachineImage{Name: MachineImage, Version: new(machineImageVer)}},
					Minimum: 1, Maximum: 2, Zones: zones,
				}},
			},
		},
	}
}

// UnschedulableLabel is the seed label Unschedulable shoots ask for, "true"; no seed of these fixtures has it.
const UnschedulableLabel = "seedplan.test/none"

// Unschedulable makes the shoot ask for a seed label no seed of these fixtures has: no seed passes its
// seed selector, so it stays pending and fails every attempt to schedule it (until a seed with the label comes).
func Unschedulable(shoot *gardencorev1beta1.Shoot) *gardencorev1beta1.Shoot {
	shoot.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{
		MatchLabels: map[string]string{UnschedulableLabel: "true"},
	}}
	return shoot
}

// CreateMigratableSeed creates a healthy seed (CreateSeed) between which and every other seed of the same domain
// a shoot's control plane may move: it has backup with ready buckets, and the internal domain
// internal.<domain>.example.com, which a migration keeps.
func (cp *ControlPlane) CreateMigratableSeed(ctx context.Context, seed *gardencorev1beta1.Seed, domain string, allocatable int64) error {
	seed.Spec.DNS.Internal.Domain = "internal." + domain + ".example.com"
	seed.Spec.Backup = &gardencorev1beta1.Backup{Provider: seed.Spec.Provider.Type,
		CredentialsRef: &corev1.ObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: "garden", Name: "backup"}}
	if err := cp.CreateSeed(ctx, seed, allocatable); err != nil {
		return err
	}
	seed.Status.Conditions = append(seed.Status.Conditions, gardencorev1beta1.Condition{Type: gardencorev1beta1.SeedBackupBucketsReady,
		Status: gardencorev1beta1.ConditionTrue, LastTransitionTime: metav1.Now(), LastUpdateTime: metav1.Now(), Reason: "Ready"})
	if err := cp.updateStatus(ctx, seed); err != nil {
		return fmt.Errorf("writing the backup status of seed %s: %w", seed.Name, err)
	}
	return nil
}

// CreateSeed creates the seed and writes the status a healthy gardenlet would: GardenletReady, a succeeded last
// operation and, when allocatable >= 0, status.allocatable.shoots.
func (cp *ControlPlane) CreateSeed(ctx context.Context, seed *gardencorev1beta1.Seed, allocatable int64) error {
	if err := cp.Create(ctx, seed); err != nil {
		return err
	}
	now := metav1.Now()
	seed.Status.Conditions = []gardencorev1beta1.Condition{{
		Type: gardencorev1beta1.GardenletReady, Status: gardencorev1beta1.ConditionTrue,
		LastTransitionTime: now, LastUpdateTime: now, Reason: "GardenletReady", Message: "Gardenlet is posting ready status.",
	}}
	seed.Status.LastOperation = &gardencorev1beta1.LastOperation{
		Type: gardencorev1beta1.LastOperationTypeReconcile, State: gardencorev1beta1.LastOperationStateSucceeded,
		Progress: 100, LastUpdateTime: now, Description: "Seed cluster has been successfully reconciled.",
	}
	if allocatable >= 0 {
		seed.Status.Allocatable = corev1.ResourceList{gardencorev1beta1.ResourceShoots: *resource.NewQuantity(allocatable, resource.DecimalSI)}
	}
	if err := cp.updateStatus(ctx, seed); err != nil {
		return fmt.Errorf("writing the status of seed %s: %w", seed.Name, err)
	}
	return nil
}

// CreateProject creates the project's namespace, the project and its CredentialsBinding (to a Secret).
func (cp *ControlPlane) CreateProject(ctx context.Context, project *gardencorev1beta1.Project, providerType string) error {
	namespace := *project.Spec.Namespace
	if err := cp.EnsureNamespace(ctx, namespace); err != nil {
		return err
	}
	if err := cp.Create(ctx, project); err != nil {
		return err
	}
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: CredentialsBindingName},
		StringData: map[string]string{"accessKeyID": "test", "secretAccessKey": "test"},
	}
	if err := cp.Create(ctx, secret); err != nil {
		return fmt.Errorf("creating the credentials of project %s: %w", project.Name, err)
	}
	binding := &securityv1alpha1.CredentialsBinding{
		ObjectMeta:     metav1.ObjectMeta{Namespace: namespace, Name: CredentialsBindingName},
		Provider:       securityv1alpha1.CredentialsBindingProvider{Type: providerType},
		CredentialsRef: corev1.ObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: namespace, Name: CredentialsBindingName},
	}
	if err := cp.Create(ctx, binding); err != nil {
		return fmt.Errorf("creating the credentials binding of project %s: %w", project.Name, err)
	}
	return nil
}

// Create creates an object, retrying for a while when admission does not see a just-created reference yet
// (Gardener's admission plugins read references through informers; some report a missing one as an internal
// error "could not find referenced ...") and when the API server does not answer (ingest.Transient: kube-apiserver
// answers 503 for an aggregated API such as gardener-apiserver's while it takes it for unavailable, which a
// loaded CI machine has shown). An object already there after such a try is the one that try created, read back.
func (cp *ControlPlane) Create(ctx context.Context, obj client.Object) error {
	deadline := time.Now().Add(ingest.RestartPatience)
	unanswered := false
	for {
		err := cp.Client.Create(ctx, obj)
		if unanswered && apierrors.IsAlreadyExists(err) {
			err = cp.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj)
		}
		unanswered = unanswered || ingest.Transient(err)
		retry := ingest.Transient(err) || apierrors.IsForbidden(err) || apierrors.IsNotFound(err) || apierrors.IsInvalid(err) && isReferenceError(err) ||
			apierrors.IsInternalError(err) && strings.Contains(err.Error(), "could not find referenced")
		if err == nil || time.Now().After(deadline) || !retry {
			if err != nil {
				return fmt.Errorf("creating %T %s: %w", obj, client.ObjectKeyFromObject(obj), err)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// updateStatus writes the object's status, asked again while the API server does not answer (Create).
func (cp *ControlPlane) updateStatus(ctx context.Context, obj client.Object) error {
	return ingest.RetryTransient(ctx, ingest.RestartPatience, func() error { return cp.Client.Status().Update(ctx, obj) })
}

func isReferenceError(err error) bool {
	status, ok := err.(apierrors.APIStatus)
	return ok && status.Status().Details != nil && len(status.Status().Details.Causes) > 0 &&
		status.Status().Details.Causes[0].Type == metav1.CauseTypeFieldValueNotFound
}

// Landscape creates a test's own small garden: a cloud profile named name with regions name-1 and name-2 (so
// seeds of other tests are never candidates), seeds name-seedI with the given allocatable shoots alternating
// between the regions, project name (namespace garden-name) and shoots shoot-0..shoots-1 alternating between the
// regions. schedulerName, when not empty, is the shoots' spec.schedulerName, so that only the test's scheduler
// places them. It returns the project namespace; an error fails the test.
func (cp *ControlPlane) Landscape(t testing.TB, name string, seeds []int64, shoots int, schedulerName string) string {
	t.Helper()
	namespace, err := cp.landscape(context.Background(), name, seeds, shoots, schedulerName)
	if err != nil {
		t.Fatal(err)
	}
	return namespace
}

// RegionalLandscape is a Landscape without shoots whose seeds alternate between the given number of regions,
// name-1…name-N.
func (cp *ControlPlane) RegionalLandscape(t testing.TB, name string, regions int, seeds []int64) string {
	t.Helper()
	namespace, err := cp.landscapeIn(context.Background(), name, regions, seeds)
	if err != nil {
		t.Fatal(err)
	}
	return namespace
}

func (cp *ControlPlane) landscape(ctx context.Context, name string, seeds []int64, shoots int, schedulerName string) (string, error) {
	namespace, err := cp.landscapeIn(ctx, name, 2, seeds)
	if err != nil {
		return "", err
	}
	return namespace, cp.createShoots(ctx, namespace, name, 0, shoots, schedulerName)
}

func (cp *ControlPlane) landscapeIn(ctx context.Context, name string, count int, seeds []int64) (string, error) {
	var regions []string
	for i := range count {
		regions = append(regions, fmt.Sprintf("%s-%d", name, i+1))
	}
	zones := map[string][]string{}
	for _, r := range regions {
		zones[r] = []string{r + "a"}
	}
	if err := cp.Create(ctx, CloudProfile(name, "aws", zones)); err != nil {
		return "", err
	}
	for i, allocatable := range seeds {
		region := regions[i%len(regions)]
		if err := cp.CreateSeed(ctx, Seed(fmt.Sprintf("%s-seed%d", name, i), "aws", region, region+"a"), allocatable); err != nil {
			return "", err
		}
	}
	project := Project(name)
	if err := cp.CreateProject(ctx, project, "aws"); err != nil {
		return "", err
	}
	return *project.Spec.Namespace, nil
}

// CreateShoots creates shoots shoot-from..shoot-(to-1) of a Landscape, alternating between its regions,
// concurrently; an error fails the test.
func (cp *ControlPlane) CreateShoots(t testing.TB, namespace, name string, from, to int, schedulerName string) {
	t.Helper()
	if err := cp.createShoots(context.Background(), namespace, name, from, to, schedulerName); err != nil {
		t.Fatal(err)
	}
}

func (cp *ControlPlane) createShoots(ctx context.Context, namespace, name string, from, to int, schedulerName string) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	next := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range next {
				region := fmt.Sprintf("%s-%d", name, 1+i%2)
				shoot := Shoot(namespace, fmt.Sprintf("shoot-%d", i), name, "aws", region, region+"a")
				if schedulerName != "" {
					shoot.Spec.SchedulerName = &schedulerName
				}
				if err := cp.Create(ctx, shoot); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := from; i < to; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if len(errs) > 0 {
		return fmt.Errorf("creating %d of %d shoots failed; the first: %w", len(errs), to-from, errs[0])
	}
	return nil
}
