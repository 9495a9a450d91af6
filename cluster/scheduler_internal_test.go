package cluster

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
)

// Every window a scheduler plans — the loop's windows, and the job's later rounds, which read the garden afresh —
// comes with the scheduler's one RegionConfigCache, so that region ConfigMap entries unchanged since the window
// before are not parsed again (model.TestRegionConfigCache); the loop's objects are its Copies', defaulted, and
// the job's are its own read, which the snapshot defaults.
func TestWindowsShareTheSchedulersRegionConfigCache(t *testing.T) {
	copies, err := ingest.NewCopies()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		scheduler     *Scheduler
		wantDefaulted bool
	}{
		{"job", &Scheduler{}, false},
		{"loop", &Scheduler{Copies: copies}, true},
	} {
		var first *model.RegionConfigCache
		for window := 1; window <= 3; window++ {
			objs := model.Objects{Shoots: []*gardencorev1beta1.Shoot{{ObjectMeta: metav1.ObjectMeta{
				Namespace: "garden-a", Name: "a", UID: "uid-a", ResourceVersion: "1"}}}}
			if err := tc.scheduler.own(&objs); err != nil {
				t.Fatalf("%s, window %d: %v", tc.name, window, err)
			}
			if first == nil {
				first = objs.RegionConfigCache
			}
			if objs.RegionConfigCache == nil || objs.RegionConfigCache != first {
				t.Errorf("%s, window %d: region config cache %p, want the scheduler's one (%p)", tc.name, window, objs.RegionConfigCache, first)
			}
			if objs.Defaulted != tc.wantDefaulted {
				t.Errorf("%s, window %d: objects marked defaulted %t, want %t", tc.name, window, objs.Defaulted, tc.wantDefaulted)
			}
		}
	}
}
