package gardentest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// dirPrefix begins the name of every control plane's directory in the temporary directory; etcd's data and
// kube-apiserver's certificates are inside it, so that one directory holds all its files.
const dirPrefix = "seedplan-garden-"

// ownerFile, in a control plane's directory, names the test process that made it: its identity.
const ownerFile = "owner"

// claim records the running test process as the owner of a control plane's directory.
func claim(dir string) error {
	owner := identity(os.Getpid())
	if owner == "" {
		return fmt.Errorf("reading this process's start time from /proc to claim %s", dir)
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner), 0o644); err != nil {
		return fmt.Errorf("claiming %s: %w", dir, err)
	}
	return nil
}

// identity tells a running process from every other, including a later one given the same pid: its pid and its
// start time since boot. It is "" for a process that does not run — gone, or a zombie whose parent has not
// read its exit status yet.
func identity(pid int) string {
	fields := statFields(pid)
	// After the command name: the state is field 3 of proc(5)'s stat, the start time field 22.
	if len(fields) < 20 || fields[0] == "Z" {
		return ""
	}
	return strconv.Itoa(pid) + " " + fields[19]
}

// removeAbandoned removes the directories in tmp of control planes whose test process no longer runs. A test
// process killed by go test's timeout, by Ctrl-C or by hand ends without Stop: its components die with it, but
// its files, etcd's data among them, would stay. A directory without an owner is left alone: it is being made, or
// it is not this package's to judge.
func removeAbandoned(tmp string) {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return // nothing to remove that can be found
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), dirPrefix) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		owner, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, _, _ := strings.Cut(string(owner), " ")
		n, err := strconv.Atoi(pid)
		if err != nil || identity(n) == string(owner) {
			continue
		}
		// Best effort: what cannot be removed now stays for the next start to try, and fails no test.
		_ = os.RemoveAll(dir)
	}
}
