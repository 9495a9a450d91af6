package ingest

import (
	"encoding"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The fast path decodes an object with a decoder planned once per Go type by reflection, as encoding/json plans
// its own, but only for what the strict decoder (sigs.k8s.io/json) reads without a warning: field names in their
// exact case, each once, every one known; strings of valid UTF-8; numbers that fit. On anything else — and on the
// few forms it does not read itself, such as base64 bytes, interfaces and text unmarshalers — it gives up, and
// the strict decoder words what is wrong. It decodes an object in one pass over its bytes, without the
// per-value bookkeeping of a general decoder: reading a large landscape is mostly this.

// decodeKind is what a planned decoder reads into.
type decodeKind uint8

const (
	// unsupported values are left to the strict decoder.
	unsupported decodeKind = iota
	stringKind
	boolKind
	intKind
	uintKind
	floatKind
	pointerKind
	sliceKind
	mapKind
	structKind
	// unmarshalerKind values decode themselves from their raw JSON (resource.Quantity, IntOrString, ...).
	unmarshalerKind
	// timeKind is metav1.Time, read as its UnmarshalJSON reads it but without a second JSON decoder: every
	// object has a creationTimestamp.
	timeKind
)

// valueDecoder decodes JSON into values of one Go type.
type valueDecoder struct {
	kind decodeKind
	typ  reflect.Type
	// elem decodes a pointer's, slice's or map's elements.
	elem *valueDecoder
	// fields are a struct's fields in the order they are declared, embedded structs' fields inlined; numbers
	// finds them by JSON name.
	fields  []fieldDecoder
	numbers map[string]int
	// slab numbers the slab of a pointer's values or of a slice's first elements among the planned ones; slabType
	// is the slice type they are allocated in (slabs), nil for an element of size zero, and stride their size.
	slab     int
	slabType reflect.Type
	stride   uintptr
}

// fieldDecoder decodes one field of a struct.
type fieldDecoder struct {
	name string
	// quoted is the first eight bytes of the name and its closing quote as a word, masked by mask: where the name
	// is shorter than eight bytes, one comparison of the word after a member's opening quote tells it.
	quoted, mask uint64
	// offset is where the field is in the struct, through inlined embedded structs (which are values, not
	// pointers: fields does not plan the others).
	offset uintptr
	dec    *valueDecoder
}

var (
	jsonUnmarshaler   = reflect.TypeFor[json.Unmarshaler]()
	jsonv2Unmarshaler = reflect.TypeFor[jsonv2.UnmarshalerFrom]()
	textUnmarshaler   = reflect.TypeFor[encoding.TextUnmarshaler]()
	timeType          = reflect.TypeFor[metav1.Time]()
	// objectDecoders are planned on first use and never changed.
	objectDecoders = newKindDecoders()
)

// kindDecoders are the decoders of the kinds seedplan reads (objectKinds), each planned when an object of its
// kind is first decoded: a ManagedSeedSet's takes longer to plan than all the others together, and few landscapes
// hold one. The kinds share one planner, and so the decoders of the types they share.
type kindDecoders struct {
	mu      sync.Mutex // guards planner
	planner planner
	// kinds are fixed when made; each decoder is planned once.
	kinds map[objectType]*kindDecoder
}

// kindDecoder is a kind seedplan reads and, once planned, the decoder of a pointer to an object of it: an object
// is allocated as the values behind its pointers are.
type kindDecoder struct {
	objectKind
	once    sync.Once
	pointer *valueDecoder
}

// newKindDecoders are the kinds' decoders, none planned yet.
func newKindDecoders() *kindDecoders {
	k := &kindDecoders{planner: planner{planned: map[reflect.Type]*valueDecoder{}}, kinds: map[objectType]*kindDecoder{}}
	for typ, kind := range objectKinds {
		k.kinds[typ] = &kindDecoder{objectKind: kind}
	}
	return k
}

// of is the kind of type typ with its decoder, planned if it was not yet; nil for a type seedplan does not read.
func (k *kindDecoders) of(typ objectType) *kindDecoder {
	kind := k.kinds[typ]
	if kind == nil {
		return nil
	}
	kind.once.Do(func() {
		k.mu.Lock()
		defer k.mu.Unlock()
		kind.pointer = k.planner.decoder(reflect.TypeOf(kind.new()))
	})
	return kind
}

// planner plans decoders; planned holds those planned before, so that a recursive type ends, and slabs counts the
// slabs numbered so far (one per pointer or slice decoder).
type planner struct {
	planned map[reflect.Type]*valueDecoder
	slabs   int
}

// decoder plans the decoder of t.
func (p *planner) decoder(t reflect.Type) *valueDecoder {
	if d, ok := p.planned[t]; ok {
		return d
	}
	d := &valueDecoder{typ: t}
	p.planned[t] = d
	pointer := reflect.PointerTo(t)
	switch {
	case t == timeType:
		d.kind = timeKind
	case t.Kind() != reflect.Pointer && pointer.Implements(jsonv2Unmarshaler):
		// decodes itself from a token stream: left to the strict decoder
	case t.Kind() != reflect.Pointer && pointer.Implements(jsonUnmarshaler):
		d.kind = unmarshalerKind
	case t.Kind() != reflect.Pointer && pointer.Implements(textUnmarshaler):
		// decodes itself from a string: left to the strict decoder
	default:
		p.byKind(d)
	}
	return d
}

// byKind plans the decoder of a type that does not decode itself.
func (p *planner) byKind(d *valueDecoder) {
	t := d.typ
	switch t.Kind() {
	case reflect.String:
		d.kind = stringKind
	case reflect.Bool:
		d.kind = boolKind
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.kind = intKind
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		d.kind = uintKind
	case reflect.Float32, reflect.Float64:
		d.kind = floatKind
	case reflect.Pointer:
		d.kind, d.elem = pointerKind, p.decoder(t.Elem())
		p.slab(d, t.Elem())
	case reflect.Slice:
		if t.Elem().Kind() != reflect.Uint8 { // []byte is base64
			d.kind, d.elem = sliceKind, p.decoder(t.Elem())
			p.slab(d, t.Elem())
		}
	case reflect.Map:
		key := t.Key()
		if key.Kind() == reflect.String && !reflect.PointerTo(key).Implements(textUnmarshaler) {
			d.kind, d.elem = mapKind, p.decoder(t.Elem())
		}
	case reflect.Struct:
		fields, ok := p.fields(t, 0)
		if numbers, unique := fieldNumbers(fields); ok && unique {
			d.kind, d.fields, d.numbers = structKind, fields, numbers
		}
	}
}

// slab numbers the slab of d's values of type elem: what a pointer points to, or a slice's first element.
func (p *planner) slab(d *valueDecoder, elem reflect.Type) {
	d.slab, p.slabs = p.slabs, p.slabs+1
	if elem.Size() > 0 {
		d.slabType, d.stride = reflect.SliceOf(elem), elem.Size()
	}
}

// fields plans a struct's fields as encoding/json names them — the tag's name or the field's, untagged
// embedded structs inlined — in the order they are declared. A struct whose names encoding/json would have to
// resolve by depth, that embeds a pointer, or that has a name JSON writes with an escape or beyond ASCII, is not
// planned (ok false): the strict decoder reads it.
func (p *planner) fields(t reflect.Type, offset uintptr) ([]fieldDecoder, bool) {
	var fields []fieldDecoder
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		name, options, _ := strings.Cut(tag, ",")
		at := offset + f.Offset
		if f.Anonymous && name == "" {
			if f.Type.Kind() != reflect.Struct {
				return nil, false
			}
			inner, ok := p.fields(f.Type, at)
			if !ok {
				return nil, false
			}
			fields = append(fields, inner...)
			continue
		}
		if !f.IsExported() {
			return nil, false // a tagged embedded unexported type: encoding/json's rules are subtle there
		}
		if name == "" {
			name = f.Name
		}
		if !plainName(name) {
			return nil, false // member compares a name's bytes as JSON writes them
		}
		dec := p.decoder(f.Type)
		if hasOption(options, "string") {
			dec = &valueDecoder{typ: f.Type}
		}
		quoted, mask := quotedWord(name)
		fields = append(fields, fieldDecoder{name: name, quoted: quoted, mask: mask, offset: at, dec: dec})
	}
	return fields, true
}

