package bench

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/model"
)

func TestRunWritesComparableResults(t *testing.T) {
	jobs, err := Jobs([]string{"contention-1.0", "minimal-distance", "drain", "region-outage"}, []Size{{200, 40}})
	if err != nil {
		t.Fatal(err)
	}
	var progress []int
	all, err := Run(context.Background(), Config{Jobs: jobs, Repeats: 2, Seed: 3, Timeout: 10 * time.Second,
		Progress: func(done, total int, _ string) { progress = append(progress, done) }})
	if err != nil {
		t.Fatal(err)
	}
	results := all.Windows
	if len(results) != 4*3 || len(progress) != 4*3*2 || progress[len(progress)-1] != 24 {
		t.Fatalf("%d results and %d progress calls, want 12 and 24", len(results), len(progress))
	}
	for i := 0; i < len(results); i += 3 {
		greedy, lp := results[i], results[i+1]
		if greedy.Solver != SolverGreedy || lp.Solver != SolverLP || results[i+2].Solver != SolverLPTinyTimeout {
			t.Fatalf("group %d is not greedy, lp, lp-1ms", i/3)
		}
		if lp.Placed < greedy.Placed || lp.Fallbacks != 0 || !lp.Optimal {
			t.Errorf("%s: lp placed %d (greedy %d), fallbacks %d, optimal %v", lp.Scenario, lp.Placed, greedy.Placed, lp.Fallbacks, lp.Optimal)
		}
		if greedy.Placed+greedy.Unscheduled != greedy.Pending || *greedy.PlacedVsGreedy != 1 {
			t.Errorf("%s: greedy accounts for %d of %d", greedy.Scenario, greedy.Placed+greedy.Unscheduled, greedy.Pending)
		}
		if lp.ModelP50 <= 0 || lp.SolveP50 <= 0 || lp.SolveP99 < lp.SolveP50 || len(lp.Utilizations) == 0 {
			t.Errorf("%s: timings or utilizations missing: %+v", lp.Scenario, lp)
		}
	}

	var table bytes.Buffer
	if err := WriteTable(&table, all); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(table.String(), "\n"); lines != 13 || !strings.Contains(table.String(), "region-outage") {
		t.Fatalf("table has %d lines:\n%s", lines, table.String())
	}

	dir := t.TempDir()
	if err := WriteFiles(dir, all); err != nil {
		t.Fatal(err)
	}
	if plots, err := WritePlots(dir, all); err != nil || len(plots) != 3 {
		t.Fatalf("plots %v: %v", plots, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var decoded []map[string]any
	if err := json.Unmarshal(data, &decoded); err != nil || len(decoded) != 12 || decoded[1]["solver"] != "lp" {
		t.Fatalf("results.json: %v, %d rows", err, len(decoded))
	}
	f, err := os.Open(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 13 || rows[0][0] != "scenario" {
		t.Fatalf("results.csv: %v, %d rows", err, len(rows))
	}
	for _, name := range []string{PlotSolveTime, PlotUtilization, PlotDistance} {
		png, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Fatalf("%s is not a PNG: %v", name, err)
		}
	}
}

func TestJobsAndSizes(t *testing.T) {
	if _, err := Jobs([]string{"no-such"}, []Size{{1, 1}}); err == nil || !strings.Contains(err.Error(), "known:") {
		t.Fatalf("want an error listing the known scenarios, got %v", err)
	}
	for _, tc := range []struct{ in, want, wantErr string }{
		{in: "10000x500", want: "10000x500"},
		{in: "1000000x10000", want: "1000000x10000"},
		{in: "10x", wantErr: "want PENDINGxSEEDS"},
		{in: "ax3", wantErr: "want PENDINGxSEEDS"},
		{in: "0x5", wantErr: "must each be at least 1"},
		{in: "5x-1", wantErr: "must each be at least 1"},
		{in: "1000001x5", wantErr: "at most 1000000x10000"},
		{in: "5x10001", wantErr: "at most 1000000x10000"},
	} {
		size, err := ParseSize(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseSize(%q) = %v, %v; want an error saying %q", tc.in, size, err, tc.wantErr)
			}
		} else if err != nil || size.String() != tc.want {
			t.Errorf("ParseSize(%q) = %v, %v; want %s", tc.in, size, err, tc.want)
		}
	}
}

func TestProgressBar(t *testing.T) {
	var out bytes.Buffer
	quiet := NewProgressBar(&out, time.Hour)
	quiet.Update(1, 2, "x")
	quiet.Finish()
	if out.Len() != 0 {
		t.Fatalf("a run shorter than the delay must print nothing, got %q", out.String())
	}
	bar := NewProgressBar(&out, 0)
	bar.Update(1, 2, "contention-1.0 1000x200 lp")
	if !strings.Contains(out.String(), "[###############               ] 1/2 contention-1.0 1000x200 lp") {
		t.Fatalf("bar drawn as %q", out.String())
	}
	bar.Finish()
	if !strings.HasSuffix(out.String(), "\r\x1b[K") {
		t.Fatalf("finish must clear the line, got %q", out.String())
	}
}

// region-outage takes every seed of the most seeded region out; drain taints the busiest seed.
func TestScenarioMutations(t *testing.T) {
	objs, err := generator.Generate(generator.Config{Seeds: 20, Shoots: 10, Existing: 60, Seed: 5, Mix: generator.RealisticMix()})
	if err != nil {
		t.Fatal(err)
	}
	regionOutage(&objs)
	down := map[string]int{}
	for _, s := range objs.Seeds {
		if model.SeedUnusableReason(s) == "seed condition GardenletReady is not True" {
			down[s.Spec.Provider.Type+"/"+s.Spec.Provider.Region]++
		}
	}
	if len(down) == 0 {
		t.Fatal("no region went down")
	}
	drainBusiestSeed(&objs)
	usage := model.SeedUsage(objs.Shoots)
	tainted := 0
	for _, s := range objs.Seeds {
		for _, taint := range s.Spec.Taints {
			if taint.Key == "seedplan.gardener.cloud/draining" {
				tainted++
				for _, other := range objs.Seeds {
					if usage[other.Name] > usage[s.Name] {
						t.Fatalf("drained %s (%d shoots), but %s hosts %d", s.Name, usage[s.Name], other.Name, usage[other.Name])
					}
				}
			}
		}
	}
	if tainted != 1 {
		t.Fatalf("%d seeds tainted for draining, want 1", tainted)
	}
}

// Interrupted, a run keeps the scenarios it finished: an operator who stops a long bench still gets their rows.
func TestRunKeepsFinishedWorkWhenInterrupted(t *testing.T) {
	jobs, err := Jobs([]string{"contention-1.0", "drain", "steady"}, []Size{{200, 40}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results, err := Run(ctx, Config{Jobs: jobs, Repeats: 1, Seed: 3, Timeout: 10 * time.Second,
		Progress: func(done, _ int, _ string) {
			if done == 4 { // the first scenario's three solvers, and one of the second's
				cancel()
			}
		}})
	if err == nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted after 4 of 9 windows") {
		t.Fatalf("error %v, want the interruption after 4 of 9 windows", err)
	}
	if results == nil || len(results.Windows) != 3 || results.Windows[0].Scenario != "contention-1.0" {
		t.Fatalf("kept %+v, want the first scenario's three rows", results)
	}
}

// Quantile is the nearest rank: the least value at or above the fraction p of the values, whatever their order.
func TestQuantileAndStddev(t *testing.T) {
	for _, tc := range []struct {
		values     []float64
		p, want    float64
		wantStddev float64
	}{
		{values: nil, p: 0.5, want: 0, wantStddev: 0},
		{values: []float64{7}, p: 0.99, want: 7, wantStddev: 0},
		{values: []float64{4, 1, 3, 2}, p: 0.5, want: 2, wantStddev: math.Sqrt(1.25)},
		{values: []float64{4, 1, 3, 2}, p: 0.51, want: 3, wantStddev: math.Sqrt(1.25)},
		{values: []float64{4, 1, 3, 2}, p: 1, want: 4, wantStddev: math.Sqrt(1.25)},
		{values: []float64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, p: 0.9, want: 90, wantStddev: math.Sqrt(825)},
	} {
		if got := Quantile(tc.values, tc.p); got != tc.want {
			t.Errorf("Quantile(%v, %v) = %v, want %v", tc.values, tc.p, got, tc.want)
		}
		if got := Stddev(tc.values); math.Abs(got-tc.wantStddev) > 1e-12 {
			t.Errorf("Stddev(%v) = %v, want %v", tc.values, got, tc.wantStddev)
		}
	}
}

// Counts are ticked at whole numbers, labelled without decimals ("750", never "750.00").
func TestCountTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		want     []string
	}{
		{min: 0, max: 800, want: []string{"0", "200", "400", "600", "800"}},
		{min: 0, max: 3, want: []string{"0", "1", "2", "3"}},
		{min: 0, max: 4200, want: []string{"0", "1000", "2000", "3000", "4000"}},
		{min: 5, max: 5, want: []string{"5"}},
	} {
		var got []string
		for _, tick := range (countTicks{}).Ticks(tc.min, tc.max) {
			got = append(got, tick.Label)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("ticks of [%v, %v] = %v, want %v", tc.min, tc.max, got, tc.want)
		}
	}
}
