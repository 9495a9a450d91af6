package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

func TestParseDefaultsAndOverrides(t *testing.T) {
	c, err := parse([]byte(`
apiVersion: seedplan.gardener.cloud/v1alpha1
kind: SeedPlanConfiguration
schedulerName: seedplan
strategy: MinimalDistance
solver:
  timeout: 500ms
window:
  maxShoots: 50
clientConnection:
  qps: 20
leaderElection:
  leaderElect: false
`))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		field     string
		got, want any
	}{
		{"schedulerName", c.SchedulerName, "seedplan"},
		{"strategy", c.Strategy, "MinimalDistance"},
		{"solver.name (default)", c.Solver.Name, "lp"},
		{"solver.timeout", c.Solver.Timeout.Duration, 500 * time.Millisecond},
		{"placement.weights.preset (default: region first)", c.Placement.Weights.Preset, "compat"},
		{"placement.targetUtilization (default)", c.Placement.TargetUtilization, 0.8},
		{"placement.priority.purposes (default)", strings.Join(c.Placement.Priority.Purposes, ","), "infrastructure,production,development,evaluation,testing"},
		{"window.maxShoots", c.Window.MaxShoots, 50},
		{"window.maxWait (default: windows closed by work)", c.Window.MaxWait.Duration, time.Duration(0)},
		{"clientConnection.qps", c.Client.QPS, float32(20)},
		{"clientConnection.burst (default)", c.Client.Burst, 400},
		{"leaderElection.leaderElect", *c.LeaderElection.LeaderElect, false},
		{"leaderElection.resourceName (default)", c.LeaderElection.ResourceName, "seedplan-leader-election"},
	}
	for _, check := range checks {
		if check.got != check.want {
			t.Errorf("%s = %v, want %v", check.field, check.got, check.want)
		}
	}
}

func TestParseEmptyIsDefault(t *testing.T) {
	c, err := parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.SchedulerName != "default-scheduler" || !*c.LeaderElection.LeaderElect || c.Bind.Concurrency != 16 {
		t.Fatalf("defaults not applied: %+v", c)
	}
}

// Documents of comments alone, before and after the configuration (a separator and a note kept at the end), hold
// nothing: the configuration is the file's one document.
func TestParseSkipsDocumentsOfCommentsAlone(t *testing.T) {
	for _, data := range []string{
		"# seedplan\n---\n" + header + "schedulerName: a\n---\n# the end\n",
		header + "schedulerName: a\n---\n",
		"---\n# seedplan\n---\n" + header + "schedulerName: a\n",
	} {
		c, err := parse([]byte(data))
		if err != nil || c.SchedulerName != "a" {
			t.Fatalf("%q: %v, %+v", data, err, c)
		}
	}
}