// fieldNumbers numbers fields by name, unless a name is taken twice.
func fieldNumbers(fields []fieldDecoder) (map[string]int, bool) {
	numbers := make(map[string]int, len(fields))
	for i, f := range fields {
		if _, taken := numbers[f.name]; taken {
			return nil, false
		}
		numbers[f.name] = i
	}
	return numbers, true
}

// lookAhead is how many fields after the last one read a member's name is compared with before it is looked up:
// encoding/json, and so a typed client or seedplan generate, writes fields in the order they are declared, leaving
// out empty ones. kubectl get writes objects as maps, keys sorted (in YAML too), and those names are looked up:
// comparing with the next fields by name as well gained nothing (README, "Loading").
const lookAhead = 8

// quotedWord is the first eight bytes of name followed by a quote, and the mask of those bytes, as member reads
// them (little-endian).
func quotedWord(name string) (quoted, mask uint64) {
	var word [8]byte
	n := copy(word[:], name+`"`)
	return binary.LittleEndian.Uint64(word[:]), ^uint64(0) >> (64 - 8*n)
}

// member reads a member's name and the colon after it, and finds the number of its field in d; from is the number
// after the last one read. The names of the next few fields declared are compared with the bytes after the quote
// first: where one follows to the closing quote, that is the member's name, as a name's text holds no escape
// (plainName). Any other member is read as a string and looked up, escapes and all.
func (r *jsonReader) member(d *valueDecoder, from int) (int, bool) {
	if r.next() == '"' && len(r.data)-r.pos > 8 {
		text := r.data[r.pos+1:]
		word := binary.LittleEndian.Uint64(text)
		for i := from; i < min(from+lookAhead, len(d.fields)); i++ {
			f := &d.fields[i]
			if word&f.mask != f.quoted || len(f.name) >= 8 && !quotedAt(text, f.name) {
				continue
			}
			r.pos += 1 + len(f.name) + 1
			return i, r.colon()
		}
	}
	name, ok := r.name()
	if !ok {
		return 0, false
	}
	i, ok := d.numbers[string(name)]
	return i, ok
}

