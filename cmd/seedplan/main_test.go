package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"sigs.k8s.io/yaml"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/internal/fixture"
)

// run executes the CLI with the given arguments and returns stdout and the error; stderr (the logs) goes to the
// test's log. The process-wide logger the command sets up is restored afterwards.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return runTo(t, newTestLog(t), args...)
}

// runLogged is run with what the command logged returned beside its output.
func runLogged(t *testing.T, args ...string) (out, logged string, err error) {
	t.Helper()
	var log bytes.Buffer
	out, err = runTo(t, &log, args...)
	t.Log(log.String())
	return out, log.String(), err
}

// runTo is run with standard error written to stderr.
func runTo(t *testing.T, stderr io.Writer, args ...string) (string, error) {
	t.Helper()
	return runReading(t, strings.NewReader(""), stderr, args...)
}

// runReading is runTo with stdin as the command's standard input.
func runReading(t *testing.T, stdin io.Reader, stderr io.Writer, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := execute(stdin, &out, stderr, args...)
	return out.String(), err
}

// execute runs seedplan with the arguments on the given standard streams, and leaves the process-wide logger the
// command sets as it found it.
func execute(stdin io.Reader, stdout, stderr io.Writer, args ...string) error {
	return executeContext(context.Background(), stdin, stdout, stderr, args...)
}

// executeContext is execute until ctx ends, as a signal ends main's.
func executeContext(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args ...string) error {
	defer fixture.RestoreLogging()()
	cmd := newRootCommand()
	cmd.SetIn(stdin)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SetArgs(args)
	return cmd.ExecuteContext(ctx)
}

// refusal is arguments a command must refuse, and what its error must say.
type refusal struct {
	args []string
	want string
}

// checkRefused runs command (its name and the arguments every case shares) with each refusal's arguments and
// checks that it fails with an error saying what the refusal wants.
func checkRefused(t *testing.T, command []string, refusals []refusal) {
	t.Helper()
	for _, r := range refusals {
		args := append(slices.Clone(command), r.args...)
		if _, err := run(t, args...); err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("%v: error %v, want %q", args, err, r.want)
		}
	}
}

// configurationFile writes a SeedPlanConfiguration of the given fields (YAML, after its apiVersion and kind) to a
// file of the test's and returns its path.
func configurationFile(t *testing.T, fields string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("apiVersion: seedplan.gardener.cloud/v1alpha1\nkind: SeedPlanConfiguration\n"+fields), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// runCombined is run with standard error in the output too: what a command says before it writes.
func runCombined(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := execute(strings.NewReader(""), &out, &out, args...)
	return out.String(), err
}

// testLog writes to the test's log while the test runs, and to standard error, naming the test, once it has
// ended: a command's goroutines may outlive the test that ran it — client-go's and controller-runtime's log through
// the process-wide logger a command sets — and a test's log panics when written after it ends. It is safe for
// concurrent use, as the process-wide logger needs.
type testLog struct {
	t     *testing.T
	mu    sync.Mutex
	ended bool
}

// newTestLog is a testLog for t.
func newTestLog(t *testing.T) *testLog {
	l := &testLog{t: t}
	t.Cleanup(func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.ended = true
	})
	return l
}

func (l *testLog) Write(p []byte) (int, error) {
	line := strings.TrimSuffix(string(p), "\n")
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		fmt.Fprintf(os.Stderr, "%s, after it ended: %s\n", l.t.Name(), line)
	} else {
		l.t.Log(line)
	}
	return len(p), nil
}

func keys(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	slices.Sort(k)
	return k
}

// The -o json output of schedule follows design.md's contract exactly.
func TestScheduleJSONContract(t *testing.T) {
	out, err := run(t, "schedule", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var report map[string]any
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"placements", "seeds", "unschedulable", "window"} {
		if _, ok := report[k]; !ok {
			t.Fatalf("missing top-level field %q (have %v)", k, keys(report))
		}
	}
	window := report["window"].(map[string]any)
	for field, kind := range map[string]string{
		"pending": "number", "seeds": "number", "strategy": "string", "solver": "string", "fallback": "string",
		"optimal": "bool", "objective": "number", "greedyObjective": "number", "seconds": "object",
		"greedyPlaced": "number", "distance": "number", "greedyDistance": "number",
	} {
		if got := jsonKind(window[field]); got != kind {
			t.Errorf("window.%s is %s, want %s", field, got, kind)
		}
	}
	seconds := window["seconds"].(map[string]any)
	for _, f := range []string{"model", "collect", "solve", "greedy", "verify", "total"} {
		if jsonKind(seconds[f]) != "number" {
			t.Errorf("window.seconds.%s missing", f)
		}
	}
	if greedy := seconds["greedy"].(float64); greedy <= 0 || greedy > seconds["solve"].(float64) {
		t.Errorf("window.seconds.greedy is %v, want the part of solve (%v) the LP's greedy plan took", greedy, seconds["solve"])
	}
	if window["objective"].(float64) > window["greedyObjective"].(float64) {
		t.Errorf("lp objective %v worse than greedy's %v", window["objective"], window["greedyObjective"])
	}
	if window["strategy"] != "SameRegion" || window["solver"] != "lp" || window["optimal"] != true || window["pending"].(float64) < 300 || window["seeds"].(float64) != 40 {
		t.Errorf("unexpected window %v", window)
	}

	placements := report["placements"].([]any)
	if len(placements) == 0 {
		t.Fatal("no placements for the example landscape")
	}
	var shoots []string
	for _, p := range placements {
		p := p.(map[string]any)
		if jsonKind(p["shoot"]) != "string" || jsonKind(p["seed"]) != "string" || jsonKind(p["distance"]) != "number" ||
			jsonKind(p["shootRegion"]) != "string" || jsonKind(p["seedRegion"]) != "string" {
			t.Fatalf("placement %v does not follow the contract", p)
		}
		shoots = append(shoots, p["shoot"].(string))
	}
	if !slices.IsSorted(shoots) {
		t.Error("placements are not sorted by shoot")
	}
	for _, u := range report["unschedulable"].([]any) {
		u := u.(map[string]any)
		if jsonKind(u["shoot"]) != "string" || jsonKind(u["message"]) != "string" || u["message"] == "" {
			t.Fatalf("unschedulable %v does not follow the contract", u)
		}
	}
	for _, s := range report["seeds"].([]any) {
		s := s.(map[string]any)
		for _, f := range []string{"name", "usage", "allocatable", "placed"} {
			if _, ok := s[f]; !ok {
				t.Fatalf("seed %v lacks %q", s, f)
			}
		}
	}
}

func jsonKind(v any) string {
	switch v.(type) {
	case float64:
		return "number"
	case string:
		return "string"
	case bool:
		return "bool"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case nil:
		return "null"
	}
	return "unknown"
}

func TestScheduleTableAndFormats(t *testing.T) {
	out, err := run(t, "schedule", "--strategy", "MinimalDistance")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "SHOOT") || !strings.Contains(out, "Placed ") || !strings.Contains(out, "strategy MinimalDistance") {
		t.Fatalf("table output lacks the plan or the summary:\n%s", out)
	}
	if _, err := run(t, "schedule", "-o", "xml"); err == nil || !strings.Contains(err.Error(), "-o: unknown output format \"xml\"") {
		t.Fatalf("want an error for -o xml, got %v", err)
	}
	if _, err := run(t, "schedule", "--strategy", "Nearest"); err == nil || err.Error() != "--strategy Nearest: must be SameRegion or MinimalDistance" {
		t.Fatalf("want an error for an unknown strategy, got %v", err)
	}
}

