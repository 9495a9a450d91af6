package ingest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unsafe"

	"sigs.k8s.io/yaml"

	"github.com/seedplan/seedplan/examples"
)

// A large file is mapped, decoded and unmapped: what was decoded from it must be what reading it gives, none of it
// may point into the mapping, and the mapping is gone once the file is read.
func TestMappedFilesDecodeAsRead(t *testing.T) {
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			content := largeList(t, format)
			path := writeFile(t, "large."+format, content)
			read, err := LoadFS(fstest.MapFS{"large." + format: {Data: content}}, ".")
			if err != nil {
				t.Fatal(err)
			}

			mapped := mappedDecode(t, path)
			if !reflect.DeepEqual(mapped.Objects, read.Objects) {
				t.Error("the mapped file decoded to other objects than the file read")
			}
			loaded, err := LoadPaths([]string{path})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(loaded.Objects, read.Objects) || loaded.Bytes != int64(len(content)) {
				t.Errorf("LoadPaths read other objects, or %d bytes of %d", loaded.Bytes, len(content))
			}
			var want []string // the same warnings, naming the file by its path
			for _, w := range read.Warnings {
				want = append(want, filepath.Dir(path)+string(filepath.Separator)+w)
			}
			if len(want) != 2 || !slices.Equal(loaded.Warnings, want) {
				t.Errorf("LoadPaths warned %q, reading the file %q", loaded.Warnings, read.Warnings)
			}
			// Unmapping goes on while the objects are added; the load ends once it is done.
			if maps, err := os.ReadFile("/proc/self/maps"); err != nil || strings.Contains(string(maps), path) {
				t.Errorf("the file is still mapped once LoadPaths returned (%v)", err)
			}
		})
	}
}

// TestDecodeMappedKeepsNothingOfTheMapping checks that a mapped file's decoded objects, which are added after it is
// unmapped, hold nothing of the mapping: not the JSON of an item the strict decoder reads as it is added (a
// Secret, a Shoot with a field seedplan does not know), not that of one the fast decoder read.
func TestDecodeMappedKeepsNothingOfTheMapping(t *testing.T) {
	path := writeFile(t, "large.json", largeList(t, "json"))
	f, data := openMapped(t, path)
	file := decodeMapped(f, data, path)
	if at := pointerInto(reflect.ValueOf(file.documents), data); at != "" {
		t.Errorf("documents%spoints into the mapped file", at)
	}
	strict := 0
	for _, document := range file.documents {
		for _, object := range document.objects.all() {
			if object.typed == nil {
				strict++
			}
		}
	}
	if err := errors.Join(file.err, file.waitUnmapped()); err != nil || strict != 2 {
		t.Fatalf("%d objects left to the strict decoder, want 2 (%v)", strict, err)
	}
}

// mappedDecode maps the file at path and decodes it, and fails when a decoded object points into the mapping.
func mappedDecode(t *testing.T, path string) *Landscape {
	t.Helper()
	_, data := openMapped(t, path)
	defer unmapFile(data)
	l := &Landscape{}
	if err := l.Decode(path, data); err != nil {
		t.Fatal(err)
	}
	if len(l.Objects.Shoots) == 0 {
		t.Fatal("no shoots decoded")
	}
	if at := pointerInto(reflect.ValueOf(l.Objects), data); at != "" {
		t.Errorf("Objects%spoints into the mapped file", at)
	}
	return l
}

func TestAFileThatShrinksWhileMappedIsAnError(t *testing.T) {
	lists := map[string][]byte{"json": largeList(t, "json"), "yaml": largeList(t, "yaml")}
	for _, tc := range []struct {
		format string
		// left is what part of the file is left.
		left float64
	}{
		{"json", 0},
		{"json", 0.5},
		{"json", 0.97}, // the goroutine of the last stretch of items comes to the gap, not the caller's guesses
		{"yaml", 0},
		{"yaml", 0.97},
	} {
		t.Run(fmt.Sprintf("%s to %v", tc.format, tc.left), func(t *testing.T) {
			path := writeFile(t, "large."+tc.format, lists[tc.format])
			f, data := openMapped(t, path)
			// Truncated to a page's end, the file still holds every byte the mapping's pages before its end do.
			left := int64(float64(len(data))*tc.left) &^ int64(os.Getpagesize()-1)
			if err := os.Truncate(path, left); err != nil {
				t.Fatal(err)
			}
			err := decodeMapped(f, data, path).err
			want := fmt.Sprintf("%s: the file shrank from %d to %d bytes while it was read", path, len(data), left)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("got %v, want %q", err, want)
			}
		})
	}
}

