package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"github.com/seedplan/seedplan/model"
)

// decoded is a document of the kinds of values operators' files hold: values that decode themselves (timestamps,
// durations), lists, lists of objects, maps and numbers.
type decoded struct {
	decodedMeta `json:",inline"`
	Name        string                     `json:"name"`
	Every       metav1.Duration            `json:"every"`
	Zones       []string                   `json:"zones"`
	Items       []decodedItem              `json:"items"`
	Labels      map[string]string          `json:"labels"`
	Count       int64                      `json:"count"`
	Surge       *intstr.IntOrString        `json:"surge"`
	Timeouts    map[string]metav1.Duration `json:"timeouts"`
}

// decodedMeta is inlined, as Kubernetes objects inline their TypeMeta.
type decodedMeta struct {
	Since *metav1.Time `json:"since"`
}

type decodedItem struct {
	Name string      `json:"name"`
	At   metav1.Time `json:"at"`
}

// itemsJSON is a list of n items, the one at bad with a timestamp that is none.
func itemsJSON(n, bad int) string {
	list := make([]string, n)
	for i := range list {
		at := "2026-11-28T08:00:00Z"
		if i == bad {
			at = "soon"
		}
		list[i] = fmt.Sprintf(`{"name": "item-%d", "at": %q}`, i, at)
	}
	return "[" + strings.Join(list, ", ") + "]"
}

// A value the decoder refuses is named by the path of its field, with list indexes and a map's keys with dots in
// brackets, whether the decoder's error names it (a wrong type) or not (a value that decodes itself).
func TestDecodeStrictNamesTheField(t *testing.T) {
	for _, tc := range []struct {
		name, data, field, problem string
	}{
		{"a timestamp in a list's item", `{"items": ` + itemsJSON(3, 2) + `}`, "items[2].at", `parsing time "soon"`},
		{"a duration", `{"name": "a", "every": "soon"}`, "every", `time: invalid duration "soon"`},
		{"a wrong type in a list", `{"zones": ["a", 5]}`, "zones[1]", "must be a string, not a number"},
		{"a map's value under a key with dots, in brackets", `{"labels": {"a": "b", "c.d/e": 1}}`, "labels[c.d/e]", "must be a string, not a number"},
		{"a map's value under a plain key", `{"labels": {"a": "b", "cd": 1}}`, "labels.cd", "must be a string, not a number"},
		{"a list for a string: the field, not its item", `{"name": ["a"]}`, "name", "must be a string, not a list"},
		{"a number beyond int64, as written", `{"count": 9223372036854775808}`, "count", "must be a whole number from -9223372036854775808 to 9223372036854775807, not 9223372036854775808"},
		{"of two refused values, the first in the document", `{"every": "soon", "items": ` + itemsJSON(5, 3) + `}`, "every", `time: invalid duration "soon"`},
		{"of two refused values, the first in the document, reversed", `{"items": ` + itemsJSON(5, 3) + `, "every": "soon"}`, "items[3].at", `parsing time "soon"`},
		{"an item far into a long list, by halves", `{"items": ` + itemsJSON(5000, 4321) + `}`, "items[4321].at", `parsing time "soon"`},
		{"a document that is no object", `[1, 2]`, "", "the document must be an object, not a list"},
		{"a duration as a number", `{"every": 5}`, "every", `must be a duration such as "1m30s", not a number`},
		{"a duration under a key with dots", `{"timeouts": {"a.b/c": 5}}`, "timeouts[a.b/c]", `must be a duration such as "1m30s", not a number`},
		{"a time in a list's item", `{"items": [{"at": true}]}`, "items[0].at", `must be a time such as "2026-01-31T12:00:00Z", not a boolean`},
		{"a time of an inlined struct", `{"since": 1}`, "since", `must be a time such as "2026-01-31T12:00:00Z", not a number`},
		{"a number or string given a list", `{"surge": ["a"]}`, "surge", `must be a whole number or a string such as "25%", not a list`},
		{"a number or string given a fraction: the number's words", `{"surge": 1.5}`, "surge", "must be a whole number, not 1.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeStrict([]byte(tc.data), &decoded{})
			var refused *DecodeError
			if !errors.As(err, &refused) {
				t.Fatalf("error %v, want a *DecodeError", err)
			}
			if refused.Field != tc.field || !strings.HasPrefix(refused.Problem, tc.problem) || refused.Unwrap() == nil {
				t.Fatalf("field %q, problem %q, want %q, %q…", refused.Field, refused.Problem, tc.field, tc.problem)
			}
		})
	}
}

