// Package architecture holds the test that keeps seedplan's layers apart: data flows ingest → model → plan
// (solver) → report | bind, and no package reaches back.
package architecture

import (
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
