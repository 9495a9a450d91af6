package ingest

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/model"
)

// documentSeeds are JSON streams and near misses: Lists with and without items, nesting, brackets and escaped
// quotes inside strings, duplicate names, scalars, YAML that looks like JSON.
var documentSeeds = []string{
	`{"apiVersion":"v1","kind":"List","items":[{"kind":"Seed"},{"kind":"Shoot"}]}`,
	"{\n  \"kind\": \"List\",\n  \"metadata\": {\"resourceVersion\": \"\"},\n  \"items\": [\n    {\"a\": [[1]]}\n  ]\n}\n",
	`{"kind":"List","kind":"List","items":[]} {"kind":"Seed"}`,
	`{"note":"[[{\"\\\\","x":[{"y":"\\\"]"}]}`,
	`{"kind":"List","items":{}} 5 "s" [1,[2]] true`,
	`{a: 1}`, `[1, 2,]`, `{"a":1}}`, " \t\n", `{"k":"\xff"}`,
	strings.Repeat("[", 120) + strings.Repeat("]", 120),
	loneShoot, " " + loneShoot + "\n", loneShoot + loneShoot, loneShoot + "}", strings.Replace(loneShoot, `"spec"`, `"kind":"Shoot","spec"`, 1),
}

// loneShoot is a Shoot the fast decoder reads.
const loneShoot = `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot","metadata":{"name":"s","namespace":"garden-a"},"spec":{"region":"eu-west-1","provider":{"type":"aws"}}}`

// TestSplitObjects checks which streams the fast reader splits (objects that are no Lists, a document each, as
// the items of one) and that readStream reads the others as before.
func TestSplitObjects(t *testing.T) {
	list := `{"apiVersion":"v1","kind":"List","items":[` + loneShoot + `]}`
	for _, tc := range []struct {
		name, json string
		split      bool
		documents  int
	}{
		{"two Shoots", loneShoot + "\n" + loneShoot, true, 2},
		{"objects back to back, one without a kind", loneShoot + `{"a":1}` + loneShoot, true, 3},
		{"an object and a List", loneShoot + list, false, 2},
		{"an object and an array", loneShoot + ` [1]`, false, 2},
		{"an object and a scalar", loneShoot + ` 5`, false, 2},
		{"an object cut short", loneShoot + loneShoot[:40], false, 0},
		{"an object nested too deep", `{"a":` + strings.Repeat("[", 120) + strings.Repeat("]", 120) + `}`, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, split := splitObjects([]byte(tc.json), nil); split != tc.split {
				t.Errorf("split %v, want %v", split, tc.split)
			}
			if documents, _ := readStream([]byte(tc.json), nil); len(values(documents)) != tc.documents {
				t.Errorf("readStream read %d documents, want %d", len(values(documents)), tc.documents)
			}
		})
	}
}

