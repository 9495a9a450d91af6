package ingest_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/fixture"
	"github.com/seedplan/seedplan/model"
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
	// What kubectl get -o yaml writes of shoots applied with kubectl and failing: a last-applied-configuration
	// in a literal block and an error message wrapped in quotes over lines. Without the transcoder's block and
	// wrapped strings, it loads at a twentieth of the speed.
	kubectl := writeKubectlStyle(b)
	b.Run("yaml-kubectl", func(b *testing.B) {
		b.SetBytes(fixture.DirSize(b, kubectl))
		for b.Loop() {
			load(b, kubectl)
		}
	})
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

// writeKubectlStyle writes the landscape as YAML, each shoot annotated as kubectl apply leaves it and with an
// error message of the length and punctuation of Gardener's, and is its directory.
func writeKubectlStyle(b *testing.B) string {
	objs := generate(b)
	for _, shoot := range objs.Shoots {
		applied, err := json.Marshal(map[string]any{"apiVersion": shoot.APIVersion, "kind": shoot.Kind, "metadata": map[string]string{"name": shoot.Name, "namespace": shoot.Namespace}, "spec": shoot.Spec})
		if err != nil {
			b.Fatal(err)
		}
		shoot.Annotations = map[string]string{
			"kubectl.kubernetes.io/last-applied-configuration": string(applied) + "\n",
			"example.com/last-error":                           fmt.Sprintf(`task "Waiting until shoot infrastructure has been reconciled" failed: Error while waiting for Infrastructure %s/%s to become ready: error during reconciliation`, shoot.Namespace, shoot.Name),
		}
	}
	dir := b.TempDir()
	if _, err := generator.Write(dir, objs, "yaml"); err != nil {
		b.Fatal(err)
	}
	return dir
}

// generate is the generated landscape of BenchmarkLoad.
func generate(b *testing.B) model.Objects {
	objs, err := generator.Generate(generator.Config{Seeds: 500, Shoots: 10000, Existing: 5000, Contention: 1.0, Seed: 1, Mix: generator.RealisticMix()})
	if err != nil {
		b.Fatal(err)
	}
	return objs
}

// writeLandscapes writes the landscape in each format to a directory of its own. The generated objects are
// garbage once written: kept alive, every collection during a load would scan them too, which a process that
// only loads never does.
func writeLandscapes(b *testing.B, formats ...string) map[string]string {
	objs := generate(b)
	dirs := map[string]string{}
	for _, format := range formats {
		dirs[format] = b.TempDir()
		if _, err := generator.Write(dirs[format], objs, format); err != nil {
			b.Fatal(err)
		}
	}
	return dirs
}
