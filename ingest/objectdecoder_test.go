package ingest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	seedmanagementv1alpha1 "github.com/gardener/gardener/pkg/apis/seedmanagement/v1alpha1"
	"github.com/go-json-experiment/json/jsontext"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kjson "sigs.k8s.io/json"

	"github.com/seedplan/seedplan/model"
)

// objectDecoderCases are members of a Shoot's spec, status or metadata, with whether the fast decoder reads them
// (then to what the strict decoder reads, without a warning) or leaves them to the strict decoder.
var objectDecoderCases = []struct {
	name, members string
	fast          bool
}{
	{"nothing", ``, true},
	{"strings, numbers, booleans", `"spec":{"region":"eu-west-1","provider":{"type":"aws","workers":[{"name":"w","minimum":1,"maximum":3}]},"hibernation":{"enabled":true}}`, true},
	{"whitespace everywhere", " \n\t\"spec\" : {\r\n \"region\" :\t\"a\" } ", true},
	{"escapes", `"metadata":{"name":"a","namespace":"b","annotations":{"k":"\"\\\/\b\f\n\r\t\u00e9\u263a\ud83d\ude00"}}`, true},
	{"text beyond ASCII", `"metadata":{"name":"a","namespace":"b","annotations":{"grüße":"ünïcödé ☺"}}`, true},
	{"null pointer, slice, map and struct", `"spec":{"seedName":null,"tolerations":null,"dns":null,"provider":null},"metadata":{"name":"a","namespace":"b","labels":null}`, true},
	{"null time", `"metadata":{"name":"a","namespace":"b","creationTimestamp":null,"deletionTimestamp":null}`, true},
	{"null string and number", `"spec":{"region":null,"provider":{"type":"aws","workers":[{"name":"w","minimum":null}]}}`, true},
	{"empty strings behind pointers, beside none", `"spec":{"seedName":"","tolerations":[{"key":"a","value":""},{"key":"b"}],"dns":{"domain":""}}`, true},
	{"false and zero behind pointers", `"spec":{"hibernation":{"enabled":false},"kubernetes":{"kubeControllerManager":{"nodeCIDRMaskSize":0}}}`, true},
	{"empty collections", `"spec":{"tolerations":[],"provider":{"type":"aws","workers":[]}},"metadata":{"name":"a","namespace":"b","labels":{}}`, true},
	{"values that decode themselves", `"metadata":{"name":"a","namespace":"b","creationTimestamp":"2024-01-02T03:04:05Z"},"spec":{"provider":{"type":"aws","workers":[{"name":"w","minimum":1,"maximum":3,"maxSurge":"10%","maxUnavailable":0}],"infrastructureConfig":{"apiVersion":"x/v1","nested":{"a":[1,2.5,true,null,"s"]}}}}`, true},
	{"quantities", `"spec":{"provider":{"type":"aws","workers":[{"name":"w","minimum":1,"maximum":3,"volume":{"size":"20Gi"}}]}}`, true},
	{"numbers", `"spec":{"provider":{"type":"aws","workers":[{"name":"w","minimum":-0,"maximum":2147483647}]}}`, true},
	{"members out of their declared order", `"metadata":{"namespace":"b","name":"a"},"spec":{"region":"r","provider":{"workers":[],"type":"aws"}}`, true},
	{"a member name with an escape", `"spec":{"r\u0065gion":"a","provider":{"typ\u0065":"aws"}}`, true},
	{"a member name that begins like another", `"spec":{"regionX":"a"}`, false},
	{"one space after each colon, as kubectl writes", `"metadata": {"name": "a", "namespace": "b"}, "spec": {"region": "r", "seedName": "s", "secretBindingName": "x", "hibernation": {"enabled": true}}`, true},
	{"two spaces after a colon, and a line feed", "\"spec\":  {\"region\":\n\"r\", \"purpose\": \t\"evaluation\"}", true},
	{"names of eight bytes and more", `"metadata":{"name":"a","namespace":"b","generateName":"g","resourceVersion":"7"},"spec":{"seedName":"s","cloudProfileName":"aws","exposureClassName":"e"}`, true},
	{"many workers", `"spec":{"provider":{"type":"aws","workers":[` + strings.Repeat(`{"name":"w","minimum":1,"maximum":3},`, 20) + `{"name":"z","minimum":1,"maximum":3}]}}`, true},
	{"more collections side by side than they may nest deep", `"spec":{"provider":{"type":"aws","workers":[` + strings.Repeat(`{"name":"w","labels":{}},`, model.MaxNesting) + `{"name":"z"}]}}`, true},

	{"unknown member", `"spec":{"regoin":"a"}`, false},
	{"member in other case", `"spec":{"Region":"a"}`, false},
	{"member twice", `"spec":{"region":"a","region":"b"}`, false},
	{"inlined member twice", `"kind":"Shoot"`, false},
	{"map key twice", `"metadata":{"name":"a","namespace":"b","labels":{"k":"1","k":"2"}}`, false},
	{"null map value", `"metadata":{"name":"a","namespace":"b","labels":{"k":null}}`, false},
	{"invalid UTF-8", "\"spec\":{\"region\":\"a\xffb\"}", false},
	{"invalid UTF-8 in a name", "\"spec\":{\"region\xff\":\"a\"}", false},
	{"lone surrogate", `"spec":{"region":"\ud83d"}`, false},
	{"unknown escape", `"spec":{"region":"\q"}`, false},
	{"control character", "\"spec\":{\"region\":\"a\tb\"}", false},
	{"fraction into an integer", `"spec":{"provider":{"type":"aws","workers":[{"name":"w","minimum":1.0}]}}`, false},
	{"exponent into an integer", `"spec":{"provider":{"type":"aws","workers":[{"name":"w","minimum":1e2}]}}`, false},
	{"integer too large", `"spec":{"provider":{"type":"aws","workers":[{"name":"w","minimum":2147483648}]}}`, false},
	{"string for a number", `"spec":{"provider":{"type":"aws","workers":[{"name":"w","minimum":"1"}]}}`, false},
	{"number for a string", `"spec":{"region":1}`, false},
	{"object for a string", `"spec":{"region":{}}`, false},
	{"array for an object", `"spec":[]`, false},
	{"invalid time", `"metadata":{"name":"a","namespace":"b","creationTimestamp":"yesterday"}`, false},
	{"no time", `"metadata":{"name":"a","namespace":"b","creationTimestamp":,"generation":1}`, false},
	{"no string", `"spec":{"region":,"purpose":"evaluation"}`, false},
	{"no array", `"spec":{"tolerations":,"region":"r"}`, false},
	{"no object", `"spec":{"dns":,"region":"r"}`, false},
	{"no map", `"metadata":{"labels":,"name":"a"}`, false},
	{"missing colon", `"spec":{"region" "r"}`, false},
	{"missing comma", `"spec":{"region":"a" "purpose":"b"}`, false},
	{"trailing comma", `"spec":{"region":"a",}`, false},
	{"leading zero", `"spec":{"provider":{"type":"aws","workers":[{"name":"w","minimum":01}]}}`, false},
	{"bare word", `"spec":{"hibernation":{"enabled":yes}}`, false},
	{"misspelt true", `"spec":{"hibernation":{"enabled":trux}}`, false},
	{"misspelt null", `"spec":{"seedName":nill}`, false},
	{"a raw object with a comma for a member", `"spec":{"provider":{"type":"aws","infrastructureConfig":{,"workers":[]}}`, false},
	{"a raw object with a member but no value", `"spec":{"provider":{"type":"aws","infrastructureConfig":{"a":,"workers":[]}}`, false},
	{"too deep a raw value", `"spec":{"provider":{"type":"aws","infrastructureConfig":` + strings.Repeat("[", model.MaxNesting) + strings.Repeat("]", model.MaxNesting) + `}}`, false},
}