// A type error is worded in the terms the value was written in, JSON's and YAML's, never in Go's.
func TestTypeProblem(t *testing.T) {
	type object struct{}
	for _, tc := range []struct {
		value  string
		goType reflect.Type
		want   string
	}{
		{"string", reflect.TypeFor[bool](), "must be true or false, not a string"},
		{"bool", reflect.TypeFor[string](), "must be a string, not a boolean"},
		{"object", reflect.TypeFor[[]string](), "must be a list, not an object"},
		{"array", reflect.TypeFor[*object](), "must be an object, not a list"},
		{"array", reflect.TypeFor[map[string]int](), "must be an object, not a list"},
		{"string", reflect.TypeFor[float64](), "must be a number, not a string"},
		{"number 1.5", reflect.TypeFor[int32](), "must be a whole number, not 1.5"},
		{"number 1e3", reflect.TypeFor[int](), "must be a whole number, not 1e3"},
		{"number 256", reflect.TypeFor[uint8](), "must be a whole number from 0 to 255, not 256"},
		{"number -1", reflect.TypeFor[uint64](), "must be a whole number from 0 to 18446744073709551615, not -1"},
		{"number 40000", reflect.TypeFor[int16](), "must be a whole number from -32768 to 32767, not 40000"},
		{"number", reflect.TypeFor[[]byte](), "must be a base64 string, not a number"},
		{"number", reflect.TypeFor[*metav1.Duration](), `must be a duration such as "1m30s", not a number`},
		{"array", reflect.TypeFor[intstr.IntOrString](), `must be a whole number or a string such as "25%", not a list`},
		{"object", reflect.TypeFor[metav1.MicroTime](), `must be a time such as "2026-01-31T12:00:00Z", not an object`},
	} {
		if got := typeProblem(tc.value, tc.goType); got != tc.want {
			t.Errorf("%s into %v: %q, want %q", tc.value, tc.goType, got, tc.want)
		}
	}
}

