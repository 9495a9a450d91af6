package image_test

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"

	"github.com/seedplan/seedplan/internal/image"
)

// The image runs: unpacked into a root filesystem, `seedplan version` and `seedplan schedule` run inside it with
// chroot as its non-root user, with nothing from this machine but what the image holds, and the plan is the one
// the binary makes outside. Building it twice gives the same digest.
func TestImageRunsInAChroot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chroot needs root (CI and the project's machines run as root)")
	}
	dir := t.TempDir()
	binary := filepath.Join(dir, "seedplan")
	if out, err := exec.Command("go", "build", "-o", binary, "../../cmd/seedplan").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	built, err := image.Build(binary, filepath.Join(dir, "layout"), filepath.Join(dir, "image.tar"), nil)
	if err != nil {
		t.Fatal(err)
	}
	again, err := image.Build(binary, filepath.Join(dir, "layout2"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := built.Digest()
	second, _ := again.Digest()
	if first != second {
		t.Fatalf("two builds of one binary: digests %s and %s", first, second)
	}

	img := fromLayout(t, filepath.Join(dir, "layout"))
	config, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(config.Config.Entrypoint, []string{image.Binary}) || config.Config.User != "65532:65532" {
		t.Fatalf("entrypoint %v, user %q", config.Config.Entrypoint, config.Config.User)
	}
	rootfs := filepath.Join(dir, "rootfs")
	unpack(t, img, rootfs)

	version := inImage(t, rootfs, config, "version")
	if !strings.HasPrefix(version, "seedplan ") || !strings.Contains(version, "Gardener API v1.150.0") {
		t.Fatalf("seedplan version in the image: %q", version)
	}
	inside := inImage(t, rootfs, config, "schedule", "-o", "json")
	outside, err := exec.Command(binary, "schedule", "-o", "json").Output()
	if err != nil {
		t.Fatal(err)
	}
	if placements(t, inside) != placements(t, string(outside)) {
		t.Fatal("the image plans the example landscape differently from the binary outside it")
	}
}

// fromLayout reads the image named image.Name from an OCI layout.
func fromLayout(t *testing.T, dir string) v1.Image {
	t.Helper()
	index, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := index.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	for _, desc := range manifest.Manifests {
		if desc.Annotations["org.opencontainers.image.ref.name"] == image.Name {
			img, err := index.Image(desc.Digest)
			if err != nil {
				t.Fatal(err)
			}
			return img
		}
	}
	t.Fatalf("no image %s in the layout", image.Name)
	return nil
}

// unpack writes the image's file system into rootfs.
func unpack(t *testing.T, img v1.Image, rootfs string) {
	t.Helper()
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		header, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(rootfs, filepath.Clean("/"+header.Name))
		switch header.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, os.FileMode(header.Mode).Perm()|os.ModeDir); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(target, os.FileMode(header.Mode)&os.ModePerm|modeBits(header.Mode)); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(target, header.Uid, header.Gid); err != nil {
				t.Fatal(err)
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(target, data, os.FileMode(header.Mode).Perm()); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("unexpected entry %s of type %c", header.Name, header.Typeflag)
		}
	}
}

// modeBits keeps the sticky bit of a tar mode (/tmp).
func modeBits(mode int64) os.FileMode {
	if mode&0o1000 != 0 {
		return os.ModeSticky
	}
	return 0
}

// inImage runs seedplan in the unpacked image as the image says: chroot, its user, its environment only.
func inImage(t *testing.T, rootfs string, config *v1.ConfigFile, args ...string) string {
	t.Helper()
	cmd := exec.Command(image.Binary, args...)
	cmd.Dir, cmd.Env = "/", config.Config.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: rootfs, Credential: &syscall.Credential{Uid: image.User, Gid: image.User}}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("seedplan %s in the image: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// placements is the plan's placements as text.
func placements(t *testing.T, report string) string {
	t.Helper()
	var r struct{ Placements []map[string]any }
	if err := json.Unmarshal([]byte(report), &r); err != nil {
		t.Fatalf("%v\n%s", err, report)
	}
	if len(r.Placements) == 0 {
		t.Fatal("no placements")
	}
	out, _ := json.Marshal(r.Placements)
	return string(out)
}
