package model

import "sync"

// RegionConfigCache keeps the parsed entries of region ConfigMaps from one snapshot to the next, as Defaulted
// keeps defaulted objects: parsing the distance matrices of real region configs cost as much as the rest of a
// snapshot, and a run loop builds one for every window, a lone new shoot's too. An entry is kept by its ConfigMap, region
// and text, so an entry that changed is parsed afresh; a snapshot keeps only the entries it read. It is safe for
// concurrent use.
type RegionConfigCache struct {
	mu     sync.Mutex
	parsed map[regionEntry]parsedRegion
}

// regionEntry is one entry of a region ConfigMap (in the garden namespace): the shoot region and the distances
// written for it. Gardener's error for a malformed entry names the ConfigMap.
type regionEntry struct {
	configMap, region, text string
}

// take is what the last snapshot parsed; nil for a nil cache.
func (c *RegionConfigCache) take() map[regionEntry]parsedRegion {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.parsed
}

// keep makes what a snapshot parsed the cache's; a nil cache keeps nothing.
func (c *RegionConfigCache) keep(parsed map[regionEntry]parsedRegion) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.parsed = parsed
}