// TestReadDocumentsDecodesALoneObject checks that a document that is one object the fast decoder reads is decoded
// as it is read, and so is each object of a stream of them; that one it leaves goes to the strict decoder at once
// (not fast: the fast decoder does not read it again), and that anything else is left to decodeDocument.
func TestReadDocumentsDecodesALoneObject(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		// decoded is how many documents readDocuments decoded as it read them, strict how many it left to the
		// strict decoder.
		documents, decoded, strict int
	}{
		{"a Shoot", loneShoot, 1, 1, 0},
		{"a Shoot among blanks", "\n  " + loneShoot + "\n\n", 1, 1, 0},
		{"a field seedplan does not know", strings.Replace(loneShoot, `"region"`, `"fromANewerGardener":1,"region"`, 1), 1, 0, 1},
		{"a name twice", strings.Replace(loneShoot, `"spec"`, `"kind":"Shoot","spec"`, 1), 1, 0, 1},
		{"a kind seedplan does not read", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}}`, 1, 0, 1},
		{"two Shoots", loneShoot + "\n" + loneShoot, 2, 2, 0},
		{"a Shoot and a Secret", loneShoot + `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}}`, 2, 1, 1},
		{"a List of a Shoot", `{"apiVersion":"v1","kind":"List","items":[` + loneShoot + `]}`, 1, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			documents, ok := readDocuments([]byte(tc.json), nil)
			if !ok || len(values(documents)) != tc.documents {
				t.Fatalf("%d documents (%v), want %d", len(values(documents)), ok, tc.documents)
			}
			decoded, strict := 0, 0
			for _, d := range values(documents) {
				if !d.fast {
					strict++
				}
				if d.object.typed != nil {
					decoded++
					if d.object.object != "Shoot garden-a/s" || !bytes.Equal(d.raw, []byte(loneShoot)) {
						t.Errorf("decoded %s from %q", d.object.object, d.raw)
					}
				}
			}
			if decoded != tc.decoded || strict != tc.strict {
				t.Errorf("%d documents decoded as read and %d left to the strict decoder, want %d and %d", decoded, strict, tc.decoded, tc.strict)
			}
		})
	}
}

// TestItemHeader checks the type a List's item is decoded as: its own, or for an item of a typed List that omits
// them, the List's apiVersion and kind; never a List inside a List, which is the strict decoder's.
func TestItemHeader(t *testing.T) {
	seeds := header{APIVersion: "core.gardener.cloud/v1beta1", Kind: "SeedList"}
	list := header{APIVersion: "v1", Kind: "List"}
	seed := header{APIVersion: "core.gardener.cloud/v1beta1", Kind: "Seed"}
	for _, tc := range []struct {
		name, item string
		list, want header
		ok         bool
	}{
		{"a typed List's item omits both", `{"metadata":{"name":"a"}}`, seeds, seed, true},
		{"a typed List's item omits its kind", `{"apiVersion":"core.gardener.cloud/v1","metadata":{}}`, seeds, header{APIVersion: "core.gardener.cloud/v1", Kind: "Seed"}, true},
		{"a typed List's item omits its apiVersion", `{"kind":"Shoot"}`, seeds, header{APIVersion: "core.gardener.cloud/v1beta1", Kind: "Shoot"}, true},
		{"a typed List's item names both", `{"kind":"ConfigMap","apiVersion":"v1"}`, seeds, header{APIVersion: "v1", Kind: "ConfigMap"}, true},
		{"a List's item names both", `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Seed"}`, list, seed, true},
		{"a List's item names its kind alone", `{"kind":"Seed"}`, list, header{Kind: "Seed"}, true},
		{"a List's item names neither", `{"metadata":{"name":"a"}}`, list, header{}, false},
		{"a List inside a List", `{"apiVersion":"v1","kind":"List","items":[]}`, list, header{}, false},
		{"a SeedList inside a SeedList", `{"kind":"SeedList","items":[]}`, seeds, header{}, false},
		{"a kind that is no string", `{"kind":1}`, seeds, header{}, false},
		{"a name that is no string", `{1:"Seed"}`, seeds, header{}, false},
		{"an item that is no object", `["Seed"]`, seeds, header{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := itemHeader([]byte(tc.item), tc.list)
			if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("itemHeader(%s) = %+v, %v; want %+v, %v", tc.item, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// FuzzReadDocuments checks that readDocuments reads a stream exactly when a plain decoder does: the same values, in
// order, and nothing when the decoder fails.
func FuzzReadDocuments(f *testing.F) {
	for _, seed := range documentSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want [][]byte
		dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
		for {
			value, err := dec.ReadValue()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				want = nil
				break
			}
			want = append(want, bytes.Clone(value))
		}
		if trimmed := bytes.TrimLeft(data, config.Whitespace); len(trimmed) == 0 || trimmed[0] != '{' && trimmed[0] != '[' {
			want = nil
		}
		documents, ok := readDocuments(data, nil)
		if ok != (want != nil) || len(values(documents)) != len(want) {
			t.Fatalf("readDocuments(%q): %d documents, ok %v; a decoder reads %d", data, len(values(documents)), ok, len(want))
		}
		for i, d := range values(documents) {
			if !bytes.Equal(d.raw, want[i]) {
				t.Fatalf("readDocuments(%q): document %d is %q, want %q", data, i+1, d.raw, want[i])
			}
			if isList(d.h) {
				for _, item := range d.items.all() {
					if !bytes.Contains(d.raw, item.raw) || !jsontext.Value(item.raw).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
						t.Fatalf("readDocuments(%q): item %q is not a value of the document", data, item.raw)
					}
				}
			}
		}
	})
}

// nestsDeeper agrees with a decoder's depth on every valid JSON value, at every limit around it.
func FuzzNestsDeeper(f *testing.F) {
	for _, seed := range documentSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		value := jsontext.Value(data)
		if !value.IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
			return
		}
		depth := 0
		dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
		for {
			if _, err := dec.ReadToken(); err != nil {
				break
			}
			depth = max(depth, dec.StackDepth())
		}
		for limit := max(0, depth-2); limit <= depth+2; limit++ {
			if got := nestsDeeper(data, limit); got != (depth > limit) {
				t.Fatalf("nestsDeeper(%q, %d) = %v, depth %d", data, limit, got, depth)
			}
		}
	})
}

// The nesting of a List counts its own two levels above its items' collections, and brackets in strings do not
// count.
func TestNestsDeeper(t *testing.T) {
	for _, tc := range []struct {
		value  string
		limit  int
		deeper bool
	}{
		{`{}`, 1, false},
		{`{}`, 0, true},
		{`{"a":[{"b":1}]}`, 3, false},
		{`{"a":[{"b":1}]}`, 2, true},
		{`{"a":"[[[[{{{{"}`, 1, false},
		{`{"a":"\"[[["}`, 1, false},
		{`{"a":"\\","b":[[]]}`, 2, true},
		{`{"a":"\\\"[[","b":1}`, 1, false},
		{`"just a string with [ and {"`, 0, false},
	} {
		if got := nestsDeeper([]byte(tc.value), tc.limit); got != tc.deeper {
			t.Errorf("nestsDeeper(%s, %d) = %v, want %v", tc.value, tc.limit, got, tc.deeper)
		}
	}
}

