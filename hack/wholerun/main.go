// Command wholerun measures seedplan as a user runs it: a whole `seedplan schedule --landscape DIR -o json`
// process per landscape size and solver, its wall time, how long it took to load the landscape (from its debug
// log), its window's time (model, solve, verify: from its JSON) and its peak resident memory. It generates each
// landscape with `seedplan generate` first and writes a table (wholerun.txt) and the figures (wholerun.json)
// into --out. make bench runs it.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

// landscape is one row's landscape: how seedplan generate makes it and how schedule plans it.
type landscape struct {
	Name     string   `json:"name"`
	Generate []string `json:"generate"`
	Strategy string   `json:"strategy"`
}

// landscapes are the rows of the README's whole-run table.
var landscapes = []landscape{
	{"1,000 x 200 + 500 bound", []string{"--seeds", "200", "--shoots", "1000", "--existing", "500", "--contention", "1.0", "--seed", "1"}, "SameRegion"},
	{"10,000 x 500 + 5,000 bound", []string{"--seeds", "500", "--shoots", "10000", "--existing", "5000", "--contention", "1.0", "--seed", "1"}, "SameRegion"},
	{"10,000 x 500 + 5,000 bound, MinimalDistance", []string{"--seeds", "500", "--shoots", "10000", "--existing", "5000", "--contention", "1.0", "--seed", "1"}, "MinimalDistance"},
	{"the same as JSON", []string{"--seeds", "500", "--shoots", "10000", "--existing", "5000", "--contention", "1.0", "--seed", "1", "-o", "json"}, "MinimalDistance"},
	{"the same, every shoot distinct", []string{"--seeds", "500", "--shoots", "10000", "--existing", "5000", "--contention", "1.0", "--seed", "1", "--distinct"}, "MinimalDistance"},
	{"50,000 x 1,000 + 25,000 bound", []string{"--seeds", "1000", "--shoots", "50000", "--existing", "25000", "--contention", "1.0", "--seed", "9"}, "SameRegion"},
}

// row is one measured run.
type row struct {
	Landscape string  `json:"landscape"`
	Solver    string  `json:"solver"`
	InputMB   float64 `json:"inputMB"`
	// Seconds are medians over the repeats; PeakRSSMB the largest.
	WholeSeconds  float64 `json:"wholeSeconds"`
	LoadSeconds   float64 `json:"loadSeconds"`
	WindowSeconds float64 `json:"windowSeconds"`
	ModelSeconds  float64 `json:"modelSeconds"`
	SolveSeconds  float64 `json:"solveSeconds"`
	VerifySeconds float64 `json:"verifySeconds"`
	PeakRSSMB     float64 `json:"peakRSSMB"`
	Placed        int     `json:"placed"`
	Optimal       bool    `json:"optimal"`
}

func main() {
	bin := flag.String("bin", "bin/seedplan", "the seedplan binary")
	out := flag.String("out", "bench/results", "directory for wholerun.txt and wholerun.json")
	repeats := flag.Int("repeats", 3, "runs per landscape and solver")
	flag.Parse()
	if err := run(*bin, *out, *repeats); err != nil {
		slog.Error("wholerun", "err", err)
		os.Exit(1)
	}
}