// Every command checks how many arguments it is given before it reads anything, and says what it takes, what it
// was given and where its help is; a flag it cannot parse, or a required one left out, says where its help is too.
func TestArgumentsAndFlagsAreRefusedWithWhereHelpIs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"schedule", "extra"}, `schedule takes no arguments; given 1: "extra" (see 'seedplan schedule --help')`},
		{[]string{"rebalance", "a", "b c"}, `rebalance takes no arguments; given 2: "a" "b c" (see 'seedplan rebalance --help')`},
		{[]string{"explain"}, `explain takes one or more shoots, NAMESPACE/NAME or NAME with -n, or -n NAMESPACE alone for all its pending shoots; given none (see 'seedplan explain --help')`},
		{[]string{"cordon"}, `cordon takes one or more seed names, or --selector; given none (see 'seedplan cordon --help')`},
		{[]string{"uncordon"}, `uncordon takes one or more seed names, or --selector; given none (see 'seedplan uncordon --help')`},
		{[]string{"schedule", "--foo"}, `unknown flag: --foo (see 'seedplan schedule --help')`},
		{[]string{"capacity", "-z"}, `unknown shorthand flag: 'z' in -z (see 'seedplan capacity --help')`},
		{[]string{"rebalance", "--max-moves", "x"}, `invalid argument "x" for "--max-moves" flag: strconv.ParseInt: parsing "x": invalid syntax (see 'seedplan rebalance --help')`},
		{[]string{"apply", "--yes"}, `required flag(s) "filename" not set (see 'seedplan apply --help')`},
	} {
		if _, err := run(t, tc.args...); err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

// Every command of seedplan's own (not cobra's help and completion) words a wrong count of arguments so: none
// for a command that takes some, or too many for one that takes fewer. Checked without running any command.
// explain takes none with a namespace, which a garden's kubeconfig context may give: it refuses none once it knows
// (TestArgumentsAndFlagsAreRefusedWithWhereHelpIs).
func TestEveryCommandWordsAWrongCountOfArguments(t *testing.T) {
	three := []string{"a", "b", "c"}
	for _, cmd := range newRootCommand().Commands() {
		if cmd.Name() == "help" || cmd.Name() == "completion" || cmd.Name() == "explain" {
			continue
		}
		refused := 0
		for _, args := range [][]string{nil, three} {
			err := cmd.ValidateArgs(args)
			if err == nil {
				continue
			}
			refused++
			if want := cmd.Name() + " takes "; !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "(see 'seedplan "+cmd.Name()+" --help')") {
				t.Errorf("%s with %d arguments: %q, want it to begin %q and say where the help is", cmd.Name(), len(args), err, want)
			}
		}
		if refused == 0 {
			t.Errorf("%s takes both no arguments and three", cmd.Name())
		}
	}
}

// explain takes a shoot as NAMESPACE/NAME, as -o name prints it, or as NAME with -n NAMESPACE, and refuses anything
// else before it plans.
func TestExplainRefusesWhatNamesNoShoot(t *testing.T) {
	const want = ": the shoot must be given as NAMESPACE/NAME"
	for _, arg := range []string{"data-api-11", "/data-api-11", "garden-data/", "garden-data/data-api-11/x", "shoot/data-api-11", "shoots/data-api-11", "seed/garden-data/data-api-11", "/"} {
		checkRefused(t, []string{"explain", arg}, []refusal{{nil, want}})
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"data-api-11"}, `"data-api-11": the shoot must be given as NAMESPACE/NAME, or as NAME with -n NAMESPACE`},
		{[]string{"garden-data/data-api-11", "-n", "garden-data"}, `"garden-data/data-api-11": with --namespace garden-data, the shoot must be given as NAME`},
		{[]string{"data-api-11", "-n", "garden-data/"}, `--namespace "garden-data/": not a namespace's name: a lowercase RFC 1123 label must consist of`},
		{[]string{"", "-n", "garden-data"}, `"garden-data/": the shoot must be given as NAMESPACE/NAME`},
	} {
		checkRefused(t, []string{"explain"}, []refusal{{tc.args, tc.want}})
	}
}

// explain takes a shoot in every form kubectl takes one: NAMESPACE/NAME as -o name prints it after its type, and
// NAME or TYPE/NAME with -n, the type given as kubectl knows the resource.
func TestShootKeyTakesKubectlsForms(t *testing.T) {
	for _, tc := range []struct {
		arg, namespace string
	}{
		{"garden-data/data-api-11", ""},
		{"shoot/garden-data/data-api-11", ""},
		{"shoots/garden-data/data-api-11", ""},
		{"shoot.core.gardener.cloud/garden-data/data-api-11", ""},
		{"data-api-11", "garden-data"},
		{"shoot/data-api-11", "garden-data"},
		{"shoots/data-api-11", "garden-data"},
		{"shoots.core.gardener.cloud/data-api-11", "garden-data"},
	} {
		key, err := shootKey(tc.arg, tc.namespace)
		if err != nil || key != "garden-data/data-api-11" {
			t.Errorf("shootKey(%q, -n %q) = %q, %v; want garden-data/data-api-11", tc.arg, tc.namespace, key, err)
		}
	}
}

// explain takes several shoots, as kubectl's get takes several names, and explains them from one plan: each as it
// explains it alone, in the order given, a blank line between two tables; as data a List of them; -o name the
// seeds chosen. A shoot it cannot explain is named in its error, after the others are printed.
func TestExplainSeveralShoots(t *testing.T) {
	names, err := run(t, "schedule", "-o", "name")
	if err != nil {
		t.Fatal(err)
	}
	placed := strings.Fields(names)[:3]
	const unschedulable = "garden-web/web-db-97"
	shoots := append(slices.Clone(placed), unschedulable)
	for _, format := range []string{"table", "wide"} {
		alone := make([]string, len(shoots))
		for i, shoot := range shoots {
			if alone[i], err = run(t, "explain", shoot, "-o", format); err != nil {
				t.Fatal(err)
			}
		}
		together, err := run(t, append([]string{"explain", "-o", format}, shoots...)...)
		if want := strings.Join(alone, "\n"); err != nil || together != want {
			t.Fatalf("explain -o %s of %d shoots (%v):\n%s\nwant each as alone, a blank line between two:\n%s", format, len(shoots), err, together, want)
		}
	}
	out, err := run(t, append([]string{"explain", "-o", "json"}, shoots...)...)
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Kind  string
		Items []struct{ Shoot, Seed string }
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if list.Kind != "List" || len(list.Items) != len(shoots) || list.Items[3].Shoot != unschedulable || list.Items[3].Seed != "" {
		t.Fatalf("explain -o json of %d shoots: %+v", len(shoots), list)
	}
	var seeds []string
	for i, item := range list.Items[:3] {
		if item.Shoot != strings.TrimPrefix(placed[i], "shoot/") || item.Seed == "" {
			t.Fatalf("item %d of the List: %+v; want %s, placed", i, item, placed[i])
		}
		seeds = append(seeds, "seed/"+item.Seed)
	}
	if out, err := run(t, append([]string{"explain", "-o", "name"}, shoots...)...); err != nil || out != strings.Join(seeds, "\n")+"\n" {
		t.Fatalf("explain -o name of %d shoots = %q, %v; want the seeds chosen, %q", len(shoots), out, err, seeds)
	}
	alone, err := run(t, "explain", placed[0])
	if err != nil {
		t.Fatal(err)
	}
	out, err = run(t, "explain", placed[0], "garden-dev/does-not-exist")
	if want := "shoot garden-dev/does-not-exist is not in the landscape"; err == nil || err.Error() != want || out != alone {
		t.Fatalf("explain of a shoot and one not in the landscape: %v, printed:\n%s\nwant the error %q after the first's explanation", err, out, want)
	}
	// As data, several shoots asked for are a List whatever is found; one is the object.
	out, err = run(t, "explain", placed[0], "garden-dev/does-not-exist", "-o", "jsonpath={.kind} {.items[0].shoot}")
	if want := "List " + strings.TrimPrefix(placed[0], "shoot/"); err == nil || out != want {
		t.Fatalf("explain -o jsonpath of a shoot and one not in the landscape = %q, %v; want %q and the error", out, err, want)
	}
	if out, err = run(t, "explain", placed[0], "-o", "jsonpath=[{.kind}] {.shoot}"); err != nil || out != "[] "+strings.TrimPrefix(placed[0], "shoot/") {
		t.Fatalf("explain -o jsonpath of one shoot = %q, %v; want the object, no List", out, err)
	}
}

