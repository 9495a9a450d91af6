// Command image builds seedplan's OCI image from a built binary (make image): an OCI layout directory and a
// tarball for docker load or podman load, tagged seedplan:latest and seedplan:<commit>.
package main

import (
	"debug/buildinfo"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/seedplan/seedplan/internal/image"
)

func main() {
	binary := flag.String("binary", "bin/seedplan", "the seedplan binary (built with cgo, linking CLP)")
	dir := flag.String("dir", "bin/image", "the OCI layout directory to write")
	tarPath := flag.String("tar", "bin/seedplan-image.tar", "the image tarball to write (empty: none)")
	flag.Parse()
	if err := build(*binary, *dir, *tarPath); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

// build labels the image with the binary's version and commit and tags it with the commit too.
func build(binary, dir, tarPath string) error {
	info, err := buildinfo.ReadFile(binary)
	if err != nil {
		return fmt.Errorf("reading the build information of %s: %w", binary, err)
	}
	labels := map[string]string{"org.opencontainers.image.title": "seedplan", "org.opencontainers.image.version": info.Main.Version}
	var tags []string
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			labels["org.opencontainers.image.revision"] = s.Value
			tags = append(tags, "seedplan:"+s.Value[:12])
		}
	}
	img, err := image.Build(binary, dir, tarPath, labels, tags...)
	if err != nil {
		return err
	}
	digest, err := img.Digest()
	if err != nil {
		return err
	}
	slog.Info("image built", "name", image.Name, "tags", tags, "digest", digest.String(), "layout", dir, "tarball", tarPath)
	return nil
}