// quotedAt reports whether text begins with name and a quote.
func quotedAt(text []byte, name string) bool {
	return len(text) > len(name) && text[len(name)] == '"' && string(text[:len(name)]) == name
}

// plainName reports whether a field's name is written in JSON as it is: in a struct's fields, member compares
// the bytes of a name with it.
func plainName(name string) bool {
	return plainRun([]byte(name)) == len(name)
}

// hasOption reports whether a tag's comma-separated options hold option.
func hasOption(options, option string) bool {
	return slices.Contains(strings.Split(options, ","), option)
}

// object decodes the object at the reader's position, of the kind's type, and leaves the reader after it; nil for
// anything it leaves to the strict decoder. The object is allocated as the values behind its pointers are: a
// stretch's objects come from its slabs.
func (r *jsonReader) object(kind *kindDecoder) any {
	object := r.arena.new(kind.pointer)
	if !r.value(kind.pointer.elem, object) {
		return nil
	}
	return reflect.NewAt(kind.pointer.elem.typ, object).Interface()
}

// jsonReader reads JSON values from data; its methods report false for anything the fast path does not read.
type jsonReader struct {
	data         []byte
	pos          int
	depth, limit int
	// arena, if not nil, keeps the strings read and the values behind pointers.
	arena *arena
}

// space skips whitespace. Indented JSON is mostly spaces after line feeds: a run of them is skipped eight bytes
// at a time, to the first byte that is not a space, without a branch per byte.
func (r *jsonReader) space() {
	const eightSpaces = 0x2020202020202020
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\n', '\t', '\r':
			r.pos++
			for r.pos+8 <= len(r.data) {
				if other := binary.LittleEndian.Uint64(r.data[r.pos:]) ^ eightSpaces; other != 0 {
					r.pos += bits.TrailingZeros64(other) / 8
					break
				}
				r.pos += 8
			}
		default:
			return
		}
	}
}