// explain -n NAMESPACE without names explains every shoot of the namespace that is pending, by name, as kubectl
// describe takes a namespace without names: as it explains those names; a namespace with none pending prints an
// empty List and says so, as kubectl's "No resources found".
func TestExplainEveryPendingShootOfANamespace(t *testing.T) {
	out, err := run(t, "schedule", "-o", "jsonpath={range .placements[*]}{.shoot} {end}{range .unschedulable[*]}{.shoot} {end}")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, shoot := range strings.Fields(out) {
		if namespace, name, _ := strings.Cut(shoot, "/"); namespace == "garden-data" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) < 2 {
		t.Fatalf("the example has %d pending shoots in garden-data: the test proves nothing", len(names))
	}
	for _, format := range []string{"table", "json"} {
		named, err := run(t, append([]string{"explain", "-n", "garden-data", "-o", format}, names...)...)
		if err != nil {
			t.Fatal(err)
		}
		if every, err := run(t, "explain", "-n", "garden-data", "-o", format); err != nil || every != named {
			t.Fatalf("explain -n garden-data -o %s (%v):\n%s\nwant as its %d pending shoots named:\n%s", format, err, every, len(names), named)
		}
	}
	out, logged, err := runLogged(t, "explain", "-n", "garden-none", "-o", "json")
	if want := "{\n  \"kind\": \"List\",\n  \"items\": []\n}\n"; err != nil || out != want || !strings.Contains(logged, `No shoot of namespace garden-none is pending for scheduler \"default-scheduler\"`) {
		t.Fatalf("explain -n of a namespace without pending shoots = %q, %v; want %q and a warning, logged:\n%s", out, err, want, logged)
	}
}

