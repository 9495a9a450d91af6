package buildinfo

import (
	"runtime"
	"testing"
)

// A binary knows the Go version it was built with and its own version; the Gardener module shows only in
// binaries that link it (the seedplan command's test checks that).
func TestRead(t *testing.T) {
	if info := Read(); info.GoVersion != runtime.Version() || info.Version == "" {
		t.Fatalf("build information %+v", info)
	}
}
