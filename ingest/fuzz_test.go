package ingest_test

import (
	"context"
	"testing"

	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// FuzzDecode feeds arbitrary bytes to the landscape reader: it must never panic, and whatever it accepts must
// go through the whole pipeline — snapshot, window, greedy and LP — to plans that pass model.Verify. Its corpus
// starts from every input form kubectl accepts and one case of every class of hostile input.
func FuzzDecode(f *testing.F) {
	for _, tc := range decodeFormats {
		f.Add([]byte(tc.data))
	}
	for _, tc := range hostileDocuments {
		f.Add([]byte(tc.data))
	}
	for _, seed := range []string{
		seedYAML, shootYAML, seedYAML + "---\n" + shootYAML,
		"apiVersion: v1\nkind: List\nitems:\n- apiVersion: core.gardener.cloud/v1beta1\n  kind: Project\n  metadata: {name: dev}\n  spec: {namespace: garden-dev}\n",
		`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfile","metadata":{"name":"aws"},"spec":{"type":"aws"}}`,
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r, namespace: garden, labels: {scheduling.gardener.cloud/purpose: region-config}, annotations: {scheduling.gardener.cloud/cloudprofiles: aws}}\ndata: {eu-central-1: 'eu-west-1: 5'}\n",
		"apiVersion: core.gardener.cloud/v1beta1\nkind: SeedList\nitems: [{metadata: {name: a}, spec: {provider: {type: aws, region: r}, networks: {pods: x, services: y}}}]\n",
		"kind: [\n", "---\n---\n", "null", "[]", "{}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l := &ingest.Landscape{}
		if err := l.Decode("fuzz.yaml", data); err != nil {
			return
		}
		snap, err := model.NewSnapshot(l.Objects)
		if err != nil {
			return // duplicates
		}
		for _, strategy := range []model.Strategy{model.SameRegion, model.MinimalDistance} {
			opts := model.Options{Strategy: strategy}
			for _, s := range []solver.Solver{solver.Greedy{}, solver.LP{Weights: solver.DefaultWeights()}} {
				if _, err := plan.Schedule(context.Background(), snap, snap.Pending("default-scheduler"), plan.Policy{Options: opts, Solver: s, Weights: solver.DefaultWeights()}); err != nil {
					t.Fatalf("%s, %s: %v", strategy, s.Name(), err)
				}
			}
		}
	})
}