// next skips whitespace and returns the next byte, 0 at the end.
func (r *jsonReader) next() byte {
	r.space()
	if r.pos == len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

// value decodes the next value into the value at p, of the type d decodes. The planned decoders reach fields by
// their offsets, as the compiler's own code does, instead of through reflect.Value; reflection is left to the
// rarer slices, maps, numbers and self-decoding values.
func (r *jsonReader) value(d *valueDecoder, p unsafe.Pointer) bool {
	c := r.next()
	if d.kind == unmarshalerKind {
		raw, ok := r.skip()
		return ok && reflect.NewAt(d.typ, p).Interface().(json.Unmarshaler).UnmarshalJSON(raw) == nil
	}
	if c == 'n' {
		// null leaves a value as it is, and a pointer, slice or map nil: they are nil already.
		return d.kind != unsupported && r.literal("null")
	}
	switch d.kind {
	case timeKind:
		return r.time(c, (*metav1.Time)(p))
	case stringKind:
		s, ok := r.string(c)
		*(*string)(p) = s
		return ok
	case boolKind:
		return r.bool(c, (*bool)(p))
	case intKind, uintKind, floatKind:
		return r.number(d.kind, reflect.NewAt(d.typ, p).Elem())
	case pointerKind:
		elem := r.arena.new(d)
		*(*unsafe.Pointer)(p) = elem
		return r.value(d.elem, elem)
	case sliceKind:
		return r.slice(c, d, (*sliceHeader)(p))
	case mapKind:
		return r.mapping(c, d, reflect.NewAt(d.typ, p).Elem())
	case structKind:
		return r.structure(c, d, p)
	}
	return false
}

// time reads a metav1.Time from a string as Time.UnmarshalJSON does: RFC 3339, in local time. null was read
// before, leaving the time zero, as UnmarshalJSON does.
func (r *jsonReader) time(c byte, into *metav1.Time) bool {
	text, ok := r.stringBytes(c)
	if !ok {
		return false
	}
	t, err := time.Parse(time.RFC3339, string(text))
	if err != nil {
		return false // the strict decoder words it
	}
	*into = metav1.NewTime(t.Local())
	return true
}

// literal reads the literal word.
func (r *jsonReader) literal(word string) bool {
	if len(r.data)-r.pos < len(word) || string(r.data[r.pos:r.pos+len(word)]) != word {
		return false
	}
	r.pos += len(word)
	return true
}

// bool reads true or false into into.
func (r *jsonReader) bool(c byte, into *bool) bool {
	switch {
	case c == 't' && r.literal("true"):
		*into = true
		return true
	case c == 'f' && r.literal("false"):
		return true
	}
	return false
}

// number reads a number into v, of the kind given: an integer must be written as one and fit.
func (r *jsonReader) number(kind decodeKind, v reflect.Value) bool {
	text, integer, ok := r.numberText()
	if !ok {
		return false
	}
	switch kind {
	case intKind:
		n, err := strconv.ParseInt(string(text), 10, 64)
		if !integer || err != nil || v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
	case uintKind:
		n, err := strconv.ParseUint(string(text), 10, 64)
		if !integer || err != nil || v.OverflowUint(n) {
			return false
		}
		v.SetUint(n)
	default:
		f, err := strconv.ParseFloat(string(text), v.Type().Bits())
		if err != nil {
			return false
		}
		v.SetFloat(f)
	}
	return true
}

// numberText reads a number as JSON writes it; integer reports that it has neither fraction nor exponent.
func (r *jsonReader) numberText() (text []byte, integer, ok bool) {
	start := r.pos
	if r.pos < len(r.data) && r.data[r.pos] == '-' {
		r.pos++
	}
	switch {
	case r.pos < len(r.data) && r.data[r.pos] == '0':
		r.pos++
	case !r.digits():
		return nil, false, false
	}
	integer = true
	if r.pos < len(r.data) && r.data[r.pos] == '.' {
		r.pos++
		if integer = false; !r.digits() {
			return nil, false, false
		}
	}
	if r.pos < len(r.data) && (r.data[r.pos] == 'e' || r.data[r.pos] == 'E') {
		r.pos++
		if r.pos < len(r.data) && (r.data[r.pos] == '+' || r.data[r.pos] == '-') {
			r.pos++
		}
		if integer = false; !r.digits() {
			return nil, false, false
		}
	}
	return r.data[start:r.pos], integer, true
}

// digits reads one or more decimal digits.
func (r *jsonReader) digits() bool {
	start := r.pos
	for r.pos < len(r.data) && '0' <= r.data[r.pos] && r.data[r.pos] <= '9' {
		r.pos++
	}
	return r.pos > start
}

// string reads a string; c is the byte it starts with.
func (r *jsonReader) string(c byte) (string, bool) {
	text, ok := r.stringBytes(c)
	return r.arena.intern(text), ok
}

// arena is where decoded objects get the strings they share (interned) and the values their pointers point to
// (slabs): a stretch of a large List's items has one, and the documents of a large file of several, or the small
// files of a load, share a few (arenas).
type arena struct {
	interned *stringCache
	slabs    slabs
	// transcoded is the array the YAML documents decoded in the arena are transcoded into, one after another
	// (decodeYAML): written anew for each, it is faulted in once rather than once per document.
	transcoded []byte
}

// newArena is an empty arena for objects read from about size bytes of JSON.
func newArena(size int) arena {
	return arena{interned: newStringCache(size)}
}

// intern is text as a string, the one read before if the arena keeps it; a reader without an arena allocates it.
func (a *arena) intern(text []byte) string {
	if a == nil {
		return string(text)
	}
	return a.interned.intern(text)
}

// name is objectName's text, kept in the arena's strings if there is one.
func (a *arena) name(kind, namespace, name string) string {
	if a == nil {
		return objectName(kind, namespace, name)
	}
	return a.interned.name(kind, namespace, name)
}

// new is a new zero value of what d, a pointer or slice decoder, allocates, from the arena's slabs if there is one.
func (a *arena) new(d *valueDecoder) unsafe.Pointer {
	if a == nil {
		return reflect.New(d.elem.typ).UnsafePointer()
	}
	return a.slabs.new(d)
}

// freshWrite: memory the runtime takes fresh from the kernel is mapped page by page as it is first touched — to
// the kernel's page of zeros if that is a read, which the first write then copies, and on a machine of several
// processors the copy interrupts them all to flush their TLBs (on a virtual machine, each an exit to its host). A
// decoded landscape is tens of megabytes of fresh memory, so the decoder makes its first touch of what it
// allocates a write: a slice's header is zeroed before it is grown, a large List's string caches are cleared.

// stringCache keeps recent strings so that objects read one after another share their values (versions,
// regions, machine types) instead of allocating them anew. It is direct-mapped: a string takes the slot its hash
// names, so a value read once (a name, a uid) costs a hash and a comparison, and evicts at most one other. The
// strings it makes are kept in chunks of bytes of its own (keep): the strings of a stretch's objects live as
// long as the objects do, together.
type stringCache struct {
	slots []string
	// shift takes a hash number's top bits, as many as number the slots.
	shift uint
	// chunk holds the bytes of the strings made so far; what lies past its length is not handed out yet. A new
	// one holds chunkSize.
	chunk     []byte
	chunkSize int
}

// stringCacheBits is how many bits of a hash number a slot of a stringCache takes at most, and at least.
const (
	stringCacheBits    = 10
	minStringCacheBits = 6
)

// chunkBytes is how many bytes a chunk of a stringCache's strings holds at most. A string that does not fit in
// what is left of one starts the next, unless it is longer than a quarter of a chunk: that one is allocated by
// itself.
const chunkBytes = 16 << 10

// newStringCache is an empty cache for the strings of about size bytes of JSON: a slot per 128 bytes and a
// chunk of an eighth of them, within bounds. A small List's cache is small: a directory may hold thousands of
// them, a List per namespace.
func newStringCache(size int) *stringCache {
	slotBits := min(max(bits.Len(uint(size/128)), minStringCacheBits), stringCacheBits)
	return &stringCache{
		slots:     make([]string, 1<<slotBits),
		shift:     uint(64 - slotBits),
		chunkSize: min(max(1<<bits.Len(uint(size/8)), 1<<10), chunkBytes),
	}
}

// intern is text as a string, the cached one if it holds it.
func (c *stringCache) intern(text []byte) string {
	slot := &c.slots[cacheHash(text)>>c.shift]
	if *slot != string(text) {
		*slot = c.keep(text)
	}
	return *slot
}

// keep is text as a string in the cache's chunk of bytes: one allocation for many strings, and none of them
// rounded up to a size class. The chunk's bytes up to its length are never written again.
func (c *stringCache) keep(text []byte) string {
	if len(text) == 0 {
		return ""
	}
	if !c.room(len(text)) {
		return string(text)
	}
	c.chunk = append(c.chunk, text...)
	return unsafe.String(&c.chunk[len(c.chunk)-len(text)], len(text))
}

// room makes room for n more bytes in the chunk, starting the next where what is left is too little; false for
// more than a quarter of a chunk that does not fit, which the caller allocates by itself.
func (c *stringCache) room(n int) bool {
	if n <= cap(c.chunk)-len(c.chunk) {
		return true
	}
	if n > c.chunkSize/4 {
		return false
	}
	c.chunk = make([]byte, 0, c.chunkSize)
	return true
}

// name is objectName's text, kept in the cache's chunk of bytes.
func (c *stringCache) name(kind, namespace, name string) string {
	if !c.room(len(kind) + len(namespace) + len(name) + len(" /<unnamed>")) {
		return objectName(kind, namespace, name)
	}
	start := len(c.chunk)
	c.chunk = appendObjectName(c.chunk, kind, namespace, name)
	return unsafe.String(&c.chunk[start], len(c.chunk)-start)
}

// cacheHash is the hash number of text whose top bits name its slot of a stringCache, by its length and its first
// and last eight bytes (all of it, if shorter), mixed by one multiplication. Strings alike in those share a slot
// and only evict each other: a hash of every byte would cost about what the allocation it saves does.
func cacheHash(text []byte) uint64 {
	var head, tail uint64
	if len(text) >= 8 {
		head, tail = binary.LittleEndian.Uint64(text), binary.LittleEndian.Uint64(text[len(text)-8:])
	} else {
		for i, b := range text {
			head |= uint64(b) << (8 * i)
		}
	}
	return (head ^ bits.RotateLeft64(tail, 29) ^ uint64(len(text))) * 0x9e3779b97f4a7c15
}

// slabLength is how many values of a type a slab holds at most, and slabBytes how many bytes: the first holds
// firstSlabLength, and each next one twice as many as the one before, so that a stretch of few items allocates
// little. A slab of slabBytes is the largest the runtime allocates in a size class rather than in pages of 8 KiB:
// 64 Shoots (944 bytes each) would take 64 KiB for 59.
const (
	slabLength      = 64
	slabBytes       = 32 << 10
	firstSlabLength = 4
)

// slabs hand out the values that the pointers of a stretch of List items point to — the objects themselves, a
// Shoot's seedName, purpose, networking and the like — and the first elements of their slices, most of an
// object's allocations, from arrays of values, one per pointer or slice decoder (valueDecoder.slab): one
// allocation instead of up to slabLength, and one object for the collector to find and mark. An array lives as
// long as any of its values does; the objects of a landscape live together.
type slabs []slab

// slab is an array of values of one type, its length, and how many of them were handed out.
type slab struct {
	array        unsafe.Pointer
	length, used int
}

// new is a new zero value of what d, a pointer or slice decoder, allocates: what the pointer points to, or the
// slice's first element. The slabs grow to d's number: the kinds' decoders are planned as their objects come, and
// their slabs numbered then.
func (s *slabs) new(d *valueDecoder) unsafe.Pointer {
	if d.slabType == nil {
		return reflect.New(d.elem.typ).UnsafePointer()
	}
	if d.slab >= len(*s) {
		*s = append(*s, make(slabs, d.slab+1-len(*s))...)
	}
	slab := &(*s)[d.slab]
	if slab.used == slab.length {
		length := min(max(2*slab.length, firstSlabLength), slabLength, max(slabBytes/int(d.stride), 1))
		slab.array, slab.length, slab.used = reflect.MakeSlice(d.slabType, length, length).UnsafePointer(), length, 0
	}
	slab.used++
	return unsafe.Add(slab.array, uintptr(slab.used-1)*d.stride)
}

// stringBytes reads a string's text, which is a part of data unless the string holds escapes.
func (r *jsonReader) stringBytes(c byte) ([]byte, bool) {
	if c != '"' {
		return nil, false
	}
	start := r.pos + 1
	i := start + plainRun(r.data[start:])
	switch {
	case i == len(r.data):
		return nil, false
	case r.data[i] == '"':
		r.pos = i + 1
		return r.data[start:i], true
	case r.data[i] == '\\':
		return r.unescape(start)
	case r.data[i] < ' ':
		return nil, false
	}
	// Text beyond ASCII: valid UTF-8 is read as it is, escapes or not.
	for i < len(r.data) && r.data[i] != '"' && r.data[i] != '\\' && r.data[i] >= ' ' {
		i++
	}
	if i < len(r.data) && r.data[i] == '\\' {
		return r.unescape(start)
	}
	if i == len(r.data) || r.data[i] != '"' || !utf8.Valid(r.data[start:i]) {
		return nil, false
	}
	r.pos = i + 1
	return r.data[start:i], true
}

// plainRun is how many bytes at the start of b a string holds as they are (plainStringByte). Strings are most of
// what a landscape's bytes are: they are read eight bytes at a time, each byte tested at once for a quote, a
// backslash, a control character and a byte beyond ASCII. Each test sets the high bit of the bytes it finds; a
// borrow may set it in bytes after the first found too, but never before, so the lowest bit set is the first byte
// that is not plain.
func plainRun(b []byte) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	n := 0
	for ; n+8 <= len(b); n += 8 {
		x := binary.LittleEndian.Uint64(b[n:])
		quote, backslash := x^(ones*'"'), x^(ones*'\\')
		notPlain := (quote-ones)&^quote | (backslash-ones)&^backslash | (x-ones*' ')&^x | x
		if notPlain &= highs; notPlain != 0 {
			return n + bits.TrailingZeros64(notPlain)/8
		}
	}
	for n < len(b) && plainStringByte[b[n]] {
		n++
	}
	return n
}