// A member's Go type is found as the decoder finds it: a struct's own field before an inlined one's, a shallower
// inlined field before a deeper one, never a field the decoder skips, a map's values whatever their key.
func TestMemberType(t *testing.T) {
	type inner struct {
		Name int    `json:"name"`
		Deep string `json:"deep"`
	}
	type word string
	type deepest struct {
		Hidden bool `json:"hidden"`
	}
	type nested struct{ deepest } // its hidden two levels below outer
	type shallow struct {
		Hidden string `json:"hidden"` // one level below outer: this one is decoded
	}
	type looped struct {
		*looped
		N int `json:"n"`
	}
	type outer struct {
		inner `json:",inline"`
		word  // unexported, embedded and no struct: the decoder skips it
		nested
		shallow
		Name     string         `json:"name"`
		Skipped  bool           `json:"-"`
		Untagged float64        // named by its Go name, as the decoder names it
		Values   map[string]int `json:"values"`
	}
	for _, tc := range []struct {
		goType reflect.Type
		member string
		want   reflect.Type
	}{
		{reflect.TypeFor[*outer](), "name", reflect.TypeFor[string]()},
		{reflect.TypeFor[outer](), "deep", reflect.TypeFor[string]()},
		{reflect.TypeFor[outer](), "Untagged", reflect.TypeFor[float64]()},
		{reflect.TypeFor[outer](), "-", nil},
		{reflect.TypeFor[outer](), "Skipped", nil},
		{reflect.TypeFor[outer](), "word", nil},
		{reflect.TypeFor[outer](), "unknown", nil},
		{reflect.TypeFor[outer](), "hidden", reflect.TypeFor[string]()},
		{reflect.TypeFor[looped](), "n", reflect.TypeFor[int]()},
		{reflect.TypeFor[looped](), "unknown", nil}, // searched once, not forever
		{reflect.TypeFor[map[string]*metav1.Duration](), "a.b", reflect.TypeFor[*metav1.Duration]()},
		{reflect.TypeFor[[]string](), "a", nil}, // an object given for a list has no members of a type
		{nil, "a", nil},
	} {
		if got := memberType(tc.goType, tc.member); got != tc.want {
			t.Errorf("member %q of %v: %v, want %v", tc.member, tc.goType, got, tc.want)
		}
	}
	var skips outer
	if strict, err := DecodeStrict([]byte(`{"word": "a"}`), &skips); err != nil || len(strict) != 1 || skips.word != "" {
		t.Errorf("the decoder took the unexported embedded word: %q, strict errors %v, error %v", skips.word, strict, err)
	}
	var hides outer
	if strict, err := DecodeStrict([]byte(`{"hidden": "x"}`), &hides); err != nil || len(strict) != 0 || hides.shallow.Hidden != "x" {
		t.Errorf("the decoder did not take the shallower hidden: %q, strict errors %v, error %v", hides.shallow.Hidden, strict, err)
	}
	var loops looped
	if _, err := DecodeStrict([]byte(`{"n": 1}`), &loops); err != nil || loops.N != 1 || loops.looped != nil {
		t.Errorf("the decoder read a struct inlining itself as %+v, error %v", loops, err)
	}
}

// A target that is no pointer is the caller's mistake, returned in the decoder's words as json.Unmarshal returns
// it, not a panic of the field search.
func TestDecodeStrictWantsAPointer(t *testing.T) {
	for _, into := range []any{decoded{}, nil} {
		if _, err := DecodeStrict([]byte(`{"name": 5}`), into); err == nil || !strings.Contains(err.Error(), "json: Unmarshal(") {
			t.Errorf("%T: error %v, want the decoder's", into, err)
		}
	}
}

// A document the decoder takes is decoded; unknown and duplicate fields are the strict errors, not a refusal.
func TestDecodeStrictTakesAGoodDocument(t *testing.T) {
	var d decoded
	strict, err := DecodeStrict([]byte(`{"name": "a", "every": "5s", "items": `+itemsJSON(2, -1)+`, "nmae": "b", "count": 1, "count": 2}`), &d)
	if err != nil || len(strict) != 2 {
		t.Fatalf("strict errors %v, error %v, want two strict errors", strict, err)
	}
	if d.Name != "a" || d.Every.Duration.Seconds() != 5 || len(d.Items) != 2 || d.Count != 2 {
		t.Fatalf("decoded %+v", d)
	}
}

// FuzzDecodeStrict: any input decodes or is a *DecodeError, never a panic; a field it names is a path of the
// document (listed by the checker's own walk), the same on a second decode.
func FuzzDecodeStrict(f *testing.F) {
	f.Add(`{"items": ` + itemsJSON(3, 1) + `}`)
	f.Add(`{"name": ["a"], "zones": ["a", {"b": 1}], "labels": {"x": [1]}}`)
	f.Add(`{"every": 5, "count": 1.5}`)
	f.Fuzz(func(t *testing.T, data string) {
		_, err := DecodeStrict([]byte(data), &decoded{})
		if err == nil {
			return
		}
		var refused *DecodeError
		if !errors.As(err, &refused) {
			t.Fatalf("error %v is not a *DecodeError", err)
		}
		if refused.Field == "" {
			return
		}
		var root any
		if json.Unmarshal([]byte(data), &root) != nil {
			t.Fatalf("field %q named in a document that is no JSON", refused.Field)
		}
		if !hasPath(root, "", refused.Field) {
			t.Fatalf("field %q is not in the document", refused.Field)
		}
		if _, again := DecodeStrict([]byte(data), &decoded{}); again.Error() != err.Error() {
			t.Fatalf("decoded twice: %v, then %v", err, again)
		}
	})
}

