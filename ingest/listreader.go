package ingest

import (
	"bytes"
	"runtime"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/seedplan/seedplan/model"
)

// A file that is one JSON List — what `kubectl get -o json` and `seedplan generate -o json` write — is most of
// what a large landscape is. readStream would read it item by item on one processor before any item is decoded;
// readList reads and decodes it in one pass on every processor instead. It guesses where items begin by the bytes
// from the end of the first item to the first name of the second (",\n    {\n      \"apiVersion\":"), and each
// processor decodes the items of one stretch. A guess counts only once the stretch before it ends exactly there,
// at an item's end: where a guess fell into the middle of an item, the stretch before reads on past it, and what
// was decoded from it is dropped. So the items are the ones a reading from the start finds, whatever the guesses.

// listChunksPerProcessor is how many stretches each processor gets: more than one, so that a processor that
// finishes early takes another. A stretch is at least minStretchBytes long: each has its own string cache and
// slabs, which cost more than a small List takes to decode, and small Lists come many at a time, a file each
// (`kubectl get -o json` per namespace), decoded on every processor already.
const (
	listChunksPerProcessor = 4
	minStretchBytes        = 256 << 10
)

// readList reads data as readStream would when it is one JSON List in a form the fast path reads, and decodes
// the List's items while it does: the document's decoded items are those the fast decoder read, an empty decoded
// where it left the item to decodeItem. ok is false for anything else — several documents, another value, a
// name twice, an item too deep, JSON that is not valid — which readStream reads and decodeDocument words.
func readList(data []byte, in *arena) (document, bool) {
	return readListIn(data, min(runtime.GOMAXPROCS(0)*listChunksPerProcessor, len(data)/minStretchBytes), in)
}

// readListIn is readList with at most chunks stretches of items after the first item; with fewer than two, the
// first item's stretch reads them all, in the arena in if there is one.
func readListIn(data []byte, chunks int, in *arena) (document, bool) {
	r := jsonReader{data: data, limit: model.MaxNesting, arena: in}
	if !r.enter(r.next(), '{') {
		return document{}, false
	}
	start := r.pos - 1
	d := document{fast: true}
	var names []string
	var metadata jsontext.Value
	for first := true; ; first = false {
		more, ok := r.more(first, '}')
		if !ok {
			return document{}, false
		}
		if !more {
			break
		}
		name, ok := r.name()
		if !ok || slices.Contains(names, string(name)) {
			return document{}, false
		}
		names = append(names, string(name))
		if string(name) == "items" {
			if d.items, ok = r.listItems(chunks); !ok {
				return document{}, false
			}
			d.h.hasItems = true
			continue
		}
		if !r.listField(string(name), &d, &metadata) {
			return document{}, false
		}
	}
	d.raw = data[start:r.pos]
	if r.space(); r.pos != len(data) || !isList(d.h) || !listFieldsFast(d.fields, metadata) {
		return document{}, false
	}
	return d, true
}

// listField reads a List's field other than its items into d, as readDocument does.
func (r *jsonReader) listField(name string, d *document, metadata *jsontext.Value) bool {
	value, ok := r.skip()
	if !ok {
		return false
	}
	switch name {
	case "apiVersion", "kind":
		text, ok := (&jsonReader{data: value}).string(value[0])
		if !ok {
			return false
		}
		if name == "kind" {
			if !strings.HasSuffix(text, "List") {
				return false // an object: readObject or readStream reads it
			}
			d.h.Kind = text
		} else {
			d.h.APIVersion = text
		}
	case "metadata":
		*metadata = value
	}
	d.fields = append(d.fields, value)
	return true
}

// listItems reads a List's array of items at the reader's position and decodes them, a large List's in stretches
// on every processor.
func (r *jsonReader) listItems(chunks int) (objectList, bool) {
	if !r.enter(r.next(), '[') {
		return objectList{}, false
	}
	if r.next() == ']' {
		r.pos++
		r.depth--
		return objectList{}, true
	}
	// The first item's stretch reads a small List whole, and of a large one that item only, to learn where the
	// other stretches begin.
	firstSize, firstItems, in := len(r.data)-r.pos, -1, r.arena
	if chunks >= 2 {
		firstSize, firstItems, in = 0, 1, nil
	}
	first := itemStretch(r.data, r.pos, firstSize, in)
	first.read(firstItems)
	if first.failed || first.end > 0 {
		r.pos = first.end
		r.depth--
		return first.items, !first.failed
	}
	stretches, size := make([]*listStretch, 0, chunks), (len(r.data)-first.at)/chunks
	for _, at := range guessItemStarts(r.data, first, chunks) {
		stretches = append(stretches, itemStretch(r.data, at, size, nil))
	}
	for i, s := range stretches {
		s.next = stretches[i+1:]
	}
	model.OnEveryProcessor(len(stretches), func(i int) {
		// A stretch of a large List interns many strings: its cache is best written whole first (freshWrite).
		clear(stretches[i].interned.slots)
		stretches[i].read(-1)
	})
	items, last := first.items, first
	for s := stretches[0]; s != nil; s = s.landed {
		if s.failed {
			return objectList{}, false
		}
		items.join(s.items)
		last = s
	}
	r.pos = last.end
	r.depth--
	return items, true
}