func TestDecodeFast(t *testing.T) {
	for _, tc := range objectDecoderCases {
		t.Run(tc.name, func(t *testing.T) {
			doc := []byte(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot"` + comma(tc.members) + `}`)
			var fast gardencorev1beta1.Shoot
			if got := decodeFast(doc, &fast, model.MaxNesting); got != tc.fast {
				t.Fatalf("decodeFast = %v, want %v", got, tc.fast)
			}
			if !tc.fast {
				return
			}
			var strict gardencorev1beta1.Shoot
			warnings, err := kjson.UnmarshalStrict(doc, &strict)
			if err != nil || len(warnings) > 0 {
				t.Fatalf("the strict decoder refuses what the fast one reads: %v %v", err, warnings)
			}
			if got, want := objectJSON(t, &fast), objectJSON(t, &strict); !sameJSON(t, got, want) {
				t.Fatalf("fast %s\nstrict %s", got, want)
			}
			if !reflect.DeepEqual(fast, strict) { // what JSON does not show: an empty slice or map against nil
				t.Fatalf("fast %#v\nstrict %#v", fast, strict)
			}
		})
	}
}

// TestDecodeFastTime checks that a creationTimestamp is read as metav1.Time.UnmarshalJSON reads it, to the
// nanosecond and the location, and that what UnmarshalJSON refuses is left to the strict decoder.
func TestDecodeFastTime(t *testing.T) {
	for _, value := range []string{
		`"2024-01-02T03:04:05Z"`, `"2024-01-02T03:04:05+02:00"`, `"2024-01-02T03:04:05.123456789Z"`,
		`"\u0032024-01-02T03:04:05Z"`, `null`, `"2024-01-02 03:04:05Z"`, `"yesterday"`, `""`, `5`, `"2024-13-02T03:04:05Z"`,
	} {
		t.Run(value, func(t *testing.T) {
			doc := []byte(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot","metadata":{"creationTimestamp":` + value + `}}`)
			var fast gardencorev1beta1.Shoot
			ok := decodeFast(doc, &fast, model.MaxNesting)
			var want metav1.Time
			err := want.UnmarshalJSON([]byte(value))
			if ok != (err == nil) {
				t.Fatalf("decodeFast = %v, UnmarshalJSON: %v", ok, err)
			}
			if got := fast.CreationTimestamp; ok && (!got.Equal(&want) || got.Location() != want.Location()) {
				t.Fatalf("read %v (%v), want %v (%v)", got, got.Location(), want, want.Location())
			}
		})
	}
}

// TestDecodeFastNumbers checks that numbers of every width and kind, none of which the Gardener API holds all of,
// are read as the strict decoder reads them: what fits exactly, and nothing the strict decoder refuses or would
// read another way.
func TestDecodeFastNumbers(t *testing.T) {
	d := plan(reflect.TypeFor[scalars]())
	for _, tc := range []struct {
		members string
		fast    bool
	}{
		{`"i8":-128,"i64":-9223372036854775808,"u8":255,"u64":18446744073709551615`, true},
		{`"i8":127,"i64":9223372036854775807,"u8":0,"u64":0`, true},
		{`"i8":-0`, true},
		{`"u8":-0`, false},
		{`"f32":3.4e38,"f64":-1.5e-300`, true},
		{`"f32":1E+2,"f64":0.1`, true},
		{`"f64":2.5e-1,"f32":-0.0`, true},
		{`"i8":null,"u64":null,"f32":null,"b":null`, true},
		{`"i8":128`, false},
		{`"i64":9223372036854775808`, false},
		{`"u8":256`, false},
		{`"u8":-1`, false},
		{`"u64":18446744073709551616`, false},
		{`"u8":1.0`, false},
		{`"u64":1e0`, false},
		{`"f32":3.5e38`, false},
		{`"f64":.5`, false},
		{`"f64":1.`, false},
		{`"f64":1e`, false},
		{`"f64":1e+`, false},
		{`"f64":-`, false},
		{`"f64":+1`, false},
		{`"u8":01`, false},
		{`"u8":"1"`, false},
		{`"u8":,"b":true`, false},
		{`"f64":,"b":true`, false},
		{`"b":,"u8":1`, false},
		{`"b":1`, false},
	} {
		t.Run(tc.members, func(t *testing.T) {
			doc := []byte("{" + tc.members + "}")
			var fast scalars
			ok := readWhole(d, doc, unsafe.Pointer(&fast))
			if ok != tc.fast {
				t.Fatalf("read = %v, want %v", ok, tc.fast)
			}
			var strict scalars
			warnings, err := kjson.UnmarshalStrict(doc, &strict)
			if ok && (err != nil || len(warnings) > 0 || fast != strict) {
				t.Fatalf("read %+v; the strict decoder %+v, %v %v", fast, strict, err, warnings)
			}
		})
	}
}

// TestDecodeFastRefusesEveryPrefix checks that a document cut short anywhere is left to the strict decoder, and
// read to its end only: it ends where its array does.
func TestDecodeFastRefusesEveryPrefix(t *testing.T) {
	d := plan(reflect.TypeFor[scalars]())
	doc := []byte(`{"i8":-12,"f64":-1.5e+3,"f32":2.5E-1,"b":true,"u8":null,"s":"a\u00e9\n","i64":0,"t":"grüße","u64":7}`)
	for n := range len(doc) + 1 {
		var read scalars
		if ok := readWhole(d, doc[:n:n], unsafe.Pointer(&read)); ok != (n == len(doc)) {
			t.Errorf("%s: read = %v", doc[:n], ok)
		}
	}
}

// TestDecodeFastWideStructs checks that a member twice is told apart from two members in a struct of more fields
// than a word or the four words kept on the stack have bits, where fields a multiple of 64 apart share a bit's
// place.
func TestDecodeFastWideStructs(t *testing.T) {
	for _, width := range []int{64, 65, 300} {
		fields := make([]reflect.StructField, width)
		for i := range fields {
			fields[i] = reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: reflect.TypeFor[int](), Tag: reflect.StructTag(fmt.Sprintf(`json:"f%d"`, i))}
		}
		typ := reflect.StructOf(fields)
		d := plan(typ)
		last := fmt.Sprintf(`"f%d":1`, width-1)
		var apart []string // fields 64 apart, which share a bit's place in their words
		for i := width - 1; i >= 0; i -= 64 {
			apart = append(apart, fmt.Sprintf(`"f%d":1`, i))
		}
		for _, tc := range []struct {
			members string
			fast    bool
		}{
			{`"f0":1,` + last, true},
			{last + `,"f0":1`, true},
			{last + `,` + last, false},
			{strings.Join(apart, ","), true},
			{strings.Join(apart, ",") + "," + apart[len(apart)-1], false},
		} {
			if ok := readWhole(d, []byte("{"+tc.members+"}"), reflect.New(typ).UnsafePointer()); ok != tc.fast {
				t.Errorf("%d fields, {%s}: read = %v, want %v", width, tc.members, ok, tc.fast)
			}
		}
	}
}

// plan is the decoder a planner of its own plans for t.
func plan(t reflect.Type) *valueDecoder {
	return (&planner{planned: map[reflect.Type]*valueDecoder{}}).decoder(t)
}

// readWhole reads data, one JSON value and nothing but space after it, into the value at into, of the type d
// decodes: false for anything the fast path leaves to the strict decoder.
func readWhole(d *valueDecoder, data []byte, into unsafe.Pointer) bool {
	r := jsonReader{data: data, limit: model.MaxNesting}
	ok := r.value(d, into)
	r.space()
	return ok && r.pos == len(data)
}

// scalars is a struct of a field of each scalar kind the fast decoder reads.
type scalars struct {
	I8  int8    `json:"i8"`
	I64 int64   `json:"i64"`
	U8  uint8   `json:"u8"`
	U64 uint64  `json:"u64"`
	F32 float32 `json:"f32"`
	F64 float64 `json:"f64"`
	B   bool    `json:"b"`
	S   string  `json:"s"`
	T   string  `json:"t"`
}

// decodeFast decodes one JSON object into typed, a pointer to an empty object of a kind seedplan reads, nesting at
// most limit deep, as decodeOne does but without the header and validation: false for anything it leaves to the
// strict decoder.
func decodeFast(data []byte, typed any, limit int) bool {
	for typ, kind := range objectKinds {
		if reflect.TypeOf(kind.new()) != reflect.TypeOf(typed) {
			continue
		}
		r := jsonReader{data: data, limit: limit}
		object := r.object(objectDecoders.of(typ))
		if object == nil {
			return false
		}
		reflect.ValueOf(typed).Elem().Set(reflect.ValueOf(object).Elem())
		r.space()
		return r.pos == len(r.data)
	}
	panic(fmt.Sprintf("%T is of no kind seedplan reads", typed))
}

// comma puts a comma before members, if any.
func comma(members string) string {
	if members == "" {
		return ""
	}
	return "," + members
}

// TestDecodeFastPlansEveryKind checks that the fast decoder reads every field of the kinds seedplan reads,
// except base64 bytes, which the strict decoder reads.
func TestDecodeFastPlansEveryKind(t *testing.T) {
	seen := map[*valueDecoder]bool{}
	var unsupportedAt []string
	var walk func(d *valueDecoder, path string)
	walk = func(d *valueDecoder, path string) {
		if seen[d] {
			return
		}
		seen[d] = true
		if d.kind == unsupported {
			unsupportedAt = append(unsupportedAt, path)
		}
		if d.elem != nil {
			walk(d.elem, path+"[]")
		}
		for _, f := range d.fields {
			walk(f.dec, path+"."+f.name)
		}
	}
	if len(objectDecoders.kinds) != 7 {
		t.Fatalf("%d kinds, want 7", len(objectDecoders.kinds))
	}
	for typ := range objectDecoders.kinds {
		walk(objectDecoders.of(typ).pointer.elem, typ.kind)
	}
	if len(unsupportedAt) != 1 || unsupportedAt[0] != "ConfigMap.binaryData[]" {
		t.Fatalf("left to the strict decoder: %q", unsupportedAt)
	}
}

// TestPlannerPlansEachShapeOfType checks what the planner plans for each shape of type, those of the Gardener API
// and those a later version of it might add: a type that decodes itself from its raw JSON does so, and what
// encoding/json reads by rules the fast decoder does not keep — text and token-stream unmarshalers, base64 bytes,
// maps keyed by anything but plain strings, names it would resolve by depth or that are not plain ASCII, the
// string option — is left to the strict decoder ("unsupported").
func TestPlannerPlansEachShapeOfType(t *testing.T) {
	type inner struct {
		B string `json:"b"`
	}
	type embedsAStruct struct {
		inner
		A string `json:"a"`
	}
	type embedsAPointer struct {
		*inner
		A string `json:"a"`
	}
	type embedsAStructThatEmbedsAPointer struct {
		embedsAPointer
	}
	type embedsAString struct {
		textName
		A string `json:"a"`
	}
	type tagsAnEmbeddedUnexportedType struct {
		inner `json:"inner"`
	}
	type skipsWhatEncodingJSONSkips struct {
		A        string `json:"a"`
		Ignored  string `json:"-"`
		hidden   string
		Untagged string
	}
	type namesAFieldAtTwoDepths struct {
		inner
		B string `json:"b"`
	}
	type namesAFieldBeyondASCII struct {
		A string `json:"größe"`
	}
	type quotesANumber struct {
		A int `json:"a,string"`
		B int `json:"b,omitempty"`
	}
	for _, tc := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[string](), "string"},
		{reflect.TypeFor[bool](), "bool"},
		{reflect.TypeFor[int32](), "int"},
		{reflect.TypeFor[uint8](), "uint"},
		{reflect.TypeFor[float64](), "float"},
		{reflect.TypeFor[metav1.Time](), "time"},
		{reflect.TypeFor[rawName](), "unmarshaler"},
		{reflect.TypeFor[*rawName](), "*unmarshaler"},
		{reflect.TypeFor[textName](), "unsupported"},
		{reflect.TypeFor[*textName](), "*unsupported"},
		{reflect.TypeFor[streamName](), "unsupported"},
		{reflect.TypeFor[[]byte](), "unsupported"},
		{reflect.TypeFor[[]string](), "[]string"},
		{reflect.TypeFor[map[string]int](), "map[string]int"},
		{reflect.TypeFor[map[textName]int](), "unsupported"},
		{reflect.TypeFor[map[int]string](), "unsupported"},
		{reflect.TypeFor[any](), "unsupported"},
		{reflect.TypeFor[embedsAStruct](), "{b:string a:string}"},
		{reflect.TypeFor[embedsAPointer](), "unsupported"},
		{reflect.TypeFor[embedsAStructThatEmbedsAPointer](), "unsupported"},
		{reflect.TypeFor[embedsAString](), "unsupported"},
		{reflect.TypeFor[tagsAnEmbeddedUnexportedType](), "unsupported"},
		{reflect.TypeFor[skipsWhatEncodingJSONSkips](), "{a:string Untagged:string}"},
		{reflect.TypeFor[namesAFieldAtTwoDepths](), "unsupported"},
		{reflect.TypeFor[namesAFieldBeyondASCII](), "unsupported"},
		{reflect.TypeFor[quotesANumber](), "{a:unsupported b:int}"},
	} {
		t.Run(tc.typ.String(), func(t *testing.T) {
			d := plan(tc.typ)
			if got := planned(d); got != tc.want {
				t.Errorf("planned %s, want %s", got, tc.want)
			}
		})
	}
}

