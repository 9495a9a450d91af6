package config

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	yaml3 "go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// DecodeError is a value the strict decoder refused, named by its field.
type DecodeError struct {
	// Field is the path of the refused value from the document's root (spec.provider.zones[1],
	// rebalance.pacing.timeout), "" when it cannot be told.
	Field string
	// Problem says what is wrong with the value: "must be a list, not a string", or the decoder's error.
	Problem string
	// Err is the decoder's error.
	Err error
}

// Error is the field's path and the problem.
func (e *DecodeError) Error() string {
	if e.Field == "" {
		return e.Problem
	}
	return e.Field + ": " + e.Problem
}

// Unwrap is the decoder's error.
func (e *DecodeError) Unwrap() error { return e.Err }

// DecodeStrict decodes JSON data into the value into points to, as sigs.k8s.io/json's UnmarshalStrict does: the
// unknown and duplicate fields are the strict errors it returns. A value the decoder refuses is a *DecodeError
// that names the field, where the decoder's own error does not (a timestamp, a quantity, a duration) or names it
// without the index of a list's item. Given no pointer, it returns the decoder's error as it is.
func DecodeStrict(data []byte, into any) (strict []error, err error) {
	strict, err = kjson.UnmarshalStrict(data, into)
	if err == nil {
		return strict, nil
	}
	if target := reflect.TypeOf(into); target == nil || target.Kind() != reflect.Pointer {
		return nil, err // the caller's mistake, which the decoder words (json: Unmarshal(non-pointer …))
	}
	path, fieldType := refusedField(data, into, err)
	refused := &DecodeError{Field: path, Problem: err.Error(), Err: err}
	if field, value, goType, ok := typeError(err); ok {
		if writtenAs(fieldType) != "" && !strings.HasPrefix(value, "number ") {
			// A value that decodes itself: its own words, not those of the string or number it decodes first —
			// but for a number itself, out of range or a fraction, the number's are the more exact.
			goType = fieldType
		}
		refused.Problem = typeProblem(value, goType)
		if field == "" && goType == reflect.TypeOf(into).Elem() {
			refused.Problem = "the document " + refused.Problem
		}
		if refused.Field == "" {
			refused.Field = field
		}
	}
	return nil, refused
}

// typeError reads the field path, the JSON value and the Go type of a JSON type error; the path is "" for the
// document itself. The decoder's error type is internal to sigs.k8s.io/json; its exported fields Field, Value and
// Type are read by reflection.
func typeError(err error) (path, value string, goType reflect.Type, ok bool) {
	v := reflect.ValueOf(err)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return "", "", nil, false
	}
	e := v.Elem()
	field, jsonValue, typ := e.FieldByName("Field"), e.FieldByName("Value"), e.FieldByName("Type")
	if !field.IsValid() || field.Kind() != reflect.String || !jsonValue.IsValid() || jsonValue.Kind() != reflect.String || !typ.IsValid() {
		return "", "", nil, false
	}
	goType, isType := typ.Interface().(reflect.Type)
	if !isType || goType == nil {
		return "", "", nil, false
	}
	return field.String(), jsonValue.String(), goType, true
}

// typeProblem words a type error in the terms of JSON and YAML, which the value was written in, rather than Go's:
// "must be a list, not a string", "must be a whole number from 0 to 255, not 256".
func typeProblem(value string, goType reflect.Type) string {
	got := map[string]string{"array": "a list", "object": "an object", "string": "a string", "number": "a number", "bool": "a boolean"}[value]
	literal, isLiteral := strings.CutPrefix(value, "number ")
	if isLiteral {
		got = literal // the number itself: one out of the type's range, or a fraction for a whole number
	}
	if got == "" {
		got = value
	}
	want := jsonKind(goType)
	if isLiteral && !strings.ContainsAny(literal, ".eE") {
		switch goType.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			want = fmt.Sprintf("a whole number from %d to %d", math.MinInt64>>(64-goType.Bits()), math.MaxInt64>>(64-goType.Bits()))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			want = fmt.Sprintf("a whole number from 0 to %d", uint64(math.MaxUint64)>>(64-goType.Bits()))
		}
	}
	return "must be " + want + ", not " + got
}