// plainStringByte marks the bytes a string holds as they are: ASCII other than quotes, backslashes and control
// characters.
var plainStringByte = func() (plain [256]bool) {
	for b := ' '; b < utf8.RuneSelf; b++ {
		plain[b] = b != '"' && b != '\\'
	}
	return plain
}()

// unescape reads the rest of a string that holds an escape, from start, and decodes it as jsontext does: an
// unknown escape, a control character, a lone surrogate or invalid UTF-8 — which the strict decoder would refuse
// or replace — is left to it.
func (r *jsonReader) unescape(start int) ([]byte, bool) {
	for i := start; i < len(r.data); i++ {
		switch r.data[i] {
		case '\\':
			i++
		case '"':
			r.pos = i + 1
			text, err := jsontext.AppendUnquote(nil, r.data[start-1:i+1])
			return text, err == nil
		}
	}
	return nil, false
}

// enter opens a collection, if the nesting limit allows it.
func (r *jsonReader) enter(c, open byte) bool {
	if c != open || r.depth == r.limit {
		return false
	}
	r.depth++
	r.pos++
	return true
}

// more reports whether a collection has another element, reading the comma before it or its end.
func (r *jsonReader) more(first bool, end byte) (more, ok bool) {
	switch c := r.next(); {
	case c == end:
		r.pos++
		r.depth--
		return false, true
	case first:
		return true, true
	case c == ',':
		r.pos++
		return true, true
	}
	return false, false
}