// planned describes a decoder as TestPlannerPlansEachShapeOfType names them, for types that do not recur.
func planned(d *valueDecoder) string {
	switch d.kind {
	case pointerKind:
		return "*" + planned(d.elem)
	case sliceKind:
		return "[]" + planned(d.elem)
	case mapKind:
		return "map[string]" + planned(d.elem)
	case structKind:
		fields := make([]string, len(d.fields))
		for i, f := range d.fields {
			fields[i] = f.name + ":" + planned(f.dec)
		}
		return "{" + strings.Join(fields, " ") + "}"
	}
	return [...]string{unsupported: "unsupported", stringKind: "string", boolKind: "bool", intKind: "int",
		uintKind: "uint", floatKind: "float", unmarshalerKind: "unmarshaler", timeKind: "time"}[d.kind]
}

// rawName decodes itself from its raw JSON, as resource.Quantity does.
type rawName string

func (n *rawName) UnmarshalJSON(data []byte) error {
	return json.Unmarshal(data, (*string)(n))
}

// textName decodes itself from a JSON string, through encoding.TextUnmarshaler.
type textName string

func (n *textName) UnmarshalText(text []byte) error {
	*n = textName(strings.ToLower(string(text)))
	return nil
}

// streamName decodes itself from a token stream, as json/v2 lets a type do.
type streamName string