// guessItemStarts are where the stretches of items begin: the second item, and the first item start after each
// of evenly spaced offsets, recognized by the bytes from the end of the first item to the first name of the
// second (",\n    {\n      \"apiVersion\":"): items of a List tend to begin alike, and objects nested in them
// otherwise.
func guessItemStarts(data []byte, first *listStretch, chunks int) []int {
	second := first.at
	starts := []int{second}
	r := jsonReader{data: data, pos: second, limit: 1}
	if !r.enter(r.next(), '{') {
		return starts
	}
	if _, ok := r.name(); !ok {
		return starts
	}
	return guessStarts(data, second, chunks, data[first.itemEnd:r.pos], second-first.itemEnd)
}

// guessStarts are where the stretches from first on begin: at first, and after each of evenly spaced offsets
// where separator is next found, skip bytes into it (where the separator's value begins).
func guessStarts(data []byte, first, chunks int, separator []byte, skip int) []int {
	starts := []int{first}
	for c := 1; c < chunks; c++ {
		from := max(first+(len(data)-first)*c/chunks, starts[len(starts)-1]+1)
		i := -1
		if from < len(data) {
			i = bytes.Index(data[from:], separator)
		}
		if i < 0 {
			break
		}
		starts = append(starts, from+i+skip)
	}
	return starts
}

// listStretch reads and decodes items from where it begins until it comes to the beginning of a later stretch
// (landed) or to the end of the array (end, after its bracket).
type listStretch struct {
	data []byte
	// begin is where the stretch begins, at where its next item begins and itemEnd where the last one read ends.
	begin, at, itemEnd int
	next               []*listStretch
	items              objectList
	landed             *listStretch
	end                int
	failed             bool
	// arena holds the strings of the stretch's items, shared among them, and what their pointers point to: the
	// stretch's own, or, for a small List's one stretch, the arena its file is read in (smallFileArenas).
	*arena
}

// itemStretch is a stretch beginning at the item at at, of about size bytes, decoded in the arena in, or in one of
// its own if in is nil.
func itemStretch(data []byte, at, size int, in *arena) *listStretch {
	if in == nil {
		own := newArena(size)
		in = &own
	}
	return &listStretch{data: data, begin: at, at: at, arena: in}
}

// read reads at most n items (n < 0: no limit) unless it lands on a later stretch, comes to the array's end or
// fails.
func (s *listStretch) read(n int) {
	for ; n != 0; n-- {
		for len(s.next) > 0 && s.next[0].begin < s.at {
			s.next = s.next[1:]
		}
		if len(s.next) > 0 && s.next[0].begin == s.at {
			s.landed = s.next[0]
			return
		}
		if s.failed = !s.item(); s.failed {
			return
		}
		r := jsonReader{data: s.data, pos: s.itemEnd}
		switch r.next() {
		case ']':
			s.end = r.pos + 1
			return
		case ',':
			r.pos++
			if r.next() == 0 {
				s.failed = true
				return
			}
			s.at = r.pos
		default:
			s.failed = true
			return
		}
	}
}

// item reads the item at s.at, decoding it if the fast decoder reads it, as decodeItem would. An item it leaves
// must still be valid JSON within the nesting budget: decodeItem reads it once the List's type is known.
func (s *listStretch) item() bool {
	r := jsonReader{data: s.data, pos: s.at, limit: model.MaxNesting - 2, arena: s.arena}
	h, ok := readHeader(s.data[s.at:], s.arena)
	if !ok {
		h = header{} // not an object the fast decoder reads
	}
	d, ok := r.decodeOrSkip(h)
	if !ok {
		return false // not JSON, or too deep: readStream and decodeDocument word it
	}
	s.items.add(d)
	s.itemEnd = r.pos
	return true
}

// decodeOrSkip reads the value at the reader's position, whose header is h, as a List's item and a stream's object
// are read: decoded where the fast decoder reads it, skipped where it does not, and its JSON kept as raw. ok is
// false when it is not JSON or nests too deep.
func (r *jsonReader) decodeOrSkip(h header) (decoded, bool) {
	start, depth := r.pos, r.depth
	var d decoded
	if h.APIVersion != "" && h.Kind != "" {
		var ok bool
		if d, ok = r.decodeObject(h); !ok {
			r.pos, r.depth, d = start, depth, decoded{}
		}
	}
	if d.typed == nil {
		if _, ok := r.skip(); !ok {
			return decoded{}, false
		}
	}
	d.raw = r.data[start:r.pos]
	return d, true
}
