// Package examples embeds seedplan's data: the real region-distance ConfigMaps of the Gardener provider
// extensions and the default example landscape that `seedplan schedule` uses without --landscape.
package examples

import "embed"

// Regions holds the upstream region-config ConfigMaps of the aws, gcp, azure and alicloud provider extensions
// (regions/<provider>-region-config.yaml), unmodified.
//
//go:embed regions/*.yaml
var Regions embed.FS

// RegionsDir is the directory of the region ConfigMaps inside Regions.
const RegionsDir = "regions"

// Landscape is the default example landscape: about 40 seeds on aws, gcp, azure, openstack and alicloud in real
// regions, a few hundred existing and about 400 pending shoots. Regenerate it with `make example`.
//
//go:embed landscape/*.yaml
var Landscape embed.FS

// LandscapeDir is the directory of the example landscape inside Landscape.
const LandscapeDir = "landscape"
