package model

import (
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agnivade/levenshtein"
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/seedplan/seedplan/internal/testobjects"
)

// laughs is the billion laughs: levels of anchors, each aliasing the one before ten times.
func laughs(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [lol]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), 10), ","))
	}
	return b.String()
}

// nested is a flow sequence nested depth deep.
func nested(depth int) string { return strings.Repeat("[", depth) + strings.Repeat("]", depth) }

// FuzzParseRegionDistances: any region ConfigMap entry either parses into distances that include the shoot's
// own region, or is an error — never a panic.
func FuzzParseRegionDistances(f *testing.F) {
	// Well-formed entries and one of each class of hostile ConfigMap data: aliases beyond the input budget, deep
	// nesting, duplicate keys, NaN and infinities, integers beyond int32, a region beyond a ConfigMap key's
	// bound, control characters, JSON, several documents.
	for _, seed := range []string{"eu-west-1: 20\nus-east-1: 90\n", "eu-central-1: 7", "a: -5", "a: 2147483648", "a: [1]", "a: far", "{", "",
		laughs(6), nested(150), "a: 1\na: 2\n", "a: .nan\nb: -.inf\n", "a: 9223372036854775807\n", strings.Repeat("r", 300) + ": 1\n",
		"\"a\\x1b[2J\": 1\n", `{"eu-west-1": 20, "us-east-1": 90}`, "a: 1\n---\nb: 2\n", "a: 1\n...\n", "&x a: *x\n"} {
		f.Add(seed, "eu-central-1")
	}
	f.Fuzz(func(t *testing.T, data, region string) {
		distances, err := ParseRegionDistances(data, region)
		if err != nil {
			return
		}
		if _, ok := distances[region]; !ok {
			t.Fatalf("the shoot's own region %q is missing from %v", region, distances)
		}
	})
}