// writtenAs is how a value of the Go types that decode themselves from text is written, "" for other types.
func writtenAs(goType reflect.Type) string {
	switch indirect(goType) {
	case reflect.TypeFor[metav1.Duration]():
		return `a duration such as "1m30s"`
	case reflect.TypeFor[metav1.Time](), reflect.TypeFor[metav1.MicroTime]():
		return `a time such as "2026-01-31T12:00:00Z"`
	case reflect.TypeFor[intstr.IntOrString]():
		return `a whole number or a string such as "25%"`
	}
	return ""
}

// jsonKind is what a value of the Go type is written as in JSON or YAML.
func jsonKind(goType reflect.Type) string {
	if words := writtenAs(goType); words != "" {
		return words
	}
	switch goType = indirect(goType); goType.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		if goType.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		return "a list"
	case reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return goType.String()
}

// maxFieldSearch bounds the decodes refusedField makes, so that a hostile document costs bounded time.
const maxFieldSearch = 1000

// refusedField finds the field whose value the decoder refused with the error refused: the innermost field that,
// decoded alone — a document of it and its parents only, a list's other items null — is refused with the same
// error, and without which its parent alone is not. Of several refused fields it finds the one the error is
// about, whichever comes first in the document. A node's children are searched by halves, so that an item of a
// List of thousands costs a few decodes. It is the innermost field found within maxFieldSearch decodes, "" when
// none is (a refusal of the document as a whole), with the Go type the field decodes into (nil when unknown).
func refusedField(data []byte, into any, refused error) (string, reflect.Type) {
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.UseNumber() // numbers written back as they were, so that a refusal of one is worded the same
	var root any
	if decoder.Decode(&root) != nil {
		return "", nil
	}
	tries := 0
	refuses := func(alone any) bool {
		if tries++; tries > maxFieldSearch {
			return false
		}
		again, err := json.Marshal(alone)
		if err != nil {
			return false
		}
		_, err = kjson.UnmarshalStrict(again, reflect.New(reflect.TypeOf(into).Elem()).Interface())
		return err != nil && err.Error() == refused.Error()
	}
	return refusedWithin(root, reflect.TypeOf(into).Elem(), "", func(v any) any { return v }, refuses)
}

// refusedWithin is refusedField below node, found at path and decoded into goType; alone puts a value where node
// is, in a document of nothing else.
func refusedWithin(node any, goType reflect.Type, path string, alone func(any) any, refuses func(any) bool) (string, reflect.Type) {
	members, isObject := node.(map[string]any)
	items, isList := node.([]any)
	if !isObject && !isList {
		return "", nil
	}
	keys := slices.Sorted(maps.Keys(members))
	count := max(len(keys), len(items))
	value := func(i int) any {
		if isObject {
			return members[keys[i]]
		}
		return items[i]
	}
	// keep is the node with only its children from up to to, child i holding value(i).
	keep := func(from, to int, value func(i int) any) any {
		if isObject {
			kept := make(map[string]any, to-from)
			for i := from; i < to; i++ {
				kept[keys[i]] = value(i)
			}
			return kept
		}
		kept := make([]any, len(items))
		for i := from; i < to; i++ {
			kept[i] = value(i)
		}
		return kept
	}
	from, to := 0, count
	for to-from > 1 {
		if half := (from + to) / 2; refuses(alone(keep(from, half, value))) {
			to = half
		} else {
			from = half
		}
	}
	if count == 0 || !refuses(alone(keep(from, to, value))) || refuses(alone(keep(from, from, value))) {
		return "", nil // no child alone is refused as node is, or node is without it too (a list for a string)
	}
	childPath, childType := fmt.Sprintf("%s[%d]", path, from), elemType(goType)
	if isObject {
		childPath, childType = MemberPath(path, keys[from]), memberType(goType, keys[from])
	}
	aloneChild := func(v any) any { return alone(keep(from, from+1, func(int) any { return v })) }
	if deeper, deeperType := refusedWithin(value(from), childType, childPath, aloneChild, refuses); deeper != "" {
		return deeper, deeperType
	}
	return childPath, childType
}

