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
	if r.space(); r.pos != len(data) || !isList(d.h) || !listFieldsFast(names, d.fields, metadata) {
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
	first := newStretch(r.data, r.pos, firstSize, in, false)
	first.read(firstItems)
	last, ok := first, !first.failed
	if ok && first.end == 0 {
		var rest objectList
		rest, last, ok = readStretches(r.data, guessItemStarts(r.data, first, chunks), false)
		first.items.join(rest)
	}
	if !ok {
		return objectList{}, false
	}
	r.pos = last.end
	r.depth--
	return first.items, true
}

// readStretches reads the stretches beginning at starts on every processor, each in an arena of its own, and
// joins the values of those that count: the first, and each that the one before it ended exactly at the beginning
// of. last is the one that came to the end; ok is false if one that counts failed.
func readStretches(data []byte, starts []int, stream bool) (values objectList, last *stretch, ok bool) {
	stretches := make([]*stretch, len(starts))
	for i, at := range starts {
		stretches[i] = newStretch(data, at, (len(data)-starts[0])/len(starts), nil, stream)
	}
	for i, s := range stretches {
		s.next = stretches[i+1:]
	}
	model.OnEveryProcessor(len(stretches), func(i int) {
		// A stretch of a large List interns many strings: its cache is best written whole first (freshWrite).
		clear(stretches[i].interned.slots)
		stretches[i].read(-1)
	})
	for s := stretches[0]; s != nil; s = s.landed {
		if s.failed {
			return objectList{}, nil, false
		}
		values.join(s.items)
		last = s
	}
	return values, last, true
}

// guessItemStarts are where the stretches of items begin: the second item, and the first item start after each
// of evenly spaced offsets, recognized by the bytes from the end of the first item to the first name of the
// second (",\n    {\n      \"apiVersion\":"): items of a List tend to begin alike, and objects nested in them
// otherwise.
func guessItemStarts(data []byte, first *stretch, chunks int) []int {
	second := first.at
	starts := []int{second}
	r := jsonReader{data: data, pos: second, limit: 1}
	if !r.enter(r.next(), '{') {
		return starts
	}
	if _, ok := r.name(); !ok {
		return starts
	}
	return guessStarts(data, second, chunks, data[first.valueEnd:r.pos], second-first.valueEnd)
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

// stretch reads and decodes the values of a List's items or of a stream's objects from where it begins until it
// comes to the beginning of a later stretch (landed) or to the end: of the array, after its bracket, or of the
// stream.
type stretch struct {
	data []byte
	// stream is true for a stream's objects, false for a List's items.
	stream bool
	// begin is where the stretch begins, at where its next value begins and valueEnd where the last one read ends.
	begin, at, valueEnd int
	next                []*stretch
	items               objectList
	landed              *stretch
	end                 int
	failed              bool
	// arena holds the strings of the stretch's values, shared among them, and what their pointers point to: the
	// stretch's own, or, for a small List's or stream's one stretch, the arena its file is read in
	// (smallFileArenas).
	*arena
}

// newStretch is a stretch beginning at the value at at, of about size bytes, decoded in the arena in, or in one of
// its own if in is nil.
func newStretch(data []byte, at, size int, in *arena, stream bool) *stretch {
	if in == nil {
		own := newArena(size)
		in = &own
	}
	return &stretch{data: data, stream: stream, begin: at, at: at, arena: in}
}

// read reads at most n values (n < 0: no limit) unless it lands on a later stretch, comes to the end or fails.
func (s *stretch) read(n int) {
	for ; n != 0 && !s.failed && s.end == 0 && !s.land(); n-- {
		s.failed = !s.value() || !s.advance()
	}
}

// land reports whether the stretch is at the beginning of a later one, which it then notes as the one it landed on.
func (s *stretch) land() bool {
	for len(s.next) > 0 && s.next[0].begin < s.at {
		s.next = s.next[1:]
	}
	if len(s.next) > 0 && s.next[0].begin == s.at {
		s.landed = s.next[0]
		return true
	}
	return false
}

// value reads the value at s.at, decoding it if the fast decoder reads it, as decodeItem would. A List's item it
// leaves must still be valid JSON within the nesting budget: decodeItem reads it once the List's type is known. A
// stream's value must be an object that is no List; one the fast decoder leaves is the strict decoder's.
func (s *stretch) value() bool {
	limit := model.MaxNesting - 2 // inside the List and its array of items
	if s.stream {
		limit = model.MaxNesting
	}
	r := jsonReader{data: s.data, pos: s.at, limit: limit, arena: s.arena}
	h, ok := readHeader(s.data[s.at:], s.arena)
	switch {
	case !ok && s.stream:
		return false // a List, or not an object: readStream's decoder reads the stream
	case !ok:
		h = header{} // not an object the fast decoder reads
	}
	d, ok := r.decodeOrSkip(h)
	if !ok {
		return false // not JSON, or too deep: readStream and decodeDocument word it
	}
	s.items.add(d)
	s.valueEnd = r.pos
	return true
}

// advance moves the stretch to the value after the one it read, or to the end; false when neither follows.
func (s *stretch) advance() bool {
	r := jsonReader{data: s.data, pos: s.valueEnd}
	c := r.next()
	switch {
	case s.stream && r.pos == len(s.data):
		s.end = r.pos
	case s.stream && c == '{':
		s.at = r.pos
	case !s.stream && c == ']':
		s.end = r.pos + 1
	case !s.stream && c == ',':
		r.pos++
		if r.next() == 0 {
			return false
		}
		s.at = r.pos
	default:
		return false
	}
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
