package ingest_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/fixture"
)

// BenchmarkLoad reads a generated landscape of 500 seeds and 15,000 shoots (10,000 pending) from files, as YAML
// and as JSON, and reports the input's megabytes per second. The alternating sub-benchmark loads the two in turn
// and reports both speeds and how many times as fast per byte JSON is: the shared host's speed drifts more between
// the first two sub-benchmarks than it does within one alternation. Each of its loads starts from a collected
// heap rather than beside the garbage of the load before, which is the other format's, and is collected as the
// runtime paces it (a seedplan command defers its first collection instead: make bench-wholerun measures that).
// Run: go test ./ingest -run '^$' -bench Load
func BenchmarkLoad(b *testing.B) {
	formats := []string{"yaml", "json"}
	dirs := writeLandscapes(b, formats...)
	for _, format := range formats {
		b.Run(format, func(b *testing.B) {
			b.SetBytes(fixture.DirSize(b, dirs[format]))
			for b.Loop() {
				load(b, dirs[format])
			}
		})
	}
	b.Run("alternating", func(b *testing.B) {
		var seconds [2]float64
		for b.Loop() {
			for i, format := range formats {
				runtime.GC()
				start := time.Now()
				load(b, dirs[format])
				seconds[i] += time.Since(start).Seconds()
			}
		}
		megabytesPerSecond := func(i int) float64 {
			return float64(fixture.DirSize(b, dirs[formats[i]])) / 1e6 * float64(b.N) / seconds[i]
		}
		yaml, json := megabytesPerSecond(0), megabytesPerSecond(1)
		b.ReportMetric(yaml, "yaml-MB/s")
		b.ReportMetric(json, "json-MB/s")
		b.ReportMetric(json/yaml, "json/yaml")
	})
}

// load reads the landscape in dir, which holds 15,000 shoots.
func load(b *testing.B, dir string) {
	l, err := ingest.LoadPaths([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	if got := len(l.Objects.Shoots); got != 15000 {
		b.Fatalf("%d shoots loaded", got)
	}
}

// writeLandscapes writes the landscape in each format to a directory of its own. The generated objects are
// garbage once written: kept alive, every collection during a load would scan them too, which a process that
// only loads never does.
func writeLandscapes(b *testing.B, formats ...string) map[string]string {
	objs, err := generator.Generate(generator.Config{Seeds: 500, Shoots: 10000, Existing: 5000, Contention: 1.0, Seed: 1, Mix: generator.RealisticMix()})
	if err != nil {
		b.Fatal(err)
	}
	dirs := map[string]string{}
	for _, format := range formats {
		dirs[format] = b.TempDir()
		if err := generator.Write(dirs[format], objs, format); err != nil {
			b.Fatal(err)
		}
	}
	return dirs
}