// laughs is a 1 KB document of anchors, each aliasing the one before ten times: 10^7 "lol"s.
var laughs = func() string {
	b := "l0: &l0 [lol]\n"
	for level := 1; level <= 7; level++ {
		b += fmt.Sprintf("l%d: &l%d [%s]\n", level, level, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", level-1), 10), ", "))
	}
	return b
}()

// header starts every configuration file.
const header = "apiVersion: seedplan.gardener.cloud/v1alpha1\nkind: SeedPlanConfiguration\n"

// refusedConfigurations is one case of every kind of bad configuration file, each with what its error must say;
// FuzzParse starts from them.
var refusedConfigurations = []struct {
	name, yaml, want string
}{
	{"unknown field", header + "strategi: SameRegion\n", `unknown field "strategi"`},
	{"unknown nested field", header + "window:\n  maxShots: 3\n", `unknown field "window.maxShots"`},
	{"wrong type", header + "window:\n  maxShoots: many\n", "window.maxShoots"},
	{"wrong kind", "apiVersion: v1\nkind: Seed\n", `apiVersion/kind: "v1"/"Seed", want seedplan.gardener.cloud/v1alpha1/SeedPlanConfiguration`},
	{"the ConfigMap that holds it", "apiVersion: v1\nkind: ConfigMap\ndata:\n  config.yaml: |\n    strategy: SameRegion\n",
		"a ConfigMap is not the configuration; the one in examples/deploy holds it under its key config.yaml, which the Deployment mounts as a file: give --config that text"},
	{"JSON cut short", `{"apiVersion": "seedplan.gardener.cloud/v1alpha1", "kind": "SeedPlanConfiguration", "strategy": "Same`,
		"not valid JSON: line 1, column 102: the document ends before its JSON value does"},
	{"broken YAML", header + "window: {maxShoots: 3\n", "not valid YAML or JSON: yaml: "},
	{"a terminal's colours pasted in", header + "strategy: \x1b[1mSameRegion\n", "not valid YAML or JSON: yaml: control characters are not allowed (line 3, column 11: U+001B)"},
	{"a scheduler name no shoot can carry", header + "schedulerName: Seed_Plan\n", "schedulerName: Seed_Plan: a lowercase RFC 1123 label must consist of"},
	{"bad strategy", header + "strategy: Nearest\n", "strategy: Nearest"},
	{"bad solver", header + "solver:\n  name: simplex\n", "solver.name: simplex"},
	{"bad weights", header + "placement:\n  weights: {preset: heavy}\n", "placement.weights.preset: heavy"},
	{"a negative weight", header + "placement:\n  weights: {distance: -1}\n", "placement.weights.distance: -1: must be a number from 0 to 1000000"},
	{"a weight that overflows the LP's costs", header + "placement:\n  weights: {utilization: 1e308}\n", "placement.weights.utilization: 1e+308: must be a number from 0 to 1000000"},
	{"a target above 1", header + "placement:\n  targetUtilization: 1.5\n", "placement.targetUtilization: 1.5: must be in (0, 1]"},
	{"a lease namespace Kubernetes refuses", header + "leaderElection:\n  resourceNamespace: Garden_Ops\n",
		"leaderElection.resourceNamespace: Garden_Ops: a lowercase RFC 1123 label must consist of"},
	{"a lease name Kubernetes refuses", header + "leaderElection:\n  resourceName: seedplan/leader\n", "leaderElection.resourceName: seedplan/leader: a lowercase RFC 1123 subdomain"},
	{"a purpose Gardener does not have", header + "placement:\n  priority: {purposes: [prod, infrastructure]}\n",
		"placement.priority.purposes: prod: must be one of infrastructure, production, development, evaluation, testing"},
	{"a purpose twice", header + "placement:\n  priority: {purposes: [production, production]}\n", "placement.priority.purposes: production: listed twice"},
	{"a trigger twice", header + "rebalance:\n  triggers: [overloaded, overloaded]\n", "rebalance.triggers: overloaded: listed twice"},
	{"bad duration", header + "solver:\n  timeout: soon\n", `solver.timeout: time: invalid duration "soon"`},
	{"a duration as a number", header + "window:\n  maxWait: 5\n", `window.maxWait: must be a duration such as "1m30s", not a number`},
	{"two bad durations", header + "rebalance:\n  unusableGrace: \"-\"\n  pacing: {timeout: soon}\n", `rebalance.pacing.timeout: time: invalid duration "soon"`},
	{"a purpose that is no word", header + "placement:\n  priority: {purposes: [production, 5]}\n", "placement.priority.purposes[1]: must be a string, not a number"},
	{"negative timeout", header + "solver:\n  timeout: -1s\n", "solver.timeout: -1s: must be positive"},
	{"negative window", header + "window:\n  maxShoots: -5\n", "window.maxShoots: -5"},
	{"negative coalescing delay", header + "window:\n  maxWait: -1s\n", "window.maxWait: -1s: must not be negative"},
	{"lease order", header + "leaderElection:\n  leaseDuration: 5s\n", "leaderElection.leaseDuration: 5s: must be greater than renewDeadline"},
	{"log level", header + "logLevel: loud\n", "logLevel: loud"},
	{"negative qps", header + "clientConnection:\n  qps: -1\n", "clientConnection.qps: -1: must not be negative"},
	{"a bind address without a port", header + "server:\n  bindAddress: localhost\n", "server.bindAddress: localhost: must be host:port"},
	{"a port beyond 65535", header + "server:\n  bindAddress: \":70000\"\n", "server.bindAddress: :70000: must be host:port"},
	{"a pushgateway that is no URL", header + "metrics:\n  pushgateway: \"not a url\"\n", "metrics.pushgateway: not a url: must be a Pushgateway's http(s) URL or host:port"},
	{"a pushgateway of another scheme", header + "metrics:\n  pushgateway: ftp://gateway:9091\n", "metrics.pushgateway: ftp://gateway:9091"},
	{"negative burst", header + "clientConnection:\n  burst: -1\n", "clientConnection.burst: -1: must not be negative"},
	{"a negative move distance", header + "rebalance:\n  maxMoveDistance: -3\n", "rebalance.maxMoveDistance: -3: must not be negative"},
	{"no migration off a seed", header + "rebalance:\n  pacing: {maxPerSeed: -1}\n", "rebalance.pacing.maxPerSeed: -1: must be at least 1"},
	{"negative request timeout", header + "clientConnection:\n  requestTimeout: -1s\n", "clientConnection.requestTimeout: -1s: must not be negative"},
	{"aliases beyond the input budget", header + laughs, "beyond the input budget: its aliases expand it"},
	{"a second document", header + "schedulerName: a\n---\n" + header + "schedulerName: b\n", "document 2: a configuration file holds one document"},
	{"a duplicate key", header + "window:\n  maxShoots: 5\n  maxShoots: 6\n", "window.maxShoots: duplicate key"},
	{"a landscape given as the configuration", "apiVersion: core.gardener.cloud/v1beta1\nkind: Seed\nmetadata: {name: a}\n",
		`apiVersion/kind: "core.gardener.cloud/v1beta1"/"Seed", want seedplan.gardener.cloud/v1alpha1/SeedPlanConfiguration`},
	{"nesting beyond the input budget", header + "schedulerName: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n",
		"beyond the input budget: collections nest more than 100 deep"},
}

// Every value of a configuration that does not decode is reported at once, each named by its path, as every
// invalid value is: an operator mends them in one go. A list's item taken out leaves the others' indices as they
// are; the unknown fields of the rest follow.
func TestDecodeReportsEveryValueThatDoesNotDecode(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string
	}{
		{"two durations", header + "rebalance:\n  unusableGrace: \"-\"\n  pacing: {timeout: soon}\n",
			[]string{`rebalance.pacing.timeout: time: invalid duration "soon"`, `rebalance.unusableGrace: time: invalid duration "-"`}},
		{"two items of a list", header + "placement:\n  priority: {purposes: [production, 5, 6]}\n",
			[]string{"placement.priority.purposes[1]: must be a string, not a number", "placement.priority.purposes[2]: must be a string, not a number"}},
		{"values of several sections, then an unknown field", header + "window: {maxShoots: ten}\nsolver: {timeout: 5}\nbogus: 1\n",
			[]string{`solver.timeout: must be a duration such as "1m30s", not a number`, "window.maxShoots: must be a whole number", `unknown field "bogus"`}},
		{"one", header + "window: {maxWait: 5}\n", []string{`window.maxWait: must be a duration such as "1m30s", not a number`}},
		// Each refusal costs up to maxFieldSearch decodes: a document no one writes by hand gets the first only.
		{"a document larger than any written by hand", header + "placement:\n  priority: {purposes: [" + strings.Repeat("5, ", refusalsBytes/2) + "5]}\n",
			[]string{"placement.priority.purposes[0]: must be a string, not a number"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse([]byte(tc.yaml))
			errs := Each(err)
			if len(errs) != len(tc.want) {
				t.Fatalf("errors:\n%v\nwant %d", err, len(tc.want))
			}
			for i, want := range tc.want {
				if !strings.HasPrefix(errs[i].Error(), want) {
					t.Errorf("error %d: %q, want %q", i+1, errs[i], want)
				}
			}
		})
	}
}

