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
	objs, err := generator.Generate(generator.Config{Seeds: 500, Shoots: 10000, Existing: 5000, Contention: 1.0, Seed: 1, Mix: generator.RealisticMix()})
	if err != nil {
		b.Fatal(err)
	}
	for _, format := range []string{"yaml", "json"} {
		b.Run(format, func(b *testing.B) {
			dir := b.TempDir()
			if err := generator.Write(dir, objs, format); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(dirSize(b, dir))
			for b.Loop() {
				l, err := ingest.LoadPaths([]string{dir})
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