// MemberPath is the field path of an object's member below path ("" for the document): path.name, or for a key
// with dots — a map's, a label's or an annotation's, as no field of the API types has a dot in its name —
// path[key], as Kubernetes' field paths write keys: metadata.labels[seed.gardener.cloud/provider], not a path of
// four fields.
func MemberPath(path, name string) string {
	if strings.Contains(name, ".") {
		return path + "[" + name + "]"
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

// elemType is the Go type of the items of a list of goType, nil when goType is no list or unknown.
func elemType(goType reflect.Type) reflect.Type {
	if goType = indirect(goType); goType == nil || goType.Kind() != reflect.Slice && goType.Kind() != reflect.Array {
		return nil
	}
	return goType.Elem()
}

// memberType is the Go type a member of an object decodes into: a struct's field of that JSON name, or a map's
// values; nil when unknown. A struct's fields are searched as the decoder finds them, level by level: its own,
// then those of the structs it inlines, then of the structs those inline, so that a shallower field hides a deeper
// one of the same name.
func memberType(goType reflect.Type, name string) reflect.Type {
	switch goType = indirect(goType); {
	case goType == nil:
		return nil
	case goType.Kind() == reflect.Map:
		return goType.Elem()
	case goType.Kind() != reflect.Struct:
		return nil
	}
	seen := map[reflect.Type]bool{goType: true} // a struct inlining itself through a pointer is searched once
	for level := []reflect.Type{goType}; len(level) > 0; {
		var inlined []reflect.Type
		for _, structType := range level {
			for field := range structType.Fields() {
				tag, _, _ := strings.Cut(field.Tag.Get("json"), ",")
				embeddedStruct := field.Anonymous && indirect(field.Type).Kind() == reflect.Struct
				switch {
				case tag == "-" || !field.IsExported() && !embeddedStruct: // the decoder skips these, unexported embedded non-structs too
				case embeddedStruct && tag == "":
					if inner := indirect(field.Type); !seen[inner] {
						seen[inner] = true
						inlined = append(inlined, inner)
					}
				case cmp.Or(tag, field.Name) == name:
					return field.Type
				}
			}
		}
		level = inlined
	}
	return nil
}

// indirect is the type a pointer type points to, through every pointer; other types as they are.
func indirect(goType reflect.Type) reflect.Type {
	for goType != nil && goType.Kind() == reflect.Pointer {
		goType = goType.Elem()
	}
	return goType
}

// maxRefusals bounds the values decodeEvery reports that do not decode, as each costs up to maxFieldSearch decodes
// of the document; a document over refusalsBytes, larger than any configuration written by hand, gets the first
// only, so that its worst case stays that of DecodeStrict.
const (
	maxRefusals   = 32
	refusalsBytes = 32 << 10
)

// decodeEvery is DecodeStrict going on past each value it refuses, so that every value of the configuration that
// does not decode is reported at once, as Validate reports every invalid one: the refused value is taken out of
// the document (an object's member left out, a list's item made null) and the rest decoded again. The strict
// errors (unknown and duplicate fields) of what is left follow. It stops at a refusal it cannot take out (of the
// document as a whole), at one it meets again, and after maxRefusals (refusalsBytes).
func decodeEvery(data []byte, c *SeedPlanConfiguration) []error {
	var refusals []error
	previous := ""
	tries := maxRefusals
	if len(data) > refusalsBytes {
		tries = 1
	}
	for range tries {
		*c = SeedPlanConfiguration{}
		strict, err := DecodeStrict(data, c)
		if err == nil {
			return append(refusals, strict...)
		}
		var refused *DecodeError
		placed := errors.As(err, &refused) && refused.Field != ""
		if placed && refused.Field == previous {
			return refusals // taken out and refused again (a null item): said once
		}
		refusals = append(refusals, err)
		if !placed {
			return refusals
		}
		previous = refused.Field
		if data, err = withoutValue(data, refused.Field); err != nil {
			return refusals
		}
	}
	return refusals
}

// withoutValue is the JSON document data without the value at path (a DecodeError's Field): the member left out
// of its object, or the item made null in its list, so that the other items keep their indices.
func withoutValue(data []byte, path string) ([]byte, error) {
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.UseNumber() // numbers written back as they were
	var root any
	if err := decoder.Decode(&root); err != nil {
		return nil, err
	}
	steps := pathSteps(path)
	node := root
	for i, step := range steps {
		last := i == len(steps)-1
		switch n := node.(type) {
		case map[string]any:
			if _, ok := n[step]; !ok {
				return nil, fmt.Errorf("no member %q at %s", step, path)
			}
			if last {
				delete(n, step)
				return json.Marshal(root)
			}
			node = n[step]
		case []any:
			index, err := strconv.Atoi(step)
			if err != nil || index < 0 || index >= len(n) {
				return nil, fmt.Errorf("no item %q at %s", step, path)
			}
			if last {
				n[index] = nil
				return json.Marshal(root)
			}
			node = n[index]
		default:
			return nil, fmt.Errorf("nothing to step into at %s", path)
		}
	}
	return nil, fmt.Errorf("empty path %q", path)
}

// pathSteps splits a field path as MemberPath and list indices write it — a.b[1].c, a[key.with.dots] — into its
// members' names and items' indices.
func pathSteps(path string) []string {
	var steps []string
	for path != "" {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return append(steps, path[1:])
			}
			steps, path = append(steps, path[1:end]), path[end+1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			steps, path = append(steps, path[:end]), path[end:]
		}
	}
	return steps
}

// YAMLToJSON converts the first document of data that holds something (Documents) to JSON as sigs.k8s.io/yaml,
// and so kubectl, converts a document, but refuses one that goes on after the flow collection at its root ({…}
// garbage, a JSON object and then an error message a shell appended): the conversion drops what follows without a
// word, where kubectl's JSON decoder refuses it. Landscapes, the configuration and reviewed plans are converted by
// it; data of comments alone is null.
func YAMLToJSON(data []byte) ([]byte, error) {
	converted, err := convertDocument(data) // the stream's first document, as read whole (UTF-16 too)
	if err != nil || string(converted) != "null" || !bytes.HasPrefix(data, []byte("---")) && !bytes.Contains(data, []byte("\n---")) {
		return converted, err // something, or null without a document after it
	}
	documents := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		document, err := documents.Read()
		switch {
		case errors.Is(err, io.EOF):
			return []byte("null"), nil
		case err != nil:
			return convertDocument(data) // a separator kubectl's reader refuses ("--- {…}"), which the conversion reads
		}
		converted, err := convertDocument(document)
		if err != nil || hasToken(document) {
			return converted, err
		}
		// Comments alone (null), as Documents skips them.
	}
}

