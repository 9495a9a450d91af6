// Package generated makes the random landscapes of property tests: bench/generator's landscapes as snapshots.
// It is apart from internal/fixture, which ingest's own tests import and which therefore cannot import the
// generator (the generator writes through ingest).
package generated

import (
	"testing"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/model"
)

// Snapshot is the snapshot of the landscape the generator makes of cfg; a failure fails the test.
func Snapshot(tb testing.TB, cfg generator.Config) *model.Snapshot {
	tb.Helper()
	objs, err := generator.Generate(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	snap, err := model.NewSnapshot(objs)
	if err != nil {
		tb.Fatal(err)
	}
	return snap
}