func run(bin, out string, repeats int) error {
	work, err := os.MkdirTemp("", "wholerun-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	var rows []row
	for i, l := range landscapes {
		dir := filepath.Join(work, fmt.Sprint(i))
		if out, err := exec.Command(bin, append([]string{"generate", "--dir", dir}, l.Generate...)...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: generate: %w: %s", l.Name, err, bytes.TrimSpace(out))
		}
		size, err := dirSize(dir)
		if err != nil {
			return err
		}
		for _, solver := range []string{"lp", "greedy"} {
			r, err := measure(bin, dir, l, solver, repeats)
			if err != nil {
				return fmt.Errorf("%s, %s: %w", l.Name, solver, err)
			}
			r.InputMB = float64(size) / 1e6
			rows = append(rows, r)
			slog.Info("measured", "landscape", l.Name, "solver", solver, "whole", r.WholeSeconds, "load", r.LoadSeconds, "window", r.WindowSeconds, "rssMB", r.PeakRSSMB)
		}
		os.RemoveAll(dir)
	}
	return write(out, rows)
}

// measure runs schedule repeats times and keeps the medians and the largest peak memory.
func measure(bin, dir string, l landscape, solver string, repeats int) (row, error) {
	r := row{Landscape: l.Name, Solver: solver}
	var whole, load, window, model, solve, verify []float64
	for range repeats {
		var stdout, stderr bytes.Buffer
		// The debug log's "landscape loaded" record says how long loading took.
		cmd := exec.Command(bin, "schedule", "--log-level", "debug", "--log-format", "json", "--landscape", dir, "--strategy", l.Strategy, "--solver", solver, "-o", "json")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return r, fmt.Errorf("schedule: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
		}
		whole = append(whole, time.Since(start).Seconds())
		if usage, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.PeakRSSMB = max(r.PeakRSSMB, float64(usage.Maxrss)/1024) // kilobytes on Linux
		}
		seconds, err := loadSeconds(stderr.Bytes())
		if err != nil {
			return r, err
		}
		load = append(load, seconds)
		var plan struct {
			Window struct {
				Optimal bool               `json:"optimal"`
				Seconds map[string]float64 `json:"seconds"`
			} `json:"window"`
			Placements []json.RawMessage `json:"placements"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &plan); err != nil {
			return r, fmt.Errorf("reading the plan: %w", err)
		}
		s := plan.Window.Seconds
		window, model, solve, verify = append(window, s["total"]), append(model, s["model"]), append(solve, s["solve"]), append(verify, s["verify"])
		r.Placed, r.Optimal = len(plan.Placements), plan.Window.Optimal
	}
	r.LoadSeconds = median(load)
	r.WholeSeconds, r.WindowSeconds, r.ModelSeconds, r.SolveSeconds, r.VerifySeconds = median(whole), median(window), median(model), median(solve), median(verify)
	return r, nil
}

// loadSeconds is how long loading the landscape took, from the "landscape loaded" record of a JSON debug log.
func loadSeconds(log []byte) (float64, error) {
	for line := range bytes.Lines(log) {
		var record struct {
			Msg     string  `json:"msg"`
			Seconds float64 `json:"seconds"`
		}
		if json.Unmarshal(line, &record) == nil && record.Msg == "landscape loaded" {
			return record.Seconds, nil
		}
	}
	return 0, fmt.Errorf("no \"landscape loaded\" record in the log:\n%s", log)
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

func dirSize(dir string) (int64, error) {
	var size int64
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return 0, err
		}
		size += info.Size()
	}
	return size, nil
}

func write(out string, rows []row) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "wholerun.json"), append(data, '\n'), 0o644); err != nil {
		return err
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "LANDSCAPE\tINPUT MB\tSOLVER\tWHOLE RUN\tLOAD\tLOAD MB/S\tWINDOW\tMODEL\tSOLVE\tVERIFY\tPEAK RSS MB\tPLACED\tOPTIMAL\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.1f\t%s\t%.2fs\t%.3fs\t%.0f\t%.3fs\t%.3fs\t%.3fs\t%.3fs\t%.0f\t%d\t%v\t\n", r.Landscape, r.InputMB, r.Solver,
			r.WholeSeconds, r.LoadSeconds, r.InputMB/r.LoadSeconds, r.WindowSeconds, r.ModelSeconds, r.SolveSeconds, r.VerifySeconds, r.PeakRSSMB, r.Placed, r.Optimal)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Print(b.String())
	return os.WriteFile(filepath.Join(out, "wholerun.txt"), []byte(b.String()), 0o644)
}
