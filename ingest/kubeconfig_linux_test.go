package ingest_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A kubeconfig client-go would read without end (/dev/zero, a file of gigabytes) or wait on for ever (a named
// pipe nobody writes to) is refused before it is read, whether given as --kubeconfig or in $KUBECONFIG; a missing
// one is client-go's to name.
func TestKubeconfigsThatCannotBeReadAreRefused(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge")
	if err := os.WriteFile(huge, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<30); err != nil { // sparse: a gigabyte of zeros on no disk
		t.Fatal(err)
	}
	checkKubeconfigErrors(t, "", []kubeconfigCase{
		{"a device", "/dev/zero", "", "kubeconfig /dev/zero: not a regular file"},
		{"a named pipe", pipe, "", "kubeconfig " + pipe + ": not a regular file"},
		{"a directory", dir, "", "kubeconfig " + dir + ": not a regular file"},
		{"a gigabyte", huge, "", "kubeconfig " + huge + ": 1073741824 bytes, more than the limit of 1048576"},
		{"a named pipe in $KUBECONFIG", "", filepath.Join(dir, "missing") + ":" + pipe, "kubeconfig " + pipe + ": not a regular file"},
		{"a missing file", filepath.Join(dir, "missing"), "", "kubeconfig " + filepath.Join(dir, "missing") + ":"},
	})
}