// Every bad configuration is refused with the field's path in the error.
func TestParseRefuses(t *testing.T) {
	for _, tc := range refusedConfigurations {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse([]byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// The addresses operators write are accepted: a port alone or with a host, and a Pushgateway as a URL or as
// host:port, as the Prometheus push client reads it.
func TestValidateAcceptsAddresses(t *testing.T) {
	for _, tc := range []struct{ bindAddress, pushgateway string }{
		{":19251", ""},
		{"127.0.0.1:0", "localhost:9091"},
		{"[::1]:8080", "http://pushgateway.monitoring:9091/"},
		{"0.0.0.0:19251", "https://pushgateway.example.com"},
	} {
		c := Default()
		c.Server.BindAddress, c.Metrics.Pushgateway = tc.bindAddress, tc.pushgateway
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v", tc, err)
		}
	}
}

// Validation reports every invalid field, each as a *FieldError, not only the first it finds.
func TestValidateReportsEveryField(t *testing.T) {
	c := Default()
	c.Strategy, c.Window.MaxShoots, c.Rebalance.Pacing.Poll.Duration, c.LogFormat = "Nearest", 0, 0, "xml"
	err := c.Validate()
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		t.Fatalf("error %v is not a joined list", err)
	}
	var fields []string
	for _, e := range joined.Unwrap() {
		var fe *FieldError
		if !errors.As(e, &fe) {
			t.Fatalf("%v is not a *FieldError", e)
		}
		fields = append(fields, fe.Field)
	}
	if want := []string{"strategy", "rebalance.pacing.poll", "window.maxShoots", "logFormat"}; !slices.Equal(fields, want) {
		t.Fatalf("fields %v, want %v", fields, want)
	}
}

func TestReadNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("kind: SeedPlanConfiguration\napiVersion: seedplan.gardener.cloud/v1alpha1\nbogus: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "bogus") {
		t.Fatalf("error %v, want one naming %s and the field", err, path)
	}
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, make([]byte, MaxFileSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(big); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("error %v, want a size limit error", err)
	}
	pipe := filepath.Join(t.TempDir(), "pipe.yaml")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(pipe); err == nil || !strings.Contains(err.Error(), pipe+": not a regular file") {
		t.Fatalf("error %v, want a named pipe refused by name", err)
	}
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	if _, err := Read(missing); !errors.Is(err, fs.ErrNotExist) || strings.Count(err.Error(), missing) != 1 {
		t.Fatalf("error %v, want one naming %s once, that is fs.ErrNotExist", err, missing)
	}
	// A file mounted empty is no configuration: with the defaults, seedplan would schedule as default-scheduler.
	for _, data := range []string{"", "\n  \n"} {
		empty := filepath.Join(t.TempDir(), "empty.yaml")
		if err := os.WriteFile(empty, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(empty); err == nil || err.Error() != "configuration "+empty+": empty; it must hold a SeedPlanConfiguration (leave out --config for the defaults)" {
			t.Fatalf("%q: error %v, want the empty file refused by name", data, err)
		}
	}
}

// Every file seedplan reads is refused in the same words when it is no regular file or too large, naming what it
// is instead.
func TestCheckRegularFileSaysWhatTheFileIs(t *testing.T) {
	dir := t.TempDir()
	pipe, small := filepath.Join(dir, "pipe"), filepath.Join(dir, "small.yaml")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(small, make([]byte, 3000), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path  string
		limit int64
		want  string
	}{
		{small, 3000, ""},
		{small, 2048, small + ": 3000 bytes, more than the limit of 2048 (2 KiB)"},
		{small, 2 << 20, ""},
		{small, 2000, small + ": 3000 bytes, more than the limit of 2000 (2000 bytes)"},
		{dir, 1 << 20, dir + ": not a regular file but a directory; refusing to read it"},
		{pipe, 1 << 20, pipe + ": not a regular file but a named pipe (FIFO); refusing to read it"},
		{"/dev/null", 1 << 20, "/dev/null: not a regular file but a character device; refusing to read it"},
	} {
		err := CheckRegularFile(tc.path, tc.limit)
		if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
			t.Errorf("%s within %d bytes: %v, want %q", tc.path, tc.limit, err, tc.want)
		}
	}
}

