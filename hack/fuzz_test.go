package hack_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// hack/fuzz.sh fails a target on a finding and on any other failure, and passes over only what Go before 1.27
// reports at the end of -fuzztime on its own (golang/go#75804): "context deadline exceeded" with no input written.
func TestFuzzScriptFailsOnFindingsOnly(t *testing.T) {
	const spurious = "fuzz: elapsed: 41s, execs: 62773 (0/sec)\n--- FAIL: FuzzJSONPath (41.03s)\n    context deadline exceeded\nFAIL\n"
	const finding = "--- FAIL: FuzzJSONPath (0.12s)\n    --- FAIL: FuzzJSONPath (0.00s)\n        panic: runtime error\n" +
		"    Failing input written to testdata/fuzz/FuzzJSONPath/5e1c\n    context deadline exceeded\nFAIL\n"
	for _, tc := range []struct {
		name, goVersion, output string
		status                  int
		wantFailure             bool
	}{
		{"a run that passes", "go1.26.8", "PASS\n", 0, false},
		{"a finding", "go1.26.8", finding, 1, true},
		{"the coordinator's own deadline before Go 1.27", "go1.26.8", spurious, 1, false},
		{"the same deadline from Go 1.27 on, where it is fixed", "go1.27.1", spurious, 1, true},
		{"a failure that is no fuzzing's, a build's", "go1.26.8", "FAIL\tgithub.com/seedplan/seedplan/report [build failed]\n", 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			fakeGo, args := filepath.Join(dir, "go"), filepath.Join(dir, "args")
			// A go command that answers env with the version, and test with the output and status, noting its arguments.
			script := "#!/bin/sh\nif [ \"$1\" = env ]; then echo " + tc.goVersion + "; exit 0; fi\nprintf '%s\\n' \"$@\" > " + args +
				"\ncat <<'OUTPUT'\n" + tc.output + "OUTPUT\nexit " + strconv.Itoa(tc.status) + "\n"
			if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("./fuzz.sh", "./report", "FuzzJSONPath", "-fuzztime", "40s")
			cmd.Env = append(os.Environ(), "GO="+fakeGo)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				t.Fatal(err)
			}
			if failed := err != nil; failed != tc.wantFailure {
				t.Fatalf("fuzz.sh failed: %v, want %v; it printed:\n%s", failed, tc.wantFailure, out.String())
			}
			if !strings.Contains(out.String(), tc.output) {
				t.Errorf("fuzz.sh hid go test's output; it printed:\n%s", out.String())
			}
			given, err := os.ReadFile(args)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"test", "./report", "-run", "^$", "-fuzz", "^FuzzJSONPath$", "-fuzztime", "40s"}
			if got := strings.Fields(string(given)); !slices.Equal(got, want) {
				t.Errorf("fuzz.sh ran go %q, want go %q: the target alone, with the flags it was given", got, want)
			}
		})
	}
}

// A module of its own, such as test/conformance, is fuzzed from its directory: go test from the repository's root
// would not find its package.
func TestFuzzScriptFuzzesAModuleOfItsOwnFromItsDirectory(t *testing.T) {
	dir := t.TempDir()
	module, fakeGo, ran := filepath.Join(dir, "conformance"), filepath.Join(dir, "go"), filepath.Join(dir, "ran")
	if err := os.Mkdir(module, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(module, "go.mod"), []byte("module example.com/conformance\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A go command that notes where it ran and its arguments, and passes.
	script := "#!/bin/sh\n{ pwd; printf '%s\\n' \"$@\"; } > " + ran + "\necho PASS\n"
	if err := os.WriteFile(fakeGo, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("./fuzz.sh", module, "FuzzGreedy", "-fuzztime", "40s")
	cmd.Env = append(os.Environ(), "GO="+fakeGo)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fuzz.sh: %v; it printed:\n%s", err, out)
	}
	given, err := os.ReadFile(ran)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{module, "test", ".", "-run", "^$", "-fuzz", "^FuzzGreedy$", "-fuzztime", "40s"}
	if got := strings.Fields(string(given)); !slices.Equal(got, want) {
		t.Errorf("fuzz.sh ran, in its first line's directory, go %q; want %q", got, want)
	}
}

// make fuzz fuzzes every fuzz target of the repository, each in its own package, test/conformance's too.
func TestMakeFuzzRunsEveryTarget(t *testing.T) {
	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^\t\$\(FUZZ\) (\S+) (Fuzz\w+) `).FindAllStringSubmatch(string(makefile), -1) {
		listed = append(listed, strings.TrimPrefix(m[1], "./")+" "+m[2])
	}
	var defined []string
	declaration := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(f \*testing\.F\)`)
	err = filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != ".." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, "_test.go"):
			return nil
		}
		source, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range declaration.FindAllStringSubmatch(string(source), -1) {
			defined = append(defined, filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../")))+" "+m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(listed)
	slices.Sort(defined)
	if len(defined) == 0 || !slices.Equal(listed, defined) {
		t.Fatalf("make fuzz runs\n  %s\nthe module's fuzz targets are\n  %s", strings.Join(listed, "\n  "), strings.Join(defined, "\n  "))
	}
}
