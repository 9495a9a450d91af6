// Package architecture holds the tests of how seedplan is put together: its layers apart — data flows ingest →
// model → plan (solver) → report | bind, and no package reaches back — and its modules at Gardener's versions.
package architecture

import (
	"encoding/json"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/seedplan/seedplan/"

// list runs go list with the template on the packages of this module below pkg, tests excluded.
func list(t *testing.T, template, pkg string, deps bool) []string {
	t.Helper()
	args := []string{"list", "-f", template}
	if deps {
		args = append(args, "-deps")
	}
	out, err := exec.Command("go", append(args, module+pkg)...).Output()
	if err != nil {
		t.Fatalf("go %s: %v", strings.Join(args, " "), err)
	}
	return strings.Fields(string(out))
}

// The arrows that must never exist, by the package they start from: what each package and its subpackages import.
func TestForbiddenArrows(t *testing.T) {
	for _, tc := range []struct {
		from      string
		forbidden []string
	}{
		{"model", []string{"solver", "plan", "report", "metrics", "bind", "config", "ingest", "cluster", "bench", "internal"}},
		{"solver", []string{"model", "ingest", "bind", "plan", "report", "metrics", "config", "cluster"}},
		{"bind", []string{"solver", "plan", "report", "metrics", "cluster"}},
		{"report", []string{"bind", "solver", "metrics", "cluster"}},
		{"ingest", []string{"solver", "plan", "report", "bind", "cluster"}},
		{"config", []string{"solver", "ingest", "plan", "report", "bind", "cluster"}},
		{"plan", []string{"ingest", "bind", "report", "metrics", "cluster"}},
	} {
		t.Run(tc.from, func(t *testing.T) {
			for _, dep := range list(t, `{{join .Imports " "}}`, tc.from+"/...", false) {
				rest, ours := strings.CutPrefix(dep, module)
				if !ours || rest == tc.from || strings.HasPrefix(rest, tc.from+"/") {
					continue
				}
				top, _, _ := strings.Cut(rest, "/")
				if slices.Contains(tc.forbidden, top) {
					t.Errorf("%s depends on %s", tc.from, rest)
				}
			}
		})
	}
}

// The solver is optimisation only: no Gardener API types, no Kubernetes.
func TestSolverKnowsNoKubernetes(t *testing.T) {
	for _, dep := range list(t, "{{.ImportPath}}", "solver", true) {
		if strings.HasPrefix(dep, "github.com/gardener/gardener/") || strings.HasPrefix(dep, "k8s.io/") || strings.HasPrefix(dep, "sigs.k8s.io/") {
			t.Errorf("solver depends on %s", dep)
		}
	}
}

// The modules seedplan and the conformance module (Gardener v1.150 itself) both require are required at one version:
// then their packages compile once for make test's vet, unit and conformance steps and for the gardener-apiserver
// and gardener-scheduler that hack/build-control-plane.sh builds, sharing the Go build cache. A module at another
// version compiles again with everything that imports it — hundreds of Kubernetes packages.
func TestModulesAtGardenersVersions(t *testing.T) {
	ours, conformance := requirements(t, "../../go.mod"), requirements(t, "../../test/conformance/go.mod")
	if len(ours) == 0 || len(conformance) == 0 {
		t.Fatalf("read %d and %d requirements", len(ours), len(conformance))
	}
	for _, path := range slices.Sorted(maps.Keys(ours)) {
		version := ours[path]
		if other, ok := conformance[path]; ok && other != version {
			t.Errorf("%s: %s here, %s in test/conformance/go.mod (go get %s@%s, if Gardener's is the newer)", path, version, other, path, other)
		}
	}
}

// requirements reads the modules a go.mod file requires, by path, as the go command reads them.
func requirements(t *testing.T, file string) map[string]string {
	t.Helper()
	out, err := exec.Command("go", "mod", "edit", "-json", file).Output()
	if err != nil {
		t.Fatalf("go mod edit -json %s: %v", file, err)
	}
	var mod struct {
		Require []struct{ Path, Version string }
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatalf("go mod edit -json %s: %v", file, err)
	}
	required := map[string]string{}
	for _, r := range mod.Require {
		required[r.Path] = r.Version
	}
	return required
}
