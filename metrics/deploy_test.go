package metrics_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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

// exported is every metric name seedplan exports: the run loop's, a shadow's, the schedule job's and both answers',
// with a histogram's _bucket, _sum and _count series.
func exported(t *testing.T) map[string]bool {
	t.Helper()
	loop := metrics.NewMetrics(true)
	allocatable := int64(10)
	loop.ObserveWindow(&report.Report{
		Window:        report.WindowReport{Solver: "lp", Fallback: "timeout"},
		Unschedulable: []model.Unschedulable{{Shoot: "garden-dev/a", Reason: "Capacity"}},
		Seeds:         []report.SeedReport{{Name: "s", Provider: "aws", Region: "eu-west-1", Allocatable: &allocatable, Usage: 9}},
	}, []string{"seed s: status.allocatable.shoots is 2500m, …"})
	loop.ObserveBindings(nil, 0.1)
	loop.ObserveScheduled(time.Second)
	loop.SetPending(1)
	loop.SetLeader(true)
	registries := []*prometheus.Registry{loop.Registry, metrics.NewShadowMetrics().Registry,
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
	queries := map[string][]string{} // where → expressions
	for _, p := range dashboardPanels(t) {
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

// The dashboard's ratios, as promtool evaluates their queries on the series seedplan exports. "Utilization by
// region" is the shoots over the allocatable shoots of the region's seeds that have an allocatable: a seed without
// one (it takes any number, and exports no allocatable) adds its shoots to neither side, and a region whose seeds
// allocate none has no utilization, as a seed allocating none has no seedplan_seed_utilization_ratio. "Window size"
// is the mean shoots per window, and nothing while no window was planned: a ratio shows no number where it has
// none, never NaN or +Inf.
func TestDashboardRatios(t *testing.T) {
	for _, tc := range []struct {
		name   string
		panel  string
		series string // promtool's input_series, at one-minute steps
		want   string // promtool's exp_samples; empty: no sample
	}{
		{"a region's seeds with and without allocatable", "Utilization by region", `
  - {series: 'seedplan_seed_shoots{seed="a",provider="aws",region="eu-west-1"}', values: '5x10'}
  - {series: 'seedplan_seed_allocatable_shoots{seed="a",provider="aws",region="eu-west-1"}', values: '10x10'}
  - {series: 'seedplan_seed_shoots{seed="b",provider="aws",region="eu-west-1"}', values: '3x10'}
  - {series: 'seedplan_seed_allocatable_shoots{seed="b",provider="aws",region="eu-west-1"}', values: '10x10'}
  - {series: 'seedplan_seed_shoots{seed="unlimited",provider="aws",region="eu-west-1"}', values: '40x10'}`, `
    - {labels: '{provider="aws",region="eu-west-1"}', value: 0.4}`},
		{"a region whose seeds allocate no shoots", "Utilization by region", `
  - {series: 'seedplan_seed_shoots{seed="a",provider="aws",region="eu-west-1"}', values: '5x10'}
  - {series: 'seedplan_seed_allocatable_shoots{seed="a",provider="aws",region="eu-west-1"}', values: '10x10'}
  - {series: 'seedplan_seed_shoots{seed="full",provider="aws",region="us-east-1"}', values: '4x10'}
  - {series: 'seedplan_seed_allocatable_shoots{seed="full",provider="aws",region="us-east-1"}', values: '0x10'}`, `
    - {labels: '{provider="aws",region="eu-west-1"}', value: 0.5}`},
		{"windows planned", "Window size", `
  - {series: 'seedplan_window_shoots_sum', values: '0+30x10'}
  - {series: 'seedplan_window_shoots_count', values: '0+3x10'}`, `
    - {labels: '{}', value: 10}`},
		{"no window planned", "Window size", `
  - {series: 'seedplan_window_shoots_sum', values: '30x10'}
  - {series: 'seedplan_window_shoots_count', values: '3x10'}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expr := dashboardQuery(t, tc.panel)
			want := " []"
			if tc.want != "" {
				want = tc.want
			}
			test := fmt.Sprintf("rule_files: []\ntests:\n- interval: 1m\n  input_series:%s\n  promql_expr_test:\n  - expr: %q\n    eval_time: 10m\n    exp_samples:%s\n",
				tc.series, expr, want)
			file := filepath.Join(t.TempDir(), "dashboard.test.yaml")
			if err := os.WriteFile(file, []byte(test), 0o600); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(promtool(t), "test", "rules", file).CombinedOutput(); err != nil {
				t.Fatalf("promtool test rules of %s's %q: %v\n%s", tc.panel, expr, err, out)
			}
		})
	}
}

// dashboardQuery is the query of the shipped dashboard's panel of that title (its first).
func dashboardQuery(t *testing.T, title string) string {
	t.Helper()
	for _, p := range dashboardPanels(t) {
		if p.Title == title && len(p.Targets) > 0 {
			return p.Targets[0].Expr
		}
	}
	t.Fatalf("%s: no panel %q with a query", dashboardFile, title)
	return ""
}

// panel is a panel of the shipped dashboard: its title and queries.
type panel struct {
	Title   string
	Targets []struct{ Expr string }
}

// dashboardPanels are the shipped dashboard's panels.
func dashboardPanels(t *testing.T) []panel {
	t.Helper()
	var dashboard struct{ Panels []panel }
	data, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &dashboard); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	return dashboard.Panels
}

// The PodMonitor scrapes the run loop: it selects the Deployment's pods in their namespace, on the port the
// container names, at the path the loop serves.
func TestPodMonitorScrapesTheRunLoop(t *testing.T) {
	type selector struct {
		MatchLabels map[string]string `json:"matchLabels"`
	}
	var monitor struct {
		Kind     string
		Metadata struct{ Namespace string }
		Spec     struct {
			Selector  selector
			Endpoints []struct{ Port, Path string } `json:"podMetricsEndpoints"`
		}
	}
	var deployment struct {
		Kind     string
		Metadata struct{ Namespace string }
		Spec     struct {
			Template struct {
				Metadata struct{ Labels map[string]string }
				Spec     struct {
					Containers []struct {
						Args  []string
						Ports []struct{ Name string }
					}
				}
			}
		}
	}
	readFirst(t, "../examples/deploy/podmonitor.yaml", &monitor)
	readFirst(t, "../examples/deploy/deployment.yaml", &deployment)
	if monitor.Kind != "PodMonitor" || deployment.Kind != "Deployment" {
		t.Fatalf("read a %s and a %s, want a PodMonitor and a Deployment", monitor.Kind, deployment.Kind)
	}
	if monitor.Metadata.Namespace != deployment.Metadata.Namespace {
		t.Errorf("the PodMonitor is in %q, the Deployment in %q", monitor.Metadata.Namespace, deployment.Metadata.Namespace)
	}
	pod := deployment.Spec.Template
	if len(monitor.Spec.Selector.MatchLabels) == 0 {
		t.Error("the PodMonitor selects every pod of its namespace")
	}
	for key, value := range monitor.Spec.Selector.MatchLabels {
		if pod.Metadata.Labels[key] != value {
			t.Errorf("the PodMonitor selects %s=%s, which the Deployment's pods are not labelled", key, value)
		}
	}
	if len(monitor.Spec.Endpoints) != 1 || len(pod.Spec.Containers) != 1 {
		t.Fatalf("%d endpoints for %d containers, want one each", len(monitor.Spec.Endpoints), len(pod.Spec.Containers))
	}
	endpoint, container := monitor.Spec.Endpoints[0], pod.Spec.Containers[0]
	if !slices.ContainsFunc(container.Ports, func(p struct{ Name string }) bool { return p.Name == endpoint.Port }) {
		t.Errorf("the PodMonitor scrapes port %q, which the container does not name", endpoint.Port)
	}
	if endpoint.Path != "/metrics" || len(container.Args) == 0 || container.Args[0] != "run" {
		t.Errorf("the PodMonitor scrapes %s of a container running %v, want /metrics of seedplan run", endpoint.Path, container.Args)
	}
}

// readFirst decodes the first document of a manifest file into v.
func readFirst(t *testing.T, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(data), "\n---\n")
	if err := yaml.Unmarshal([]byte(first), v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}