func TestExplain(t *testing.T) {
	out, err := run(t, "schedule", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var report struct {
		Placements []struct{ Shoot, Seed string }
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatal(err)
	}
	placed := report.Placements[0]
	out, err = run(t, "explain", placed.Shoot)
	if err != nil {
		t.Fatal(err)
	}
	namespace, name, _ := strings.Cut(placed.Shoot, "/")
	if asKubectl, err := run(t, "explain", "-n", namespace, name); err != nil || asKubectl != out {
		t.Fatalf("explain -n %s %s (%v) differs from explain %s:\n%s", namespace, name, err, placed.Shoot, asKubectl)
	}
	if !strings.Contains(out, "Decision: bind to seed "+placed.Seed+".") {
		t.Fatalf("explain does not end with the schedule's decision %s:\n%s", placed.Seed, out)
	}
	if strings.Count(out, "\n") < 40 || !strings.Contains(out, "rejected by ") || !strings.Contains(out, "CHOSEN") {
		t.Fatalf("explain does not list every seed with a verdict:\n%s", out)
	}
	if _, err := run(t, "explain", "garden-dev/does-not-exist"); err == nil || !strings.Contains(err.Error(), "not in the landscape") {
		t.Fatalf("want an error for an unknown shoot, got %v", err)
	}
	// The same decision as data: the chosen seed with its cost, every other seed with its verdict.
	out, err = run(t, "explain", placed.Shoot, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var explanation struct {
		Seed  string
		Seeds []struct {
			Name, Verdict, Predicate string
			Cost                     *struct{ Distance, Utilization float64 }
		}
	}
	if err := json.Unmarshal([]byte(out), &explanation); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	verdicts := map[string]int{}
	for _, s := range explanation.Seeds {
		verdicts[s.Verdict]++
		if s.Verdict == "chosen" && (s.Name != placed.Seed || s.Cost == nil) || s.Verdict == "rejected" && s.Predicate == "" {
			t.Fatalf("seed %+v", s)
		}
	}
	if explanation.Seed != placed.Seed || verdicts["chosen"] != 1 || verdicts["rejected"] == 0 || len(explanation.Seeds) != 40 {
		t.Fatalf("explanation of %s: seed %s, verdicts %v over %d seeds", placed.Shoot, explanation.Seed, verdicts, len(explanation.Seeds))
	}
	// The summary counts every seed once, --seed included, and agrees with the verdicts.
	var summary struct {
		Feasible   int
		Rejections []struct {
			Predicate string
			Seeds     int
		}
		Seeds []struct{ Name string }
	}
	if out, err = run(t, "explain", placed.Shoot, "--seed", placed.Seed, "-o", "json"); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &summary); err != nil {
		t.Fatal(err)
	}
	rejected := 0
	for _, r := range summary.Rejections {
		rejected += r.Seeds
	}
	if summary.Feasible != verdicts["chosen"]+verdicts["feasible"] || rejected != verdicts["rejected"] || len(summary.Seeds) != 1 || summary.Seeds[0].Name != placed.Seed {
		t.Fatalf("explain --seed %s: %+v; want %d feasible, %d rejected, one seed", placed.Seed, summary, verdicts["chosen"]+verdicts["feasible"], verdicts["rejected"])
	}
	// With several shoots, a seed not in the landscape is said beside the shoots that have no explanation.
	if _, err := run(t, "explain", "garden-dev/does-not-exist", placed.Shoot, "garden-dev/nor-this", "--seed", "no-such-seed"); err == nil ||
		err.Error() != "--seed: seed no-such-seed is not in the landscape\nshoot garden-dev/does-not-exist is not in the landscape\nshoot garden-dev/nor-this is not in the landscape" {
		t.Errorf("explain of three shoots, two not in the landscape, with --seed no-such-seed: %v", err)
	}
	if _, err := run(t, "explain", placed.Shoot, "--seed", "no-such-seed"); err == nil || err.Error() != "--seed: seed no-such-seed is not in the landscape" {
		t.Fatalf("want an error for an unknown seed, got %v", err)
	}
	// With no shoot explained, the seed is said all the same: both mistakes are mended in one round.
	if _, err := run(t, "explain", "garden-dev/does-not-exist", "--seed", "no-such-seed"); err == nil ||
		err.Error() != "--seed: seed no-such-seed is not in the landscape\nshoot garden-dev/does-not-exist is not in the landscape" {
		t.Errorf("explain of a shoot not in the landscape with --seed no-such-seed: %v", err)
	}
	if out, err := run(t, "explain", "-n", "garden-nothing", "--seed", "no-such-seed", "-o", "json"); err == nil || out != "" ||
		err.Error() != "--seed: seed no-such-seed is not in the landscape" {
		t.Errorf("explain of a namespace without pending shoots, --seed no-such-seed: %v, printed %q; want only the seed refused", err, out)
	}
	// A shoot that is not pending: the one reason that applies.
	bound := "garden-ml/live-ml-web-0"
	if _, err := run(t, "explain", bound); err == nil || !strings.Contains(err.Error(), "it is bound to seed aws-eu-west-1-1") {
		t.Fatalf("explain of a bound shoot: %v", err)
	}
}

// A malformed manifest produces an error line per refused object, each naming the file, the object and the field,
// and no plan.
func TestScheduleRefusesMalformedLandscape(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "seeds.yaml")
	manifest := "apiVersion: core.gardener.cloud/v1beta1\nkind: Seed\nmetadata: {name: aws-eu1}\nspec:\n  provider: {type: aws, region: eu-central-1, zones: eu-central-1a}\n"
	if err := os.WriteFile(file, []byte(manifest+"---\n"+strings.ReplaceAll(manifest, "eu", "us")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "schedule", "--landscape", dir)
	if err == nil {
		t.Fatalf("want an error, got output:\n%s", out)
	}
	want := "loading the landscape (nothing was scheduled): " + file + ": document 1: Seed aws-eu1: field spec.provider.zones: must be a list, not a string\n" +
		"loading the landscape (nothing was scheduled): " + file + ": document 2: Seed aws-us1: field spec.provider.zones: must be a list, not a string"
	if err.Error() != want || out != "" {
		t.Fatalf("error = %q\nwant    %q (and no output, got %q)", err, want, out)
	}
	// explain, which schedules nothing, does not say that nothing was scheduled.
	if _, err := run(t, "explain", "garden/shoot", "--landscape", dir); err == nil || err.Error() != strings.ReplaceAll(want, " (nothing was scheduled)", "") {
		t.Fatalf("explain: error = %v", err)
	}
}

// The LP's time budget is refused where the greedy solver decides, whether --solver or the configuration chose
// it; rebalance and capacity, which have no --solver and always use the LP, take it whatever the configuration.
func TestSolverTimeoutWithGreedyIsRefused(t *testing.T) {
	greedy := configurationFile(t, "solver:\n  name: greedy\n")
	want := "--solver-timeout: not with the greedy solver, which has no time budget"
	for _, command := range [][]string{{"schedule"}, {"explain", "garden/shoot"}, {"run"}} {
		checkRefused(t, command, []refusal{
			{[]string{"--solver", "greedy", "--solver-timeout", "1s"}, want},
			{[]string{"--config", greedy, "--solver-timeout", "1s"}, want},
		})
	}
	for _, args := range [][]string{
		{"schedule", "--solver", "greedy"},
		{"schedule", "--solver", "lp", "--solver-timeout", "1s"},
		{"rebalance", "--config", greedy, "--solver-timeout", "1s"},
		{"capacity", "--config", greedy, "--solver-timeout", "1s"},
	} {
		if _, err := run(t, args...); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// No flag takes an empty value, nor a list an empty element: "--landscape $DIR", "--config $CONFIG" or
// "--kubeconfig $KUBECONFIG" with the variable unset would otherwise run on the embedded example, the default
// configuration or files, as if that had been asked for.
func TestEmptyFlagValuesAreRefused(t *testing.T) {
	args := map[string][]string{"explain": {"garden/shoot"}, "cordon": {"seed"}, "uncordon": {"seed"}} // as their Args want
	for _, cmd := range newRootCommand().Commands() {
		cmd.Flags().VisitAll(func(flag *pflag.Flag) {
			empty := []string{"--" + flag.Name, ""}
			if flag.NoOptDefVal != "" { // given bare, it takes no value but from "="
				empty = []string{"--" + flag.Name + "="}
			}
			if typ := flag.Value.Type(); typ == "string" || typ == "stringSlice" {
				checkRefused(t, append([]string{cmd.Name()}, args[cmd.Name()]...), []refusal{{empty, `--` + flag.Name + `" flag: empty: leave the flag out for its default`}})
			}
		})
	}
	dir := t.TempDir()
	for _, command := range [][]string{{"schedule"}, {"explain", "garden/shoot"}, {"rebalance"}, {"capacity"}, {"bench", "--sizes", "20x5"}} {
		checkRefused(t, command, []refusal{
			{[]string{"--landscape", dir + ",,"}, `invalid argument "` + dir + `,," for "--landscape" flag: an element is empty`},
			{[]string{"--landscape", dir, "--landscape", ""}, `invalid argument "" for "--landscape" flag: empty`},
		})
	}
}

// generate writes a landscape that schedule reads back whole, whichever way it is written: one file per kind
// into --dir, or one stream on standard output, in YAML or JSON.
func TestGenerateThenSchedule(t *testing.T) {
	generate := []string{"generate", "--seeds", "10", "--shoots", "50", "--existing", "20", "--contention", "1.1", "--seed", "3"}
	for _, tc := range []struct {
		name string
		args []string
		dir  bool // else the stream is stored as stream.<format>
	}{
		{name: "dir in YAML", args: []string{"--dir", "DIR"}, dir: true},
		{name: "dir in JSON", args: []string{"--dir", "DIR", "-o", "json"}, dir: true},
		{name: "a YAML stream", args: []string{"-o", "yaml"}},
		{name: "a JSON stream", args: []string{"-o", "json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := slices.Clone(generate)
			for _, a := range tc.args {
				args = append(args, strings.ReplaceAll(a, "DIR", dir))
			}
			stream, err := run(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			landscape := dir
			if !tc.dir {
				landscape = filepath.Join(dir, "stream."+args[len(args)-1])
				if err := os.WriteFile(landscape, []byte(stream), 0o600); err != nil {
					t.Fatal(err)
				}
			} else if stream != "" {
				t.Fatalf("--dir wrote to standard output too: %q", stream)
			}
			out, err := run(t, "schedule", "--landscape", landscape, "-o", "json")
			if err != nil {
				t.Fatal(err)
			}
			var report struct {
				Window struct{ Pending, Seeds int }
			}
			if err := json.Unmarshal([]byte(out), &report); err != nil {
				t.Fatal(err)
			}
			if report.Window.Pending != 50 || report.Window.Seeds != 10 {
				t.Fatalf("window %+v, want 50 pending shoots on 10 seeds", report.Window)
			}
		})
	}
	if _, err := run(t, "generate", "-o", "xml"); err == nil || !strings.Contains(err.Error(), `-o: unknown output format "xml" (one of yaml, json)`) {
		t.Fatalf("an unknown format: %v", err)
	}
	checkRefused(t, []string{"generate"}, []refusal{
		{[]string{"--seeds", "0"}, "--seeds 0: must be at least 1"},
		{[]string{"--existing", "-5"}, "--existing -5: must not be negative"},
		{[]string{"--contention", "NaN"}, "--contention NaN: must be a finite number, at least 0"},
		{[]string{"--providers", "aws,nope"}, "--providers nope: unknown provider"},
	})
}

// A command's own answer, saved where a landscape is read from, is refused as that command's output, not as an
// object without kind: the loader recognizes the answers these commands print today, in JSON and in YAML.
func TestAnAnswerReadAsALandscapeIsNamed(t *testing.T) {
	dir := t.TempDir()
	for _, command := range [][]string{{"schedule"}, {"rebalance"}, {"capacity"}, {"explain", "garden-data/data-api-11"}} {
		for _, format := range []string{"json", "yaml"} {
			answer, err := run(t, append(slices.Clone(command), "-o", format)...)
			if err != nil {
				t.Fatal(err)
			}
			saved := filepath.Join(dir, command[0]+"."+format)
			if err := os.WriteFile(saved, []byte(answer), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err = run(t, "schedule", "--landscape", saved)
			if want := "object without kind: it is the output of seedplan " + command[0] + ", not a manifest"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s -o %s read as a landscape: %v, want %q", command[0], format, err, want)
			}
		}
	}
}

// generate --dir warns when the directory holds manifests it did not just write — the landscape in the other
// format, an operator's own file below it — since seedplan --landscape DIR reads them too; rewriting its own files
// is no cause.
func TestGenerateWarnsOfOtherManifestsInItsDir(t *testing.T) {
	dir := t.TempDir()
	generate := []string{"generate", "--seeds", "4", "--shoots", "8", "--dir", dir}
	for _, tc := range []struct {
		name   string
		args   []string
		before func()
		want   string // "": no warning
	}{
		{name: "into an empty directory", want: ""},
		{name: "again, in YAML", want: ""},
		{name: "in JSON beside YAML", args: []string{"-o", "json"},
			want: "holds 6 other manifests besides the landscape written, and seedplan --landscape " + dir + " reads them with it: cloudprofiles.yaml, namespacedcloudprofiles.yaml, projects.yaml, 3 more files"},
		{name: "beside an operator's file below it", args: []string{"-o", "json"}, before: func() {
			_ = os.Remove(filepath.Join(dir, "seeds.yaml"))
			for _, f := range []string{"cloudprofiles", "namespacedcloudprofiles", "projects", "region-configs", "shoots"} {
				_ = os.Remove(filepath.Join(dir, f+".yaml"))
			}
			if err := os.MkdirAll(filepath.Join(dir, "mine"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "mine", "seed.yml"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}, want: "holds 1 other manifest besides the landscape written, and seedplan --landscape " + dir + " reads them with it: mine/seed.yml"},
	} {
		if tc.before != nil {
			tc.before()
		}
		_, logged, err := runLogged(t, append(slices.Clone(generate), tc.args...)...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if warned := strings.Contains(logged, "level=WARN"); warned != (tc.want != "") || !strings.Contains(logged, tc.want) {
			t.Errorf("%s: logged\n%s\nwant a warning %q", tc.name, logged, tc.want)
		}
	}
}

// bench runs window and rebalancing scenarios together: two tables, and each kind's files and plots.
func TestBenchWindowsAndRebalancing(t *testing.T) {
	dir := t.TempDir()
	out, err := run(t, "bench", "--scenario", "contention-1.0,capacity-drop", "--sizes", "1500x60", "--repeats", "1", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"contention-1.0", "REBALANCE", "capacity-drop", "naive"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, file := range []string{"results.csv", "results.json", "rebalance.csv", "rebalance.json", "rebalance.png", "solve-time.png"} {
		if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
	if _, err := run(t, "bench", "--scenario", "no-such"); err == nil || !strings.Contains(err.Error(), "seed-retirement") {
		t.Errorf("an unknown scenario must list the known ones, rebalancing included: %v", err)
	}
	checkRefused(t, []string{"bench", "--scenario", "steady", "--sizes", "50x10"}, []refusal{
		{[]string{"--repeats", "0"}, "--repeats 0: must be at least 1"},
		{[]string{"--solver-timeout", "-1s"}, "--solver-timeout -1s: must be positive"},
		{[]string{"--strategy", "MinimalDistance"}, "--strategy: not with generated scenarios, which have their own strategies"},
		// before the benchmark: a directory that cannot be is not found out after minutes of it
		{[]string{"--out", "/dev/null"}, "--out: mkdir /dev/null: not a directory"},
	})
	checkRefused(t, []string{"bench", "--landscape", "/nonexistent"}, []refusal{
		// before the landscape is loaded: a flag is not found out only after a large landscape was read
		{[]string{"--strategy", "Nearest"}, "--strategy Nearest: must be SameRegion or MinimalDistance"},
		{[]string{"--sizes", "50x10"}, "--sizes: not with --landscape, which benchmarks that landscape's window"},
		{[]string{"--suite", "standard", "--seed", "2"}, "--seed: not with --landscape"},
	})
	checkRefused(t, []string{"bench", "--suite", "standard"}, []refusal{
		{[]string{"--sizes", "50x10"}, "--sizes: not with --suite, which runs its own scenarios at its own sizes"},
		{[]string{"--scenario", "steady"}, "--scenario: not with --suite"},
	})
}

// Objects the gardener-apiserver would have refused (a selector with an invalid operator, an unparsable CIDR, a
// region distance that is no integer) cost only the shoots they concern, exactly as in the gardener-scheduler:
// those are listed as unschedulable with Gardener's error, and every other shoot is scheduled.
func TestScheduleListsShootsOfBadObjectsAndSchedulesTheRest(t *testing.T) {
	dir := t.TempDir()
	if _, err := run(t, "generate", "--seeds", "20", "--shoots", "60", "--seed", "5", "--dir", dir); err != nil {
		t.Fatal(err)
	}
	edit := func(file string, change func(items []any)) {
		t.Helper()
		path := filepath.Join(dir, file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var list map[string]any
		if err := yaml.Unmarshal(data, &list); err != nil {
			t.Fatal(err)
		}
		change(list["items"].([]any))
		if data, err = yaml.Marshal(list); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	field := func(obj any, path ...string) map[string]any {
		m := obj.(map[string]any)
		for _, p := range path {
			if m[p] == nil {
				m[p] = map[string]any{}
			}
			m = m[p].(map[string]any)
		}
		return m
	}
	name := func(obj any) string { return field(obj, "metadata")["name"].(string) }
	type report struct {
		Window        struct{ Pending int }
		Placements    []struct{ Shoot string }
		Unschedulable []struct{ Shoot, Reason, Message string }
	}
	schedule := func() report {
		t.Helper()
		out, err := run(t, "schedule", "--landscape", dir, "--strategy", "MinimalDistance", "-o", "json")
		if err != nil {
			t.Fatal(err)
		}
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	placed := map[string]bool{}
	for _, p := range schedule().Placements {
		placed[p.Shoot[strings.Index(p.Shoot, "/")+1:]] = true
	}
	// Three shoots placed on the good landscape; the third's region is not the others'.
	var badSelector, badCIDR, badDistance, badRegion string
	edit("shoots.yaml", func(items []any) {
		var chosen []any
		for _, item := range items {
			if placed[name(item)] && (len(chosen) < 2 || field(item, "spec")["region"] != field(chosen[0], "spec")["region"] && field(item, "spec")["region"] != field(chosen[1], "spec")["region"]) {
				chosen = append(chosen, item)
			}
		}
		badSelector, badCIDR, badDistance = name(chosen[0]), name(chosen[1]), name(chosen[2])
		field(chosen[0], "spec")["seedSelector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": "env", "operator": "Foo", "values": []any{"x"}}}}
		field(chosen[1], "spec", "networking")["nodes"] = "10.300.0.0/16"
		badRegion = field(chosen[2], "spec")["region"].(string)
	})
	edit("region-configs.yaml", func(items []any) {
		for _, cm := range items {
			if data := field(cm, "data"); data[badRegion] != nil {
				data[badRegion] = "eu-west-1: near\n"
			}
		}
	})
	got := schedule()
	rejected := map[string]string{}
	for _, u := range got.Unschedulable {
		rejected[u.Shoot[strings.Index(u.Shoot, "/")+1:]] = u.Reason + ": " + u.Message
	}
	for shoot, want := range map[string]string{
		badSelector: `ShootSeedSelector: label selector conversion failed: {map[] [{env Foo [x]}]} for seedSelector: "Foo" is not a valid label selector operator`,
		badCIDR:     `Networks: `,
		badDistance: `Strategy: failed to determine seed candidates. Wrong format in region ConfigMap`,
	} {
		if !strings.Contains(rejected[shoot], want) {
			t.Errorf("%s: %q, want it to contain %q", shoot, rejected[shoot], want)
		}
	}
	if len(got.Placements) == 0 || len(got.Placements)+len(got.Unschedulable) != got.Window.Pending {
		t.Errorf("%d placed and %d unschedulable of %d pending", len(got.Placements), len(got.Unschedulable), got.Window.Pending)
	}
}

// A load that does not return ends the command as soon as its context does, as SIGINT and SIGTERM end it.
func TestInterruptibleLoad(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	blocked := make(chan struct{})
	defer close(blocked)
	cancel()
	_, err := interruptible(ctx, func() (int, error) {
		<-blocked
		return 1, nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want the context's", err)
	}
	if got, err := interruptible(context.Background(), func() (int, error) { return 7, nil }); got != 7 || err != nil {
		t.Fatalf("an uninterrupted load returned %d, %v", got, err)
	}
}

// -o name prints what a command decides on, one a line, as kubectl's: the shoots schedule places (which explain
// takes as they are), the shoots rebalance moves, the seed explain chooses; --no-headers leaves out header and
// summary lines, and ends with the last row: a blank line separates sections only.
func TestOutputNameAndNoHeaders(t *testing.T) {
	asJSON, err := run(t, "schedule", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var plan struct {
		Placements []struct{ Shoot, Seed string }
	}
	if err := json.Unmarshal([]byte(asJSON), &plan); err != nil {
		t.Fatal(err)
	}
	names, err := run(t, "schedule", "-o", "name")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(names), "\n")
	if len(lines) != len(plan.Placements) || lines[0] != "shoot/"+plan.Placements[0].Shoot {
		t.Fatalf("schedule -o name: %d lines starting %q; want %d, shoot/%s", len(lines), lines[0], len(plan.Placements), plan.Placements[0].Shoot)
	}
	if chosen, err := run(t, "explain", lines[0], "-o", "name"); err != nil || chosen != "seed/"+plan.Placements[0].Seed+"\n" {
		t.Fatalf("explain %s -o name = %q, %v; want seed/%s", lines[0], chosen, err, plan.Placements[0].Seed)
	}
	// An unschedulable shoot's decision names no seed, and says why on stderr.
	none, logged, err := runLogged(t, "explain", "garden-web/web-web-205", "-o", "name")
	if want := "shoot garden-web/web-web-205 is unschedulable, and -o name names no seed: none of the 8 seeds supports the access restrictions"; err != nil || none != "" || !strings.Contains(logged, want) {
		t.Fatalf("explain -o name of an unschedulable shoot: %q, %v, logging\n%s\nwant nothing, and a warning %q", none, err, logged, want)
	}
	moves, err := run(t, "rebalance", "-o", "name")
	if err != nil || !strings.HasPrefix(moves, "shoot/") {
		t.Fatalf("rebalance -o name: %q, %v", moves, err)
	}
	// The example's seeds are no ManagedSeedSet's replicas: capacity names no set, and says why on stderr.
	sets, logged, err := runLogged(t, "capacity", "-o", "name")
	if want := "14 of the 14 new seeds belong to no ManagedSeedSet"; err != nil || sets != "" || !strings.Contains(logged, want) {
		t.Fatalf("capacity -o name: %q, %v, logging\n%s\nwant nothing, and a warning %q", sets, err, logged, want)
	}

	for _, args := range [][]string{{"schedule"}, {"schedule", "-o", "wide"}, {"rebalance"}, {"capacity"}} {
		table, err := run(t, append(args, "--no-headers")...)
		if err != nil {
			t.Fatal(err)
		}
		for _, word := range []string{"SHOOT", "SEED ", "PROVIDER", "UNSCHEDULABLE", "Placed", "unresolved, lower bound", "pending shoots:"} {
			if strings.Contains(table, word) {
				t.Errorf("%v --no-headers prints %q:\n%s", args, word, table)
			}
		}
		if strings.Count(table, "\n") < 5 {
			t.Errorf("%v --no-headers prints almost nothing:\n%s", args, table)
		}
		if strings.HasSuffix(table, "\n\n") {
			t.Errorf("%v --no-headers ends with a blank line:\n%s", args, table)
		}
	}
}

// Every command's help has examples, and every seedplan invocation in them names a real command with flags it
// takes, parsed as cobra parses them.
func TestHelpExamplesAreRealCommands(t *testing.T) {
	root := newRootCommand()
	checked := 0
	for _, cmd := range root.Commands() {
		if cmd.Hidden || cmd.Name() == "help" || cmd.Name() == "completion" {
			continue
		}
		if cmd.Example == "" {
			t.Errorf("%s has no examples", cmd.Name())
		}
		for _, line := range strings.Split(cmd.Example, "\n") {
			for _, part := range strings.Split(line, "|") {
				fields := strings.Fields(part)
				i := slices.Index(fields, "seedplan")
				if i < 0 || strings.HasPrefix(strings.TrimSpace(line), "#") {
					continue
				}
				args := fields[i+1:]
				if j := slices.Index(args, ">"); j >= 0 {
					args = args[:j]
				}
				found, rest, err := root.Find(args)
				if err != nil || found == root {
					t.Errorf("%s example %q: no such command (%v)", cmd.Name(), part, err)
					continue
				}
				if err := found.ParseFlags(rest); err != nil {
					t.Errorf("%s example %q: %v", cmd.Name(), part, err)
				}
				checked++
			}
		}
	}
	if checked < 15 {
		t.Fatalf("only %d example invocations checked", checked)
	}
	if out, err := run(t, "--version"); err != nil || !strings.HasPrefix(out, "seedplan ") || !strings.Contains(out, "Gardener API") {
		t.Fatalf("seedplan --version: %q, %v", out, err)
	}
}

// -o jsonpath=TEMPLATE selects from the JSON form what a script needs, as kubectl's does: the placements as -o
// name lists them, capacity's count as its JSON says it; a template that does not parse is refused before any
// work, as an unknown format is.
func TestOutputJSONPath(t *testing.T) {
	names, err := run(t, "schedule", "-o", "name")
	if err != nil {
		t.Fatal(err)
	}
	shoots, err := run(t, "schedule", "-o", `jsonpath={range .placements[*]}shoot/{.shoot}{"\n"}{end}`)
	if err != nil || shoots != names {
		t.Fatalf("schedule -o jsonpath over the placements = %q, %v; want -o name's %q", shoots, err, names)
	}
	asJSON, err := run(t, "capacity", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var answer struct{ NewSeeds, LowerBound int }
	if err := json.Unmarshal([]byte(asJSON), &answer); err != nil {
		t.Fatal(err)
	}
	if got, err := run(t, "capacity", "-o", "jsonpath={.newSeeds} {.lowerBound}"); err != nil || got != fmt.Sprint(answer.NewSeeds, " ", answer.LowerBound) {
		t.Fatalf("capacity -o jsonpath = %q, %v; want %d %d", got, err, answer.NewSeeds, answer.LowerBound)
	}
	// A key the form lacks prints nothing, unless --allow-missing-template-keys=false, as kubectl's.
	for _, tc := range []struct {
		args    []string
		want    string
		wantErr string
	}{
		{args: []string{"-o", "jsonpath=[{.window.noSuchField}]"}, want: "[]"},
		{args: []string{"-o", "jsonpath=[{.window.noSuchField}]", "--allow-missing-template-keys"}, want: "[]"},
		{args: []string{"-o", "jsonpath={.window.noSuchField}", "--allow-missing-template-keys=false"}, wantErr: `jsonpath template "{.window.noSuchField}": noSuchField is not found`},
		{args: []string{"-o", "jsonpath={.window.solver}", "--allow-missing-template-keys=false"}, want: "lp"},
	} {
		got, err := run(t, append([]string{"schedule"}, tc.args...)...)
		if tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr) || tc.wantErr == "" && (err != nil || got != tc.want) {
			t.Errorf("schedule %s = %q, %v; want %q or the error %q", strings.Join(tc.args, " "), got, err, tc.want, tc.wantErr)
		}
	}
	for _, cmd := range []string{"schedule", "explain", "rebalance", "capacity", "apply"} {
		args := []string{cmd, "-o", "jsonpath={.placements[}"}
		switch cmd {
		case "explain":
			args = append(args, "garden-web/web-db-97")
		case "apply":
			args = append(args, "-f", filepath.Join(t.TempDir(), "never-read.json"))
		}
		if _, err := run(t, args...); err == nil || err.Error() != `-o: jsonpath template "{.placements[}": unterminated array` {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// Flag values complete from their fixed sets, and seed and shoot names from the landscape the flags name.
func TestCompletion(t *testing.T) {
	// The example landscape as files: in one directory, and as its shoots' file beside the directory of the rest.
	landscape, shoots, others := "../../examples/landscape", filepath.Join(t.TempDir(), "shoots.yaml"), t.TempDir()
	entries, err := os.ReadDir(landscape)
	if err != nil {
		t.Fatal(err)
	}
	for _, entry := range entries {
		data, err := os.ReadFile(filepath.Join(landscape, entry.Name()))
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(others, entry.Name())
		if entry.Name() == "shoots.yaml" {
			to = shoots
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args          []string
		want, without []string
	}{
		{args: []string{"schedule", "--strategy", ""}, want: []string{"SameRegion", "MinimalDistance"}},
		{args: []string{"rebalance", "--solver-timeout", "1s", "--weights", ""}, want: []string{"compat", "balanced"}},
		{args: []string{"capacity", "-o", ""}, want: []string{"table", "yaml", "json", "name", "jsonpath=", ":4"}},
		{args: []string{"schedule", "-o", "jsonp"}, want: []string{"jsonpath=", ":6"}}, // no space: the template follows
		{args: []string{"version", "-o", ""}, want: []string{"text", "json", "yaml"}},
		{args: []string{"rebalance", "--triggers", ""}, want: []string{"overloaded", "NoExecute", "unusable"}},
		{args: []string{"cordon", "--log-level", ""}, want: []string{"debug", "info", "warn", "error", ":4"}},
		{args: []string{"schedule", "--log-format", ""}, want: []string{"text", "json", ":4"}},
		{args: []string{"explain", "garden-data/data-batch-22"}, want: []string{"garden-data/data-batch-225", "garden-data/data-batch-228"}},
		{args: []string{"explain", "-n", "garden-data", "data-batch-22"}, want: []string{"data-batch-225", "data-batch-228"}},
		{args: []string{"explain", "-n", "garden-"}, want: []string{"garden-data", "garden-web"}},
		// explain takes several shoots: each is offered until it is given, also as -o name prints it.
		{args: []string{"explain", "garden-data/data-batch-225", "garden-data/data-batch-22"}, want: []string{"garden-data/data-batch-228"},
			without: []string{"garden-data/data-batch-225"}},
		{args: []string{"explain", "shoot/garden-data/data-batch-225", "garden-data/data-batch-22"}, want: []string{"garden-data/data-batch-228"},
			without: []string{"garden-data/data-batch-225"}},
		{args: []string{"explain", "-n", "garden-data", "data-batch-228", "data-batch-22"}, want: []string{"data-batch-225"}, without: []string{"data-batch-228"}},
		{args: []string{"explain", "x", "--seed", "alicloud-"}, want: []string{"alicloud-ap-southeast-1-1"}},
		{args: []string{"rebalance", "--drain", "openstack-eu-nl"}, want: []string{"openstack-eu-nl-1-1", "openstack-eu-nl-1-2"}},
		// A seed to drain is offered once: not again after --drain gave it, by name or as -o name prints it.
		{args: []string{"rebalance", "--drain", "openstack-eu-nl-1-1", "--drain", "openstack-eu-nl"}, want: []string{"openstack-eu-nl-1-2"},
			without: []string{"openstack-eu-nl-1-1"}},
		{args: []string{"rebalance", "--drain", "seed/openstack-eu-nl-1-2,aws-eu-west-1-1", "--drain", "openstack-eu-nl"}, want: []string{"openstack-eu-nl-1-1"},
			without: []string{"openstack-eu-nl-1-2"}},
		// Names come from the landscape --landscape names (cobra parses a completion's flags twice: a repeatable
		// flag given once is still given once).
		{args: []string{"explain", "--landscape", landscape, "garden-data/data-batch-22"}, want: []string{"garden-data/data-batch-225", "garden-data/data-batch-228"}},
		{args: []string{"explain", "--landscape", shoots, "--landscape", others, "-n", "garden-"}, want: []string{"garden-data", "garden-web"}},
		{args: []string{"rebalance", "--landscape", landscape, "--drain", "openstack-eu-nl"}, want: []string{"openstack-eu-nl-1-1", "openstack-eu-nl-1-2"}},
	} {
		out, err := run(t, append([]string{cobra.ShellCompRequestCmd}, tc.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range tc.want {
			if !slices.Contains(strings.Split(out, "\n"), want) {
				t.Errorf("completing %v offers\n%s\nwithout %s", tc.args, out, want)
			}
		}
		for _, unwanted := range tc.without {
			if slices.Contains(strings.Split(out, "\n"), unwanted) {
				t.Errorf("completing %v offers %s:\n%s", tc.args, unwanted, out)
			}
		}
	}
}

// bench says how far it is on standard error when not on a terminal (a log line at least for the last window),
// and nothing with --quiet.
func TestBenchProgressAndQuiet(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		args := []string{"bench", "--scenario", "steady", "--sizes", "100x20", "--repeats", "1"}
		if quiet {
			args = append(args, "--quiet")
		}
		out, err := runCombined(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		if progress := strings.Contains(out, `level=INFO msg="bench progress"`); progress == quiet {
			t.Errorf("--quiet=%v: progress logged %v:\n%s", quiet, progress, out)
		}
	}
}

// At logLevel debug, schedule says how long loading the landscape took and how many bytes it read: what make
// bench-wholerun reads to measure loading as a user runs it.
func TestScheduleLogsTheLoad(t *testing.T) {
	config := configurationFile(t, "logLevel: debug\nlogFormat: json\n")
	landscape := filepath.Join(t.TempDir(), "landscape")
	if _, err := run(t, "generate", "--seeds", "4", "--shoots", "10", "--dir", landscape); err != nil {
		t.Fatal(err)
	}
	logs, err := runCombined(t, "schedule", "--config", config, "--landscape", landscape, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	type record struct {
		Msg     string
		Seconds float64
		Bytes   int64
		Seeds   int
		Shoots  int
	}
	var loaded record
	for line := range strings.Lines(logs) {
		if r := (record{}); json.Unmarshal([]byte(line), &r) == nil && r.Msg == "landscape loaded" {
			loaded = r
		}
	}
	if loaded.Msg == "" || loaded.Seconds <= 0 || loaded.Bytes != fixture.DirSize(t, landscape) || loaded.Seeds != 4 || loaded.Shoots != 10 {
		t.Fatalf("the load logged as %+v; output:\n%s", loaded, logs)
	}
}

// What is wrong with a landscape's region ConfigMaps is warned of as it is read, before a shoot meets it: an entry
// Gardener cannot parse, a cloud profile that two ConfigMaps name. A landscape without either is not warned of.
func TestWarnsOfRegionConfigProblems(t *testing.T) {
	landscape := t.TempDir()
	if _, err := run(t, "generate", "--seeds", "4", "--shoots", "10", "--dir", landscape); err != nil {
		t.Fatal(err)
	}
	if _, logged, err := runLogged(t, "schedule", "-o", "name", "--landscape", landscape); err != nil || strings.Contains(logged, "ConfigMap") {
		t.Fatalf("a generated landscape: %v, logged\n%s", err, logged)
	}
	broken := `apiVersion: v1
kind: ConfigMap
metadata:
  name: zz-aws-regions
  namespace: garden
  labels: {scheduling.gardener.cloud/purpose: region-config}
  annotations: {scheduling.gardener.cloud/cloudprofiles: aws}
data:
  eu-west-1: "eu-central-1: near"
`
	if err := os.WriteFile(filepath.Join(landscape, "zz-broken.yaml"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	_, logged, err := runLogged(t, "schedule", "-o", "name", "--landscape", landscape)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`region ConfigMap garden/zz-aws-regions: entry \"eu-west-1\" does not parse`,
		"cloud profile aws is named by 2 region ConfigMaps (aws-region-config, zz-aws-regions): seedplan uses aws-region-config",
	} {
		if !strings.Contains(logged, want) {
			t.Errorf("logged\n%s\nwithout %q", logged, want)
		}
	}
}

// A command given neither --landscape nor a garden reads the embedded example and says so on standard error, so
// that a forgotten flag does not pass the example's answer off as the landscape's; one given either says nothing
// of it.
func TestSaysWhenItReadsTheExample(t *testing.T) {
	landscape := t.TempDir()
	if _, err := run(t, "generate", "--seeds", "4", "--shoots", "10", "--dir", landscape); err != nil {
		t.Fatal(err)
	}
	const says = "Reading the embedded example landscape: no --landscape, --kubeconfig or --cluster was given"
	for _, tc := range []struct {
		args    []string
		example bool
	}{
		{[]string{"schedule", "-o", "name"}, true},
		{[]string{"explain", "garden-data/data-api-11", "-o", "name"}, true},
		{[]string{"rebalance", "-o", "name"}, true},
		{[]string{"capacity", "-o", "name"}, true},
		{[]string{"schedule", "-o", "name", "--landscape", landscape}, false},
		{[]string{"capacity", "-o", "name", "--landscape", landscape}, false},
	} {
		out, logged, err := runLogged(t, tc.args...)
		if err != nil || out == "" && tc.args[0] != "capacity" {
			t.Fatalf("%v: %q, %v", tc.args, out, err)
		}
		if strings.Contains(logged, says) != tc.example || strings.Contains(out, says) {
			t.Errorf("%v: logged\n%s\nsaying %q: %v, want %v", tc.args, logged, says, strings.Contains(logged, says), tc.example)
		}
	}
}

// Every flag that overrides the configuration exists on some command and names the field it sets as Validate
// names fields, a path of the configuration's JSON names: an invalid value is then reported by its flag.
func TestOverridesNameTheirFlagsAndFields(t *testing.T) {
	commands := newRootCommand().Commands()
	var f planFlags
	for _, o := range f.overrides(config.Default()) {
		if !slices.ContainsFunc(commands, func(cmd *cobra.Command) bool { return cmd.Flags().Lookup(o.flag) != nil }) {
			t.Errorf("--%s: no command has it", o.flag)
		}
		typ := reflect.TypeFor[config.SeedPlanConfiguration]()
		for _, name := range strings.Split(o.field, ".") {
			field, ok := jsonField(typ, name)
			if !ok {
				t.Errorf("--%s: %s has no field %q", o.flag, typ, name)
				break
			}
			if typ = field.Type; typ.Kind() == reflect.Pointer {
				typ = typ.Elem()
			}
		}
	}
}

// jsonField is the field of the struct type typ that JSON names name.
func jsonField(typ reflect.Type, name string) (reflect.StructField, bool) {
	if typ.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := range typ.NumField() {
		if tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ","); tag == name {
			return typ.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

// Every flag given an invalid value is reported at once, each by its flag, so that an operator mends them in one go.
func TestInvalidFlagsAreReportedTogether(t *testing.T) {
	_, err := run(t, "schedule", "--strategy", "Nearest", "--target-utilization", "2", "--scheduler-name", "Seed_Plan")
	if err == nil {
		t.Fatal("invalid flags were accepted")
	}
	for _, want := range []string{
		"--scheduler-name Seed_Plan: a lowercase RFC 1123 label",
		"--strategy Nearest: must be SameRegion or MinimalDistance",
		"--target-utilization 2: must be in (0, 1]",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// A configuration file's errors are reported together, each line naming the flag and the file, as the flags' own
// errors each name their flag: each invalid value, each unknown field, each value that does not decode.
func TestConfigurationErrorsNameTheFileOnEveryLine(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		lines      []string
	}{
		{"two invalid values", "strategy: Nearest\nwindow:\n  maxShoots: -3\n",
			[]string{"strategy: Nearest: must be SameRegion or MinimalDistance", "window.maxShoots: -3: must be at least 1"}},
		{"two unknown fields", "bogus: 1\nwindow:\n  maxShots: 5\n", []string{`unknown field "bogus"`, `unknown field "window.maxShots"`}},
		{"two values that do not decode", "window:\n  maxWait: 5\nsolver:\n  timeout: soon\n",
			[]string{`solver.timeout: time: invalid duration "soon"`, `window.maxWait: must be a duration such as "1m30s", not a number`}},
		{"one", "logLevel: loud\n", []string{"logLevel: loud"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := configurationFile(t, tc.yaml)
			_, err := run(t, "schedule", "--config", path)
			if err == nil {
				t.Fatal("an invalid configuration was accepted")
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.lines) {
				t.Fatalf("error:\n%v\nwant %d lines", err, len(tc.lines))
			}
			for i, w := range tc.lines {
				if !strings.HasPrefix(lines[i], "--config: configuration "+path+": "+w) {
					t.Errorf("line %d: %q, want it to name the flag, the file and %q", i+1, lines[i], w)
				}
			}
		})
	}
}

// A flag sets a field before the configuration is validated, as kube-scheduler's flags override its file: a field
// the flag sets may be invalid in the file, and only what is left invalid is reported, by flag or by file.
func TestFlagsOverrideInvalidConfigurationFields(t *testing.T) {
	path := configurationFile(t, "strategy: Nearest\nwindow:\n  maxShoots: -3\n")
	for _, tc := range []struct {
		name  string
		flags []string
		want  string // the whole error; "" for none
	}{
		{"one of two invalid fields set by its flag", []string{"--strategy", "MinimalDistance"},
			"--config: configuration " + path + ": window.maxShoots: -3: must be at least 1"},
		{"the flag invalid too", []string{"--strategy", "Nearest"},
			"--strategy Nearest: must be SameRegion or MinimalDistance\n--config: configuration " + path + ": window.maxShoots: -3: must be at least 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, append([]string{"schedule", "--config", path}, tc.flags...)...)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error:\n%v\nwant:\n%s", err, tc.want)
			}
		})
	}
	fixed := configurationFile(t, "strategy: Nearest\n")
	if out, err := run(t, "schedule", "--config", fixed, "--strategy", "MinimalDistance"); err != nil || !strings.Contains(out, "strategy MinimalDistance") {
		t.Fatalf("the only invalid field set by its flag: %v\n%s", err, out)
	}
}

// --log-level and --log-format override the configuration file's logLevel and logFormat, as every flag overrides
// its setting: a run at debug level, or in JSON, needs no file of its own, and the file's choice holds without them.
func TestLogFlagsOverrideTheConfiguration(t *testing.T) {
	path := configurationFile(t, "logLevel: error\nlogFormat: json\n")
	for _, tc := range []struct {
		name          string
		args          []string
		debug, asJSON bool // the landscape loaded record is logged, and as JSON
	}{
		{"the file's level and format", []string{"--config", path}, false, false},
		{"--log-level over the file's", []string{"--config", path, "--log-level", "debug"}, true, true},
		{"--log-format over the file's", []string{"--config", path, "--log-level", "debug", "--log-format", "text"}, true, false},
		{"without a file", []string{"--log-level", "debug", "--log-format", "json"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, logged, err := runLogged(t, append([]string{"schedule", "-o", "name"}, tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			debug := strings.Contains(logged, "landscape loaded")
			asJSON := strings.Contains(logged, `"msg":"landscape loaded"`)
			if debug != tc.debug || asJSON != tc.asJSON {
				t.Errorf("logged the debug record: %v, as JSON: %v; want %v, %v:\n%s", debug, asJSON, tc.debug, tc.asJSON, logged)
			}
		})
	}
	checkRefused(t, []string{"schedule"}, []refusal{
		{[]string{"--log-level", "verbose"}, "--log-level verbose: must be one of debug, info, warn, error"},
		{[]string{"--log-format", "xml"}, "--log-format xml: must be one of json, text"},
	})
}

// cordon and uncordon refuse a name no seed can have, or one given twice, before they reach for a garden (here
// there is none), each such name with its reason.
func TestCordonRefusesWhatNamesNoSeed(t *testing.T) {
	const notAName = "not a seed's name: a lowercase RFC 1123 subdomain"
	for _, command := range []string{"cordon", "uncordon"} {
		checkRefused(t, []string{command}, []refusal{
			{[]string{""}, `seed "": ` + notAName},
			{[]string{"aws-eu1", "Seed_1"}, `seed "Seed_1": ` + notAName},
			{[]string{"garden/aws-eu1"}, `seed "garden/aws-eu1": ` + notAName},
			{[]string{"aws-eu1", "aws-eu2", "aws-eu1"}, `seed "aws-eu1" is given twice`},
		})
	}
	if _, err := run(t, "cordon", "a_b", "c/d"); err == nil || strings.Count(err.Error(), notAName) != 2 {
		t.Fatalf("two names no seed can have: %v, want both refused", err)
	}
}

// cordon and uncordon take a seed as kubectl takes one, NAME or TYPE/NAME, so explain's -o name (seed/NAME) can be
// handed to them; the type only strips, the name is checked as any other and counts as the same seed.
func TestCordonTakesKubectlsForms(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"aws-eu1"}, []string{"aws-eu1"}},
		{[]string{"seed/aws-eu1", "seeds/aws-eu2"}, []string{"aws-eu1", "aws-eu2"}},
		{[]string{"seed.core.gardener.cloud/aws-eu1", "seeds.core.gardener.cloud/aws-eu2"}, []string{"aws-eu1", "aws-eu2"}},
	} {
		o := &cordonOptions{}
		if err := o.checkArgs(newCordonCommand(true), tc.args); err != nil || !slices.Equal(o.seeds, tc.want) {
			t.Errorf("cordon %q: seeds %q, %v; want %q", tc.args, o.seeds, err, tc.want)
		}
	}
	checkRefused(t, []string{"cordon"}, []refusal{
		{[]string{"seed/aws-eu1", "aws-eu1"}, `seed "aws-eu1" is given twice`},
		{[]string{"shoot/aws-eu1"}, `seed "shoot/aws-eu1": not a seed's name`},
		{[]string{"seed/"}, `seed "": not a seed's name`},
	})
}

// A page that cannot be written is refused before the landscape is read, so that nothing is planned, bound or
// moved by a run that would then fail.
func TestUnwritablePageIsRefusedFirst(t *testing.T) {
	page := filepath.Join(t.TempDir(), "missing", "plan.html")
	for _, command := range []string{"schedule", "rebalance", "capacity"} {
		_, logged, err := runLogged(t, command, "--report", page)
		if err == nil || !strings.Contains(err.Error(), "--report "+page+": cannot write a file into") || strings.Contains(logged, "landscape") {
			t.Errorf("%s --report %s: %v, logging\n%s\nwant it refused before the landscape is read", command, page, err, logged)
		}
	}
}

// -o name that names nothing says why on standard error, as kubectl says "No resources found": here nothing is
// pending, overloaded or short of room.
func TestOutputNameSaysWhyItNamesNothing(t *testing.T) {
	quiet, err := run(t, "generate", "--seeds", "5", "--shoots", "0", "--existing", "5")
	if err != nil {
		t.Fatal(err)
	}
	landscape := filepath.Join(t.TempDir(), "quiet.yaml")
	if err := os.WriteFile(landscape, []byte(quiet), 0o600); err != nil {
		t.Fatal(err)
	}
	for command, want := range map[string]string{
		"schedule":  "no shoot is placed (0 pending, 0 unschedulable), and -o name names none",
		"rebalance": "no move is recommended, and -o name names none",
		"capacity":  "no new seed is needed, and -o name names no ManagedSeedSet",
	} {
		out, logged, err := runLogged(t, command, "--landscape", landscape, "-o", "name")
		if err != nil || out != "" || !strings.Contains(logged, want) {
			t.Errorf("%s -o name: %q, %v, logging\n%s\nwant nothing, and a warning %q", command, out, err, logged, want)
		}
		if _, logged, _ := runLogged(t, command, "--landscape", landscape, "-o", "json"); strings.Contains(logged, "-o name") {
			t.Errorf("%s -o json warns of -o name:\n%s", command, logged)
		}
	}
}

// Every flag naming a seed takes it as the operands do, NAME or seed/NAME (what -o name prints), to the same answer.
func TestSeedFlagsTakeKubectlsForms(t *testing.T) {
	for _, args := range [][]string{
		{"rebalance", "-o", "json", "--drain"},
		{"explain", "garden-data/data-api-11", "-o", "json", "--seed"},
	} {
		byName, err := run(t, append(slices.Clone(args), "aws-eu-west-1-2")...)
		if err != nil {
			t.Fatal(err)
		}
		byType, err := run(t, append(slices.Clone(args), "seed/aws-eu-west-1-2")...)
		if err != nil || byType != byName {
			t.Errorf("%v seed/aws-eu-west-1-2: %v, answer differs from the seed given by name:\n%s\nwant\n%s", args, err, byType, byName)
		}
	}
}
