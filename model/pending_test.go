package model_test

import (
	"slices"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	. "github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
)

// A scheduler places a shoot unless exactly one reason says otherwise, checked in this order: bound, being
// deleted, another scheduler's, self-hosted.
func TestWhyNotPending(t *testing.T) {
	for _, tc := range []struct {
		name      string
		shoot     *gardencorev1beta1.Shoot
		scheduler string
		want      model.NotPending
	}{
		{name: "pending, no scheduler name", shoot: Shoot("a"), scheduler: "default-scheduler"},
		{name: "pending, its scheduler named", shoot: Shoot("a", ScheduledBy("seedplan")), scheduler: "seedplan"},
		{name: "bound", shoot: Shoot("a", BoundTo("s")), scheduler: "default-scheduler", want: model.NotPendingBound},
		{name: "bound and deleting: bound first", shoot: Shoot("a", BoundTo("s"), BeingDeleted()), scheduler: "default-scheduler", want: model.NotPendingBound},
		{name: "deleting", shoot: Shoot("a", BeingDeleted()), scheduler: "default-scheduler", want: model.NotPendingDeleting},
		{name: "another scheduler's", shoot: Shoot("a", ScheduledBy("other")), scheduler: "default-scheduler", want: model.NotPendingOtherScheduler},
		{name: "no name is default-scheduler's", shoot: Shoot("a"), scheduler: "seedplan", want: model.NotPendingOtherScheduler},
		{name: "self-hosted", shoot: Shoot("a", SelfHosted()), scheduler: "default-scheduler", want: model.NotPendingSelfHosted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := model.WhyNotPending(tc.shoot, tc.scheduler); got != tc.want {
				t.Fatalf("WhyNotPending = %q, want %q", got, tc.want)
			}
			if model.IsPending(tc.shoot, tc.scheduler) != (tc.want == "") {
				t.Fatalf("IsPending disagrees with WhyNotPending %q", tc.want)
			}
		})
	}
}

