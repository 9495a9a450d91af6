package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/testobjects"
)

// Templates are chosen among the seeds each shoot may use: a region's largest seed is no template for shoots its
// taint keeps off, a smaller seed of another kind is; a kind another serves at least as well is left out.
func TestCapacityTemplates(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{
		testSeed("big-protected", allocatable(50), testobjects.Tainted("protected")),
		testSeed("small", allocatable(10)), testSeed("smaller", allocatable(5)),
		testSeed("tiny-protected", allocatable(2), testobjects.Tainted("protected")),
	}
	shoots := []*gardencorev1beta1.Shoot{testShoot("plain"), testShoot("tolerant", testobjects.Tolerating("protected"))}
	q, err := NewCapacityPlanning(testLandscape(seeds, shoots), Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tmpl := range q.Templates {
		got = append(got, fmt.Sprintf("%s×%d", tmpl.Template, tmpl.PerSeed))
	}
	// big-protected and small are of different kinds (the taint); smaller is of small's kind; tiny-protected is
	// served by big-protected.
	if want := "big-protected×50 small×10"; strings.Join(got, " ") != want {
		t.Fatalf("templates %q, want %q", strings.Join(got, " "), want)
	}
}

// A seed whose allocatable is no whole number of shoots is no template, however large Gardener reads it: new seeds
// copied from it would not say how many shoots they take.
func TestCapacityTemplatesLeaveOutAnAllocatableNotWhole(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{testSeed("fractional", testobjects.AllocatableWritten("50500m")), testSeed("small", allocatable(10))}
	q, err := NewCapacityPlanning(testLandscape(seeds, []*gardencorev1beta1.Shoot{testShoot("plain")}), Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Templates) != 1 || q.Templates[0].Template != "small" {
		t.Fatalf("templates %+v, want small alone", q.Templates)
	}
}

// VerifyCapacity is the independent checker of capacity answers: each kind of wrong answer is refused, naming
// the shoot or seed.
func TestVerifyCapacity(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{testSeed("a", allocatable(10)), testSeed("tainted", allocatable(10), testobjects.Tainted("x"))}
	shoots := []*gardencorev1beta1.Shoot{testShoot("s1"), testShoot("s2"), testShoot("s3"), testShoot("on-a", boundTo("a"))}
	q, err := NewCapacityPlanning(testLandscape(seeds, shoots), Options{}, 0.2) // a takes one more at the target
	if err != nil {
		t.Fatal(err)
	}
	place := func(shoot, seed string) Placement { return Placement{Shoot: "garden-dev/" + shoot, Seed: seed} }
	right := []Placement{place("s1", "a"), place("s2", "a-new"), place("s3", "a-new")}
	tests := []struct {
		name        string
		placements  []Placement
		newSeeds    map[string]int
		unplaceable []string
		want        string // "" for a right answer
	}{
		{"right", right, map[string]int{"a": 1}, nil, ""},
		{"a shoot left out", right[:2], map[string]int{"a": 1}, nil, "shoot garden-dev/s3: pending but neither placed nor unplaceable"},
		{"a shoot twice", right, map[string]int{"a": 1}, []string{"garden-dev/s3"}, "shoot garden-dev/s3: accounted for more than once"},
		{"above the target", []Placement{place("s1", "a"), place("s2", "a"), place("s3", "a-new")}, map[string]int{"a": 1}, nil,
			"seed a: 2 shoots placed leave it above its target of 2"},
		{"more than the new seeds take", right, map[string]int{"a": 0}, nil, "seed kind a-new: 2 shoots placed on 0 new seeds"},
		{"a seed the shoot may not use", []Placement{place("s1", "tainted"), place("s2", "a-new"), place("s3", "a-new")}, map[string]int{"a": 1}, nil,
			"shoot garden-dev/s1 → seed tainted: violates predicate"},
		{"unplaceable though a new seed would take it", right[:2], map[string]int{"a": 1}, []string{"garden-dev/s3"},
			"shoot garden-dev/s3: called unplaceable, but seed a-new would take it"},
		{"unplaceable though an existing seed with room left would take it, the first such seed named", []Placement{place("s2", "a-new"), place("s3", "a-new")},
			map[string]int{"a": 1}, []string{"garden-dev/s1"}, "shoot garden-dev/s1: called unplaceable, but seed a would take it"},
		{"a bound shoot", append(slices.Clone(right), place("on-a", "a-new")), map[string]int{"a": 1}, nil, "shoot garden-dev/on-a: not pending"},
		{"a seed not in the landscape", []Placement{place("s1", "nowhere"), place("s2", "a-new"), place("s3", "a-new")}, map[string]int{"a": 1}, nil,
			"shoot garden-dev/s1 → seed nowhere: not in the landscape"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := VerifyCapacity(q, tc.placements, tc.newSeeds, tc.unplaceable)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused a right answer: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// A seed already one shoot above its target has no room, though its room then reads −1: the checker must not
// take that for a seed without a limit and refuse a right answer.
func TestVerifyCapacityOneAboveTarget(t *testing.T) {
	seeds := []*gardencorev1beta1.Seed{testSeed("tiny", allocatable(1))} // target 0.5: limit 0, so no template
	shoots := []*gardencorev1beta1.Shoot{testShoot("on-tiny", boundTo("tiny")), testShoot("s")}
	q, err := NewCapacityPlanning(testLandscape(seeds, shoots), Options{}, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyCapacity(q, nil, map[string]int{}, []string{"garden-dev/s"}); err != nil {
		t.Fatalf("refused a right answer: %v", err)
	}
}
