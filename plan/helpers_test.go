package plan_test

import (
	"testing"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/model"
)

// generatedSnapshot is the snapshot of a generated landscape.
func generatedSnapshot(tb testing.TB, cfg generator.Config) *model.Snapshot {
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
