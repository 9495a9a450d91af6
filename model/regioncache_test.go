package model

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
)

// A snapshot built with a RegionConfigCache reads every region ConfigMap entry as one built without: the same
// distances and the same error, naming its own ConfigMap, for an entry the cache parsed for an earlier snapshot.
// It parses afresh only what changed, and keeps only what the last snapshot read.
func TestRegionConfigCache(t *testing.T) {
	type configMaps map[string]map[string]string // name -> region -> text
	steps := []struct {
		name       string
		configMaps configMaps
		// reused are the entries (configMap/region) whose distances the step takes from the last one's.
		reused []string
	}{{
		name: "first snapshot",
		configMaps: configMaps{
			"a-regions": {"eu-1": "eu-2: 10", "eu-2": "eu-1: [1]", "eu-3": ""},
			"b-regions": {"eu-2": "eu-1: [1]", "us-1": "us-2: 5"},
		},
	}, {
		name: "an entry changed, one removed, a ConfigMap gone and one new with others' entries",
		configMaps: configMaps{
			"a-regions": {"eu-1": "eu-2: 10", "eu-2": "eu-1: 10"},
			"c-regions": {"eu-2": "eu-1: [1]", "us-1": "us-2: 5"},
		},
		reused: []string{"a-regions/eu-1"},
	}, {
		name:       "unchanged",
		configMaps: configMaps{"a-regions": {"eu-1": "eu-2: 10", "eu-2": "eu-1: 10"}, "c-regions": {"eu-2": "eu-1: [1]", "us-1": "us-2: 5"}},
		reused:     []string{"a-regions/eu-1", "a-regions/eu-2", "c-regions/us-1"},
	}, {
		name: "no region ConfigMaps",
	}}
	cache := &RegionConfigCache{}
	var last *Snapshot
	for _, step := range steps {
		var more []func(*Objects)
		for name, data := range step.configMaps {
			more = append(more, namedRegionConfig("garden", name, "aws", data))
		}
		fresh := testLandscape(nil, nil, more...)
		cached := testLandscape(nil, nil, append(more, func(o *Objects) { o.RegionConfigCache = cache })...)
		if got, want := describeRegionDistances(cached), describeRegionDistances(fresh); !maps.Equal(got, want) {
			t.Errorf("%s: read with the cache %v, want %v", step.name, got, want)
		}
		var reused []string
		for name, byRegion := range cached.regionDistances {
			for region, parsed := range byRegion {
				if last != nil && parsed.distances != nil && sameMap(parsed.distances, last.regionDistances[name][region].distances) {
					reused = append(reused, name+"/"+region)
				}
			}
		}
		slices.Sort(reused)
		if !slices.Equal(reused, step.reused) {
			t.Errorf("%s: took %v from the last snapshot, want %v", step.name, reused, step.reused)
		}
		entries := 0
		for _, data := range step.configMaps {
			entries += len(data)
		}
		if got := len(cache.take()); got != entries {
			t.Errorf("%s: the cache keeps %d entries, want the %d read", step.name, got, entries)
		}
		last = cached
	}
}

// describeRegionDistances writes each region ConfigMap entry of the snapshot as its distances and error.
func describeRegionDistances(snap *Snapshot) map[string]string {
	described := map[string]string{}
	for name, byRegion := range snap.regionDistances {
		for region, parsed := range byRegion {
			described[name+"/"+region] = fmt.Sprintf("%v %v", parsed.distances, parsed.err)
		}
	}
	return described
}

// sameMap reports whether a and b are one map, not two equal ones.
func sameMap(a, b map[string]int) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
