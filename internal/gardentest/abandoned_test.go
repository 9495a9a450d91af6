package gardentest

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// removeAbandoned removes a control plane's directory only when the process that owns it no longer runs.
func TestRemoveAbandoned(t *testing.T) {
	// gone's identity is recorded while it runs, as claim records a test process's, and it then exits.
	gone := exec.Command("sleep", "60")
	if err := gone.Start(); err != nil {
		t.Fatal(err)
	}
	goneOwner := identity(gone.Process.Pid)
	_ = gone.Process.Kill()
	_ = gone.Wait()
	self := identity(os.Getpid())
	if self == "" || goneOwner == "" {
		t.Fatalf("identities %q (this process) and %q (a running child): want both", self, goneOwner)
	}
	cases := []struct {
		dir     string
		owner   *string // nil: no owner file
		removed bool
	}{
		{dir: dirPrefix + "running", owner: new(self)},
		{dir: dirPrefix + "exited", owner: new(goneOwner), removed: true},
		{dir: dirPrefix + "pid-reused", owner: new(strconv.Itoa(os.Getpid()) + " 1"), removed: true},
		{dir: dirPrefix + "being-made"},
		{dir: dirPrefix + "not-ours", owner: new("whoever made it")},
		{dir: "another-prefix", owner: new(goneOwner)},
	}
	tmp := t.TempDir()
	for _, c := range cases {
		dir := filepath.Join(tmp, c.dir)
		if err := os.MkdirAll(filepath.Join(dir, "etcd", "member"), 0o700); err != nil {
			t.Fatal(err)
		}
		if c.owner != nil {
			if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(*c.owner), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	file := filepath.Join(tmp, dirPrefix+"a-file") // a name alike, but no directory: not a control plane's
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	removeAbandoned(tmp)
	if _, err := os.Stat(file); err != nil {
		t.Errorf("%s: %v", file, err)
	}
	for _, c := range cases {
		_, err := os.Stat(filepath.Join(tmp, c.dir))
		if removed := errors.Is(err, fs.ErrNotExist); removed != c.removed {
			t.Errorf("%s: removed %t, want %t (%v)", c.dir, removed, c.removed, err)
		}
	}
}

// claim writes the identity removeAbandoned compares with the running process.
func TestClaim(t *testing.T) {
	dir := t.TempDir()
	if err := claim(dir); err != nil {
		t.Fatal(err)
	}
	owner, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := identity(os.Getpid()); string(owner) != want {
		t.Fatalf("owner %q, want %q", owner, want)
	}
}