func (n *streamName) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	token, err := d.ReadToken()
	*n = streamName(token.String())
	return err
}

// TestMember checks how a member's name is found: compared in place with the next declared fields, as a word
// where it is short, or else read and looked up.
func TestMember(t *testing.T) {
	type fields struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
		SeedName  string `json:"seedName"`
		Region    string `json:"region"`
		Purpose   string `json:"purpose"`
	}
	d := plan(reflect.TypeFor[fields]())
	for _, tc := range []struct {
		data string
		from int
		// field is the number found, -1 for none; after is what is left to read then.
		field int
		after string
	}{
		{`"name":"a"}`, 0, 0, `"a"}`},
		{`"name": "a"}`, 0, 0, `"a"}`},
		{`"name":  "a"}`, 0, 0, `  "a"}`}, // more than one space: the value's to skip
		{`"name": {}}`, 0, 0, `{}}`},
		{`"name": ` + "\n" + `"a"}`, 0, 0, ` ` + "\n" + `"a"}`},
		{`"namespace":"a"}`, 0, 1, `"a"}`},
		{`"namespace":"a"}`, 1, 1, `"a"}`},
		{`"seedName":"s"}`, 0, 2, `"s"}`},
		{`"seedNameX":"s"}`, 0, -1, ``},
		{`"seedNam":"s"}`, 0, -1, ``},
		{`"seedNameX:"s"}`, 0, -1, ``}, // eight bytes: the byte after the word must be the quote
		{`"name":"a"}`, 1, 0, `"a"}`},  // before from: looked up
		{`"region":"r"}`, 3, 3, `"r"}`},
		{`"n\u0061me":"a"}`, 0, 0, `"a"}`}, // an escape: looked up
		{`"name" : "a"}`, 0, 0, ` "a"}`},
		{`"name"`, 0, -1, ``},
		{`"name":`, 0, 0, ``},
		{`"name": `, 0, 0, ` `},
		{`"name" "a"}`, 0, -1, ``},
		{`"nam`, 0, -1, ``},
		{`"seedName`, 0, -1, ``},
		{`"namespacX":"a"}`, 0, -1, ``}, // beyond eight bytes the name itself is compared
		{`"regio":"r"}`, 0, -1, ``},
		{`"Name":"a"}`, 0, -1, ``},
		{`"purpose":"p"}`, 4, 4, `"p"}`}, // the last field, of seven bytes: the quote ends the word
		{`"qurpose":"p"}`, 0, -1, ``},    // differs from "purpose" in the lowest bit of the word
		{"\"name\xa2:\"a\"}", 0, -1, ``}, // in the highest bit of the quote that would end "name"
	} {
		r := jsonReader{data: []byte(tc.data)}
		i, ok := r.member(d, tc.from)
		if !ok {
			i = -1
		}
		if i != tc.field || ok && string(r.data[r.pos:]) != tc.after {
			t.Errorf("member(%q, %d) = %d, leaving %q; want %d, leaving %q", tc.data, tc.from, i, r.data[r.pos:], tc.field, tc.after)
		}
	}
}