// A shoot leaves a seed, and so frees room there, when it is deleted or stops counting on it: its control plane
// migrated away, or its binding undone; a binding or the start of a migration leaves none.
func TestSeedsLeft(t *testing.T) {
	onA := Shoot("s", BoundTo("a"))
	migrating := Shoot("s", BoundTo("b"), func(s *gardencorev1beta1.Shoot) { s.Status.SeedName = new("a") })
	for _, tc := range []struct {
		name          string
		before, after *gardencorev1beta1.Shoot
		want          []string
	}{
		{"a bound shoot deleted", onA, nil, []string{"a"}},
		{"a pending shoot deleted", Shoot("s"), nil, nil},
		{"a pending shoot bound", Shoot("s"), onA, nil},
		{"a migration starts: counted on both", onA, migrating, nil},
		{"a migration ends: it leaves the old seed", migrating, Shoot("s", BoundTo("b")), []string{"a"}},
		{"a migrating shoot deleted: both", migrating, nil, []string{"b", "a"}},
		{"its status only refreshed", onA, onA.DeepCopy(), nil},
	} {
		if got := model.SeedsLeft(tc.before, tc.after); !slices.Equal(got, tc.want) {
			t.Errorf("%s: SeedsLeft = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A binding planned for a shoot as read stands for the shoot as it is now when only what no predicate reads
// changed; a change to its spec, the networks its status records, its identity or its deletion asks for a new
// decision.
func TestSamePlacementInput(t *testing.T) {
	read := Shoot("s")
	for _, tc := range []struct {
		name   string
		change func(*gardencorev1beta1.Shoot)
		want   bool
	}{
		{"nothing", func(*gardencorev1beta1.Shoot) {}, true},
		{"a label", func(s *gardencorev1beta1.Shoot) { s.Labels = map[string]string{"changed-by": "someone"} }, true},
		{"an annotation", func(s *gardencorev1beta1.Shoot) { s.Annotations = map[string]string{"note": "x"} }, true},
		{"its resourceVersion and last operation (a failure report)", func(s *gardencorev1beta1.Shoot) {
			s.ResourceVersion = "42"
			s.Status.LastOperation = &gardencorev1beta1.LastOperation{Description: "Failed to schedule Shoot: full"}
		}, true},
		{"a toleration", func(s *gardencorev1beta1.Shoot) { Tolerating("t")(s) }, false},
		{"its region", func(s *gardencorev1beta1.Shoot) { Region("elsewhere")(s) }, false},
		{"the networks of its status", func(s *gardencorev1beta1.Shoot) {
			s.Status.Networking = &gardencorev1beta1.NetworkingStatus{Nodes: []string{"10.0.0.0/16"}}
		}, false},
		{"marked for deletion", func(s *gardencorev1beta1.Shoot) { BeingDeleted()(s) }, false},
		{"another shoot of its name", func(s *gardencorev1beta1.Shoot) { s.UID = "other" }, false},
	} {
		now := read.DeepCopy()
		tc.change(now)
		if got := model.SamePlacementInput(read, now); got != tc.want {
			t.Errorf("%s changed: SamePlacementInput = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// What placement reads of the rest of the landscape changes with a profile's seed selector (a namespaced one's as
// its status makes it), a project's namespace, a region config's distances and the profiles it names — not with a
// profile's versions, a project's members or tolerations, or what controllers refresh.
func TestPlacementInput(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after any
		changed       bool
	}{
		{"a cloud profile's labels", &gardencorev1beta1.CloudProfile{}, &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"a": "b"}}}, false},
		{"a cloud profile's Kubernetes versions", &gardencorev1beta1.CloudProfile{}, &gardencorev1beta1.CloudProfile{Spec: gardencorev1beta1.CloudProfileSpec{
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.34.1"}}}}}, false},
		{"a cloud profile's seed selector", &gardencorev1beta1.CloudProfile{},
			&gardencorev1beta1.CloudProfile{Spec: gardencorev1beta1.CloudProfileSpec{SeedSelector: &gardencorev1beta1.SeedSelector{}}}, true},
		{"the seed selector of the profile a namespaced cloud profile makes", &gardencorev1beta1.NamespacedCloudProfile{},
			&gardencorev1beta1.NamespacedCloudProfile{Status: gardencorev1beta1.NamespacedCloudProfileStatus{CloudProfileSpec: gardencorev1beta1.CloudProfileSpec{
				SeedSelector: &gardencorev1beta1.SeedSelector{ProviderTypes: []string{"aws"}}}}}, true},
		{"the type of the profile a namespaced cloud profile makes", &gardencorev1beta1.NamespacedCloudProfile{},
			&gardencorev1beta1.NamespacedCloudProfile{Status: gardencorev1beta1.NamespacedCloudProfileStatus{CloudProfileSpec: gardencorev1beta1.CloudProfileSpec{Type: "aws"}}}, false},
		{"a namespaced cloud profile's observed generation", &gardencorev1beta1.NamespacedCloudProfile{},
			&gardencorev1beta1.NamespacedCloudProfile{Status: gardencorev1beta1.NamespacedCloudProfileStatus{ObservedGeneration: 2}}, false},
		{"a project's last activity", &gardencorev1beta1.Project{},
			&gardencorev1beta1.Project{Status: gardencorev1beta1.ProjectStatus{LastActivityTimestamp: &metav1.Time{Time: time.Now()}}}, false},
		{"a project's members", &gardencorev1beta1.Project{},
			&gardencorev1beta1.Project{Spec: gardencorev1beta1.ProjectSpec{Members: []gardencorev1beta1.ProjectMember{{Role: "admin"}}}}, false},
		{"a project's tolerations (admission's, not placement's)", &gardencorev1beta1.Project{},
			&gardencorev1beta1.Project{Spec: gardencorev1beta1.ProjectSpec{Tolerations: &gardencorev1beta1.ProjectTolerations{}}}, false},
		{"a project's namespace", &gardencorev1beta1.Project{},
			&gardencorev1beta1.Project{Spec: gardencorev1beta1.ProjectSpec{Namespace: new("garden-p")}}, true},
		{"a region config's distances", &corev1.ConfigMap{Data: map[string]string{"eu-1": "eu-2: 10"}}, &corev1.ConfigMap{Data: map[string]string{"eu-1": "eu-2: 20"}}, true},
		{"the profiles a region config names", &corev1.ConfigMap{},
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"scheduling.gardener.cloud/cloudprofiles": "aws"}}}, true},
		{"a region config's other annotations", &corev1.ConfigMap{}, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"a": "b"}}}, false},
	} {
		if changed := !equality.Semantic.DeepEqual(model.PlacementInput(tc.before), model.PlacementInput(tc.after)); changed != tc.changed {
			t.Errorf("%s: changed %v, want %v", tc.name, changed, tc.changed)
		}
	}
}

// A placement or move planned for one version of a shoot holds for a later version whose spec is unchanged (its
// generation), as a gardenlet's reconcile or a failure report leaves it; a plan that recorded no generation holds
// for its resourceVersion only.
func TestShootVersionChangeTo(t *testing.T) {
	planned := Shoot("s", func(s *gardencorev1beta1.Shoot) { s.ResourceVersion, s.UID, s.Generation = "7", "uid-s", 2 })
	later := func(change func(*gardencorev1beta1.Shoot)) *gardencorev1beta1.Shoot {
		now := planned.DeepCopy()
		now.ResourceVersion = "9"
		change(now)
		return now
	}
	for _, tc := range []struct {
		name    string
		version model.ShootVersion
		now     *gardencorev1beta1.Shoot
		want    model.VersionChange
	}{
		{"the version planned", model.VersionOf(planned), planned, model.SameVersion},
		{"its status changed", model.VersionOf(planned), later(func(s *gardencorev1beta1.Shoot) {
			s.Status.LastOperation = &gardencorev1beta1.LastOperation{State: gardencorev1beta1.LastOperationStateSucceeded}
		}), model.SameVersion},
		{"its spec changed", model.VersionOf(planned), later(func(s *gardencorev1beta1.Shoot) { s.Generation = 3 }), model.SpecChanged},
		{"its deletion began", model.VersionOf(planned), later(func(s *gardencorev1beta1.Shoot) { BeingDeleted()(s) }), model.SpecChanged},
		{"another shoot of its name", model.VersionOf(planned), later(func(s *gardencorev1beta1.Shoot) { s.UID, s.Generation = "uid-new", 1 }), model.Recreated},
		{"a plan without generation, the same resourceVersion", model.ShootVersion{ResourceVersion: "7"}, planned, model.SameVersion},
		{"a plan without generation, another resourceVersion", model.ShootVersion{ResourceVersion: "7"}, later(func(*gardencorev1beta1.Shoot) {}), model.OtherVersion},
		{"read from files: no version", model.VersionOf(Shoot("f")), Shoot("f"), model.SameVersion},
	} {
		if got := tc.version.ChangeTo(tc.now); got != tc.want {
			t.Errorf("%s: ChangeTo = %v, want %v", tc.name, got, tc.want)
		}
	}
}