// JSONFault is the JSON reader's error about data the YAML conversion refused, if data is JSON: a stream of values
// whose first is whole, or whose first begins as a JSON object does ("{" and a quoted name, which YAML in the flow
// style, written by hand, seldom does). The YAML parser reads JSON as YAML in the flow style and words its error in
// those terms: without a line on a file's first line, where a minified file is all of it, and for a stream as
// "something follows the end of the object" of the first value, wherever the fault is. The JSON reader words the
// line and column of the fault, counted from firstLine, the line of its file that data begins on; value is the
// index of the stream's value at fault. err is nil for anything else.
func JSONFault(data []byte, firstLine int) (value int, err error) {
	// Lines YAML reads as none before it — a document marker, comments — leave a JSON document JSON.
	if start, _, ok := tokenLine(data); ok {
		data, firstLine = data[start:], firstLine+bytes.Count(data[:start], []byte("\n"))
	}
	values := jsontext.NewDecoder(bytes.NewReader(data), SyntaxOnly)
	for ; ; value++ {
		_, readErr := values.ReadValue()
		if readErr == nil {
			continue
		}
		var syntax *jsontext.SyntacticError
		if !errors.As(readErr, &syntax) || value == 0 && !beginsAsJSONObject(data) {
			return 0, nil
		}
		fault := syntax.Err.Error()
		if errors.Is(syntax.Err, io.ErrUnexpectedEOF) {
			fault = "the document ends before its JSON value does" // cut short: a copy or a download that stopped
		}
		return value, fmt.Errorf("%s: %s", Position(data, syntax.ByteOffset, firstLine), fault)
	}
}

