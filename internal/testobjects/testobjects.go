// Package testobjects builds minimal Gardener objects for tests: a usable seed and a schedulable shoot, changed
// by options, so that every test states only what matters to it.
package testobjects

import (
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type (
	// SeedOption changes a test seed.
	SeedOption func(*gardencorev1beta1.Seed)
	// ShootOption changes a test shoot.
	ShootOption func(*gardencorev1beta1.Shoot)
)

// Created is the creationTimestamp of test shoots.
var Created = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// Seed is a usable aws seed in eu-central-1 with three zones and label env=prod.
func Seed(name string, opts ...SeedOption) *gardencorev1beta1.Seed {
	seed := &gardencorev1beta1.Seed{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"env": "prod"}},
		Spec: gardencorev1beta1.SeedSpec{
			Provider: gardencorev1beta1.SeedProvider{Type: "aws", Region: "eu-central-1", Zones: []string{"eu-central-1a", "eu-central-1b", "eu-central-1c"}},
			Networks: gardencorev1beta1.SeedNetworks{Pods: "10.243.0.0/16", Services: "10.244.0.0/16"},
			Settings: &gardencorev1beta1.SeedSettings{Scheduling: &gardencorev1beta1.SeedSettingScheduling{Visible: true}},
		},
		Status: gardencorev1beta1.SeedStatus{
			LastOperation: &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeReconcile, State: gardencorev1beta1.LastOperationStateSucceeded},
			Conditions:    []gardencorev1beta1.Condition{{Type: gardencorev1beta1.GardenletReady, Status: gardencorev1beta1.ConditionTrue}},
		},
	}
	for _, o := range opts {
		o(seed)
	}
	return seed
}

// Shoot is a pending aws shoot in eu-central-1 in namespace garden-dev (project dev), with one worker pool in
// zone eu-central-1a.
func Shoot(name string, opts ...ShootOption) *gardencorev1beta1.Shoot {
	shoot := &gardencorev1beta1.Shoot{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "garden-dev", CreationTimestamp: metav1.NewTime(Created)},
		Spec: gardencorev1beta1.ShootSpec{
			CloudProfile: &gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"},
			Region:       "eu-central-1",
			Provider: gardencorev1beta1.Provider{Type: "aws", Workers: []gardencorev1beta1.Worker{
				{Name: "w1", Zones: []string{"eu-central-1a"}, Machine: gardencorev1beta1.Machine{Type: "m5.large"}, Minimum: 1, Maximum: 3},
			}},
			Networking: &gardencorev1beta1.Networking{Nodes: new("10.250.0.0/16"), IPFamilies: []gardencorev1beta1.IPFamily{gardencorev1beta1.IPFamilyIPv4}},
		},
	}
	for _, o := range opts {
		o(shoot)
	}
	return shoot
}

// Allocatable sets status.allocatable.shoots.
func Allocatable(n int64) SeedOption {
	return func(s *gardencorev1beta1.Seed) {
		s.Status.Allocatable = corev1.ResourceList{gardencorev1beta1.ResourceShoots: *resource.NewQuantity(n, resource.DecimalSI)}
	}
}

// AllocatableWritten sets status.allocatable.shoots to a quantity as written, which a seed status may hold
// however odd: "2500m", "-3", "1e30".
func AllocatableWritten(quantity string) SeedOption {
	return func(s *gardencorev1beta1.Seed) {
		s.Status.Allocatable = corev1.ResourceList{gardencorev1beta1.ResourceShoots: resource.MustParse(quantity)}
	}
}

// InRegion sets the seed's provider type and region.
func InRegion(provider, region string) SeedOption {
	return func(s *gardencorev1beta1.Seed) { s.Spec.Provider.Type, s.Spec.Provider.Region = provider, region }
}

// Tainted adds a taint without value.
func Tainted(key string) SeedOption {
	return func(s *gardencorev1beta1.Seed) {
		s.Spec.Taints = append(s.Spec.Taints, gardencorev1beta1.SeedTaint{Key: key})
	}
}

