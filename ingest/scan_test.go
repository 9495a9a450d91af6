package ingest

import (
	"strings"
	"testing"
)

// TestSpace checks the skip of whitespace against its definition, byte by byte: runs of every length before
// every kind of byte, with a word or more after them and at the end of the data.
func TestSpace(t *testing.T) {
	for _, run := range []string{"", " ", "\n", "\t", "\r", "\n  ", " \t ", "\r\n"} {
		for spaces := 0; spaces <= 20; spaces++ {
			for _, after := range []string{"", "{", "\"", "x", "\x00", "\xa0", "\n ", "{ \"a\": 1, \"b\": [ 2 ] }"} {
				data := []byte(run + strings.Repeat(" ", spaces) + after)
				r := jsonReader{data: data}
				if r.space(); r.pos != skipped(data) {
					t.Errorf("space skipped %d of %q, want %d", r.pos, data, skipped(data))
				}
			}
		}
	}
}

// skipped is how many bytes at the start of data are JSON whitespace.
func skipped(data []byte) int {
	return len(data) - len(strings.TrimLeft(string(data), whitespace))
}