// objectStreams are streams of objects split in stretches: as jq and kubectl write them, one per line, a guess
// inside an object, a List, an array or a scalar among them, text after them.
var objectStreams = []string{
	"{\"kind\":\"Seed\",\"metadata\":{\"name\":\"a\"}}\n{\"kind\":\"Shoot\"}\n{\"kind\":\"Seed\"}\n{\"x\":1}\n",
	"{\n  \"kind\": \"Shoot\",\n  \"spec\": {\n    \"a\": 1\n  }\n}\n{\n  \"kind\": \"Seed\"\n}\n",
	"{\"kind\":\"Seed\",\"spec\":\n{\"nested\":\n{\"deeper\":1}}}\n{\"kind\":\"Shoot\"}\n{\"a\":\n{}}\n",
	"{\"kind\":\"Seed\"}\n{\"kind\":\"SeedList\",\"items\":[]}\n{\"kind\":\"Shoot\"}\n",
	"{\"kind\":\"Seed\"}\n[1]\n{\"kind\":\"Shoot\"}\n",
	"{\"kind\":\"Seed\"}\n{\"kind\":\"Shoot\"}\n5\n",
	"{\"kind\":\"Seed\"}{\"kind\":\"Shoot\"}\n{\"kind\":\"Seed\"}",
	"  \n{\"kind\":\"Seed\"}\n{\"kind\":\"Shoot\"",
	"{\"kind\":\"Seed\",\"note\":\"\\n{\"}\n{\"kind\":\"Shoot\"}\n",
	loneShoot + "\n" + loneShoot + "\n{\"apiVersion\":\"v1\",\"kind\":\"Secret\"}\n" + loneShoot + "\n",
}

// A stream split in any number of stretches holds the objects a split from its start finds, and those are the
// values a decoder reads.
func TestSplitObjectsInStretches(t *testing.T) {
	for _, stream := range objectStreams {
		want, wantOK := splitObjectsIn([]byte(stream), 1, nil)
		checkSplitObjects(t, []byte(stream), want, wantOK)
		for chunks := 2; chunks <= len(stream); chunks++ {
			got, ok := splitObjectsIn([]byte(stream), chunks, nil)
			if ok != wantOK || !sameObjects(got, want) {
				t.Fatalf("%q in %d stretches: %d objects, ok %v; from the start %d, ok %v", stream, chunks, got.items.n, ok, want.items.n, wantOK)
			}
		}
	}
}

// FuzzSplitObjects holds splitting in stretches to splitting from the start, and that to a decoder.
func FuzzSplitObjects(f *testing.F) {
	for _, stream := range append(objectStreams, documentSeeds...) {
		f.Add([]byte(stream), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, chunks uint8) {
		want, wantOK := splitObjectsIn(data, 1, nil)
		checkSplitObjects(t, data, want, wantOK)
		if got, ok := splitObjectsIn(data, int(chunks), nil); ok != wantOK || !sameObjects(got, want) {
			t.Fatalf("%q in %d stretches: %d objects, ok %v; from the start %d, ok %v", data, chunks, got.items.n, ok, want.items.n, wantOK)
		}
	})
}

// checkSplitObjects fails unless a stream split ok is the values a decoder reads, each an object that is no List,
// decoded where the fast decoder reads it.
func checkSplitObjects(t *testing.T, data []byte, stream document, ok bool) {
	t.Helper()
	if !ok {
		return
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	objects := values([]document{stream})
	for i := 0; ; i++ {
		value, err := dec.ReadValue()
		if errors.Is(err, io.EOF) && i == len(objects) {
			return
		}
		if err != nil || i >= len(objects) || !bytes.Equal(value, objects[i].raw) || value.Kind() != '{' {
			t.Fatalf("%q split into %d objects; a decoder reads value %d: %q, %v", data, len(objects), i+1, value, err)
		}
		if h, ok := readHeader(value, nil); !ok {
			t.Fatalf("%q: object %d is a List", data, i+1)
		} else if d := decodeOne(h, value, model.MaxNesting, nil); (d.typed == nil) != (objects[i].object.typed == nil) {
			t.Fatalf("%q: object %d decoded %v as split, %v alone", data, i+1, objects[i].object.typed != nil, d.typed != nil)
		}
	}
}

// sameObjects reports whether two splits found the same objects.
func sameObjects(a, b document) bool {
	return slices.EqualFunc(values([]document{a}), values([]document{b}), func(x, y document) bool {
		return bytes.Equal(x.raw, y.raw) && x.fast == y.fast && reflect.DeepEqual(x.object, y.object)
	})
}

// values are the values readDocuments read, in order: each document, or, of a stream, its objects, each as a
// document of its own, fast where the fast decoder read it.
func values(documents []document) []document {
	var all []document
	for _, d := range documents {
		if !d.stream {
			all = append(all, d)
			continue
		}
		for _, object := range d.items.all() {
			all = append(all, document{raw: object.raw, object: object, fast: object.typed != nil})
		}
	}
	return all
}