// FuzzNetworksIntersect checks Gardener's intersection rule against its definition: symmetric, unparsable
// CIDRs intersect everything, and parsed networks intersect exactly when one contains the other's base.
func FuzzNetworksIntersect(f *testing.F) {
	for _, pair := range [][2]string{{"10.0.0.0/8", "10.1.0.0/16"}, {"10.0.0.0/16", "10.1.0.0/16"}, {"2001:db8::/32", "2001:db8:1::/48"},
		{"fd8f:6d53:b97a:1::/96", "::/0"}, {"bogus", "10.0.0.0/8"}, {"242.1.0.0/16", "242.0.0.0/8"}} {
		f.Add(pair[0], pair[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		got := parseCIDR(a).intersects(parseCIDR(b))
		if got != parseCIDR(b).intersects(parseCIDR(a)) {
			t.Fatalf("intersects(%q, %q) is not symmetric", a, b)
		}
		_, na, errA := net.ParseCIDR(a)
		_, nb, errB := net.ParseCIDR(b)
		want := errA != nil || errB != nil || na.Contains(nb.IP) || nb.Contains(na.IP)
		if got != want {
			t.Fatalf("intersects(%q, %q) = %v, want %v", a, b, got, want)
		}
	})
}

// FuzzLevenshteinDistance: the fallback distance is symmetric in its region arguments up to the orientation
// split, zero for equal regions, and never negative; the edit distance of regions of any length is the full
// computation's up to what the fallback can choose, and one beyond it past that.
func FuzzLevenshteinDistance(f *testing.F) {
	for _, pair := range [][2]string{{"eu-central-1", "eu-west-1"}, {"southeastasia", "eastasia"}, {"", "north"}, {"ééé", "east"},
		{strings.Repeat("ab", 200), strings.Repeat("ba", 150)}, {strings.Repeat("x", 700), strings.Repeat("x", 300) + "y"}} {
		f.Add(pair[0], pair[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 2048 || len(b) > 2048 {
			return // the full computation, the check, is quadratic in the length
		}
		d := LevenshteinDistance(a, b)
		if d < 0 || d != LevenshteinDistance(b, a) || LevenshteinDistance(a, a) != 0 {
			t.Fatalf("LevenshteinDistance(%q, %q) = %d (reverse %d, self %d)", a, b, d, LevenshteinDistance(b, a), LevenshteinDistance(a, a))
		}
		if got, want := editDistance(a, b), min(levenshtein.ComputeDistance(a, b), fallbackEdits+1); got != want {
			t.Fatalf("editDistance(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}

// FuzzParseTaintEffects: any annotation either parses into effects that agree with spec.taints (NoExecute only on
// its taints, PreferNoSchedule only beside them) or is an error naming the annotation — never a panic.
func FuzzParseTaintEffects(f *testing.F) {
	for _, seed := range []string{"a=NoExecute", "a=NoSchedule,b=PreferNoSchedule", "b=NoExecute", "a=PreferNoSchedule", "a", "=", ",,", "a=NoExecute,a=NoExecute"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, annotation string) {
		seed := testSeed("s", testobjects.Tainted("a"), withTaintEffects(annotation))
		taints, err := ParseTaintEffects(seed)
		if err != nil {
			if !strings.Contains(err.Error(), AnnotationTaintEffects) {
				t.Fatalf("error %v does not name the annotation", err)
			}
			return
		}
		for _, taint := range taints.NoExecute {
			if taint.Key != "a" {
				t.Fatalf("NoExecute taint %q is not in spec.taints", taint.Key)
			}
		}
		if slices.Contains(taints.PreferNoSchedule, "a") {
			t.Fatal("a spec.taints entry became soft")
		}
	})
}

// FuzzShootSeedSelector: a shoot's seed selector, however malformed, either fails the shoot with Gardener's
// "label selector conversion failed" error exactly when Kubernetes cannot convert it, and every seed rejected for
// it, or admits exactly the seeds whose labels it matches — never a panic.
func FuzzShootSeedSelector(f *testing.F) {
	for _, seed := range [][5]string{{"env", "In", "prod", "", ""}, {"env", "NotIn", "prod", "tier", "gold"}, {"env", "Exists", "", "", ""},
		{"env", "DoesNotExist", "", "", ""}, {"env", "Foo", "x", "", ""}, {"", "In", "", "", ""}, {"e nv", "In", "pr od", "a/b/c", "-"}} {
		f.Add(seed[0], seed[1], seed[2], seed[3], seed[4])
	}
	f.Fuzz(func(t *testing.T, key, operator, value, labelKey, labelValue string) {
		selector := &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: key, Operator: metav1.LabelSelectorOperator(operator)}}}
		if value != "" {
			selector.MatchExpressions[0].Values = []string{value}
		}
		if labelKey != "" {
			selector.MatchLabels = map[string]string{labelKey: labelValue}
		}
		labelled := func(name string, labels map[string]string) *gardencorev1beta1.Seed {
			return testSeed(name, func(s *gardencorev1beta1.Seed) { s.Labels = labels })
		}
		seeds := []*gardencorev1beta1.Seed{
			labelled("a", map[string]string{"env": "prod"}), labelled("b", map[string]string{"env": "dev", "tier": "gold"}),
			labelled("c", nil), labelled("d", map[string]string{key: value, labelKey: labelValue}),
		}
		shoot := testShoot("fuzzed", func(s *gardencorev1beta1.Shoot) {
			s.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: *selector}
		})
		snap, err := NewSnapshot(Objects{Seeds: seeds, Shoots: []*gardencorev1beta1.Shoot{shoot},
			CloudProfiles: []*gardencorev1beta1.CloudProfile{testobjects.CloudProfile()}, Projects: []*gardencorev1beta1.Project{testobjects.Project()}})
		if err != nil {
			return // label keys that are no valid map keys are the snapshot's business, not the selector's
		}
		w, err := NewWindow(snap, Options{}, snap.Pending("default-scheduler"))
		if err != nil {
			t.Fatal(err)
		}
		ev := w.Evaluations[0]
		converted, convertErr := metav1.LabelSelectorAsSelector(selector)
		if convertErr != nil {
			if ev.Err == nil || !strings.Contains(ev.Err.Error(), "label selector conversion failed") {
				t.Fatalf("selector %v does not convert (%v), but the shoot got %v", selector, convertErr, ev.Err)
			}
			for _, seed := range snap.Seeds {
				if r, ok := ev.Rejection(seed.Name); !ok || r != (Rejection{Predicate: PredicateShootSeedSelector, Reason: ev.Err.Error()}) {
					t.Fatalf("selector %v does not convert, but seed %s is rejected with %+v (%v)", selector, seed.Name, r, ok)
				}
			}
			return
		}
		var want []int
		for i, seed := range snap.Seeds {
			if converted.Matches(labels.Set(seed.Labels)) {
				want = append(want, i)
			}
		}
		var got []int
		for _, a := range ev.Arcs {
			got = append(got, a.Seed)
		}
		if len(want) == 0 {
			if ev.Err == nil || ev.ErrPredicate != PredicateShootSeedSelector {
				t.Fatalf("selector %v matches no seed, but the shoot got %v (%s)", selector, ev.Err, ev.ErrPredicate)
			}
			return
		}
		if !slices.Equal(got, want) {
			t.Fatalf("selector %v admits seeds %v, want %v (err %v)", selector, got, want, ev.Err)
		}
	})
}

// FuzzMaintenanceStart: any maintenance window either parses — and then a move may start now or at a begin
// within the next day, never in the past — or is an error naming the field; never a panic.
func FuzzMaintenanceStart(f *testing.F) {
	for _, w := range [][2]string{{"220000+0000", "230000+0000"}, {"230000+0100", "010000+0100"}, {"000000+1400", "000000-1200"}, {"", ""}, {"25", "x"}} {
		f.Add(w[0], w[1], int64(1_795_000_000))
	}
	f.Fuzz(func(t *testing.T, begin, end string, unix int64) {
		now := time.Unix(unix%(1<<40), 0)
		shoot := testShoot("s")
		shoot.Spec.Maintenance = &gardencorev1beta1.Maintenance{TimeWindow: &gardencorev1beta1.MaintenanceTimeWindow{Begin: begin, End: end}}
		start, err := MaintenanceStart(shoot, now)
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), "spec.maintenance.timeWindow.") {
				t.Fatalf("error %q names no field", err)
			}
		case start.Before(now) || start.After(now.Add(24*time.Hour)):
			t.Fatalf("window %q–%q at %v starts at %v", begin, end, now, start)
		}
	})
}