// BoundTo sets spec.seedName.
func BoundTo(seed string) ShootOption {
	return func(s *gardencorev1beta1.Shoot) { s.Spec.SeedName = new(seed) }
}

// CreatedAfter sets the creationTimestamp d after Created.
func CreatedAfter(d time.Duration) ShootOption {
	return func(s *gardencorev1beta1.Shoot) { s.CreationTimestamp = metav1.NewTime(Created.Add(d)) }
}

// Tolerating adds a toleration without value.
func Tolerating(key string) ShootOption {
	return func(s *gardencorev1beta1.Shoot) {
		s.Spec.Tolerations = append(s.Spec.Tolerations, gardencorev1beta1.Toleration{Key: key})
	}
}

// Region sets the shoot's region.
func Region(region string) ShootOption {
	return func(s *gardencorev1beta1.Shoot) { s.Spec.Region = region }
}

// CloudProfile is the aws cloud profile the test shoots reference.
func CloudProfile() *gardencorev1beta1.CloudProfile {
	return &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "aws"}, Spec: gardencorev1beta1.CloudProfileSpec{Type: "aws"}}
}

// Project is project dev owning namespace garden-dev.
func Project() *gardencorev1beta1.Project {
	return &gardencorev1beta1.Project{ObjectMeta: metav1.ObjectMeta{Name: "dev"}, Spec: gardencorev1beta1.ProjectSpec{Namespace: new("garden-dev")}}
}

// WithBackup gives the seed a backup configuration with ready backup buckets: what a control plane migration
// needs on both seeds.
func WithBackup() SeedOption {
	return func(s *gardencorev1beta1.Seed) {
		s.Spec.Backup = &gardencorev1beta1.Backup{Provider: s.Spec.Provider.Type}
		s.Status.Conditions = append(s.Status.Conditions, gardencorev1beta1.Condition{Type: gardencorev1beta1.SeedBackupBucketsReady, Status: gardencorev1beta1.ConditionTrue})
	}
}

// Annotated sets an annotation.
func Annotated(key, value string) SeedOption {
	return func(s *gardencorev1beta1.Seed) {
		if s.Annotations == nil {
			s.Annotations = map[string]string{}
		}
		s.Annotations[key] = value
	}
}

// Running makes a bound shoot's control plane run on its seed: status.seedName equals spec.seedName.
func Running() ShootOption {
	return func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = s.Spec.SeedName }
}

// Deleting marks the seed as being deleted.
func Deleting() SeedOption {
	return func(s *gardencorev1beta1.Seed) { s.DeletionTimestamp = &metav1.Time{Time: Created} }
}

// BeingDeleted marks the shoot as being deleted.
func BeingDeleted() ShootOption {
	return func(s *gardencorev1beta1.Shoot) { s.DeletionTimestamp = &metav1.Time{Time: Created} }
}

// ScheduledBy sets spec.schedulerName.
func ScheduledBy(scheduler string) ShootOption {
	return func(s *gardencorev1beta1.Shoot) { s.Spec.SchedulerName = new(scheduler) }
}

// SelfHosted makes the shoot host its own control plane: its first worker pool has controlPlane set.
func SelfHosted() ShootOption {
	return func(s *gardencorev1beta1.Shoot) {
		s.Spec.Provider.Workers[0].ControlPlane = &gardencorev1beta1.WorkerControlPlane{}
	}
}

// InvalidSeedSelector is a seed selector with an operator Kubernetes does not know: it does not convert to a
// label selector, and Gardener's error for it is InvalidSeedSelectorError.
func InvalidSeedSelector() *gardencorev1beta1.SeedSelector {
	return &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
		{Key: "env", Operator: "Likes", Values: []string{"prod"}}}}}
}

// InvalidSeedSelectorError is Gardener's error for InvalidSeedSelector, the shoot's or its cloud profile's.
const InvalidSeedSelectorError = `label selector conversion failed: {map[] [{env Likes [prod]}]} for seedSelector: "Likes" is not a valid label selector operator`