// TestSlabsHandOutValuesOfTheirOwn checks that the values a stretch's pointers point to are each new and zero,
// across slabs of growing lengths up to slabLength values or slabBytes, and that values of the types without a
// slab are allocated one by one.
func TestSlabsHandOutValuesOfTheirOwn(t *testing.T) {
	type large struct{ _ [5000]byte }
	type pointers struct {
		Text  *string
		Empty *struct{}
		Large *large
	}
	d := plan(reflect.TypeFor[pointers]())
	text, empty, big := d.fields[0].dec, d.fields[1].dec, d.fields[2].dec
	s := &slabs{}
	var handedOut []*string
	for i := range 3 * slabLength {
		v := (*string)(s.new(text))
		if *v != "" {
			t.Fatalf("value %d is %q, not zero", i, *v)
		}
		*v = strings.Repeat("x", i)
		handedOut = append(handedOut, v)
	}
	for i, v := range handedOut {
		if *v != strings.Repeat("x", i) {
			t.Fatalf("value %d was written over: %q", i, *v)
		}
	}
	if got := (*s)[text.slab].length; got != slabLength {
		t.Errorf("the last slab holds %d values, want %d", got, slabLength)
	}
	for range 20 {
		s.new(big)
	}
	if got := (*s)[big.slab].length; got != slabBytes/5000 {
		t.Errorf("the last slab of values of 5,000 bytes holds %d, want %d", got, slabBytes/5000)
	}
	if s.new(empty) == nil || empty.slabType != nil {
		t.Errorf("a value of size zero comes from a slab")
	}
	if v := (*string)((*arena)(nil).new(text)); v == nil || *v != "" {
		t.Errorf("a reader without an arena allocates no zero value")
	}
}