// name reads an object's member name and the colon after it.
func (r *jsonReader) name() ([]byte, bool) {
	name, ok := r.stringBytes(r.next())
	if !ok || !r.colon() {
		return nil, false
	}
	return name, true
}

// colon reads the colon after a member's name and, where one space follows it before the value as encoding/json
// writes "name": value, that space too, without a call to space.
func (r *jsonReader) colon() bool {
	if r.pos+2 < len(r.data) && r.data[r.pos] == ':' {
		if r.pos++; r.data[r.pos] == ' ' && r.data[r.pos+1] > ' ' {
			r.pos++
		}
		return true
	}
	if r.next() != ':' {
		return false
	}
	r.pos++
	return true
}

// slice decodes an array into the slice at header, which no member set before; an empty array is an empty slice,
// as encoding/json makes it. (An array with elements is grown from nil: a slice made empty first would cost an
// allocation of its own.)
func (r *jsonReader) slice(c byte, d *valueDecoder, header *sliceHeader) bool {
	if !r.enter(c, '[') {
		return false
	}
	*header = sliceHeader{} // touched first by a write (freshWrite)
	for n := 0; ; n++ {
		more, ok := r.more(n == 0, ']')
		if !more {
			if n == 0 {
				header.data = reflect.MakeSlice(d.typ, 0, 0).UnsafePointer() // empty, not nil
			}
			return ok
		}
		switch {
		case n == 0:
			// Most slices of an object hold one element: it is allocated as a pointer's value is.
			header.data, header.cap = r.arena.new(d), 1
		case n == header.cap:
			header.grow(d)
		}
		header.len = n + 1
		if !r.value(d.elem, unsafe.Add(header.data, uintptr(n)*d.stride)) {
			return false
		}
	}
}

