package ingest

import (
	"strings"
	"testing"

	"github.com/seedplan/seedplan/config"
)

// TestPlainRun checks the eight-bytes-at-a-time scan of a string's plain bytes against plainStringByte, byte by
// byte: every byte value, at every position of the first two words and of the tail read byte by byte.
func TestPlainRun(t *testing.T) {
	for length := 0; length <= 19; length++ {
		for at := 0; at < length; at++ {
			for b := 0; b < 256; b++ {
				text := []byte(strings.Repeat("a", length))
				text[at] = byte(b)
				if got, want := plainRun(text), plainBytes(text); got != want {
					t.Fatalf("plainRun(%q) = %d, want %d", text, got, want)
				}
			}
		}
	}
}

// TestPlainRunFindsTheFirst puts two bytes that are not plain in one word: the borrow of the first may mark
// bytes after it, never before.
func TestPlainRunFindsTheFirst(t *testing.T) {
	for _, text := range []string{
		"ab\"c\\def", "ab\x00\"cdefg", "\"\"\"\"\"\"\"\"", "abcdefg\x1f", "a\x80\"bcdef", "abc\x01\x00defghi",
		"abcdefgh\x7f\x00", "abcdefghij\\", "\x00", "", "ab\x20\x21\x1f",
	} {
		if got, want := plainRun([]byte(text)), plainBytes([]byte(text)); got != want {
			t.Errorf("plainRun(%q) = %d, want %d", text, got, want)
		}
	}
}

// plainBytes is plainRun by its definition.
func plainBytes(text []byte) int {
	n := 0
	for n < len(text) && plainStringByte[text[n]] {
		n++
	}
	return n
}

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
	return len(data) - len(strings.TrimLeft(string(data), config.Whitespace))
}
