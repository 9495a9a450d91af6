package ingest

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/seedplan/seedplan/model"
)

// listReaderCases are JSON files, with whether readList reads them (the rest readStream reads).
var listReaderCases = []struct {
	name, json string
	read       bool
}{
	{"empty List", `{"apiVersion":"v1","kind":"List","items":[]}`, true},
	{"items before kind, as kubectl writes them", `{"apiVersion":"v1","items":[` + shootItem("a", "") + `],"kind":"List","metadata":{"resourceVersion":""}}`, true},
	{"indented", "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [\n    " + strings.Join(shootItems(40, ""), ",\n    ") + "\n  ]\n}\n", true},
	{"compact", `{"apiVersion":"v1","kind":"List","items":[` + strings.Join(shootItems(40, ""), ",") + `]}`, true},
	{"the separator inside strings", `{"kind":"List","apiVersion":"v1","items":[` + strings.Join(shootItems(40, `,{},{"a":1}`), ",") + `]}`, true},
	{"a typed List whose items omit their type", `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"ShootList","items":[{"metadata":{"name":"a","namespace":"b"}},` + shootItem("c", "") + `]}`, true},
	{"items for the strict decoder", `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}},"text",3,` + shootItem("a", "") + `,{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot","metadata":{"name":"b","namespace":"c"},"spec":{"regoin":"x"}}]}`, true},
	{"items with values of their own behind pointers, across slabs", `{"apiVersion":"v1","kind":"List","items":[` + strings.Join(boundShootItems(3*slabLength), ",") + `]}`, true},

	{"an object", shootItem("a", ""), false},
	{"two Lists", `{"apiVersion":"v1","kind":"List","items":[]} {"apiVersion":"v1","kind":"List","items":[]}`, false},
	{"an array", `[]`, false},
	{"a name twice", `{"apiVersion":"v1","kind":"List","kind":"List","items":[]}`, false},
	{"items twice", `{"apiVersion":"v1","kind":"List","items":[],"items":[]}`, false},
	{"items not an array", `{"apiVersion":"v1","kind":"List","items":{}}`, false},
	{"kind not a string", `{"apiVersion":"v1","kind":1,"items":[]}`, false},
	{"metadata of another form", `{"apiVersion":"v1","kind":"List","metadata":{"name":1},"items":[]}`, false},
	{"invalid JSON in an item", `{"apiVersion":"v1","kind":"List","items":[` + shootItem("a", "") + `,{"a":}]}`, false},
	{"an item too deep", `{"apiVersion":"v1","kind":"List","items":[` + strings.Repeat("[", model.MaxNesting-1) + strings.Repeat("]", model.MaxNesting-1) + `]}`, false},
	{"YAML", "apiVersion: v1\nkind: List\nitems: []\n", false},
	{"a field no List has, for the strict decoder to warn of", `{"apiVersion":"v1","kind":"List","extra":{"x":[1,2]},"items":[]}`, false},
	{"trailing comma", `{"apiVersion":"v1","kind":"List","items":[` + shootItem("a", "") + `,]}`, false},
	{"a comma missing between members", `{"apiVersion":"v1","kind":"List" "items":[]}`, false},
	{"invalid JSON in metadata", `{"apiVersion":"v1","kind":"List","metadata":{"a":},"items":[]}`, false},
}

// shootItem is a Shoot named name whose annotation holds note.
func shootItem(name, note string) string {
	return fmt.Sprintf(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot","metadata":{"name":%q,"namespace":"garden-a","annotations":{"note":%q}},"spec":{"region":"eu-west-1","provider":{"type":"aws","workers":[{"name":"w","minimum":1,"maximum":3}]}}}`, name, note)
}

// shootItems are n Shoots with notes.
func shootItems(n int, note string) []string {
	items := make([]string, n)
	for i := range items {
		items[i] = shootItem(fmt.Sprintf("s%d", i), note)
	}
	return items
}

// boundShootItems are n Shoots, each bound to a seed of its own, with a purpose and nodes of their own: values
// behind pointers.
func boundShootItems(n int) []string {
	items := make([]string, n)
	for i := range items {
		// Slices of none to three elements, the first of which come from slabs.
		workers := make([]string, i%4)
		for j := range workers {
			zones := make([]string, (i+j)%3)
			for k := range zones {
				zones[k] = fmt.Sprintf(`"eu-west-1%c"`, 'a'+k)
			}
			workers[j] = fmt.Sprintf(`{"name":"w%d","minimum":1,"maximum":%d,"zones":[%s]}`, j, j+2, strings.Join(zones, ","))
		}
		items[i] = fmt.Sprintf(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot","metadata":{"name":"s%d","namespace":"garden-a"},"spec":{"networking":{"nodes":"10.%d.0.0/16"},"provider":{"type":"aws","workers":[%s]},"purpose":"p%d","region":"eu-west-1","seedName":"seed-%d"}}`, i, i%256, strings.Join(workers, ","), i, i)
	}
	return items
}

func TestReadList(t *testing.T) {
	for _, tc := range listReaderCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, chunks := range []int{1, 2, 3, 8, 64} {
				_, read := checkReadList(t, []byte(tc.json), chunks)
				if read != tc.read {
					t.Fatalf("%d stretches: read = %v, want %v", chunks, read, tc.read)
				}
			}
		})
	}
}