// stringCacheSizes are the JSON sizes a stringCache is tested for: the smallest cache and the largest.
var stringCacheSizes = []int{0, 4 << 20}

// TestStringCache checks that interning gives each text back as it is, shares a value read before, and keeps
// strings that share a slot apart.
func TestStringCache(t *testing.T) {
	for _, size := range stringCacheSizes {
		t.Run(fmt.Sprint(size), func(t *testing.T) { testStringCache(t, newStringCache(size)) })
	}
}

func testStringCache(t *testing.T, c *stringCache) {
	texts := []string{"", "a", "eu-west-1", "eu-west-2", "1.34.2", "aws-eu-west-2-10", "aws-eu-west-3-10",
		"core.gardener.cloud/v1beta1", "core.gardener.cloud/v1alpha1", strings.Repeat("x", 100)}
	for range 2 {
		for _, text := range texts {
			if got := c.intern([]byte(text)); got != text {
				t.Fatalf("intern(%q) = %q", text, got)
			}
		}
	}
	first := c.intern([]byte("eu-west-1"))
	if again := c.intern([]byte("eu-west-1")); unsafe.StringData(again) != unsafe.StringData(first) {
		t.Errorf("a value read again is allocated anew")
	}
	// Same length, first and last eight bytes: one slot, each string still itself.
	a, b := "aws-eu-west-1-rack-1", "aws-eu-wast-1-rack-1"
	if cacheHash([]byte(a)) != cacheHash([]byte(b)) {
		t.Fatalf("%q and %q take different slots", a, b)
	}
	for range 3 {
		if got := c.intern([]byte(a)); got != a {
			t.Fatalf("intern(%q) = %q", a, got)
		}
		if got := c.intern([]byte(b)); got != b {
			t.Fatalf("intern(%q) = %q", b, got)
		}
	}
}