// A member's path is dotted, but a key with a dot — a label's, an annotation's — is in brackets, as Kubernetes
// writes keys, so that the path cannot be read as one of more fields.
func TestMemberPath(t *testing.T) {
	for _, tc := range []struct{ path, name, want string }{
		{"", "spec", "spec"},
		{"spec", "provider", "spec.provider"},
		{"metadata.labels", "environment", "metadata.labels.environment"},
		{"metadata.labels", "seed.gardener.cloud/provider", "metadata.labels[seed.gardener.cloud/provider]"},
		{"", "a.b", "[a.b]"},
	} {
		if got := MemberPath(tc.path, tc.name); got != tc.want {
			t.Errorf("MemberPath(%q, %q) = %q, want %q", tc.path, tc.name, got, tc.want)
		}
	}
}

// hasPath reports whether the document below node, at path, has a member or item at want.
func hasPath(node any, path, want string) bool {
	if path == want {
		return true
	}
	switch n := node.(type) {
	case map[string]any:
		for k, v := range n {
			child := k
			if path != "" {
				child = path + "." + k
			}
			if hasPath(v, child, want) || hasPath(v, path+"["+k+"]", want) { // a map's key with dots in brackets
				return true
			}
		}
	case []any:
		for i, v := range n {
			if hasPath(v, fmt.Sprintf("%s[%d]", path, i), want) {
				return true
			}
		}
	}
	return false
}

// A field path splits into the members and items it names, a key with dots in brackets as one member.
func TestPathSteps(t *testing.T) {
	for path, want := range map[string][]string{
		"window.maxWait":                         {"window", "maxWait"},
		"placement.priority.purposes[1]":         {"placement", "priority", "purposes", "1"},
		"metadata.labels[seed.gardener.cloud/x]": {"metadata", "labels", "seed.gardener.cloud/x"},
		"items[0][2].name":                       {"items", "0", "2", "name"},
		"logLevel":                               {"logLevel"},
	} {
		if got := pathSteps(path); !slices.Equal(got, want) {
			t.Errorf("pathSteps(%q) = %q, want %q", path, got, want)
		}
	}
}

