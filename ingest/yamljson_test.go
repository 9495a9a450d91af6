package ingest

import (
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
	"testing/quick"
	"unicode/utf8"
)

// plainByte is plainText's rule for one ASCII byte: no control character but the line feed.
func plainByte(c byte) bool {
	return c < utf8.RuneSelf && (c >= ' ' || c == '\n') && c != 0x7f
}

// plainCharacter agrees with plainByte on every ASCII byte, and plainASCII on every byte value at every place of
// a word, and beside every other byte value at every other place: a test that cleared a high bit beside the byte
// it finds would let a control character after a line feed through.
func TestPlainASCII(t *testing.T) {
	word := func(bytes map[int]byte) uint64 {
		w := []byte("abcdefgh")
		for at, c := range bytes {
			w[at] = c
		}
		return binary.LittleEndian.Uint64(w)
	}
	for c := range utf8.RuneSelf {
		if size, plain := plainCharacter([]byte{byte(c)}); size != 1 || plain != plainByte(byte(c)) {
			t.Fatalf("byte %#02x: plainCharacter %d, %v", c, size, plain)
		}
	}
	for a := range 8 {
		for c := range 256 {
			if got := plainASCII(word(map[int]byte{a: byte(c)})); got != plainByte(byte(c)) {
				t.Fatalf("byte %#02x at %d: plainASCII %v", c, a, got)
			}
			for b := range 8 {
				if b == a {
					continue
				}
				for d := range 256 {
					want := plainByte(byte(c)) && plainByte(byte(d))
					if got := plainASCII(word(map[int]byte{a: byte(c), b: byte(d)})); got != want {
						t.Fatalf("bytes %#02x at %d and %#02x at %d: plainASCII %v, want %v", c, a, d, b, got, want)
					}
				}
			}
		}
	}
}

// plainTextByRune is plainText read a character at a time, as it was before words were tested at once.
func plainTextByRune(doc []byte) bool {
	for i := 0; i < len(doc); {
		size, plain := plainCharacter(doc[i:])
		if !plain {
			return false
		}
		i += size
	}
	return true
}

// FuzzPlainText holds plainText, which tests eight bytes at once, to the same rule read a character at a time.
func FuzzPlainText(f *testing.F) {
	for _, tc := range transcodeCases {
		f.Add([]byte(tc.yaml))
	}
	f.Add([]byte("metadata:\n  name: a\x0b\n  labels: {}\n"))
	f.Add([]byte("description: caf\xc3\xa9 \xe2\x80\xa8 end\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		if got, want := plainText(doc), plainTextByRune(doc); got != want {
			t.Fatalf("plainText(%q) = %v, read a character at a time %v", doc, got, want)
		}
	})
}

// The shapes of plain scalars the transcoder writes without asking YAML's resolver: integers JSON writes as YAML
// does, and dotted numbers, which YAML reads as strings.
func TestPlainNumberShapes(t *testing.T) {
	for _, tc := range []struct {
		text            string
		integer, dotted bool
	}{
		{"0", true, false},
		{"12", true, false},
		{"-12", true, false},
		{"-0", false, false},
		{"012", false, false},
		{"-", false, false},
		{"123456789012345678", true, false},
		{"1234567890123456789", false, false},
		{"1_000", false, false},
		{"1.33.4", false, true},
		{"10.180.0.0", false, true},
		{"1.2", false, false},
		{"1..2", false, false},
		{".1.2", false, false},
		{"1.2.", false, false},
		{"1.2.3:4", false, false},
		{"1.2.3a", false, false},
	} {
		if integer, dotted := plainInteger([]byte(tc.text)), dottedNumbers([]byte(tc.text)); integer != tc.integer || dotted != tc.dotted {
			t.Errorf("%q: integer %v, dotted %v; want %v, %v", tc.text, integer, dotted, tc.integer, tc.dotted)
		}
	}
}

// appendJSONString writes what JSON holds as it is a run at a time and escapes the rest: the JSON of a string
// decodes to it, whatever its characters and wherever they fall in a word.
func TestAppendJSONString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"eu-central-1", `"eu-central-1"`},
		{`say "hi"`, `"say \"hi\""`},
		{`C:\dir`, `"C:\\dir"`},
		{"two\nlines\tand a tab", `"two\nlines\tand a tab"`},
		{"bell\a and nul\x00", `"bell\u0007 and nul\u0000"`},
		{"café 🌱", `"café 🌱"`},
		{strings.Repeat("a", 15) + `"` + strings.Repeat("b", 9), `"` + strings.Repeat("a", 15) + `\"` + strings.Repeat("b", 9) + `"`},
	} {
		if got := string(appendJSONString([]byte("x"), []byte(tc.in))); got != "x"+tc.want {
			t.Errorf("appendJSONString(%q) = %s, want %s", tc.in, got[1:], tc.want)
		}
	}
	roundTrip := func(s string) bool {
		s = strings.ToValidUTF8(s, "?")
		var back string
		return json.Unmarshal(appendJSONString(nil, []byte(s)), &back) == nil && back == s
	}
	if err := quick.Check(roundTrip, &quick.Config{MaxCount: 5000}); err != nil {
		t.Error(err)
	}
}