// sliceHeader is how a slice is laid out: decoded in place, a slice's elements are reached without a
// reflect.Value each.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// grow makes room for one more element in the slice of d's type, as append would: in an array of twice the
// capacity, but of four at first (a slice of more than one element tends to have a few), the elements copied.
func (header *sliceHeader) grow(d *valueDecoder) {
	capacity := max(2*header.cap, 4)
	grown := reflect.MakeSlice(d.typ, header.len, capacity)
	if header.len > 0 {
		reflect.Copy(grown, reflect.NewAt(d.typ, unsafe.Pointer(header)).Elem())
	}
	header.data, header.cap = grown.UnsafePointer(), capacity
}

// mapping decodes an object into v, a nil map; a key twice is left to the strict decoder, which warns of it.
func (r *jsonReader) mapping(c byte, d *valueDecoder, v reflect.Value) bool {
	if !r.enter(c, '{') {
		return false
	}
	v.Set(reflect.MakeMap(d.typ))
	key, elem := reflect.New(d.typ.Key()).Elem(), reflect.New(d.elem.typ).Elem()
	for first := true; ; first = false {
		more, ok := r.more(first, '}')
		if !more {
			return ok
		}
		name, ok := r.name()
		if !ok || r.next() == 'n' { // null members: the strict decoder's
			return false
		}
		key.SetString(r.arena.intern(name))
		if v.MapIndex(key).IsValid() {
			return false
		}
		elem.SetZero()
		if !r.value(d.elem, elem.Addr().UnsafePointer()) {
			return false
		}
		v.SetMapIndex(key, elem)
	}
}

