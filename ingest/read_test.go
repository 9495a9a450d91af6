package ingest

import (
	"bytes"
	"io"
	"testing"
)

// readAtMost reads the whole content whatever size it was told to expect — a file can grow or shrink between
// its stat and its read — and never more than one byte past MaxFileSize.
func TestReadAtMost(t *testing.T) {
	content := bytes.Repeat([]byte("kind: Shoot\n"), 1000)
	for _, tc := range []struct {
		name string
		size int64
	}{
		{"unknown size", 0},
		{"the right size", int64(len(content))},
		{"grown since its size was taken", int64(len(content)) / 3},
		{"shrunk since its size was taken", 2 * int64(len(content))},
		{"one byte", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAtMost(bytes.NewReader(content), tc.size)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, content) {
				t.Fatalf("read %d bytes, want the %d written", len(got), len(content))
			}
		})
	}
	got, err := readAtMost(io.LimitReader(zeros{}, 2*MaxFileSize), 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != MaxFileSize+1 {
		t.Fatalf("expecting 100 bytes of a longer stream: read %d, want MaxFileSize+1", len(got))
	}
}

// A large file is read in parts on every processor: what it holds is read whole, in order, whether it holds the
// size it was measured at, more or less.
func TestReadInParts(t *testing.T) {
	content := make([]byte, 3*readInPartsFrom+12345)
	for i := range content {
		content[i] = byte(i % 251) // a period that no part's length is a multiple of
	}
	for _, tc := range []struct {
		name string
		size int64
	}{
		{"the right size", int64(len(content))},
		{"grown since its size was taken", readInPartsFrom},
		{"shrunk since its size was taken", 2 * int64(len(content))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAtMost(bytes.NewReader(content), tc.size)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, content) {
				t.Fatalf("read %d bytes, not the %d written", len(got), len(content))
			}
		})
	}
	got, err := readAtMost(io.NewSectionReader(zerosAt{}, 0, 2*MaxFileSize), readInPartsFrom)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != MaxFileSize+1 {
		t.Fatalf("a file grown past the limit: read %d bytes, want MaxFileSize+1", len(got))
	}
}

// zerosAt is endless zero bytes, read at any offset.
type zerosAt struct{}

func (zerosAt) ReadAt(p []byte, _ int64) (int, error) {
	clear(p)
	return len(p), nil
}

// zeros is an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