// openMapped opens the file at path until the test ends and maps it whole.
func openMapped(t *testing.T, path string) (*os.File, []byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	data, err := mapFile(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	return f, data
}

// largeList is the example landscape's objects, and renamed copies of its shoots, as one List in format, larger
// than largeFile.
func largeList(t *testing.T, format string) []byte {
	t.Helper()
	var items []map[string]any
	err := fs.WalkDir(examples.Landscape, examples.LandscapeDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		content, err := fs.ReadFile(examples.Landscape, path)
		if err != nil {
			return err
		}
		var list struct{ Items []map[string]any }
		if err := yaml.Unmarshal(content, &list); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		items = append(items, list.Items...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for copy := 1; copy <= 6; copy++ {
		for _, item := range items {
			if item["kind"] != "Shoot" || strings.Contains(item["metadata"].(map[string]any)["name"].(string), "-copy-") {
				continue
			}
			renamed := deepCopyJSON(t, item)
			metadata := renamed["metadata"].(map[string]any)
			metadata["name"] = fmt.Sprintf("%s-copy-%d", metadata["name"], copy)
			items = append(items, renamed)
		}
	}
	// Items the fast decoder leaves to the strict one, which reads them once the file is unmapped: a kind seedplan
	// does not read, and a Shoot with a field it does not know.
	unknownField := deepCopyJSON(t, items[len(items)-1])
	unknownField["metadata"].(map[string]any)["name"] = "unknown-field"
	unknownField["spec"].(map[string]any)["fromANewerGardener"] = true
	secret := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s", "namespace": "garden"}}
	half := len(items) / 2
	items = slices.Concat([]map[string]any{secret}, items[:half], []map[string]any{unknownField}, items[half:])
	content, err := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": items}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if format == "yaml" {
		if content, err = yaml.JSONToYAML(content); err != nil {
			t.Fatal(err)
		}
	}
	if len(content) < largeFile {
		t.Fatalf("the list is %d bytes, less than a large file's %d", len(content), largeFile)
	}
	return content
}

// writeFile writes content to a file of the name in a directory of the test's, and is its path.
func writeFile(t *testing.T, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// deepCopyJSON is a copy of a JSON object that shares nothing with it.
func deepCopyJSON(t *testing.T, object map[string]any) map[string]any {
	t.Helper()
	content, err := json.Marshal(object)
	if err != nil {
		t.Fatal(err)
	}
	var copied map[string]any
	if err := json.Unmarshal(content, &copied); err != nil {
		t.Fatal(err)
	}
	return copied
}

// pointerInto is the path, below v, of the first string or slice whose bytes lie in data, or "".
func pointerInto(v reflect.Value, data []byte) string {
	from := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	inside := func(p uintptr) bool { return p >= from && p < from+uintptr(len(data)) }
	below := func(step string, v reflect.Value) string {
		if at := pointerInto(v, data); at != "" {
			return step + at
		}
		return ""
	}
	switch v.Kind() {
	case reflect.String:
		if inside(uintptr(unsafe.Pointer(unsafe.StringData(v.String())))) {
			return " "
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Len() > 0 && inside(v.Pointer()) {
			return " "
		}
		for i := range v.Len() {
			if at := below(fmt.Sprintf("[%d]", i), v.Index(i)); at != "" {
				return at
			}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return pointerInto(v.Elem(), data)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if at := below("."+v.Type().Field(i).Name, v.Field(i)); at != "" {
				return at
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if at := below(fmt.Sprintf("[%v] (key)", it.Key()), it.Key()); at != "" {
				return at
			}
			if at := below(fmt.Sprintf("[%v]", it.Key()), it.Value()); at != "" {
				return at
			}
		}
	}
	return ""
}
