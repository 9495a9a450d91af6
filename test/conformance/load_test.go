package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/gardener/gardener/pkg/client/kubernetes"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/model"
)

// TestSmallLandscapesLoadAsWritten writes the differential test's small landscapes as `seedplan generate` does, in
// YAML and in JSON, and loads them as `--landscape` does: every object comes back as it was written, the odd values
// these landscapes combine included (an empty taint or toleration value beside none, IPv6 networks, selector
// expressions, a deletion timestamp and finalizer, no spec.networking, two region ConfigMaps), through the loader's
// own decoders. A fractional allocatable is made whole first: files refuse one (README, Input).
func TestSmallLandscapesLoadAsWritten(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 0))
	for i := range 250 {
		data := landscapeBytes(rng)
		for _, format := range []string{"yaml", "json"} {
			written := writable(t, fuzzLandscape(data))
			read := roundTrip(t, written, format)
			where := fmt.Sprintf("landscape %d (%x) in %s", i, data, format)
			sameObjects(t, where, written.Seeds, read.Seeds)
			sameObjects(t, where, written.Shoots, read.Shoots)
			sameObjects(t, where, written.CloudProfiles, read.CloudProfiles)
			sameObjects(t, where, written.NamespacedCloudProfiles, read.NamespacedCloudProfiles)
			sameObjects(t, where, written.Projects, read.Projects)
			sameObjects(t, where, written.ConfigMaps, read.ConfigMaps)
		}
		if t.Failed() {
			t.FailNow()
		}
	}
}

// writable gives the landscape's objects their kinds, as files carry them, and makes a fractional allocatable whole.
func writable(t *testing.T, objs model.Objects) model.Objects {
	t.Helper()
	for _, seed := range objs.Seeds {
		if q, ok := seed.Status.Allocatable[gardencorev1beta1.ResourceShoots]; ok && q.MilliValue()%1000 != 0 {
			seed.Status.Allocatable[gardencorev1beta1.ResourceShoots] = *resource.NewQuantity(q.Value(), resource.DecimalSI)
		}
	}
	withKinds(t, objs.Seeds)
	withKinds(t, objs.Shoots)
	withKinds(t, objs.CloudProfiles)
	withKinds(t, objs.NamespacedCloudProfiles)
	withKinds(t, objs.Projects)
	withKinds(t, objs.ConfigMaps)
	return objs
}

func withKinds[T client.Object](t *testing.T, objs []T) {
	t.Helper()
	for _, obj := range objs {
		kinds, _, err := kubernetes.GardenScheme.ObjectKinds(obj)
		if err != nil {
			t.Fatal(err)
		}
		obj.GetObjectKind().SetGroupVersionKind(kinds[0])
	}
}

// sameObjects fails unless the objects read are those written, in the same order.
func sameObjects[T client.Object](t *testing.T, where string, written, read []T) {
	t.Helper()
	if len(written) != len(read) {
		t.Errorf("%s: %d objects written, %d read", where, len(written), len(read))
		return
	}
	for i := range written {
		if !equality.Semantic.DeepEqual(written[i], read[i]) {
			want, _ := json.Marshal(written[i])
			got, _ := json.Marshal(read[i])
			t.Errorf("%s: %s read as\n  %s\nwritten as\n  %s", where, client.ObjectKeyFromObject(written[i]), got, want)
		}
	}
}
