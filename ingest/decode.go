package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"runtime"
	"slices"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	seedmanagementv1alpha1 "github.com/gardener/gardener/pkg/apis/seedmanagement/v1alpha1"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/model"
)

// The fast path of decoding reads an object once, with the decoder of objectdecoder.go, and strictly: an unknown
// or duplicate field, a key in other case, a wrong type — anything the strict decoder would warn or err about —
// fails it, and the object is decoded again by decodeObjectStrictly, which words every warning and error as
// before. FuzzDecodeFast checks that both paths decode what the fast one accepts to the same object.
var (
	// listMetadata reads a List's metadata as encoding/json would, but strictly, like the fast path.
	listMetadata = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsonv2.MatchCaseInsensitiveNames(false),
		jsontext.AllowDuplicateNames(false), jsontext.AllowInvalidUTF8(false))
	fastSyntax = jsonv2.JoinOptions(jsontext.AllowDuplicateNames(false), jsontext.AllowInvalidUTF8(false))
)

// decoded is one object read from a document or a List item, not yet added: decoding is done in parallel, adding
// in the input's order. Where it was read is its place in its decodedDocument.
type decoded struct {
	object string
	// typed is the object, when the fast path read it.
	typed any
	// raw is the object's JSON. Where typed is nil it is the strict decoder's: decodeObjectStrictly decodes it in
	// order and words every warning and error. (Until decodeDocument has decoded a List's items, an item without
	// typed is one the fast path left, for decodeItem.)
	raw []byte
}

// decodedDocument is what one document holds, decoded and not yet added: its objects, in order, and where they were
// read.
type decodedDocument struct {
	in      *source
	objects objectList
	// refused is why the document was refused, if it was: it then holds no objects.
	refused error
}

// empty reports whether the document held nothing: only whitespace, comments or null.
func (d decodedDocument) empty() bool { return d.in == nil }

// source is a document, as messages name it, and if list is not "" the kind of the List whose items its objects
// are. Of a stream (stream), document names the file, whose documents its objects are.
type source struct {
	document, list string
	stream         bool
	// lines, of a document of a file of several YAML documents whose lone object is the strict decoder's, are the
	// lines of the file it spans, which the object's refusal for having no kind names: a "---" or "..." line in the
	// middle of an object, or of a List before its kind, most often makes such a document.
	lines string
}

// place is where an object was read: a document, or the item-th item of a List in it. It is worded only for a
// message: a large List has many items, and all but a few are never named.
type place struct {
	in   *source
	item int
}

// String words the place as messages name it.
func (p place) String() string {
	switch {
	case p.in.stream:
		return fmt.Sprintf("%s: document %d", p.in.document, p.item+1)
	case p.in.list == "":
		return p.in.document
	}
	return fmt.Sprintf("%s: %s item %d", p.in.document, p.in.list, p.item)
}

// objectList is a document's objects in order, in blocks filled one after another, each twice as long as the one
// before up to objectBlock: every stretch of a List's items fills a list of its own on its processor, and the
// stretches' lists are joined without copying an object or guessing how many a stretch holds.
type objectList struct {
	blocks [][]decoded
	n      int
}

// objectBlock is how many objects a block holds at most.
const objectBlock = 256

// add appends d to the list.
func (l *objectList) add(d decoded) {
	last := len(l.blocks) - 1
	if last < 0 || len(l.blocks[last]) == cap(l.blocks[last]) {
		length := 1
		if last >= 0 {
			length = min(2*cap(l.blocks[last]), objectBlock)
		}
		l.blocks, last = append(l.blocks, make([]decoded, 0, length)), last+1
	}
	l.blocks[last] = append(l.blocks[last], d)
	l.n++
}

// join appends the objects of m to the list.
func (l *objectList) join(m objectList) {
	l.blocks = append(l.blocks, m.blocks...)
	l.n += m.n
}

// strictObject reports whether the document holds one object alone, not a List's items or a stream's objects,
// which the fast path left to the strict decoder.
func (d decodedDocument) strictObject() bool {
	if d.in == nil || d.in.list != "" || d.in.stream || d.objects.n != 1 {
		return false
	}
	for _, object := range d.objects.all() {
		return object.typed == nil
	}
	return false
}

// all is the list's objects with their indices, in order.
func (l objectList) all() iter.Seq2[int, decoded] {
	return func(yield func(int, decoded) bool) {
		i := 0
		for _, block := range l.blocks {
			for _, d := range block {
				if !yield(i, d) {
					return
				}
				i++
			}
		}
	}
}

