// Package buildinfo says which seedplan this is: its version, the commit it was built from, and the Go and
// Gardener versions it was built with, as the Go toolchain recorded them in the binary.
package buildinfo

import (
	"runtime/debug"
)

// Info is what a binary knows of its build.
type Info struct {
	// Version is the main module's version ("(devel)" for a build from a work tree).
	Version string `json:"version"`
	// Revision is the VCS commit, with "-dirty" when the work tree had changes; "unknown" without VCS data.
	Revision string `json:"revision"`
	// GoVersion is the toolchain's; Gardener the version of the Gardener API module built in.
	GoVersion string `json:"goVersion"`
	Gardener  string `json:"gardener"`
}

// Read returns the binary's build information.
func Read() Info {
	info := Info{Version: "unknown", Revision: "unknown", GoVersion: "unknown", Gardener: "unknown"}
	build, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	info.Version, info.GoVersion = build.Main.Version, build.GoVersion
	dirty := false
	for _, s := range build.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty && info.Revision != "unknown" {
		info.Revision += "-dirty"
	}
	for _, dep := range build.Deps {
		if dep.Path == "github.com/gardener/gardener/pkg/apis" {
			info.Gardener = dep.Version
		}
	}
	return info
}
