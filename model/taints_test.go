package model

import (
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/testobjects"
)

func withTaintEffects(value string) seedOption {
	return testobjects.Annotated(AnnotationTaintEffects, value)
}

func TestParseTaintEffects(t *testing.T) {
	tests := []struct {
		name       string
		taints     []string
		annotation string
		noExecute  []string
		soft       []string
		err        string
	}{
		{name: "no annotation", taints: []string{"a"}},
		{name: "NoSchedule is Gardener's default", taints: []string{"a"}, annotation: "a=NoSchedule"},
		{name: "NoExecute on a taint", taints: []string{"a", "b"}, annotation: " b = NoExecute ", noExecute: []string{"b"}},
		{name: "soft taint of the annotation alone", annotation: "retiring=PreferNoSchedule", soft: []string{"retiring"}},
		{name: "both", taints: []string{"a"}, annotation: "a=NoExecute,x=PreferNoSchedule", noExecute: []string{"a"}, soft: []string{"x"}},
		{name: "not key=effect", annotation: "a", err: `entry "a" is not <key>=<effect>`},
		{name: "empty key", annotation: "=NoExecute", err: "is not <key>=<effect>"},
		{name: "unknown effect", taints: []string{"a"}, annotation: "a=Evict", err: `taint "a" has unknown effect "Evict"`},
		{name: "twice", taints: []string{"a"}, annotation: "a=NoExecute,a=NoSchedule", err: `taint "a" is given twice`},
		{name: "NoExecute needs a spec.taints entry", annotation: "a=NoExecute", err: "is not in spec.taints"},
		{name: "a spec.taints entry cannot be soft", taints: []string{"a"}, annotation: "a=PreferNoSchedule", err: "refuses every shoot that does not tolerate it"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := []seedOption{withTaintEffects(tc.annotation)}
			for _, key := range tc.taints {
				opts = append(opts, testobjects.Tainted(key))
			}
			got, err := ParseTaintEffects(testSeed("s", opts...))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), AnnotationTaintEffects) {
					t.Fatalf("error %v, want one naming the annotation and containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var noExecute []string
			for _, taint := range got.NoExecute {
				noExecute = append(noExecute, taint.Key)
			}
			if strings.Join(noExecute, ",") != strings.Join(tc.noExecute, ",") || strings.Join(got.PreferNoSchedule, ",") != strings.Join(tc.soft, ",") {
				t.Fatalf("got NoExecute %v, PreferNoSchedule %v; want %v, %v", noExecute, got.PreferNoSchedule, tc.noExecute, tc.soft)
			}
		})
	}
}

// A seed whose annotation does not parse is read as the gardener-scheduler reads it, which knows no such
// annotation — its spec.taints all NoSchedule, no soft taint — and named with the error; one seed's typo does not
// stop the planning of a garden, and the other seeds' annotations are read.
func TestSnapshotReadsABadTaintEffectsAnnotationAsGardenerDoes(t *testing.T) {
	snap, err := NewSnapshot(Objects{Seeds: []*gardencorev1beta1.Seed{
		testSeed("seed-1", testobjects.Tainted("a"), withTaintEffects("a=NoExecute,x=PreferNoSchedule,y=Sometimes")),
		testSeed("seed-2", testobjects.Tainted("a"), withTaintEffects("a=NoExecute,x=PreferNoSchedule")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	shoot := testobjects.Shoot("web")
	bad, good := snap.SeedIndex("seed-1"), snap.SeedIndex("seed-2")
	if len(snap.NoExecuteTaints(bad)) != 0 || snap.SoftViolations(bad, shoot) != 0 {
		t.Errorf("seed-1: NoExecute %v, soft violations %d; want none of either", snap.NoExecuteTaints(bad), snap.SoftViolations(bad, shoot))
	}
	if len(snap.NoExecuteTaints(good)) != 1 || snap.SoftViolations(good, shoot) != 1 {
		t.Errorf("seed-2: NoExecute %v, soft violations %d; want its annotation read", snap.NoExecuteTaints(good), snap.SoftViolations(good, shoot))
	}
	malformed := snap.MalformedTaintEffects()
	if len(malformed) != 1 || malformed[0].Seed != "seed-1" || !strings.Contains(malformed[0].Err.Error(), `taint "y" has unknown effect "Sometimes"`) {
		t.Fatalf("MalformedTaintEffects = %v, want seed-1's unknown effect", malformed)
	}
}

// PreferNoSchedule taints are arcs with soft violations, NoSchedule and NoExecute taints are no arcs at all.
func TestTaintEffectsInTheWindow(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{
		testSeed("hard", testobjects.Tainted("a"), withTaintEffects("a=NoExecute")),
		testSeed("plain"),
		testSeed("soft", withTaintEffects("b=PreferNoSchedule,c=PreferNoSchedule")),
	}
	shoots := []*gardencorev1beta1.Shoot{testShoot("none"), testShoot("tolerates-b", testobjects.Tolerating("b"))}
	snap := testLandscape(seeds, shoots)
	w, err := NewWindow(snap, Options{}, snap.Pending("default-scheduler"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]int{"none": {"plain": 0, "soft": 2}, "tolerates-b": {"plain": 0, "soft": 1}}
	for i, shoot := range w.Shoots {
		got := map[string]int{}
		for _, a := range w.Evaluations[i].Arcs {
			got[snap.Seeds[a.Seed].Name] = a.SoftViolations
		}
		if len(got) != len(want[shoot.Name]) || got["plain"] != 0 || got["soft"] != want[shoot.Name]["soft"] {
			t.Errorf("%s: arcs with soft violations %v, want %v", shoot.Name, got, want[shoot.Name])
		}
	}
}

func TestNoExecuteReason(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{
		testSeed("draining", testobjects.Tainted("a"), testobjects.Tainted("b"), withTaintEffects("a=NoExecute")),
		testSeed("plain"),
	}
	tests := []struct {
		shoot *gardencorev1beta1.Shoot
		want  string
	}{
		{testShoot("intolerant", boundTo("draining")), `shoot does not tolerate the NoExecute taint "a" of seed draining`},
		{testShoot("tolerant", boundTo("draining"), testobjects.Tolerating("a")), ""},
		{testShoot("elsewhere", boundTo("plain")), ""},
		{testShoot("pending"), ""},
	}
	var shoots []*gardencorev1beta1.Shoot
	for _, tc := range tests {
		shoots = append(shoots, tc.shoot)
	}
	snap := testLandscape(seeds, shoots)
	for _, tc := range tests {
		if got := snap.NoExecuteReason(tc.shoot); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.shoot.Name, got, tc.want)
		}
	}
}