// lone is the document where holding d alone, made in one allocation: a stream of many documents of an object
// each makes one per document.
func lone(where string, d decoded) decodedDocument {
	one := &struct {
		in     source
		blocks [1][]decoded
		block  [1]decoded
	}{in: source{document: where}, block: [1]decoded{d}}
	one.blocks[0] = one.block[:]
	return decodedDocument{in: &one.in, objects: objectList{blocks: one.blocks[:], n: 1}}
}

// decodeJSON decodes what one JSON document holds, not yet added, as decodeDocument does; it changes nothing shared
// but the arena, if any.
func decodeJSON(where string, data []byte, in *arena) (decodedDocument, error) {
	d, ok := readOne(data, in)
	if !ok {
		documents, read := readStream(data, in)
		if !read || len(documents) != 1 || documents[0].stream {
			return lone(where, decoded{raw: data}), nil
		}
		d = documents[0]
	}
	return decodeDocument(where, d, false, in)
}

// decodeDocument decodes what one document holds, not yet added; it changes nothing shared but the arena, if any,
// which no other decode uses meanwhile. A document's lone object is decoded in the arena; a List's items were
// decoded in their stretches' arenas, and those left are decoded on every processor without one. With
// limitNesting it first refuses a document nested deeper than the input budget allows (a JSON file's: a
// transcoded YAML document was held to the budget as it was read).
func decodeDocument(where string, d document, limitNesting bool, in *arena) (decodedDocument, error) {
	if d.stream {
		// Its objects were held to the budget as they were read, and those the fast decoder left are the strict
		// decoder's.
		return decodedDocument{in: &source{document: where, stream: true}, objects: d.items}, nil
	}
	if !d.fast || d.h.Kind == "" || !isList(d.h) {
		object := decoded{raw: d.raw}
		switch {
		case d.object.typed != nil:
			object = d.object
		case d.fast && d.h.Kind != "":
			object = decodeOne(d.h, d.raw, model.MaxNesting, in)
		}
		if object.typed == nil && limitNesting && nestsDeeper(d.raw, model.MaxNesting) {
			return decodedDocument{}, nestingError(where, d.raw)
		}
		return lone(where, object), nil
	}
	if limitNesting && slices.ContainsFunc(d.fields, func(f []byte) bool { return nestsDeeper(f, model.MaxNesting-1) }) {
		return decodedDocument{}, nestingError(where, d.raw)
	}
	// The items readList decoded are completed where they are: a document is decoded once. The List's header is
	// copied for the closure, which would otherwise move every document decoded to the heap.
	blocks, h := d.items.blocks, d.h
	tooDeep := make([]int, len(blocks)) // in each block, 1 + the first item nested too deep, if any
	model.OnEveryProcessor(len(blocks), func(b int) {
		for i, item := range blocks[b] {
			if item.typed != nil {
				continue
			}
			// The fast decoder holds an item to the budget as it reads it: only what it leaves is measured again.
			blocks[b][i] = decodeItem(item.raw, h)
			if blocks[b][i].typed == nil && limitNesting && tooDeep[b] == 0 && nestsDeeper(item.raw, model.MaxNesting-2) {
				tooDeep[b] = i + 1
			}
		}
	})
	list := &source{document: where, list: d.h.Kind}
	for b, before := 0, 0; b < len(blocks); b, before = b+1, before+len(blocks[b]) {
		if i := tooDeep[b] - 1; i >= 0 {
			return decodedDocument{}, nestingError(place{in: list, item: before + i}.String(), blocks[b][i].raw)
		}
	}
	return decodedDocument{in: list, objects: d.items}, nil
}

// decodeItem decodes one item of a List; it changes nothing shared, so items are decoded in parallel.
func decodeItem(item []byte, list header) decoded {
	if h, ok := itemHeader(item, list); ok && !isList(h) {
		if d := decodeOne(h, item, model.MaxNesting-2, nil); d.typed != nil {
			return d
		}
	}
	if kind := strings.TrimSuffix(list.Kind, "List"); kind != "" {
		// Items of a typed List (SeedList) may omit apiVersion and kind; the strict path reads them as the List's.
		item = withDefaultType(item, list.APIVersion, kind)
	}
	return decoded{raw: item}
}

// nestingError refuses a document nested deeper than the input budget allows.
func nestingError(where string, document []byte) error {
	return fmt.Errorf("%s%s: %w: collections nest more than %d deep", where, objectOf(document), model.ErrBudget, model.MaxNesting)
}