// TestStringCacheSize checks that a cache grows with the JSON it is for, within its bounds: the strings of a
// small List take little memory.
func TestStringCacheSize(t *testing.T) {
	for _, tc := range []struct {
		size, slots, chunk int
	}{
		{size: 0, slots: 1 << minStringCacheBits, chunk: 1 << 10},
		{size: 20 << 10, slots: 256, chunk: 4 << 10},
		{size: 100 << 10, slots: 1024, chunk: 16 << 10},
		{size: 4 << 20, slots: 1 << stringCacheBits, chunk: chunkBytes},
	} {
		c := newStringCache(tc.size)
		if len(c.slots) != tc.slots || c.chunkSize != tc.chunk {
			t.Errorf("newStringCache(%d): %d slots, chunks of %d bytes; want %d and %d", tc.size, len(c.slots), c.chunkSize, tc.slots, tc.chunk)
		}
	}
}

// TestStringCacheKeepsItsStrings checks that the strings a cache makes stay what they were made of while later
// ones fill its chunks and start new ones, that a long one that does not fit is allocated by itself, and that an
// object's name is objectName's.
func TestStringCacheKeepsItsStrings(t *testing.T) {
	for _, size := range stringCacheSizes {
		t.Run(fmt.Sprint(size), func(t *testing.T) { testStringCacheKeepsItsStrings(t, newStringCache(size)) })
	}
}

