package solver

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/seedplan/seedplan/internal/testobjects"
	"github.com/seedplan/seedplan/model"
)

// A fractional CLP value is never returned as is: it is rounded down and the shoots it leaves are placed where
// room is left; the plan is then marked not integral.
func TestAssembleRepairsFractionalSolutions(t *testing.T) {
	snap, err := model.NewSnapshot(model.Objects{
		Seeds:         []*gardencorev1beta1.Seed{testobjects.Seed("a", testobjects.Allocatable(1)), testobjects.Seed("b", testobjects.Allocatable(1))},
		Shoots:        []*gardencorev1beta1.Shoot{testobjects.Shoot("s1"), testobjects.Shoot("s2")},
		CloudProfiles: []*gardencorev1beta1.CloudProfile{testobjects.CloudProfile()},
		Projects:      []*gardencorev1beta1.Project{testobjects.Project()},
	})
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWindow(snap, model.Options{}, snap.Pending("default-scheduler"))
	if err != nil {
		t.Fatal(err)
	}
	classes := windowClasses(w)
	components := splitComponents(classes, len(snap.Seeds))
	if len(classes) != 1 || len(components) != 1 || len(classes[0].arcs) != 2 {
		t.Fatalf("want one class of two shoots with two arcs in one component, got %d classes, %d components", len(classes), len(components))
	}
	plan, integral := assemble(newDecider(w), classes, components, []componentResult{{counts: [][]float64{{1.5, 0.5}}, optimal: true}})
	if integral {
		t.Fatal("fractional values must mark the plan not integral")
	}
	if err := model.Verify(snap, w.Options, plan); err != nil {
		t.Fatal(err)
	}
	if len(plan.Placements) != 2 {
		t.Fatalf("repair should place both shoots, got %+v", plan)
	}
}

// Shoots that share no seed form separate parts, solved independently.
func TestSplitComponents(t *testing.T) {
	classes := []class{
		{arcs: []model.Arc{{Seed: 0}, {Seed: 1}}},
		{arcs: []model.Arc{{Seed: 2}}},
		{arcs: []model.Arc{{Seed: 1}}},
		{},
	}
	components := splitComponents(classes, 4)
	if len(components) != 2 {
		t.Fatalf("want 2 components, got %+v", components)
	}
	if got := components[0]; len(got.classes) != 2 || got.classes[1] != 2 || len(got.seeds) != 2 {
		t.Fatalf("first component %+v, want classes [0 2] and seeds [0 1]", got)
	}
	if got := components[1]; len(got.classes) != 1 || got.seeds[0] != 2 {
		t.Fatalf("second component %+v, want class 1 on seed 2", got)
	}
}
