package ingest

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
)

// isDNSLabel is the DNS label rule Kubernetes applies to seed and shoot names and namespaces, checked by hand.
func TestIsDNSLabel(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"aws-eu1", true},
		{"a", true},
		{"0", true},
		{"123-abc", true},
		{"a--b", true},
		{"", false},
		{"Bad Name", false},
		{"Upper", false},
		{"-lead", false},
		{"trail-", false},
		{"-", false},
		{"dot.ted", false},
		{"under_score", false},
		{"ümlaut", false},
		{"tab\t", false},
	} {
		if got := isDNSLabel(tc.name); got != tc.want {
			t.Errorf("isDNSLabel(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// FuzzDNSLabel holds the check by hand to Kubernetes' own validation of a DNS label, for names of the length
// dnsLabel lets through to it.
func FuzzDNSLabel(f *testing.F) {
	for _, seed := range []string{"aws-eu1", "Bad Name", "-", "a-", "0a", "a.b", "\xff"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if len(name) > validation.DNS1123LabelMaxLength {
			return
		}
		if got, want := isDNSLabel(name), len(validation.IsDNS1123Label(name)) == 0; got != want {
			t.Errorf("isDNSLabel(%q) = %v, Kubernetes says %v (%q)", name, got, want, validation.IsDNS1123Label(name))
		}
	})
}

// A document without kind is named as seedplan's own answer only when it has the fields that answer always has.
func TestSeedplanAnswer(t *testing.T) {
	for _, tc := range []struct {
		document, want string
	}{
		{`{"window": {}, "placements": [], "seeds": []}`, "schedule"},
		{`{"moves": [], "lowerBound": 0, "complete": true}`, "rebalance"},
		{`{"newSeeds": 2, "unplaceable": []}`, "capacity"},
		{`{"shoot": "garden-dev/web", "rejections": []}`, "explain"},
		{`{"moves": []}`, ""},
		{`{"metadata": {"name": "a"}, "placements": []}`, ""},
		{`[1, 2]`, ""},
		{`not json`, ""},
	} {
		got := seedplanAnswer([]byte(tc.document))
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, "seedplan "+tc.want+",") {
			t.Errorf("seedplanAnswer(%s) = %q, want it to name %q", tc.document, got, tc.want)
		}
	}
}

// TestObjectOf checks how an error names the object of a document it could not decode: by the kind and name the
// document gives as plain scalars, and not at all when it names no kind.
func TestObjectOf(t *testing.T) {
	for _, tc := range []struct{ name, document, want string }{
		{"a Seed", "kind: Seed\nmetadata:\n  name: aws-eu1\n", ": Seed aws-eu1"},
		{"a Shoot in its namespace", "kind: Shoot\nmetadata:\n  namespace: garden-dev\n  name: a\n", ": Shoot garden-dev/a"},
		{"a kind without a name", "kind: Seed\nspec: {}\n", ": Seed <unnamed>"},
		{"a name without a kind", "metadata:\n  name: aws-eu1\n", ""},
		{"an empty kind", "kind: ''\nmetadata:\n  name: aws-eu1\n", ""},
		{"a kind that is no scalar", "kind: [Seed]\nmetadata:\n  name: aws-eu1\n", ""},
		{"a name that is an alias", "kind: Seed\nx: &n aws-eu1\nmetadata:\n  name: *n\n", ": Seed <unnamed>"},
		{"no YAML", "kind: [Seed\n", ""},
		{"a list that holds the word kind", "- kind\n- Seed\n", ""},
		{"nothing", "", ""},
		{"a comment", "# kind: Seed\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := objectOf([]byte(tc.document)); got != tc.want {
				t.Fatalf("objectOf(%q) = %q, want %q", tc.document, got, tc.want)
			}
		})
	}
}