// isList reports whether the header is a List's: kind List, or a kind ending in List with items.
func isList(h header) bool {
	return h.Kind == "List" || strings.HasSuffix(h.Kind, "List") && h.hasItems
}

// document is one JSON value of a file, with what the fast path reads of it before decoding it.
type document struct {
	raw []byte
	h   header
	// object is the document's object when readObject decoded it as it read it.
	object decoded
	// items are a List's items, as the fast decoder read them when readList read the document: one without typed
	// is left to decodeItem. fields are the values of the List's other fields, parts of raw.
	items  objectList
	fields [][]byte
	// stream is true for a stream of objects splitObjects read: items are its objects, one without typed left to
	// the strict decoder, and each is a document of the file as messages name it.
	stream bool
	// fast is false when raw is not an object or holds anything the fast path leaves to the strict decoder.
	fast bool
}

// readDocuments reads data's JSON documents: a file that is one List by readList, which decodes its items as it
// reads them, anything else by readStream; ok is false when data is not JSON.
func readDocuments(data []byte, in *arena) ([]document, bool) {
	if d, ok := readOne(data, in); ok {
		return []document{d}, true
	}
	return readStream(data, in)
}

// readOne reads data as readDocuments does when it is one List or one object.
func readOne(data []byte, in *arena) (document, bool) {
	if list, ok := readList(data, in); ok {
		return list, true
	}
	return readObject(data, in)
}

// readObject reads data as readStream would when it is one object, not a List, and decodes it while it does if
// the fast decoder reads it, as a List's item is read: a file or a YAML document of one object — a file per object
// in a repository, a stream of documents from kustomize — is read once, not once to find its documents and again
// to decode them. One the fast decoder leaves (a field from a newer Gardener) is the strict decoder's (not fast),
// not the fast decoder's again. ok is false for anything else, which readStream reads.
func readObject(data []byte, in *arena) (document, bool) {
	h, ok := readHeader(data, nil)
	if !ok || h.APIVersion == "" || h.Kind == "" {
		return document{}, false
	}
	value := bytes.Trim(data, config.Whitespace)
	if object := decodeOne(h, value, model.MaxNesting, in); object.typed != nil {
		return document{raw: value, h: h, object: object, fast: true}, true
	}
	r := jsonReader{data: value, limit: model.MaxNesting}
	if _, ok := r.skip(); !ok || r.pos != len(value) {
		return document{}, false // several values, or one nested too deep
	}
	return document{raw: value, h: h}, true
}

// readStream reads data as a stream of JSON values, one document each; ok is false when it is not one (YAML,
// of which JSON is a part, or nothing). A stream of objects is split by the fast reader (splitObjects); any other
// is read for its syntax alone (config.SyntaxOnly), once, and a List's items are decoded from their parts of it.
func readStream(data []byte, in *arena) (documents []document, ok bool) {
	trimmed := bytes.TrimLeft(data, config.Whitespace)
	if len(trimmed) == 0 || trimmed[0] != '{' && trimmed[0] != '[' {
		return nil, false
	}
	if stream, ok := splitObjects(data, in); ok {
		return []document{stream}, true
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), config.SyntaxOnly)
	for {
		d, err := readDocument(dec, data)
		if errors.Is(err, io.EOF) {
			return documents, len(documents) > 0
		}
		if err != nil {
			return nil, false
		}
		documents = append(documents, d)
	}
}

// splitObjects reads data as a stream of objects that are no Lists with the fast reader, which finds where a value
// ends sooner than a decoder of its syntax alone (README), and decodes each object the fast decoder reads as it splits
// it, in the arena in if the stream is read in one stretch, as readObject decodes a lone object. The stream is one
// document whose items are its objects, as a List's are (stream): a document each would cost each object what
// a List's items share. ok is false for any other stream — a List, an array or a scalar in it, a value the fast
// reader does not read — which the decoder reads. The objects the fast decoder leaves (a duplicate name, invalid
// UTF-8, a field of a newer Gardener) are the strict decoder's, which words them as it words the decoder's
// documents.
func splitObjects(data []byte, in *arena) (document, bool) {
	return splitObjectsIn(data, min(runtime.GOMAXPROCS(0)*listChunksPerProcessor, len(data)/minStretchBytes), in)
}

