// Package image assembles seedplan's OCI image without a registry or a base image: one layer holding the binary,
// the shared libraries it links (CLP and what CLP needs, found with ldd) and the dynamic loader, and a passwd
// file for the non-root user it runs as. The layer is reproducible: same binary and libraries, same digest.
package image

import (
	"archive/tar"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Name is the image the deploy manifests run; `make image` builds it.
const Name = "seedplan:latest"

// Binary is where the seedplan binary is in the image, its entrypoint.
const Binary = "/usr/local/bin/seedplan"

// User is the non-root user and group the image runs as (distroless's nonroot).
const User = 65532

// libraryPath lets the dynamic loader find the libraries without an ld.so.cache.
const libraryPath = "LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64"

// Build assembles the image of binary and writes it as an OCI layout into dir and, when tarPath is not empty, as a
// tarball that `docker load` and `podman load` read, tagged Name and tags.
func Build(binary, dir, tarPath string, labels map[string]string, tags ...string) (v1.Image, error) {
	libraries, err := sharedLibraries(binary)
	if err != nil {
		return nil, err
	}
	executables := map[string]string{Binary: binary} // path in the image → file on this machine
	for _, lib := range libraries {
		executables[lib] = lib
	}
	layerData, err := layerTar(executables)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(layerData)), nil },
		tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, fmt.Errorf("the image layer: %w", err)
	}
	img, err := assemble(layer, labels)
	if err != nil {
		return nil, err
	}
	refs := append([]string{Name}, tags...)
	if err := writeLayout(dir, img, refs); err != nil {
		return nil, err
	}
	if tarPath != "" {
		if err := writeTarball(tarPath, img, refs); err != nil {
			return nil, err
		}
	}
	return img, nil
}

// assemble is the image of one layer: OCI media types, the binary as entrypoint, the non-root user, linux/amd64.
func assemble(layer v1.Layer, labels map[string]string) (v1.Image, error) {
	base := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	base = mutate.ConfigMediaType(base, types.OCIConfigJSON)
	img, err := mutate.AppendLayers(base, layer)
	if err != nil {
		return nil, err
	}
	config, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	config = config.DeepCopy()
	config.OS, config.Architecture = "linux", "amd64"
	config.Config = v1.Config{
		Entrypoint: []string{Binary},
		User:       fmt.Sprintf("%d:%d", User, User),
		Env:        []string{libraryPath},
		WorkingDir: "/",
		Labels:     labels,
	}
	config.Created = v1.Time{Time: time.Unix(0, 0).UTC()} // reproducible
	return mutate.ConfigFile(img, config)
}

// sharedLibraries are the libraries ldd resolves for binary, and the dynamic loader.
func sharedLibraries(binary string) ([]string, error) {
	out, err := exec.Command("ldd", binary).Output()
	if err != nil {
		return nil, fmt.Errorf("ldd %s: %w", binary, err)
	}
	var libraries []string
	scanner := bufio.NewScanner(bytes.NewReader(out))
	for scanner.Scan() {
		// "libClp.so.1 => /lib/x86_64-linux-gnu/libClp.so.1 (0x…)" or "/lib64/ld-linux-x86-64.so.2 (0x…)"
		fields := strings.Fields(scanner.Text())
		switch {
		case len(fields) >= 3 && fields[1] == "=>" && strings.HasPrefix(fields[2], "/"):
			libraries = append(libraries, fields[2])
		case len(fields) >= 1 && strings.HasPrefix(fields[0], "/"):
			libraries = append(libraries, fields[0])
		case len(fields) >= 3 && fields[1] == "=>" && fields[2] == "not":
			return nil, fmt.Errorf("ldd %s: %s is not found", binary, fields[0])
		}
	}
	if len(libraries) == 0 {
		return nil, fmt.Errorf("ldd %s found no libraries: the image needs a dynamically linked binary (cgo, CLP)", binary)
	}
	slices.Sort(libraries)
	return slices.Compact(libraries), nil
}

// layerTar is the layer's tar: the executables (path in the image → file on this machine, copied with symlinks
// followed), /etc/passwd and /etc/group, their directories, /tmp and the nonroot user's home; in path order,
// owned by root but that home, with time zero.
func layerTar(executables map[string]string) ([]byte, error) {
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:/home/nonroot:/sbin/nologin\n", User, User)
	group := fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", User)
	contents := map[string][]byte{"/etc/passwd": []byte(passwd), "/etc/group": []byte(group)}
	modes := map[string]int64{"/etc/passwd": 0o644, "/etc/group": 0o644}
	for p, source := range executables {
		data, err := os.ReadFile(source) // follows symlinks (the alternatives of libblas and liblapack)
		if err != nil {
			return nil, fmt.Errorf("reading %s for the image: %w", source, err)
		}
		contents[p], modes[p] = data, 0o755
	}
	dirs := map[string]int64{"/tmp": 0o1777, "/home/nonroot": 0o755}
	for _, p := range append(slices.Collect(maps.Keys(contents)), "/home/nonroot") {
		for d := path.Dir(p); d != "/"; d = path.Dir(d) {
			if _, ok := dirs[d]; !ok {
				dirs[d] = 0o755
			}
		}
	}
	var entries []string
	for d := range dirs {
		entries = append(entries, d+"/")
	}
	for p := range contents {
		entries = append(entries, p)
	}
	slices.Sort(entries)

	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, entry := range entries {
		header := &tar.Header{Name: strings.TrimPrefix(entry, "/"), ModTime: time.Unix(0, 0), Format: tar.FormatPAX}
		if d, ok := strings.CutSuffix(entry, "/"); ok {
			header.Typeflag, header.Mode = tar.TypeDir, dirs[d]
			if d == "/home/nonroot" {
				header.Uid, header.Gid = User, User
			}
		} else {
			header.Typeflag, header.Mode, header.Size = tar.TypeReg, modes[entry], int64(len(contents[entry]))
		}
		if err := tw.WriteHeader(header); err != nil {
			return nil, err
		}
		if header.Typeflag == tar.TypeReg {
			if _, err := tw.Write(contents[entry]); err != nil {
				return nil, err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeLayout writes the image into an OCI layout directory, annotated with each reference.
func writeLayout(dir string, img v1.Image, refs []string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return fmt.Errorf("writing the OCI layout %s: %w", dir, err)
	}
	for _, ref := range refs {
		if err := p.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": ref})); err != nil {
			return fmt.Errorf("writing the image into %s: %w", dir, err)
		}
	}
	return nil
}

// writeTarball writes the image as a tarball tagged with each reference.
func writeTarball(tarPath string, img v1.Image, refs []string) error {
	tagged := map[name.Tag]v1.Image{}
	for _, ref := range refs {
		tag, err := name.NewTag(ref)
		if err != nil {
			return fmt.Errorf("image reference %q: %w", ref, err)
		}
		tagged[tag] = img
	}
	if err := os.MkdirAll(filepath.Dir(tarPath), 0o755); err != nil {
		return err
	}
	if err := tarball.MultiWriteToFile(tarPath, tagged); err != nil {
		return fmt.Errorf("writing %s: %w", tarPath, err)
	}
	return nil
}
