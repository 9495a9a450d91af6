package ingest_test

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
)

// cached is a shoot as an informer cache holds it: with a UID and a resourceVersion, and not defaulted here.
func cached(name, uid, resourceVersion string) *gardencorev1beta1.Shoot {
	return &gardencorev1beta1.Shoot{ObjectMeta: metav1.ObjectMeta{Namespace: "garden-a", Name: name, UID: types.UID(uid), ResourceVersion: resourceVersion}}
}

// Copies copy and default each version of an object once, keep the copy while the cache holds that version, and
// never write to the cache's objects.
func TestCopiesKeepEachVersionOnce(t *testing.T) {
	copies, err := ingest.NewCopies()
	if err != nil {
		t.Fatal(err)
	}
	own := func(shoots ...*gardencorev1beta1.Shoot) []*gardencorev1beta1.Shoot {
		t.Helper()
		objs := model.Objects{Shoots: shoots}
		if err := copies.Own(&objs); err != nil {
			t.Fatal(err)
		}
		if !objs.Defaulted {
			t.Fatal("objects owned are not marked defaulted")
		}
		return objs.Shoots
	}
	a1, b1 := cached("a", "uid-a", "1"), cached("b", "uid-b", "1")
	first := own(a1, b1)
	if first[0] == a1 || first[0].Spec.Purpose == nil || a1.Spec.Purpose != nil {
		t.Fatalf("the cache's object was not copied and defaulted apart: copy purpose %v, cache purpose %v", first[0].Spec.Purpose, a1.Spec.Purpose)
	}

	a2 := cached("a", "uid-a", "2")
	second := own(a2, cached("b", "uid-b", "1"))
	switch {
	case second[0] == first[0]:
		t.Fatal("a new resourceVersion kept the old copy")
	case second[1] != first[1]:
		t.Fatal("an unchanged object was copied again")
	}

	third := own(cached("b", "uid-b", "1"), cached("a", "uid-a-recreated", "3"))
	if third[0] != first[1] || third[1] == second[0] {
		t.Fatal("copies are kept by UID and resourceVersion, whatever the order and name")
	}
	fourth := own(cached("b", "uid-b", "1"))
	if fourth[0] != first[1] {
		t.Fatal("an unchanged object was copied again after another was deleted")
	}

	objs := model.Objects{Shoots: []*gardencorev1beta1.Shoot{cached("c", "", "1")}}
	if err := copies.Own(&objs); err == nil {
		t.Fatal("an object without UID was owned")
	}
}