// splitObjectsIn is splitObjects with at most chunks stretches, read on every processor. A stretch begins at a
// guessed object — a brace at the start of a line, as jq and kubectl write a stream — and counts only once a
// stretch that counts ends exactly where it begins, as a List's stretches do (readStretches). So the objects are
// the ones a split from the start finds.
func splitObjectsIn(data []byte, chunks int, in *arena) (document, bool) {
	start := len(data) - len(bytes.TrimLeft(data, config.Whitespace))
	var objects objectList
	ok := false
	if starts := guessStarts(data, start, chunks, []byte("\n{"), len("\n")); len(starts) > 1 {
		objects, _, ok = readStretches(data, starts, true)
	} else {
		s := newStretch(data, start, len(data), in, true)
		s.read(-1)
		objects, ok = s.items, !s.failed
	}
	if !ok {
		return document{}, false
	}
	return document{raw: bytes.TrimRight(data[start:], config.Whitespace), items: objects, stream: true}, true
}

// readDocument reads the JSON value at dec's position in data: of an object, its type and name and, of a List,
// its items.
func readDocument(dec *jsontext.Decoder, data []byte) (document, error) {
	offset := int(dec.InputOffset())
	start := len(data) - len(bytes.TrimLeft(data[offset:], config.Whitespace))
	if dec.PeekKind() != '{' {
		if _, err := dec.ReadValue(); err != nil {
			return document{}, err
		}
		return document{raw: data[start:dec.InputOffset()]}, nil
	}
	if _, err := dec.ReadToken(); err != nil {
		return document{}, err
	}
	d := document{fast: true}
	var names []string
	var metadata jsontext.Value
	for dec.PeekKind() != '}' {
		quoted, err := dec.ReadValue()
		if err != nil {
			return document{}, err
		}
		name, err := jsontext.AppendUnquote(nil, quoted)
		if err != nil || slices.Contains(names, string(name)) {
			d.fast = false // invalid UTF-8 or a duplicate: the strict decoder words it
		}
		names = append(names, string(name))
		if string(name) == "items" && dec.PeekKind() == '[' {
			if d.items, err = readItems(dec, data); err != nil {
				return document{}, err
			}
			d.h.hasItems = true
			continue
		}
		if err := d.readField(dec, data, string(name), &metadata); err != nil {
			return document{}, err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return document{}, err
	}
	d.raw = data[start:dec.InputOffset()]
	if isList(d.h) && !listFieldsFast(names, d.fields, metadata) {
		d.fast = false
	}
	return d, nil
}

// readField reads the value of the field name, at dec's position in data, into the document: its type from
// apiVersion and kind, a List's metadata, and every field for listFieldsFast.
func (d *document) readField(dec *jsontext.Decoder, data []byte, name string, metadata *jsontext.Value) error {
	read, err := dec.ReadValue()
	if err != nil {
		return err
	}
	end := int(dec.InputOffset())
	value := jsontext.Value(data[end-len(read) : end])
	switch name {
	case "apiVersion", "kind":
		text, err := jsontext.AppendUnquote(nil, value)
		if err != nil || value.Kind() != '"' {
			d.fast = false
		} else if name == "kind" {
			d.h.Kind = string(text)
		} else {
			d.h.APIVersion = string(text)
		}
	case "metadata":
		*metadata = value
	case "items":
		d.fast = false // items that are not an array
	}
	d.fields = append(d.fields, value)
	return nil
}

// listFieldsFast reports whether a List's fields (names, and the values besides its items) are for the fast path:
// a List's own alone — any other, a misspelt items, is the strict path's to warn of, as an object's unknown field
// is — without a duplicate name or invalid UTF-8, and with metadata, if any, that has the header's form. (An
// object's decoder reads its own fields; a List's strict decoder would refuse metadata of another form.)
func listFieldsFast(names []string, fields [][]byte, metadata jsontext.Value) bool {
	if slices.ContainsFunc(names, func(name string) bool {
		return name != "apiVersion" && name != "kind" && name != "metadata" && name != "items"
	}) {
		return false
	}
	if slices.ContainsFunc(fields, func(f []byte) bool { return !jsontext.Value(f).IsValid(fastSyntax) }) {
		return false
	}
	var meta headerMeta
	return metadata == nil || metadata.Kind() == '{' && jsonv2.Unmarshal(metadata, &meta, listMetadata) == nil
}

// readItems reads the array of a List's items as parts of data, left to decodeItem.
func readItems(dec *jsontext.Decoder, data []byte) (objectList, error) {
	if _, err := dec.ReadToken(); err != nil {
		return objectList{}, err
	}
	var items objectList
	for dec.PeekKind() != ']' {
		value, err := dec.ReadValue()
		if err != nil {
			return objectList{}, err
		}
		end := int(dec.InputOffset())
		items.add(decoded{raw: data[end-len(value) : end]})
	}
	_, err := dec.ReadToken()
	return items, err
}

// itemHeader is a List item's header: an item of a typed List (SeedList) may omit its apiVersion and kind, which
// are the List's then.
func itemHeader(item []byte, list header) (header, bool) {
	h, ok := readHeader(item, nil)
	kind := strings.TrimSuffix(list.Kind, "List")
	if !ok || h.Kind == "" && kind == "" {
		return header{}, false
	}
	if kind != "" && h.Kind == "" {
		h.Kind = kind
	}
	if kind != "" && h.APIVersion == "" {
		h.APIVersion = list.APIVersion
	}
	return h, true
}

// readHeader reads an object's apiVersion and kind, and stops once it has both; what follows them is the object
// decoder's to read. It is not ok for anything but an object whose apiVersion and kind, if any, are strings, and
// for a List, which is the strict decoder's inside another. The arena, if any, keeps the strings read: the items of
// a List repeat their apiVersion and kind.
func readHeader(object []byte, in *arena) (h header, ok bool) {
	r := jsonReader{data: object, limit: model.MaxNesting, arena: in}
	if !r.enter(r.next(), '{') {
		return header{}, false
	}
	for first := true; h.APIVersion == "" || h.Kind == ""; first = false {
		more, ok := r.more(first, '}')
		if !more {
			return h, ok && !strings.HasSuffix(h.Kind, "List")
		}
		name, ok := r.name()
		if !ok {
			return header{}, false
		}
		switch string(name) {
		case "apiVersion":
			h.APIVersion, ok = r.string(r.next())
		case "kind":
			h.Kind, ok = r.string(r.next())
		default:
			_, ok = r.skip()
		}
		if !ok {
			return header{}, false
		}
	}
	return h, !strings.HasSuffix(h.Kind, "List")
}

// nestsDeeper reports whether value's collections nest deeper than limit, counting brackets outside strings.
// value is JSON: a string ends at the first quote after it not escaped by an odd number of backslashes.
func nestsDeeper(value []byte, limit int) bool {
	depth := 0
	for i := 0; i < len(value); i++ {
		switch value[i] {
		case '"':
			for escaped := true; escaped; {
				end := bytes.IndexByte(value[i+1:], '"')
				if end < 0 {
					return false
				}
				i += 1 + end
				backslashes := 0
				for j := i - 1; value[j] == '\\'; j-- {
					backslashes++
				}
				escaped = backslashes%2 == 1
			}
		case '{', '[':
			if depth++; depth > limit {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}

// decodeOne decodes one object (not a List) nesting at most limit deep, in the arena if any; it changes nothing
// else shared, so objects are decoded in parallel.
func decodeOne(h header, data []byte, limit int, in *arena) decoded {
	r := jsonReader{data: data, limit: limit, arena: in}
	d, ok := r.decodeObject(h)
	if r.space(); !ok || r.pos != len(data) {
		return decoded{raw: data}
	}
	d.raw = data
	return d
}

// decodeObject decodes the object at the reader's position, of the type h gives, if the fast path reads it.
func (r *jsonReader) decodeObject(h header) (decoded, bool) {
	kind := objectDecoders.of(objectType{h.APIVersion, h.Kind})
	if kind == nil {
		return decoded{}, false // a kind seedplan does not read: the strict decoder skips it
	}
	typed := r.object(kind)
	if typed == nil {
		return decoded{}, false // a form the strict decoder words
	}
	meta := typed.(metav1.ObjectMetaAccessor).GetObjectMeta()
	d := decoded{typed: typed, object: r.arena.name(h.Kind, meta.GetNamespace(), meta.GetName())}
	if kind.validate("", d.object, setType(typed, h)) != nil {
		return decoded{}, false
	}
	return d, true
}

// newObject is an empty object of a kind seedplan reads, with its validation, or nil.
func newObject(h header) (typed any, validate func(where, object string, typed any) error) {
	kind, ok := objectKinds[objectType{h.APIVersion, h.Kind}]
	if !ok {
		return nil, nil
	}
	return kind.new(), kind.validate
}

// objectType is an object's apiVersion and kind.
type objectType struct{ apiVersion, kind string }

// objectKind is a kind seedplan reads: how to make an empty object of it, and how to validate one read.
type objectKind struct {
	new      func() any
	validate func(where, object string, typed any) error
}

// objectKinds are the kinds seedplan reads; the fast decoder is planned for each (objectDecoders).
var objectKinds = func() map[objectType]objectKind {
	core := gardencorev1beta1.SchemeGroupVersion.String()
	named := func(namespaced bool) func(where, object string, typed any) error {
		return func(where, object string, typed any) error {
			return requireName(where, object, *typed.(metav1.ObjectMetaAccessor).GetObjectMeta().(*metav1.ObjectMeta), namespaced)
		}
	}
	return map[objectType]objectKind{
		{core, "Seed"}: {func() any { return &gardencorev1beta1.Seed{} }, func(where, object string, typed any) error {
			return validateSeedFile(where, object, typed.(*gardencorev1beta1.Seed))
		}},
		{core, "Shoot"}: {func() any { return &gardencorev1beta1.Shoot{} }, func(where, object string, typed any) error {
			return validateShootFile(where, object, typed.(*gardencorev1beta1.Shoot))
		}},
		{core, "CloudProfile"}:           {func() any { return &gardencorev1beta1.CloudProfile{} }, named(false)},
		{core, "NamespacedCloudProfile"}: {func() any { return &gardencorev1beta1.NamespacedCloudProfile{} }, named(true)},
		{core, "Project"}:                {func() any { return &gardencorev1beta1.Project{} }, named(false)},
		{"v1", "ConfigMap"}:              {func() any { return &corev1.ConfigMap{} }, named(true)},
		{seedmanagementv1alpha1.SchemeGroupVersion.String(), "ManagedSeedSet"}: {
			func() any { return &seedmanagementv1alpha1.ManagedSeedSet{} }, named(true),
		},
	}
}()

// setType fills in the apiVersion and kind a List item may omit, and returns the object.
func setType(typed any, h header) any {
	kind := typed.(interface{ GetObjectKind() schema.ObjectKind }).GetObjectKind()
	if kind.GroupVersionKind().Kind == "" {
		kind.SetGroupVersionKind(schema.FromAPIVersionAndKind(h.APIVersion, h.Kind))
	}
	return typed
}

// addDocument adds a decoded document's objects to the landscape in order, refusing those that do not decode or
// validate. Its error is the load's when it must stop (refuse).
func (l *Landscape) addDocument(d decodedDocument) error {
	if !d.empty() {
		l.documents++
	}
	for i, object := range d.objects.all() {
		if err := l.add(place{in: d.in, item: i}, object); err != nil {
			if stop := l.refuse(err); stop != nil {
				return stop
			}
		}
	}
	return nil
}

// reserve sizes the record of where objects were read for n more at once when they are more than it holds, as a
// large List's items or a stream's objects are: grown an object at a time, it would hash its keys again at every
// doubling.
func (l *Landscape) reserve(n int) {
	if n > len(l.where) {
		where := make(map[string]place, len(l.where)+n)
		maps.Copy(where, l.where)
		l.where = where
	}
}

// add adds a decoded object to the landscape, refusing one read before.
func (l *Landscape) add(where place, d decoded) error {
	if d.typed == nil {
		err := l.decodeObjectStrictly(where.String(), d.raw)
		if where.in.lines != "" && errors.Is(err, errWithoutKind) {
			err = spanning(err, where.in.lines)
		}
		return err
	}
	if first, err := l.once(where, d.object); !first {
		return err
	}
	l.appendObject(d.typed)
	return nil
}

// appendObject adds a decoded object of a kind newObject makes to the landscape's objects.
func (l *Landscape) appendObject(typed any) {
	switch o := typed.(type) {
	case *gardencorev1beta1.Seed:
		l.Objects.Seeds = append(l.Objects.Seeds, o)
	case *gardencorev1beta1.Shoot:
		l.Objects.Shoots = append(l.Objects.Shoots, o)
	case *gardencorev1beta1.CloudProfile:
		l.Objects.CloudProfiles = append(l.Objects.CloudProfiles, o)
	case *gardencorev1beta1.NamespacedCloudProfile:
		l.Objects.NamespacedCloudProfiles = append(l.Objects.NamespacedCloudProfiles, o)
	case *gardencorev1beta1.Project:
		l.Objects.Projects = append(l.Objects.Projects, o)
	case *corev1.ConfigMap:
		l.Objects.ConfigMaps = append(l.Objects.ConfigMaps, o)
	case *seedmanagementv1alpha1.ManagedSeedSet:
		l.Objects.ManagedSeedSets = append(l.Objects.ManagedSeedSets, o)
	}
}