// SyntaxOnly reads JSON for its syntax alone: duplicate names and invalid UTF-8 are the object decoders' to judge
// and word, as they were encoding/json's.
var SyntaxOnly = jsonv2.JoinOptions(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))

// beginsAsJSONObject reports whether data begins as a JSON object does, with "{" and a quoted name (or "}").
func beginsAsJSONObject(data []byte) bool {
	rest, ok := bytes.CutPrefix(bytes.TrimLeft(data, Whitespace), []byte("{"))
	rest = bytes.TrimLeft(rest, Whitespace)
	return ok && len(rest) > 0 && (rest[0] == '"' || rest[0] == '}')
}

// ConversionError words why YAMLToJSON refused data, a file of one document that begins on its first line: in the
// JSON reader's words, with the fault's line and column, when data is JSON whose first value is at fault
// (JSONFault; what follows a whole first value is the conversion's "something follows"), else in the YAML
// parser's, with the place and value of a character it refused (CharacterFault).
func ConversionError(data []byte, err error) error {
	if value, fault := JSONFault(data, 1); fault != nil && value == 0 {
		return fmt.Errorf("not valid JSON: %w", fault)
	}
	if where := CharacterFault(err, data, 1); where != "" {
		err = fmt.Errorf("%w (%s)", err, where)
	}
	return fmt.Errorf("not valid YAML or JSON: %w", err)
}

// CharacterFault says where the first character of data is that the YAML parser refused, and what it is, when err
// is that refusal ("line 3, column 12: byte 0xe9; …", "line 6, column 9: U+001B"): go-yaml words a byte that is
// not UTF-8, or a character YAML does not allow, without a place. data begins on firstLine of its file. It is ""
// for any other error.
func CharacterFault(err error, data []byte, firstLine int) string {
	if !yamlReaderError.MatchString(err.Error()) {
		return ""
	}
	at, found := unreadableCharacter(data)
	if !found {
		return ""
	}
	return characterAt(data, at, firstLine)
}

// yamlReaderError is the YAML parser's refusal of a character: bytes that are not UTF-8, or a character YAML does
// not allow.
var yamlReaderError = regexp.MustCompile(`UTF-8 octet|UTF-8 sequence|invalid Unicode character|control characters are not allowed`)

// unreadableCharacter is where the first character of text is that the YAML parser refuses: bytes that are not
// UTF-8, or a character outside YAML's printable set, such as the escape of a terminal's colours pasted in.
func unreadableCharacter(text []byte) (offset int, found bool) {
	for offset < len(text) {
		r, size := utf8.DecodeRune(text[offset:])
		if r == utf8.RuneError && size == 1 || !yamlPrintable(r) {
			return offset, true
		}
		offset += size
	}
	return 0, false
}