// structure decodes an object into the struct at p; an unknown member, or one twice, is left to the strict
// decoder.
func (r *jsonReader) structure(c byte, d *valueDecoder, p unsafe.Pointer) bool {
	if !r.enter(c, '{') {
		return false
	}
	var seenWords [4]uint64
	seen := seenWords[:]
	if words := (len(d.fields) + 63) / 64; words > len(seen) {
		seen = make([]uint64, words)
	}
	next := 0
	for first := true; ; first = false {
		more, ok := r.more(first, '}')
		if !more {
			return ok
		}
		i, known := r.member(d, next)
		if !known || seen[i/64]&(1<<(i%64)) != 0 {
			return false
		}
		seen[i/64] |= 1 << (i % 64)
		if next = i + 1; !r.value(d.fields[i].dec, unsafe.Add(p, d.fields[i].offset)) {
			return false
		}
	}
}

// skip reads a value whole, as a self-decoding value gets it: its strings are valid UTF-8, and it nests at most
// as deep as the limit allows.
func (r *jsonReader) skip() ([]byte, bool) {
	c := r.next()
	start := r.pos
	switch c {
	case '"':
		if _, ok := r.stringBytes(c); !ok {
			return nil, false
		}
	case '{', '[':
		if !r.skipCollection(c) {
			return nil, false
		}
	case 't', 'f', 'n':
		if !r.literal("true") && !r.literal("false") && !r.literal("null") {
			return nil, false
		}
	default:
		if _, _, ok := r.numberText(); !ok {
			return nil, false
		}
	}
	return r.data[start:r.pos], true
}

// skipCollection reads an object or an array whole.
func (r *jsonReader) skipCollection(c byte) bool {
	end := byte(']')
	if c == '{' {
		end = '}'
	}
	if !r.enter(c, c) {
		return false
	}
	for first := true; ; first = false {
		more, ok := r.more(first, end)
		if !more {
			return ok
		}
		if end == '}' {
			if _, ok := r.name(); !ok {
				return false
			}
		}
		if _, ok := r.skip(); !ok {
			return false
		}
	}
}
