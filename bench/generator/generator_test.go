package generator

import (
	"errors"
	"math"
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

// A configuration that makes no landscape is refused with the field, named as generate's flag, and why.
func TestGenerateRefusesBadConfigs(t *testing.T) {
	for _, tc := range []struct {
		cfg   Config
		field string
	}{
		{Config{Seeds: 0, Shoots: 1}, "seeds"},
		{Config{Seeds: 1, Shoots: -1}, "shoots"},
		{Config{Seeds: 1, Existing: -1}, "existing"},
		{Config{Seeds: MaxSeeds + 1}, "seeds"},
		{Config{Seeds: 1, Shoots: MaxShoots + 1}, "shoots"},
		{Config{Seeds: 1, Shoots: MaxShoots / 2, Existing: MaxShoots/2 + 1}, "existing"},
		{Config{Seeds: 1, Contention: -0.5}, "contention"},
		{Config{Seeds: 1, Contention: math.NaN()}, "contention"},
		{Config{Seeds: 1, Contention: math.Inf(1)}, "contention"},
		{Config{Seeds: 1, Providers: []string{"aws", "nope"}}, "providers"},
	} {
		_, err := Generate(tc.cfg)
		var configErr *ConfigError
		if !errors.As(err, &configErr) || configErr.Field != tc.field {
			t.Errorf("%+v: error %v, want one about %s", tc.cfg, err, tc.field)
		}
	}
}
