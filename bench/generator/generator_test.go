package generator

import (
	"reflect"
	"testing"
)

// Every region the generator places seeds or shoots in has a continent, for the cross-continent metric.
func TestEveryRegionHasAContinent(t *testing.T) {
	for provider, regions := range providerRegions {
		for _, r := range regions {
			if Continent(r) == "" {
				t.Errorf("%s region %s has no continent", provider, r)
			}
		}
	}
}

// The same configuration gives the same landscape.
func TestGenerateIsReproducible(t *testing.T) {
	cfg := Config{Seeds: 12, Shoots: 40, Existing: 20, Contention: 1.0, Seed: 9, Mix: StressMix()}
	a, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Shoots) != 60 || len(a.Seeds) != 12 {
		t.Fatalf("got %d shoots and %d seeds", len(a.Shoots), len(a.Seeds))
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs differ")
	}
}