// yamlPrintable reports whether YAML 1.1 reads the character (its c-printable, as go-yaml's reader checks it).
func yamlPrintable(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0x7e || r == 0x85 ||
		r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff
}

// characterAt words the unreadable character at offset of a document that begins on firstLine of its file: where
// it is, and what it is ("line 6, column 9: U+001B").
func characterAt(text []byte, offset, firstLine int) string {
	where := Position(text, int64(offset), firstLine)
	if r, size := utf8.DecodeRune(text[offset:]); r != utf8.RuneError || size > 1 {
		return fmt.Sprintf("%s: %U", where, r)
	}
	return fmt.Sprintf("%s: byte %#x; the file must be UTF-8, or UTF-16 behind its byte order mark", where, text[offset])
}

// Position words where a byte of data is in its file, which data begins on firstLine of: "line 4, column 29",
// counted in characters from 1.
func Position(data []byte, offset int64, firstLine int) string {
	before := data[:min(max(offset, 0), int64(len(data)))]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return fmt.Sprintf("line %d, column %d", firstLine+bytes.Count(before, []byte("\n")), utf8.RuneCount(before[lineStart:])+1)
}

// convertDocument converts one YAML document as sigs.k8s.io/yaml does, refusing what follows its root collection.
func convertDocument(document []byte) ([]byte, error) {
	converted, err := yaml.YAMLToJSON(document)
	if err != nil {
		return nil, err
	}
	if err := afterRootCollection(document); err != nil {
		return nil, err
	}
	return converted, nil
}

// afterRootCollection is the error of a document that goes on after the flow collection at its root, if its root
// is one.
func afterRootCollection(document []byte) error {
	first, _ := firstToken(document)
	if first != '{' && first != '[' {
		return nil
	}
	decoder := yaml3.NewDecoder(bytes.NewReader(document))
	var root yaml3.Node
	if decoder.Decode(&root) != nil {
		return nil // the conversion read it, so this error is not one to word
	}
	if err := decoder.Decode(&root); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("something follows the end of the %s the document is (%w)",
			map[byte]string{'{': "object", '[': "list"}[first], err)
	}
	return nil
}

// hasToken reports whether a YAML document holds more than whitespace, comments and document markers.
func hasToken(document []byte) bool {
	_, ok := firstToken(document)
	return ok
}

// firstToken is the first byte of a YAML document that is not whitespace, a comment or a document marker (a line
// "---" or "..." with at most a comment after it), if there is one.
func firstToken(document []byte) (byte, bool) {
	_, first, ok := tokenLine(document)
	return first, ok
}

// Whitespace is what JSON reads as whitespace, and YAML as blanks and line breaks between tokens: space, tab, CR
// and LF.
const Whitespace = " \t\r\n"

// ByteOrderMark is U+FEFF in UTF-8, which YAML reads as nothing at a document's start (Notepad begins a file with
// it).
const ByteOrderMark = "\ufeff"

// tokenLine is where the line of firstToken begins in the document, and that token: after the byte order mark a
// document may begin with, which YAML reads as nothing, if it is on that line.
func tokenLine(document []byte) (start int, first byte, ok bool) {
	if rest, marked := bytes.CutPrefix(document, []byte(ByteOrderMark)); marked {
		start, document = len(ByteOrderMark), rest
	}
	for line := range bytes.Lines(document) {
		trimmed := bytes.TrimLeft(line, Whitespace)
		for _, marker := range [][]byte{[]byte("---"), []byte("...")} {
			if rest, ok := bytes.CutPrefix(trimmed, marker); ok && (len(rest) == 0 || bytes.IndexByte([]byte(Whitespace), rest[0]) >= 0) {
				trimmed = bytes.TrimLeft(rest, Whitespace)
			}
		}
		if len(trimmed) > 0 && trimmed[0] != '#' {
			return start, trimmed[0], true
		}
		start += len(line)
	}
	return 0, 0, false
}
