package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// The CLI's help pages and its output formats on the embedded example landscape, byte for byte as checked in
// (testdata/golden; go test ./cmd/seedplan -run TestGolden -update rewrites them). Timings appear only in summary
// lines, which --no-headers leaves out, so every case is deterministic.
func TestGolden(t *testing.T) {
	cases := map[string][]string{
		"schedule-no-headers":       {"schedule", "--no-headers"},
		"schedule-wide-no-headers":  {"schedule", "-o", "wide", "--no-headers"},
		"schedule-name":             {"schedule", "-o", "name"},
		"capacity-no-headers":       {"capacity", "--no-headers"},
		"capacity-wide-no-headers":  {"capacity", "-o", "wide", "--no-headers"},
		"explain-placed-wide":       {"explain", "garden-data/data-api-11", "-o", "wide"},
		"rebalance-name":            {"rebalance", "-o", "name"},
		"explain-unschedulable":     {"explain", "garden-data/data-batch-225"},
		"explain-own-networks":      {"explain", "garden-iot/iot-db-188"},
		"explain-own-networks-yaml": {"explain", "garden-iot/iot-db-188", "-o", "yaml"},
		"explain-placed-yaml":       {"explain", "garden-data/data-api-11", "-o", "yaml"},
		"help":                      {"--help"},
	}
	for _, cmd := range newRootCommand().Commands() {
		if cmd.Name() != "help" && cmd.Name() != "completion" {
			cases["help-"+cmd.Name()] = []string{cmd.Name(), "--help"}
		}
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := run(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join("testdata", "golden", name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (go test ./cmd/seedplan -run TestGolden -update writes it)", err)
			}
			if out != string(want) {
				t.Fatalf("seedplan %s differs from %s:\n%s", strings.Join(args, " "), file, firstDifference(string(want), out))
			}
		})
	}
}

// firstDifference shows the first line where got differs from want.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, wl, gl)
		}
	}
	return ""
}
