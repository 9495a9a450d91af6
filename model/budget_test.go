package model_test

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/seedplan/seedplan/internal/fixture"
	"github.com/seedplan/seedplan/model"
)

// The hostile documents of the fuzz corpora (model/fuzz_test.go).
var laughs, nested = model.Laughs, model.Nested

// The input budget refuses documents that would expand or nest beyond it, and admits what Kubernetes objects
// look like, shared blocks included.
func TestCheckBudget(t *testing.T) {
	cases := []struct {
		name     string
		document string
		want     string // "" admitted; else a part of the error
		budget   bool   // the error is ErrBudget
	}{
		{"a shoot", "apiVersion: core.gardener.cloud/v1beta1\nkind: Shoot\nmetadata: {name: a, namespace: garden-a}\nspec: {region: eu-1}\n", "", false},
		{"JSON", `{"apiVersion": "v1", "kind": "ConfigMap", "data": {"eu-1": "eu-2: 10"}}`, "", false},
		{"a shared block", "defaults: &d {effect: NoSchedule, key: a}\ntolerations: [*d, *d, {<<: *d, key: b}]\n", "", false},
		{"aliases of a large block, within the budget", "a: &a [" + strings.Repeat("x,", 1000) + "x]\nb: [*a, *a, *a]\n", "", false},
		{"the billion laughs", laughs(9), "aliases expand it", true},
		{"three levels of laughs", laughs(3), "", false},
		{"the billion laughs in a second document", "a: 1\n---\n" + laughs(9), "aliases expand it", true},
		{"nested 100 deep", nested(100), "", false},
		{"nested 101 deep", nested(101), "nest more than 100", true},
		{"nested 5,000 deep", nested(5000), "nest more than 100", true},
		{"nested deeper than the parser reads", nested(20000), "nest more than 100", true},
		{"indented deeper than the parser reads", blockNested(12000), "nest more than 100", true},
		{"an anchor nested deeper where it is used", "a: &a " + nested(60) + "\nb: " + strings.Repeat("[", 45) + "*a" + strings.Repeat("]", 45) + "\n", "nest more than 100", true},
		{"not YAML: left to the decoder", "a: [b\n", "", false},
		{"not YAML, with an alias", "a: &a [b\nc: *a\n", "", false},
		{"not YAML, with an alias after a JSON key", "{\"a\":*a, [\n", "", false},
		{"an alias after a flow mapping, which the decoder's parser leaves", "{a: &a [x]} *a\n", "cannot be parsed", true},
		{"an alias in a broken second document, the first parsed", "a: &a [x]\n---\nb: [*a\n", "cannot be parsed", true},
		{"not YAML, with stars that start no alias", "a: '*'\nb: x*y\nc: * \nd: [b\n", "", false},
		{"not UTF-8, with an alias: no decoder reads it", "a: &a \xff\nc: *a\n", "", false},
		{"not YAML, with an alias behind a byte order mark", "\ufeff*a\nb: [\n", "", false},
		{"not YAML, with an alias, in UTF-16 behind its byte order mark", utf16LE("a: &a [b\nc: *a\n"), "", false},
		{"an alias after a flow mapping, in UTF-16 behind its byte order mark", utf16LE("{a: &a [x]} *a\n"), "cannot be parsed", true},
		{"not YAML, in UTF-16 without a star", utf16LE("a: [b\n"), "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := model.CheckBudget([]byte(tc.document))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "":
			case err == nil:
				t.Fatalf("admitted, want an error with %q", tc.want)
			case !strings.Contains(err.Error(), tc.want) || errors.Is(err, model.ErrBudget) != tc.budget:
				t.Fatalf("error %q, want one with %q (budget %v)", err, tc.want, tc.budget)
			}
		})
	}
}

// Input with aliases that the budget's parser cannot read is left to the decoder when the decoder's own parser
// cannot read it either: the decoder refuses it before it expands anything, in its own words, which for a region
// ConfigMap are Gardener's (an unknown anchor, a flow left open). What the decoder's parser reads is refused,
// unmeasured (TestCheckBudget).
func TestBudgetLeavesToTheDecoderWhatNoParserReads(t *testing.T) {
	for _, document := range []string{
		"eu-west-1: *unknown\n",
		"a: &a [b\nc: *a\n",
		"a: &a [b\nc: [x,*a]\n",
		"a: &a 1\nb: *a\nc: d: e\n",
		"a: &a 1\nb: *a\nc: \"\\q\"\n",
		"\ufeff*a\nb: [\n",
		utf16LE("a: &a [b\nc: *a\n"),
	} {
		if err := model.CheckBudget([]byte(document)); err != nil {
			t.Errorf("%q: refused: %v", document, err)
		}
		var distances map[string]int
		if _, err := yaml.YAMLToJSON([]byte(document)); err == nil || yaml.Unmarshal([]byte(document), &distances) == nil {
			t.Errorf("%q: the decoder reads it", document)
		}
	}
}

// A nesting error leads to the node found too deep, index by index from the document, so that the caller can name
// the part at fault: the List item, not the List.
func TestNestingErrorPath(t *testing.T) {
	cases := []struct {
		name     string
		document string
		want     []int // the path's start: the document's node, its child, ...
	}{
		{"the document itself", nested(101), []int{0}},
		{"a List's third item", "kind: List\nitems:\n- a: 1\n- b: 2\n- c: " + nested(99) + "\n", []int{0, 3, 2, 1}},
		{"the first of two items too deep", "items: [" + nested(100) + ", " + nested(100) + "]\n", []int{0, 1, 0}},
		{"an alias nested deeper where it is used", "a: &a " + nested(60) + "\nb: " + strings.Repeat("[", 45) + "*a" + strings.Repeat("]", 45) + "\n", []int{0, 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var nesting *model.NestingError
			if err := model.CheckBudget([]byte(tc.document)); !errors.As(err, &nesting) || !errors.Is(err, model.ErrBudget) {
				t.Fatalf("error %v, want a NestingError", err)
			}
			if len(nesting.Path) < len(tc.want) || !slices.Equal(nesting.Path[:len(tc.want)], tc.want) {
				t.Fatalf("path %v, want one starting %v", nesting.Path, tc.want)
			}
		})
	}
}

// FuzzCheckBudget: any input is measured without crashing, and whatever the budget admits stays within it when
// expanded by the decoder every landscape goes through.
func FuzzCheckBudget(f *testing.F) {
	for _, seed := range []string{laughs(4), nested(30), "a: &a [*a]\n", "a: &a {b: *a}\n", "{a: 1}", "- &x 1\n- *x\n", "a: &a [b\nc: [x,*a]\n", "a: &a \xff\nc: *a\n", utf16LE("a: &a [b\nc: *a\n")} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, document []byte) {
		if model.CheckBudget(document) != nil {
			return
		}
		converted, err := yaml.YAMLToJSON(document)
		if err != nil {
			return
		}
		// A scalar of n bytes counts n+1 and becomes at most 6n+3 bytes of JSON (escapes, quotes, a comma), a
		// collection counts 1 and becomes 3.
		if bound := 6 * (4*len(document) + 64<<10); len(converted) > bound {
			t.Fatalf("admitted %d bytes that expand to %d bytes of JSON, more than %d", len(document), len(converted), bound)
		}
	})
}

// utf16LE is text in UTF-16LE behind its byte order mark.
func utf16LE(text string) string { return string(fixture.WithBOM(binary.LittleEndian, text)) }

// blockNested is a block sequence nested depth deep on one line, as "- - - x" is three deep.
func blockNested(depth int) string { return strings.Repeat("- ", depth) + "x\n" }