// FuzzReadList checks the List reader against readStream and decodeItem, which it stands in for.
func FuzzReadList(f *testing.F) {
	for _, tc := range listReaderCases {
		f.Add([]byte(tc.json), uint8(3))
	}
	for _, doc := range exampleFileDocuments(f) {
		if converted, err := yamlToJSON(doc); err == nil {
			f.Add(converted, uint8(4))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, chunks uint8) {
		checkReadList(t, data, int(chunks%16)+1)
	})
}

// checkReadList reads data with readListIn and, if it reads it, checks that readStream reads it to the same
// document and that the items it decoded are those decodeItem decodes.
func checkReadList(t *testing.T, data []byte, chunks int) (document, bool) {
	t.Helper()
	got, ok := readListIn(data, chunks, nil)
	if !ok {
		return got, false
	}
	want, ok := readStream(data, nil)
	if !ok || len(want) != 1 {
		t.Fatalf("readList reads %q, readStream reads %d documents (ok %v)", data, len(want), ok)
	}
	w := want[0]
	if !bytes.Equal(got.raw, w.raw) || !reflect.DeepEqual(got.h, w.h) || got.fast != w.fast || !reflect.DeepEqual(got.fields, w.fields) ||
		!slices.EqualFunc(items(got), items(w), bytes.Equal) {
		t.Fatalf("%q:\nreadList   %+v\nreadStream %+v", data, got, w)
	}
	for i, d := range got.items.all() {
		if d.typed == nil {
			continue
		}
		item := decodeItem(d.raw, got.h)
		if item.typed == nil || item.object != d.object || !sameJSON(t, objectJSON(t, item.typed), objectJSON(t, d.typed)) {
			t.Fatalf("item %d %s: readList decodes %+v, decodeItem %+v", i, d.raw, d, item)
		}
	}
	return got, true
}

// items are the bytes of a document's List items.
func items(d document) [][]byte {
	var raws [][]byte
	for _, item := range d.items.all() {
		raws = append(raws, item.raw)
	}
	return raws
}

// yamlToJSON converts a YAML document as the loader does, for seeds.
func yamlToJSON(doc []byte) ([]byte, error) {
	out, fast := transcodeYAML(doc)
	if !fast {
		return nil, fmt.Errorf("not transcoded")
	}
	var indented bytes.Buffer
	if err := stdjson.Indent(&indented, out, "", "  "); err != nil {
		return nil, err
	}
	return indented.Bytes(), nil
}

// TestGuessItemStarts checks that the guesses fall on items, not on objects nested in them, in a compact List
// whose items hold arrays of objects (the separator "},{" alone would match between workers).
func TestGuessItemStarts(t *testing.T) {
	item := `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot","metadata":{"name":"s","namespace":"n"},"spec":{"provider":{"type":"aws","workers":[{"name":"a"},{"name":"b"},{"name":"c"}]}}}`
	data := []byte(`{"apiVersion":"v1","kind":"List","items":[` + strings.Repeat(item+",", 99) + item + `]}`)
	first := newStretch(data, bytes.IndexByte(data, '[')+1, 0, nil, false)
	first.read(1)
	starts := guessItemStarts(data, first, 8)
	if len(starts) != 8 {
		t.Fatalf("%d stretches, want 8", len(starts))
	}
	for _, at := range starts {
		if (at-first.begin)%(len(item)+1) != 0 {
			t.Errorf("a stretch begins at %d, inside an item: %.30s", at, data[at:])
		}
	}
}

// TestReadListAllocatesForItsBytes checks that reading a List allocates in proportion to its bytes, also when its
// first item is far shorter than the others.
func TestReadListAllocatesForItsBytes(t *testing.T) {
	large := `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"a":"` + strings.Repeat("x", 1<<20) + `"}}`
	data := []byte(`{"apiVersion":"v1","kind":"List","items":[{}` + strings.Repeat(","+large, 4) + `]}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d, ok := readListIn(data, 8, nil)
	runtime.ReadMemStats(&after)
	if !ok || d.items.n != 5 {
		t.Fatalf("read %v, %d items", ok, d.items.n)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 4*uint64(len(data)) {
		t.Errorf("reading %d bytes allocated %d", len(data), allocated)
	}
}

// TestObjectList checks that a list of objects holds them in the order they were added and joined, in blocks that
// double up to objectBlock.
func TestObjectList(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parts []int // how many objects each list joined holds
		// blocks are the capacities of the joined list's blocks.
		blocks []int
	}{
		{"empty", []int{0}, nil},
		{"one", []int{1}, []int{1}},
		{"a block full", []int{7}, []int{1, 2, 4}},
		{"into a fourth block", []int{8}, []int{1, 2, 4, 8}},
		{"up to the longest block", []int{1000}, []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 256, 256}},
		{"stretches joined", []int{3, 0, 2}, []int{1, 2, 1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var joined objectList
			added := 0
			for _, n := range tc.parts {
				var part objectList
				for range n {
					part.add(decoded{object: fmt.Sprint(added)})
					added++
				}
				joined.join(part)
			}
			got := 0
			for i, d := range joined.all() {
				if d.object != fmt.Sprint(i) || i != got {
					t.Fatalf("object %d is %q", i, d.object)
				}
				got++
			}
			var blocks []int
			for _, b := range joined.blocks {
				blocks = append(blocks, cap(b))
			}
			if got != added || joined.n != added || !slices.Equal(blocks, tc.blocks) {
				t.Errorf("%d objects (n %d) in blocks %v, want %d in %v", got, joined.n, blocks, added, tc.blocks)
			}
		})
	}
}
