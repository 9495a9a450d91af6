package ingest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/ingest"
)

// BenchmarkLoad reads a generated landscape of 500 seeds and 15,000 shoots (10,000 pending) from files, as YAML
// and as JSON, and reports the input's megabytes per second. Run: go test ./ingest -run '^$' -bench Load
func BenchmarkLoad(b *testing.B) {
	dirs := writeLandscapes(b, "yaml", "json")
	for _, format := range []string{"yaml", "json"} {
		b.Run(format, func(b *testing.B) {
			b.SetBytes(dirSize(b, dirs[format]))
			for b.Loop() {
				l, err := ingest.LoadPaths([]string{dirs[format]})
				if err != nil {
					b.Fatal(err)
				}
				if got := len(l.Objects.Shoots); got != 15000 {
					b.Fatalf("%d shoots loaded", got)
				}
			}
		})
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

func dirSize(b *testing.B, dir string) int64 {
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, e := range entries {
		info, err := os.Stat(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		size += info.Size()
	}
	return size
}