func testStringCacheKeepsItsStrings(t *testing.T, c *stringCache) {
	var want, got []string
	long := strings.Repeat("y", c.chunkSize/4+1)
	for i := range 3000 {
		text := fmt.Sprintf("shoot-%d-%s", i, strings.Repeat("x", i%40))
		switch i % 500 {
		case 7:
			text = ""
		case 8:
			text = long
		}
		buf := []byte(text)
		want, got = append(want, text), append(got, c.keep(buf))
		clear(buf) // the string is the cache's, not the reader's bytes
		if i%3 == 0 {
			namespace, name := fmt.Sprint("garden-", i), text
			want, got = append(want, objectName("Shoot", namespace, name)), append(got, c.name("Shoot", namespace, name))
		}
	}
	if !slices.Equal(got, want) {
		t.Fatal("a string the cache made changed as it made others")
	}
	if fill := cap(c.chunk) - len(c.chunk) - len(long) + 1; fill > 0 {
		c.keep(make([]byte, fill)) // too little left for long
	}
	if before := c.chunk; c.keep([]byte(long)) != long || len(c.chunk) != len(before) || &c.chunk[:1][0] != &before[:1][0] {
		t.Errorf("a string longer than a quarter of a chunk, too long for what is left of one, went into one")
	}
	for _, tc := range []struct{ kind, namespace, name string }{
		{"Seed", "", "s"}, {"Shoot", "garden-a", ""}, {"Shoot", "n", strings.Repeat("n", 300)},
	} {
		if got, want := c.name(tc.kind, tc.namespace, tc.name), objectName(tc.kind, tc.namespace, tc.name); got != want {
			t.Errorf("name(%q, %q, %.10q…) = %q, want %q", tc.kind, tc.namespace, tc.name, got, want)
		}
	}
}

// TestKindDecodersArePlannedOnFirstUse checks that a kind's decoder is planned when an object of it is first
// decoded, once, whoever asks first, and that the kinds' decoders share the types they share.
func TestKindDecodersArePlannedOnFirstUse(t *testing.T) {
	k := newKindDecoders()
	core := gardencorev1beta1.SchemeGroupVersion.String()
	shoot, seed := objectType{core, "Shoot"}, objectType{core, "Seed"}
	set := objectType{seedmanagementv1alpha1.SchemeGroupVersion.String(), "ManagedSeedSet"}
	for typ, kind := range k.kinds {
		if kind.pointer != nil {
			t.Fatalf("%s planned before it was asked for", typ.kind)
		}
	}
	got := make([]*valueDecoder, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			typ := shoot
			if i%2 == 1 {
				typ = seed
			}
			got[i] = k.of(typ).pointer
		})
	}
	wg.Wait()
	want := []reflect.Type{reflect.TypeFor[*gardencorev1beta1.Shoot](), reflect.TypeFor[*gardencorev1beta1.Seed]()}
	for i, d := range got {
		if d == nil || d != got[i%2] || d.typ != want[i%2] {
			t.Fatalf("asker %d got decoder %p; the first of its kind got %p", i, d, got[i%2])
		}
	}
	if k.kinds[set].pointer != nil {
		t.Errorf("ManagedSeedSet planned, though none was asked for")
	}
	meta := func(d *valueDecoder) *valueDecoder { return d.elem.fields[d.elem.numbers["metadata"]].dec }
	if meta(got[0]) != meta(got[1]) {
		t.Errorf("a Shoot's and a Seed's metadata have decoders of their own")
	}
	if k.of(objectType{"v1", "Secret"}) != nil {
		t.Errorf("a kind seedplan does not read has a decoder")
	}
}
