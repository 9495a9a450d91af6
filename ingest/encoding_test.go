package ingest

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/internal/fixture"
)

// A file behind a UTF-16 byte order mark is read as its text in UTF-8, one behind UTF-8's as its text; anything
// else is left as it is; UTF-16 that is not valid is an error that says where.
func TestUTF8Content(t *testing.T) {
	text := "kind: Shoot\nmetadata: {name: web, annotations: {note: \"🌱 ä\"}}\n---\nkind: Seed\n"
	for _, tc := range []struct {
		name, in, want, err string
	}{
		{name: "UTF-16 little endian", in: string(fixture.WithBOM(binary.LittleEndian, text)), want: text},
		{name: "UTF-16 big endian", in: string(fixture.WithBOM(binary.BigEndian, text)), want: text},
		{name: "only the mark", in: "\xff\xfe", want: ""},
		{name: "UTF-8", in: text, want: text},
		{name: "UTF-8 behind its mark", in: "\xef\xbb\xbf" + text, want: text},
		{name: "UTF-8 behind two marks", in: "\xef\xbb\xbf\xef\xbb\xbf" + text, want: "\xef\xbb\xbf" + text},
		{name: "empty", in: "", want: ""},
		{name: "odd length", in: "\xff\xfek\x00i", err: "UTF-16 (by its byte order mark) of an odd number of bytes (5)"},
		{name: "high surrogate last", in: "\xff\xfek\x00\x3d\xd8", err: "lone surrogate at byte 4"},
		{name: "low surrogate first", in: "\xff\xfe\x31\xdfk\x00", err: "lone surrogate at byte 2"},
		{name: "high surrogate before a letter", in: "\xfe\xff\xd8\x3d\x00k", err: "lone surrogate at byte 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := utf8Content([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.HasSuffix(err.Error(), tc.err) {
					t.Fatalf("error %v, want it to end %q", err, tc.err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// A multi-document file written in UTF-16 loads every document, as in UTF-8; so does a JSON stream behind UTF-8's
// mark, which the YAML decoder would read as its first value alone. Broken UTF-16 names the file.
func TestFilesBehindAByteOrderMarkLoadEveryDocument(t *testing.T) {
	stream := shootDocument("web") + "---\n" + shootDocument("db")
	var jsonStream []byte
	for _, name := range []string{"web", "db"} {
		shoot, err := config.YAMLToJSON([]byte(shootDocument(name)))
		if err != nil {
			t.Fatal(err)
		}
		jsonStream = append(append(jsonStream, shoot...), '\n')
	}
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"UTF-16 little endian", fixture.WithBOM(binary.LittleEndian, stream)},
		{"UTF-16 big endian", fixture.WithBOM(binary.BigEndian, stream)},
		{"UTF-8", []byte(config.ByteOrderMark + stream)},
		{"UTF-8, a JSON stream", append([]byte(config.ByteOrderMark), jsonStream...)},
	} {
		l := &Landscape{}
		if err := l.Decode("shoots.yaml", tc.file); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(l.Objects.Shoots) != 2 || l.Objects.Shoots[1].Name != "db" {
			t.Fatalf("%s: read %d shoots, want web and db", tc.name, len(l.Objects.Shoots))
		}
	}
	broken := fixture.WithBOM(binary.LittleEndian, stream)
	err := (&Landscape{}).Decode("shoots.yaml", broken[:len(broken)-1])
	if err == nil || !strings.HasPrefix(err.Error(), "shoots.yaml: UTF-16 (by its byte order mark) of an odd number of bytes") {
		t.Fatalf("a file that is not valid UTF-16: %v", err)
	}
}

func shootDocument(name string) string {
	return "apiVersion: core.gardener.cloud/v1beta1\nkind: Shoot\nmetadata: {name: " + name + ", namespace: garden-dev}\n" +
		"spec:\n  cloudProfile: {kind: CloudProfile, name: aws}\n  region: eu-central-1\n  provider: {type: aws}\n"
}

// FuzzUTF8Content holds utf8Content to the standard library's UTF-16: valid text behind either mark comes back as
// it was; input behind UTF-8's mark comes back without it; any other input is left alone, converted to valid
// UTF-8, or an error.
func FuzzUTF8Content(f *testing.F) {
	f.Add([]byte("kind: Shoot\n"), false)
	f.Add([]byte("🌱\n---\nä"), true)
	f.Add([]byte("\xff\xfe\x3d\xd8"), false)
	f.Fuzz(func(t *testing.T, data []byte, bigEndian bool) {
		got, err := utf8Content(data)
		switch {
		case bytes.HasPrefix(data, []byte(config.ByteOrderMark)):
			if err != nil || !bytes.Equal(got, data[len(config.ByteOrderMark):]) {
				t.Fatalf("%q behind UTF-8's mark: %q, %v", data, got, err)
			}
		case !bytes.HasPrefix(data, []byte{0xff, 0xfe}) && !bytes.HasPrefix(data, []byte{0xfe, 0xff}):
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%q without a mark: %q, %v", data, got, err)
			}
		case err == nil && !utf8.Valid(got):
			t.Fatalf("%q converted to invalid UTF-8 %q", data, got)
		}
		var order binary.AppendByteOrder = binary.LittleEndian
		if bigEndian {
			order = binary.BigEndian
		}
		text := strings.ToValidUTF8(string(data), "")
		if back, err := utf8Content(fixture.WithBOM(order, text)); err != nil || string(back) != text {
			t.Fatalf("%q in UTF-16 (%v) came back %q, %v", text, order, back, err)
		}
	})
}