// YAMLToJSON converts as sigs.k8s.io/yaml does, but refuses what that conversion would drop without a word: what
// follows the flow collection at a document's root.
func TestYAMLToJSON(t *testing.T) {
	for _, tc := range []struct {
		name, document, want, refused string
	}{
		{name: "block YAML", document: "a: 1\nb: [x, z]\n", want: `{"a":1,"b":["x","z"]}`},
		{name: "JSON", document: `{"a": {"b": [1, 2]}}`, want: `{"a":{"b":[1,2]}}`},
		{name: "JSON among comments", document: "# saved\n{\"a\": 1}\n# end\n", want: `{"a":1}`},
		{name: "a YAML flow mapping", document: "{a: 1, b: two}", want: `{"a":1,"b":"two"}`},
		{name: "a list", document: "[1, 2] # two\n", want: `[1,2]`},
		{name: "text after JSON", document: `{"a": 1} garbage`, refused: "something follows the end of the object the document is"},
		{name: "JSON after JSON", document: "{\"a\": 1}\n{\"b\": 2}\n", refused: "something follows the end of the object the document is"},
		{name: "text after a list", document: "[1, 2]\nerror: unable to connect\n", refused: "something follows the end of the list the document is"},
		{name: "not YAML", document: "{[", refused: "yaml: "},
		{name: "after documents of comments alone", document: "---\n# saved\n--- # by hand\na: 1\n", want: `{"a":1}`},
		{name: "JSON on a separator's line", document: "--- {\"a\": 1}\n", want: `{"a":1}`},
		{name: "comments alone", document: "# nothing\n---\n", want: `null`},
		{name: "JSON behind UTF-8's byte order mark, as Notepad writes", document: "\ufeff{\"a\": 1}\n", want: `{"a":1}`},
		{name: "JSON after JSON behind UTF-8's byte order mark", document: "\ufeff{\"a\": 1}\n{\"b\": 2}\n", refused: "something follows the end of the object the document is"},
		{name: "UTF-16 behind its byte order mark, as PowerShell writes", document: "\xff\xfea\x00:\x00 \x001\x00\r\x00\n\x00", want: `{"a":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := YAMLToJSON([]byte(tc.document))
			switch {
			case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
				t.Fatalf("error %v, want one saying %q", err, tc.refused)
			case tc.refused == "" && (err != nil || string(got) != tc.want):
				t.Fatalf("%s, %v; want %s", got, err, tc.want)
			}
		})
	}
}

// CharacterFault names where the character is that the YAML parser refused, and what it is; it names nothing for
// another error, or for one that only reads like a refused character.
func TestCharacterFault(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		firstLine  int
		want       string
	}{
		{"Latin-1", "a: caf\xe9\n", 1, "line 1, column 7: byte 0xe9; the file must be UTF-8, or UTF-16 behind its byte order mark"},
		{"a terminal's escape, lines into its file", "a:\n  b: \x1b[0m\n", 7, "line 8, column 6: U+001B"},
		{"a NUL in a comment", "# \x00\n", 1, "line 1, column 3: U+0000"},
		{"a surrogate, which UTF-8 does not encode", "a: \xed\xa0\x80\n", 1, "line 1, column 4: byte 0xed; the file must be UTF-8, or UTF-16 behind its byte order mark"},
		{"a character after others beyond ASCII", "a: ä🌱\x7f\n", 1, "line 1, column 6: U+007F"},
		{"another error", "a: [\n", 1, ""},
		{"an error that reads like one, in a file without such a character", "a: b\n", 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := YAMLToJSON([]byte(tc.data))
			if err == nil {
				err = errors.New("yaml: control characters are not allowed") // the last row's: no character to find
			}
			if got := CharacterFault(err, []byte(tc.data), tc.firstLine); got != tc.want {
				t.Fatalf("%q (error %v): %q, want %q", tc.data, err, got, tc.want)
			}
		})
	}
}

// JSONFault words the fault of JSON that the YAML conversion refuses, at its line and column, and names the value
// of a stream it is in; YAML, and JSON without fault, have none.
func TestJSONFault(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		firstLine  int
		value      int
		want       string // "" for no fault
	}{
		{"a comma before the end", `{"a": 1,}`, 1, 0, `line 1, column 9: invalid character '}' at start of string (expecting '"')`},
		{"cut short", "{\"a\":\n[1, 2", 1, 0, "line 2, column 6: the document ends before its JSON value does"},
		{"the second value of a stream", "{\"a\": 1}\n{\"b\" 2}\n", 1, 1, `line 2, column 6: invalid character '2' after object name (expecting ':')`},
		{"text after a value", "{\"a\": 1}\nerror: unable to connect\n", 1, 1, "line 2, column 1: invalid character 'e' at start of value"},
		{"a value that begins lines into its file", "{\n\"a\": 1,}", 11, 0, `line 12, column 8: invalid character '}' at start of string (expecting '"')`},
		{"columns counted in characters", `{"ä": "ö",}`, 1, 0, `line 1, column 11: invalid character '}' at start of string (expecting '"')`},
		{"Windows line ends", "{\"a\": 1,\r\n}", 1, 0, `line 2, column 1: invalid character '}' at start of string (expecting '"')`},
		{"an empty object, then a fault", "{}\n{,}", 1, 1, `line 2, column 2: invalid character ',' at start of string (expecting '"')`},
		{"after a document marker and comments", "--- # saved\n\n# by hand\n{\"a\": 1,}", 1, 0, `line 4, column 9: invalid character '}' at start of string (expecting '"')`},
		{"behind UTF-8's byte order mark, counted from after it", "\ufeff{\"a\": 1,}", 1, 0, `line 1, column 9: invalid character '}' at start of string (expecting '"')`},
		{"JSON on a document marker's line", "--- {\"a\": 1,}", 1, 0, ""},
		{"YAML in the flow style", "{a: 1,", 1, 0, ""},
		{"YAML in the block style", "a: [1,\n", 1, 0, ""},
		{"a list", "[1,]", 1, 0, ""},
		{"JSON without fault", "{\"a\": 1}\n{\"b\": 2}\n", 1, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			value, err := JSONFault([]byte(tc.data), tc.firstLine)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("fault %v in value %d, want none", err, value)
			case tc.want != "" && (err == nil || err.Error() != tc.want || value != tc.value):
				t.Fatalf("fault %v in value %d, want %q in value %d", err, value, tc.want, tc.value)
			}
		})
	}
}

// FuzzJSONFault: a fault is named in the value encoding/json's stream decoder fails on, after it decoded the values
// before (from the line of the first token, as YAML reads it), and at a line and column of the input.
func FuzzJSONFault(f *testing.F) {
	for _, seed := range []string{`{"a": 1,}`, "{\"a\": 1}\n{\"b\" 2}", "{\"a\":\n[1, 2", "{a: 1}", "{}\r\n{\"ä\":,}", "--- # c\n{}\n{,}"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		value, err := JSONFault([]byte(data), 1)
		if err == nil {
			return
		}
		start, _, _ := tokenLine([]byte(data))
		stream := json.NewDecoder(strings.NewReader(data[start:]))
		for i := 0; i <= value; i++ {
			var v json.RawMessage // syntax only: a number beyond float64 is a value
			if decodeErr := stream.Decode(&v); (decodeErr == nil) != (i < value) {
				t.Fatalf("%q: fault %v in value %d, but encoding/json decodes value %d: %v", data, err, value, i, decodeErr)
			}
		}
		var line, column int
		if _, scanErr := fmt.Sscanf(err.Error(), "line %d, column %d:", &line, &column); scanErr != nil {
			t.Fatalf("%q: fault %q names no line and column", data, err)
		}
		lines := strings.Split(data, "\n")
		if line < 1 || line > len(lines) || column < 1 || column > utf8.RuneCountInString(lines[line-1])+1 {
			t.Fatalf("%q: fault %q is at no line and column of the input", data, err)
		}
	})
}

// FuzzYAMLToJSON: any input converts or is an error, never a panic. A document without separators converts as
// sigs.k8s.io/yaml converts it, or is refused only where that conversion drops what follows its root collection
// (which yaml.v3 finds); and a comment appended after a separator changes nothing.
func FuzzYAMLToJSON(f *testing.F) {
	for _, seed := range []string{"a: 1\n", `{"a": [1, 2]}`, `{"a": 1} x`, "[1] # c\n", "---\n# c\n---\na: b\n", "--- {a: 1}\n", "{[", "\"x\"\n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		if model.CheckBudget([]byte(data)) != nil {
			return // what the callers refuse before converting
		}
		got, err := YAMLToJSON([]byte(data))
		if !strings.Contains(data, "---") && !strings.Contains(data, "...") {
			want, wantErr := yaml.YAMLToJSON([]byte(data))
			switch {
			case wantErr != nil && err == nil:
				t.Fatalf("converted %q to %s where sigs.k8s.io/yaml refuses it: %v", data, got, wantErr)
			case err == nil && string(got) != string(want):
				t.Fatalf("converted %q to %s, sigs.k8s.io/yaml to %s", data, got, want)
			case wantErr == nil && err != nil && !strings.Contains(err.Error(), "something follows the end of the"):
				t.Fatalf("refused %q, which sigs.k8s.io/yaml converts to %s: %v", data, want, err)
			}
		}
		if err != nil || !utf8.ValidString(data) {
			return // appended to UTF-16, the comment would be other text
		}
		again, err := YAMLToJSON([]byte(data + "\n---\n# the end\n"))
		if err != nil || string(again) != string(got) {
			t.Fatalf("with a comment after a separator, %q converts to %s (%v), without it to %s", data, again, err, got)
		}
	})
}
