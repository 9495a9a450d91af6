package ingest_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/seedplan/seedplan/ingest"
)

// TestMappedFilesLoadAsRead loads every input of the decoding and hostile corpora once read into memory and once
// from a file of 1 MB or more, which is mapped, decoded, unmapped and then added: the objects, warnings and errors
// must be the same. The inputs are padded with blank lines to be large. (That nothing decoded holds a part of the
// mapping, which is unmapped while the objects are added, TestDecodeMappedKeepsNothingOfTheMapping checks.)
func TestMappedFilesLoadAsRead(t *testing.T) {
	inputs := map[string]string{}
	for _, tc := range decodeFormats {
		inputs[tc.name] = tc.data
	}
	for _, tc := range hostileDocuments {
		inputs[tc.name] = tc.data
	}
	padding := strings.Repeat("\n", 1<<20)
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			content := []byte(data + padding)
			read, readErr := ingest.LoadFS(fstest.MapFS{"in.yaml": {Data: content}}, ".")
			dir := t.TempDir()
			path := filepath.Join(dir, "in.yaml")
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			mapped, mappedErr := ingest.LoadFS(os.DirFS(dir), ".")
			if readErr != nil || mappedErr != nil {
				if readErr == nil || mappedErr == nil || mappedErr.Error() != readErr.Error() {
					t.Fatalf("mapped: %v\nread: %v", mappedErr, readErr)
				}
				return
			}
			if !reflect.DeepEqual(mapped.Objects, read.Objects) || !reflect.DeepEqual(mapped.Warnings, read.Warnings) {
				t.Errorf("mapped, loaded other objects or warnings than read: %q, %q", mapped.Warnings, read.Warnings)
			}
		})
	}
}