// FuzzParse: any input is either a valid configuration or an error, never a panic; a valid one validates.
func FuzzParse(f *testing.F) {
	f.Add([]byte("apiVersion: seedplan.gardener.cloud/v1alpha1\nkind: SeedPlanConfiguration\nwindow:\n  maxShoots: 3\n"))
	f.Add([]byte("{\"apiVersion\":\"seedplan.gardener.cloud/v1alpha1\",\"kind\":\"SeedPlanConfiguration\",\"solver\":{\"timeout\":\"1s\"}}"))
	f.Add([]byte("kind: [\n"))
	for _, tc := range refusedConfigurations {
		f.Add([]byte(tc.yaml))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parse(data)
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("parse returned an invalid configuration: %v", err)
		}
	})
}

// The logger follows logLevel and logFormat.
func TestLogger(t *testing.T) {
	cases := []struct {
		level, format      string
		wantInfo, wantWarn bool
		wantPrefix         string
	}{
		{"info", "text", true, true, "time="},
		{"info", "json", true, true, "{"},
		{"warn", "text", false, true, "time="},
		{"error", "json", false, false, "{"},
		{"debug", "text", true, true, "time="},
	}
	for _, tc := range cases {
		c := Default()
		c.LogLevel, c.LogFormat = tc.level, tc.format
		if err := c.Validate(); err != nil {
			t.Fatalf("%s/%s: %v", tc.level, tc.format, err)
		}
		for _, record := range []struct {
			level slog.Level
			want  bool
		}{{slog.LevelInfo, tc.wantInfo}, {slog.LevelWarn, tc.wantWarn}} {
			var out strings.Builder
			c.Logger(&out).Log(context.Background(), record.level, "window planned", "shoots", 3)
			if got := out.String(); record.want != (got != "") || record.want && !strings.HasPrefix(got, tc.wantPrefix) {
				t.Errorf("%s/%s: a record of level %s logged %q", tc.level, tc.format, record.level, got)
			}
		}
	}
}

