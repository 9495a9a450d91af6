package model_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/model"
)

// BenchmarkKeptSnapshot builds the snapshot a run loop builds for every window, a lone new shoot's too: from
// objects it keeps defaulted (ingest.Copies), listed in an informer's order, in a garden of 500 seeds and 10,000
// shoots with Gardener's region ConfigMaps of aws, azure, gcp and alicloud; with the parsed region ConfigMap entries
// kept from the last window's snapshot, as the loop keeps them, and parsed afresh.
// Run: go test ./model -run '^$' -bench KeptSnapshot
func BenchmarkKeptSnapshot(b *testing.B) {
	objs, err := generator.Generate(generator.Config{Seeds: 500, Shoots: 1, Existing: 10000, Contention: 0.5, Seed: 1, Mix: generator.RealisticMix()})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := model.NewSnapshot(objs); err != nil { // defaults the objects once, as the loop's copies are
		b.Fatal(err)
	}
	objs.Defaulted = true
	informerOrder := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name  string
		cache *model.RegionConfigCache
	}{{"region-configs-kept", &model.RegionConfigCache{}}, {"region-configs-parsed", nil}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				window := objs
				window.Shoots = slices.Clone(objs.Shoots)
				informerOrder.Shuffle(len(window.Shoots), func(i, j int) { window.Shoots[i], window.Shoots[j] = window.Shoots[j], window.Shoots[i] })
				window.RegionConfigCache = tc.cache
				b.StartTimer()
				if _, err := model.NewSnapshot(window); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
