package metrics_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/yaml"

	"github.com/seedplan/seedplan/metrics"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

const (
	rulesFile     = "../examples/deploy/prometheusrule.yaml"
	dashboardFile = "../examples/deploy/dashboard.json"
)

// promtool is Debian's promtool: $SEEDPLAN_PROMTOOL, or what hack/promtool.sh provides (idempotent).
func promtool(t *testing.T) string {
	t.Helper()
	if path := os.Getenv("SEEDPLAN_PROMTOOL"); path != "" {
		return path
	}
	out, err := exec.Command("../hack/promtool.sh").Output()
	if err != nil {
		t.Fatalf("hack/promtool.sh: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// ruleGroups writes the groups of the shipped PrometheusRule as a plain Prometheus rule file and returns its path.
func ruleGroups(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	var rule struct {
		Kind string
		Spec struct {
			Groups []any `json:"groups"`
		}
	}
	if err := yaml.Unmarshal(data, &rule); err != nil {
		t.Fatal(err)
	}
	if rule.Kind != "PrometheusRule" || len(rule.Spec.Groups) == 0 {
		t.Fatalf("%s holds %s with %d groups, want a PrometheusRule with groups", rulesFile, rule.Kind, len(rule.Spec.Groups))
	}
	out, err := yaml.Marshal(map[string]any{"groups": rule.Spec.Groups})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "seedplan-rules.yaml")
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The shipped alert rules pass `promtool check rules`, and `promtool test rules` shows the main ones fire when
// they should and stay quiet when they should not (metrics/testdata/alerts.test.yaml).
func TestAlertRulesPassPromtool(t *testing.T) {
	tool := promtool(t)
	rules := ruleGroups(t)
	if out, err := exec.Command(tool, "check", "rules", rules).CombinedOutput(); err != nil {
		t.Fatalf("promtool check rules: %v\n%s", err, out)
	}
	tests, err := os.ReadFile("testdata/alerts.test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	testFile := filepath.Join(filepath.Dir(rules), "alerts.test.yaml")
	if err := os.WriteFile(testFile, tests, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, "test", "rules", testFile)
	cmd.Dir = filepath.Dir(rules)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("promtool test rules: %v\n%s", err, out)
	}
}

// exported is every metric name seedplan exports: the run loop's, the schedule job's and both answers', with
// a histogram's _bucket, _sum and _count series.
func exported(t *testing.T) map[string]bool {
	t.Helper()
	loop := metrics.NewMetrics(true)
	allocatable := int64(10)
	loop.ObserveWindow(&report.Report{
		Window:        report.WindowReport{Solver: "lp", Fallback: "timeout"},
		Unschedulable: []model.Unschedulable{{Shoot: "garden-dev/a", Reason: "Capacity"}},
		Seeds:         []report.SeedReport{{Name: "s", Provider: "aws", Region: "eu-west-1", Allocatable: &allocatable, Usage: 9}},
	})
	loop.ObserveBindings(nil, 0.1)
	loop.ObserveScheduled(time.Second)
	loop.SetPending(1)
	loop.SetLeader(true)
	registries := []*prometheus.Registry{loop.Registry,
		metrics.CapacityAnswer(&report.CapacityReport{
			Regions:         []report.RegionCapacity{{Provider: "aws", Region: "eu-west-1", Template: "s", NewSeeds: 1}},
			ManagedSeedSets: []report.SetCapacity{{Namespace: "garden", Name: "set", Add: 1}},
		}).Registry,
		metrics.RebalanceAnswer(&report.RebalanceReport{Moves: []model.Move{{Reason: model.LeaveOverloaded}}, Fallback: "range"}).Registry,
	}
	names := map[string]bool{}
	for _, r := range registries {
		families, err := r.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range families {
			names[f.GetName()] = true
			if f.GetType().String() == "HISTOGRAM" {
				for _, suffix := range []string{"_bucket", "_sum", "_count"} {
					names[f.GetName()+suffix] = true
				}
			}
		}
	}
	return names
}

// Every query of the shipped dashboard and alert rules names only metrics seedplan exports, and every panel has
// a query.
func TestDeployQueriesNameOnlyExportedMetrics(t *testing.T) {
	names := exported(t)
	var dashboard struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	data, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &dashboard); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	queries := map[string][]string{} // where → expressions
	for _, p := range dashboard.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("dashboard panel %q has no query", p.Title)
		}
		for _, target := range p.Targets {
			queries["dashboard panel "+p.Title] = append(queries["dashboard panel "+p.Title], target.Expr)
		}
	}
	rules, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	queries["alert rules"] = append(queries["alert rules"], strings.Split(string(rules), "\n")...)
	metric := regexp.MustCompile(`seedplan_[a-z_]+`)
	used := 0
	for where, exprs := range queries {
		for _, expr := range exprs {
			for _, name := range metric.FindAllString(expr, -1) {
				if !names[name] {
					t.Errorf("%s queries %s, which seedplan does not export", where, name)
				}
				used++
			}
		}
	}
	if used < 20 {
		t.Fatalf("only %d metric references found: the test reads nothing", used)
	}
}