// The configuration shipped with the deploy manifests is valid and says what it means to.
func TestDeployConfigurationParses(t *testing.T) {
	data, err := os.ReadFile("../examples/deploy/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cm corev1.ConfigMap
	if err := yaml.UnmarshalStrict(data, &cm); err != nil {
		t.Fatal(err)
	}
	c, err := parse([]byte(cm.Data["config.yaml"]))
	if err != nil {
		t.Fatal(err)
	}
	if c.SchedulerName != "seedplan" || c.Placement.TargetUtilization != 0.8 || c.Placement.Weights.Preset != WeightsCompat {
		t.Fatalf("unexpected configuration: %+v", c)
	}
}

// Read decodes and defaults a file without validating it, for a caller whose flags set fields first; what does
// not decode is refused. (That the command words what is left invalid by the file is cmd/seedplan's test.)
func TestReadLeavesValidationToTheCaller(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("apiVersion: seedplan.gardener.cloud/v1alpha1\nkind: SeedPlanConfiguration\n"+body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	invalid := write("invalid.yaml", "strategy: Nearest\n")
	c, err := Read(invalid)
	if err != nil || c.Strategy != "Nearest" || c.Window.MaxShoots == 0 {
		t.Fatalf("Read: %+v, %v; want the invalid strategy as written, the rest defaulted", c, err)
	}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "strategy: Nearest") {
		t.Fatalf("Validate: %v, want the invalid strategy refused", err)
	}
	if _, err := Read(write("unknown.yaml", "bogus: 1\n")); err == nil || !strings.Contains(err.Error(), `unknown field "bogus"`) {
		t.Fatalf("Read of an unknown field: %v", err)
	}
}

// parse decodes and validates a configuration, as a command does with its file once its flags are set.
func parse(data []byte) (*SeedPlanConfiguration, error) {
	c, err := Decode(data)
	if err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}
