package ingest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/seedplan/seedplan/internal/fixture"
)

// readAtMost reads the whole content whatever size it was told to expect — a file can grow or shrink between
// its stat and its read — and never more than one byte past MaxFileSize. A large file is read in parts on every
// processor, with the same result.
func TestReadAtMost(t *testing.T) {
	small := bytes.Repeat([]byte("kind: Shoot\n"), 1000)
	large := make([]byte, 3*largeFile+12345)
	for i := range large {
		large[i] = byte(i % 251) // a period that no part's length is a multiple of
	}
	for _, tc := range []struct {
		name    string
		content []byte
		size    int64
	}{
		{"unknown size", small, 0},
		{"the right size", small, int64(len(small))},
		{"grown since its size was taken", small, int64(len(small)) / 3},
		{"shrunk since its size was taken", small, 2 * int64(len(small))},
		{"one byte", small, 1},
		{"a large file of the right size", large, int64(len(large))},
		{"a large file grown since its size was taken", large, largeFile},
		{"a large file shrunk since its size was taken", large, 2 * int64(len(large))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAtMost(bytes.NewReader(tc.content), tc.size)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.content) {
				t.Fatalf("read %d bytes, not the %d written", len(got), len(tc.content))
			}
		})
	}
	for _, tc := range []struct {
		name string
		r    io.Reader
		size int64
	}{
		{"a stream longer than its size", io.LimitReader(fixture.Zeros{}, 2*MaxFileSize), 100},
		{"a large file grown past the limit", io.NewSectionReader(fixture.ZerosAt{}, 0, 2*MaxFileSize), largeFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAtMost(tc.r, tc.size)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != MaxFileSize+1 {
				t.Fatalf("read %d bytes, want MaxFileSize+1", len(got))
			}
		})
	}
}

// fakeFault is a recovered memory fault at an address.
type fakeFault uintptr

func (f fakeFault) Addr() uintptr { return uintptr(f) }

// Only a fault within the mapped bytes is the file's doing; any other panic is a bug that goes on.
func TestFaultIn(t *testing.T) {
	data := make([]byte, 4096)
	start := uintptr(unsafe.Pointer(&data[0]))
	for _, tc := range []struct {
		name      string
		recovered any
		data      []byte
		want      bool
	}{
		{"at the first byte", fakeFault(start), data, true},
		{"at the last byte", fakeFault(start + 4095), data, true},
		{"just past the end", fakeFault(start + 4096), data, false},
		{"just before the start", fakeFault(start - 1), data, false},
		{"no bytes mapped", fakeFault(start), data[:0], false},
		{"another panic", errors.New("index out of range"), data, false},
	} {
		if got := faultIn(tc.recovered, tc.data); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A file whose mapped pages went away shrank; by the time it is looked at it may have been written again.
func TestChangedWhileRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shoots.yaml")
	for _, tc := range []struct {
		now  int
		want string
	}{
		{100, "shoots.yaml: the file shrank from 1000 to 100 bytes while it was read; read it once it is written"},
		{0, "shoots.yaml: the file shrank from 1000 to 0 bytes while it was read; read it once it is written"},
		{1000, "shoots.yaml: the file was cut short and written again while it was read; read it once it is written"},
		{5000, "shoots.yaml: the file was cut short and written again while it was read; read it once it is written"},
	} {
		if err := os.WriteFile(path, make([]byte, tc.now), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := changedWhileRead(f, "shoots.yaml", 1000).Error(); got != tc.want {
			t.Errorf("now %d bytes: %q, want %q", tc.now, got, tc.want)
		}
		f.Close()
	}
}
