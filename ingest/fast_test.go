package ingest

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/seedplan/seedplan/examples"
	"github.com/seedplan/seedplan/model"
)

// transcodeCases are YAML documents with what the transcoder must read as the YAML-to-JSON conversion does
// (fast: true), and what it must leave to that conversion.
var transcodeCases = []struct {
	name, yaml string
	fast       bool
}{
	{"mapping", "a: b\nc: 1\n", true},
	{"keys with colons inside", "a:b: c\nhttp://x:80: d\n", true},
	{"a comment where a key's colon would be", "x: 1\na #b: c\n", false},
	{"nested mapping", "a:\n  b:\n    c: d\n  e: f\ng: h\n", true},
	{"sequence at the key's column", "items:\n- a\n- b\nnext: c\n", true},
	{"indented sequence", "items:\n  - a\n  - b\n", true},
	{"compact mappings in a sequence", "items:\n- name: a\n  value: 1\n- name: b\n  list:\n  - x\n", true},
	{"nested sequences", "- - a\n  - b\n- c\n", true},
	{"dash alone", "-\n  a: b\n-\n- c\n", true},
	{"comments and blank lines", "# head\na: b # tail\n\n  # indented\nc: 'd # not a comment'\n", true},
	{"booleans and null of YAML 1.1", "a: yes\nb: Off\nc: ~\nd: null\ne:\nf: y\n", true},
	{"numbers", "a: 0\nb: -12\nc: 1.5\nd: 0x1F\ne: 1e3\nf: 0777\ng: -0\nh: 123456789012345678901\n", true},
	{"integers of 19 digits, within and beyond int64", "a: 1234567890123456789\nb: -1234567890123456789\nc: 9223372036854775808\nd: -9999999999999999999\n", true},
	{"strings that look like numbers", "version: 1.34.2\ncidr: 10.180.0.0/16\nv6: 2001:db8:10::/48\ntime: 2024-01-02T03:04:05Z\n", true},
	{"quoted scalars", "a: \"x\\\"y\\\\z\\n\\u00e9\\x41\"\nb: 'it''s'\nc: \"yes\"\nd: '1'\n", true},
	{"empty flow collections", "a: []\nb: {}\nc:\n- []\n", true},
	{"plain scalars that begin as a document's markers do", "a: ---\nb: --- x\nc: ...\nd: ...5\ne: ---1\nf: -.5\n", true},
	{"strings with indicators inside", "url: http://x/y?z=1#f\nlabel: a:b\nlist: a, b\n", true},
	{"unicode", "name: grüße\nemoji: \"\\u263a\"\n", true},
	{"only comments", "# nothing\n", true},
	{"no trailing newline", "a: b", true},
	{"document start", "---\na: b\n", true},
	{"document start with a comment", "--- # c\na: b\n", true},
	{"anchors and aliases", "a: &x 1\nb: *x\n", true},
	{"an anchored mapping below its key", "a: &x\n  b: 1\nc: *x\n", true},
	{"an anchored mapping in a sequence", "- &x\n  b: 1\n- *x\n", true},
	{"an anchor on a line of its own below a dash", "-\n  &x\n  b: 1\n- *x\n", true},
	{"an anchor on a line of its own below a key", "key:\n  &a\n  k: v\nz: *a\n", true},
	{"an alias on a line of its own below a key", "a: &x 1\nb:\n  *x\n", true},
	{"an anchored sequence at its key's column", "key: &a\n- x\nother: *a\n", true},
	{"an anchored indented sequence", "a: &x\n  - 1\nb: *x\n", true},
	{"anchors and aliases with comments", "a: &x # c\n  b: 1\nc: *x # d\n", true},
	{"anchored nulls", "a: &x\nb: *x\nc:\n- &y\n- *y\n", true},
	{"anchored empty collections, literal blocks and wrapped scalars", "a: &x []\nb: *x\nc: &y |\n  text\nd: *y\ne: &z plain\n  more\nf: *z\n", true},
	{"aliases in a sequence", "a:\n  - &x 1\n  - *x\n", true},
	{"an anchor named again", "a: &x 1\nb: *x\nc: &x 2\nd: *x\n", true},
	{"an alias of a node holding an alias", "a: &x 1\nb: &y\n  c: *x\n  d: &z []\ne: *y\nf: *z\n", true},
	{"anchor names of every character YAML allows", "a: &Az09_- 1\nb: *Az09_-\n", true},
	{"an alias before its anchor", "a: *x\nb: &x 1\n", false},
	{"an alias inside its own anchor", "a: &x\n  c: *x\n", false},
	{"an anchor named again inside itself", "a: &x 1\nb: &x\n  c: *x\n", false},
	{"an anchor on a key", "- &a k: v\n- *a\n", false},
	{"anchor names YAML refuses", "a: &x.y 1\nb: *x.y\n", false},
	{"an anchor name followed by a colon", "a: &x:y 1\n", false},
	{"an empty anchor name", "a: & 1\n", false},
	{"an alias with content after it", "a: &x 1\nb: *x y\n", false},
	{"an alias going on below", "a: &x 1\nb: *x\n  y\n", false},
	{"an alias as a key", "a: &x k\n*x : v\n", false},
	{"an anchor and a tag", "a: &x !!str 1\nb: *x\n", false},
	{"two anchors", "a: &x &y 1\n", false},
	{"two anchors on two lines", "a: &x\n  &y\n  b: 1\n", false},
	{"an anchor and an alias", "a: &x 1\nb: &y\n  *x\n", false},
	{"an anchor at the root", "&x\na: 1\n", false},
	{"a merge of an alias", "a: &x\n  b: 1\nc:\n  <<: *x\n", false},
	{"aliases expanding beyond the input budget", laughs(6), false},
	{"aliases expanding within the input budget", laughs(3), true},
	{"tags", "a: !!str 1\n", false},
	{"literal block", "a: |\n  line\n", true},
	{"literal blocks as kubectl writes them", "b: |\n  x\n  y\nc: |2-\n    lead\n  z\nd: |+\n  trail\n\ne: |-\n  x\n", true},
	{"literal block with empty lines and indented lines", "a: |\n\n  x\n\n    y\n  # not a comment\n\n\nb: c\n", true},
	{"literal block in a sequence", "- |\n  x\n- name: a\n  text: |-\n    y\n    z\n  next: 1\n", true},
	{"literal block headers", "a: |-2\n   x\nb: |+1 # c\n x\nc: | # c\n  x\n", true},
	{"literal block kept to the end", "a: |+\n  x\n\n", true},
	{"literal block with an indentation indicator in a sequence", "- |2\n   x\n  y\n-  |1-\n  z\n", true},
	{"plain scalar wrapped over many lines", "a: " + strings.Repeat("word\n  ", 200) + "end\n", true},
	{"literal block at the key's column", "a: |\nb: c\n", false},
	{"empty literal block", "a: |\n\nb: c\n", false},
	{"literal block with a line of spaces", "a: |\n  x\n   \n  y\n", false},
	{"literal block whose later line is less indented", "a: |\n    x\n  y\n", false},
	{"literal block with a wrong header", "a: |x\n  y\n", false},
	{"literal block with two chomping indicators", "a: |-+\n  y\n", false},
	{"literal block with two indentation indicators", "a: |12\n  y\n", false},
	{"literal block with text after its header", "a: | x\n  y\n", false},
	{"literal block with indentation 0", "a: |0\n  y\n", false},
	{"literal block with a comment not after a space", "a: |#c\n  y\n", false},
	{"literal block less indented than its indicator", "a: |4\n  y\n", false},
	{"folded block", "a: >\n  line\n", false},
	{"every word YAML 1.1 reads as a boolean or null, and words it does not", "- " + strings.Join([]string{
		"y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE",
		"n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE", "~", "null", "Null", "NULL",
		"yEs", "tRUE", "oN", "nULL", "Nil", "none", "~~", "yes!", "t", "f"}, "\n- ") + "\n", true},
	{"flow mapping", "a: {b: c}\n", true},
	{"flow sequence", "a: [b, c]\n", true},
	{"flow collections as people write them", "labels: {team: retail, tier: \"1\", 'on': yes}\nzones: [eu-west-1a, eu-west-1b]  # c\n" +
		"empty: [ ]\nnone: { }\nnested: [[a, b], {c: [d]}, []]\nnumbers: [1, -2, 1.5, 0x1F, ~, null, true]\n" +
		"plain: [a b, 'c, d', \"e]\", f:g, http://x/y, -h, .i]\n", true},
	{"a question mark in a flow collection's plain scalar", "a: [http://x/y?z=1]\n", false},
	{"flow collections in a sequence", "- [a, b]\n- {c: d}\n- &x [e]\n- *x\n", true},
	{"a flow collection over lines", "a: [b,\n  c]\n", false},
	{"a flow collection with content after it", "a: [b] c\n", false},
	{"a flow collection with a comment inside", "a: [b # c\n  ]\n", false},
	{"a hash inside a flow collection's plain scalar", "a: [b#c, d]\n", true},
	{"a comment after a longer scalar in a flow collection", "a: [bc #d]\n", false},
	{"an empty entry in a flow sequence", "a: [b, , c]\n", false},
	{"a comma before a flow sequence's end", "a: [b, c, ]\n", false},
	{"a pair in a flow sequence", "a: [b: c]\n", false},
	{"a key without a value in a flow mapping", "a: {b, c: d}\n", false},
	{"a key with an empty value in a flow mapping", "a: {b: , c: d}\n", false},
	{"a key and value without a space", "a: {b:c}\n", false},
	{"a boolean key in a flow mapping", "a: {on: b}\n", false},
	{"a tag in a flow collection", "a: [!!str 1]\n", false},
	{"an alias in a flow collection", "a: &x 1\nb: [*x]\n", false},
	{"a dash alone in a flow sequence", "a: [-]\n", false},
	{"a flow collection nested beyond the budget", nestedMappings(model.MaxNesting-1, "[[]]"), false},
	{"a flow collection nested to the budget", nestedMappings(model.MaxNesting-2, "[[]]"), true},
	{"multi-line plain scalar", "a: b\n  c\n", true},
	{"plain scalars wrapped as kubectl writes them", "a: word another word\n  and again\n  and more\nb:\n- one\n  two\nc: 1\n", true},
	{"wrapped plain scalar that looks like a number at first", "a: 1\n  2\n", true},
	{"wrapped plain scalar with a comment at its end", "a: b\n  c # d\n", false},
	{"wrapped plain scalar after a comment", "a: b # c\n  d\n", false},
	{"wrapped plain scalar after a blank line", "a: b\n\n  c\n", false},
	{"wrapped plain scalar after a comment line", "a: b\n  # c\n  d\n", false},
	{"wrapped plain scalar going on with a mapping", "a: b\n  c: d\n", false},
	{"wrapped plain scalar going on with an indicator", "a: b\n  *c\n", false},
	{"wrapped plain scalar going on with a dash", "a: b\n  - c\n", false},
	{"multi-line quoted scalar", "a: \"b\n  c\"\n", true},
	{"quoted scalars wrapped as kubectl writes them", "a: 'task \"x\" failed: Error while\n  waiting for it: error\n  reconciling'\nb: \"tab\\there and a long\n  line\"\nc: 1\n", true},
	{"wrapped quoted scalars with spaces at the breaks", "a: 'b   \n    c  '\nb: \"d \\ \n  e\"\n", true},
	{"wrapped double-quoted scalar with an escaped line break", "a: \"b\\\n   c\"\n", true},
	{"wrapped double-quoted scalar with spaces at the break", "a: \"b   \n  c\"\n", true},
	{"an escape cut short by a line break", "a: \"\\x4\n  1\"\n", false},
	{"an escape cut short by the document's end", "a: \"\\x4", false},
	{"wrapped quoted scalars with quotes and hashes inside", "- 'it''s\n  # not a comment'\n- \"x\n  \\\" y\\u00e9\"\n", true},
	{"wrapped quoted scalar whose first line is empty", "a: '\n  b'\n", true},
	{"wrapped quoted scalar with a blank line", "a: 'b\n\n  c'\n", false},
	{"wrapped quoted scalar at the key's column", "a: 'b\nc'\n", false},
	{"unterminated quoted scalar", "a: 'b\n  c\n", false},
	{"wrapped quoted scalar with content after it", "a: 'b\n  c' d\n", false},
	{"tab", "a:\tb\n", false},
	{"carriage return", "a: b\r\n", false},
	{"a quoted key", "\"a\": b\n", true},
	{"boolean key", "on: push\n", false},
	{"number key", "1: a\n", false},
	{"merge key", "<<: {}\n", false},
	{"key with trailing space", "a : b\n", false},
	{"key longer than YAML's", strings.Repeat("k", 1100) + ": b\n", false},
	{"longest key", strings.Repeat("k", longestKey) + ": b\n", true},
	{"complex key", "? a\n: b\n", false},
	{"scalar document", "just text\n", false},
	{"indented root", "  a: b\n", false},
	{"sequence where a key belongs", "a: b\n- c\n", false},
	{"mapping in a plain scalar", "a: b: c\n", false},
	{"directive", "%YAML 1.1\n---\na: b\n", false},
	{"deeper than the budget", strings.Repeat("- ", model.MaxNesting+1) + "x\n", false},
	{"an empty mapping just beyond the budget", nestedMappings(model.MaxNesting, "{}"), false},
	{"an empty mapping at the budget", nestedMappings(model.MaxNesting-1, "{}"), true},
	{"unknown escape", "a: \"\\q\"\n", false},
	{"an escaped slash, which YAML 1.1 has not", "a: \"\\/\"\n", false},
	{"an escaped single quote", "a: \"it\\'s\"\n", true},
	{"YAML's escapes", "a: \"\\0\\a\\v\\e\\N\\_\\L\\P\\U0001F331\\x41\\u00e9\"\n", true},
	{"an escape beyond Unicode", "a: \"\\U00110000\"\n", false},
	{"an escaped surrogate", "a: \"\\ud83c\"\n", false},
	{"an escape cut short", "a: \"\\U0001F3\"\n", false},
	{"quoted keys", "\"yes\": 1\n'n': 2\n\"\": 3\n'it''s': 4\n\"a\\\"b\\u00e9\": 5\n\"c\": # comment\n  d: 6\n- \"e\": 7\n", false},
	{"quoted keys, in a mapping and a sequence", "\"yes\": 1\n'n': 2\n\"\": 3\n'it''s': 4\n\"a\\\"b\\u00e9\": 5\n\"c\": # comment\n  d: 6\nl:\n- \"e\": 7\n  'f': 8\n", true},
	{"a quoted key without a space after its colon", "\"a\":b\n", false},
	{"a quoted key spread over lines", "\"a\n  b\": c\n", false},
	{"byte-order mark", "\ufeffa: b\n", false},
	{"next line", "a: b\u0085c\n", false},
	{"line separator", "a: b\u2028c\n", false},
	{"paragraph separator", "a: b\u2029c\n", false},
	{"noncharacters YAML refuses", "a: b\ufffec\n", false},
	{"the last noncharacter of the plane", "a: b\uffffc\n", false},
	{"duplicate keys", "a: 1\na: 2\n", true},
}

// laughs is a document of levels anchored sequences, each of ten aliases of the one before: expanded, it grows
// tenfold with each level (the "billion laughs").
func laughs(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0\n" + strings.Repeat("- x\n", 10))
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d\n%s", i, i, strings.Repeat(fmt.Sprintf("- *l%d\n", i-1), 10))
	}
	return b.String()
}

// nestedMappings is levels mappings, each the value of key "a" in the one before, the innermost holding value.
func nestedMappings(levels int, value string) string {
	var b strings.Builder
	for i := range levels {
		b.WriteString(strings.Repeat("  ", i) + "a:")
		if i < levels-1 {
			b.WriteString("\n")
		}
	}
	return b.String() + " " + value + "\n"
}

func TestTranscodeYAML(t *testing.T) {
	for _, tc := range transcodeCases {
		t.Run(tc.name, func(t *testing.T) {
			out, fast := transcodeYAML([]byte(tc.yaml)[:len(tc.yaml):len(tc.yaml)]) // nothing beyond its end to read
			if fast != tc.fast {
				t.Fatalf("fast = %v, want %v (JSON %s)", fast, tc.fast, out)
			}
			if fast {
				checkTranscoded(t, []byte(tc.yaml), out)
			}
		})
	}
}

// The transcoder reads the strings that sigs.k8s.io/yaml, and so kubectl, writes in forms other than one plain
// line: one document of them that the transcoder left would send a whole List of shoots through the full
// conversion, at a twentieth of its speed.
func TestTranscodesWhatKubectlWrites(t *testing.T) {
	long := "a shoot of the retail team that runs the batch jobs of the night, created by the pipeline of the platform team"
	values := map[string]string{
		"last-applied":    `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot","metadata":{"name":"a"}}` + "\n",
		"lines":           "first\nsecond\n\nfourth",
		"lines-kept":      "first\n\n\n",
		"leading-spaces":  "  indented\nnot",
		"wrapped":         long,
		"wrapped-colon":   "task \"Waiting until shoot infrastructure has been reconciled\" failed: " + long,
		"wrapped-escapes": "tab\there, and " + long,
		"wrapped-unicode": "grüße, " + long,
		"wrapped-dash":    "- " + long,
		"wrapped-spaces":  "spaces   between   words " + strings.Repeat("word   ", 20),
		"emoji":           "🌱 production",
		"wrapped-emoji":   "🌱 " + long,
		"controls":        "bell\a, vertical tab\v, escape\x1b, next line\u0085, separators\u2028\u2029",
	}
	// Keys YAML would read as something else are quoted: a provider's configuration may hold any.
	quotedKeys := map[string]string{"yes": "a", "n": "b", "1": "c", "on": "d", "null": "e", "": "f", "1.30": "g"}
	object, err := stdjson.Marshal(map[string]any{"metadata": map[string]any{"annotations": values}, "items": []any{values},
		"spec": map[string]any{"providerConfig": quotedKeys, "workers": []any{quotedKeys}}})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := yaml.JSONToYAML(object)
	if err != nil {
		t.Fatal(err)
	}
	out, fast := transcodeYAML(doc)
	if !fast {
		t.Fatalf("the transcoder leaves\n%s", doc)
	}
	checkTranscoded(t, doc, out)
}

// FuzzTranscodeYAML checks the transcoder against sigs.k8s.io/yaml's conversion, which it replaces: whatever
// document it reads, the conversion reads too, to the same JSON values (a duplicate key, which the transcoder
// keeps, counts with its last value, as in the conversion).
func FuzzTranscodeYAML(f *testing.F) {
	for _, tc := range transcodeCases {
		f.Add([]byte(tc.yaml))
	}
	for _, item := range exampleDocuments(f) {
		f.Add(item)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if out, fast := transcodeYAML(doc); fast {
			checkTranscoded(t, doc, out)
			if err := model.CheckBudget(doc); err != nil {
				t.Fatalf("%q: transcoded to %s, but the input budget refuses it: %v", doc, out, err)
			}
		}
	})
}

// The transcoder reads a document only within the input budget's nesting, whatever the block style nests: a
// sequence at its key's own column, as kubectl writes a List's items, is a level as one indented below it is.
func TestTranscoderKeepsToTheNestingBudget(t *testing.T) {
	shapes := map[string]func(levels int) string{
		"sequences at the root": func(n int) string { return strings.Repeat("- ", n-1) + "-\n" },
		"a sequence at its key's column": func(n int) string {
			return "items:\n- " + strings.Repeat("- ", n-3) + "-\n"
		},
		"mappings": func(n int) string {
			var b strings.Builder
			for i := range n {
				b.WriteString(strings.Repeat(" ", i) + "k:\n")
			}
			return b.String()
		},
		// An alias nests as deep as its anchor's node where it stands.
		"an alias of a node nesting 30 deep": func(n int) string {
			tall := strings.Replace(nestedMappings(30, "{}"), "a:\n", "a: &x\n", 1)
			return tall + strings.Replace(nestedMappings(n-30, "*x"), "a:", "b:", 1)
		},
		"sequences at their keys' columns": func(n int) string {
			var b strings.Builder
			for i := range n / 2 {
				b.WriteString(strings.Repeat(" ", 2*i) + "k:\n" + strings.Repeat(" ", 2*i) + "- ")
				b.WriteString("\n")
			}
			return b.String()
		},
	}
	for name, shape := range shapes {
		for levels := model.MaxNesting - 3; levels <= model.MaxNesting+2; levels++ {
			doc := []byte(shape(levels))
			_, fast := transcodeYAML(doc)
			if fast && model.CheckBudget(doc) != nil {
				t.Errorf("%s, %d levels: transcoded, but the input budget refuses it: %v", name, levels, model.CheckBudget(doc))
			}
			if !fast && levels < model.MaxNesting {
				t.Errorf("%s, %d levels: not transcoded, though within the budget", name, levels)
			}
		}
	}
}

// transcodeInPartsCases are documents that transcodeInParts splits, or must transcode whole, with the JSON
// transcodeYAML makes of them all the same.
var transcodeInPartsCases = []string{
	"apiVersion: v1\nitems:\n- a: 1\n- b: |+\n    x\n\n# c\n- c\n- - d\n  - e\nkind: List\nmetadata:\n  resourceVersion: \"\"\n",
	"items:\n- a\n- b\n- c\n- d\n",
	"---\nitems:\n- a\n- b\n- c\n- d\nkind: List\n",
	"a: 1\nitems:\n-\n  b: 2\n- 'c\n  d'\n-\n- e\nitems:\n- f\n",
	"items:\n- a\n- b\nkind: x\n- c\n",
	"- a\nitems:\n- b\n- c\n",
	"items:\n  - a\n  - b\n",
	"items:\n- a: b\n   c: d\n- e\n- f\n",
	"items:\n-\n  a: 1\n-\n  b: 2\n-\n-\n  c: 3\n-\nkind: List\n", // entries of a dash alone, the items' first and last
	"items:\n- a\n- *b\n- c\n- d\n",
	// Aliases of anchors in the part before, in their own part, in the entries before the items, and in the
	// entries after them of anchors in the items: each part reads no alias, and the whole reads them all.
	"items:\n- &a x\n- b\n- c\n- *a\n- &d\n  e: f\n- *d\n",
	"head: &h 1\nitems:\n- *h\n- b\n- c\n- d\ntail: *h\n",
	"items:\n- a\n- b\n- c\n- &d d\ntail: *d\n",
	"items:\n" + strings.Repeat("- "+strings.Repeat("- ", model.MaxNesting-2)+"x\n", 4),
	"items:\n" + strings.Repeat("- "+strings.Repeat("- ", model.MaxNesting-1)+"x\n", 4),
	// A second document after an entry the transcoder leaves, which converted on its own would read as one.
	"items:\n- " + strings.Repeat("a", 40) + "\n- b: &x {c: d}\n---\n- e\n- f\n",
	// A key between the entries: the sequence ends there, though an entry's dash follows.
	"items:\n- " + strings.Repeat("a", 40) + "\n- b: &x {c: d}\nkind: x\n- e\n- f\n",
	// An entry as deep as a document may nest, which the List's mapping makes one too deep (found by fuzzing).
	"items:\n- " + strings.Repeat("a", 40) + "\n- " + strings.Repeat("- ", model.MaxNesting-2) + "-\n",
	// An entry that holds a line break other than a line feed, which begins a line that ends the List: a
	// document's end (found by fuzzing), the mapping's next key.
	"items:\n- \r... \n-",
	"items:\n- a\n- b\u0085...\n- c\n- d\n",
	"items:\n- a\n- b\u2028kind: x\n- c\n- d\n",
	"items:\n- a\n- b\u2029---\n- c\n- d\n",
	// An entry that holds a byte order mark, after which go-yaml drops a line's dash while its read buffer begins
	// at the mark (found by fuzzing): at the end of the input, or where the mark ends a 512-byte read, which
	// leaves the whole unreadable. The whole List is converted.
	"items:\n- \ufeff\n-",
	"items:\n- " + strings.Repeat("a", 495) + "\n- \ufeff\n- b\n- b\n- b\n",
}

// Transcoded in parts, a document is what transcodeYAML makes of it whole, byte for byte, and is left where the
// whole is.
func TestTranscodeInParts(t *testing.T) {
	documents := exampleFileDocuments(t)
	for _, doc := range transcodeInPartsCases {
		documents = append(documents, []byte(doc))
	}
	split := 0
	for _, doc := range documents {
		if _, items, _, ok := splitItems(doc); ok && len(entryParts(items, 4)) == 4 {
			split++
		}
		checkTranscodedInParts(t, doc)
	}
	if split < 8 {
		t.Errorf("only %d documents are split into four parts: the parts are hardly tried", split)
	}
}

// splitItems finds a List's items from both ends: the sequence at the first column after "items:", up to the
// first line after its last entry's dash that ends it. Lines at the first column before that dash stay in the
// items, whose parts refuse them and so send the whole document to one transcoder.
func TestSplitItems(t *testing.T) {
	for _, tc := range []struct {
		doc, head, items, tail string
		ok                     bool
	}{
		{"kind: List\nitems:\n- a\n- b\nmetadata: {}\n", "kind: List\n", "- a\n- b\n", "metadata: {}\n", true},
		{"items:\n- a: 1\n  b: |\n    -\n# c\n\n- d\n", "", "- a: 1\n  b: |\n    -\n# c\n\n- d\n", "", true},
		{"items:\n- a\nb: 1\n- c\nkind: List", "", "- a\nb: 1\n- c\n", "kind: List", true},
		{"items:\n- a\nb: 1\n-c: 2\n", "", "- a\n", "b: 1\n-c: 2\n", true},
		{"items:\n- a\n-b: 1\n", "", "- a\n", "-b: 1\n", true},
		{"items:\n-\n", "", "-\n", "", true},
		{"kind: List\n", "", "", "", false},
		{"items:\n", "", "", "", false},
		{"items: []\n", "", "", "", false},
		{"items:\n  - a\n", "", "", "", false},
		{"items:\n- a\n---\nb: 1\n", "", "", "", false},
	} {
		head, items, tail, ok := splitItems([]byte(tc.doc))
		if ok != tc.ok || string(head) != tc.head || string(items) != tc.items || string(tail) != tc.tail {
			t.Errorf("%q: %v %q %q %q, want %v %q %q %q", tc.doc, ok, head, items, tail, tc.ok, tc.head, tc.items, tc.tail)
		}
	}
}

func FuzzTranscodeInParts(f *testing.F) {
	for _, doc := range transcodeInPartsCases {
		f.Add([]byte(doc))
	}
	for _, tc := range transcodeCases {
		f.Add([]byte("items:\n- x\n- " + strings.ReplaceAll(tc.yaml, "\n", "\n  ") + "\n- y\nkind: List\n"))
	}
	// Lists with entries the transcoder leaves, which are converted on their own.
	f.Add([]byte("items:\n- a: &x {b: c}\n- d\n- ? e\n  : f\n- g: !!str 1\n- h\nkind: List\n"))
	f.Add([]byte("items:\n- a: &x {b: c}\n- d\n- e: *x\n- f\nkind: List\n"))
	f.Fuzz(func(t *testing.T, doc []byte) { checkTranscodedInParts(t, doc) })
}

// checkTranscodedInParts compares transcodeInParts, in two, three and seven parts, with transcodeYAML; and,
// converting the entries the transcoder leaves, with the full conversion of the whole, within the whole's budget.
func checkTranscodedInParts(t *testing.T, doc []byte) {
	t.Helper()
	want, wantFast := transcodeYAML(doc)
	for _, parts := range []int{2, 3, 7} {
		if got, fast := transcodeInParts(doc, parts, nil); fast != wantFast || !bytes.Equal(got, want) {
			t.Fatalf("%q in %d parts: %v %s, whole: %v %s", doc, parts, fast, got, wantFast, want)
		}
		got, ok := transcodeInParts(doc, parts, convertEntry)
		if !ok || wantFast {
			continue
		}
		if err := model.CheckBudget(doc); err != nil {
			t.Fatalf("%q in %d parts: read to %s, but the whole is beyond the budget: %v", doc, parts, got, err)
		}
		converted, err := yaml.YAMLToJSON(doc)
		if err != nil {
			t.Fatalf("%q in %d parts: read to %s, but the conversion refuses the whole: %v", doc, parts, got, err)
		}
		if !sameJSON(t, got, converted) {
			t.Fatalf("%q in %d parts: read to %s, the conversion of the whole gives %s", doc, parts, got, converted)
		}
	}
}

// A List's entries that the transcoder leaves are converted one by one, the rest transcoded: one shoot a person
// wrote by hand costs its own conversion, not its List's. What the List's budget counts as a whole — aliases,
// nesting beyond an item's — leaves the List to be read whole: here, by the full decoder.
func TestTranscodeInPartsConvertsWhatItLeaves(t *testing.T) {
	entry := func(i int, extra string) string {
		return fmt.Sprintf("- kind: Shoot\n  metadata:\n    name: s%d\n%s  spec:\n    region: eu-1\n", i, extra)
	}
	list := func(odd map[int]string) []byte {
		var b strings.Builder
		b.WriteString("apiVersion: v1\nitems:\n")
		for i := range 40 {
			b.WriteString(entry(i, odd[i]))
		}
		b.WriteString("kind: List\n")
		return []byte(b.String())
	}
	item := func(depth int) string { // collections nested depth deep in an item: its mapping, metadata and the rest
		return "    deep: " + strings.Repeat("[", depth-2) + "!!str x" + strings.Repeat("]", depth-2) + "\n"
	}
	cases := []struct {
		name string
		odd  map[int]string
		read bool
	}{
		{"an anchor, a flow mapping, a complex key", map[int]string{3: "    labels: &l {a: b, c: [d]}\n", 31: "    annotations:\n      ? k\n      : v\n"}, true},
		{"a tag", map[int]string{17: "    labels: {a: !!str 1}\n"}, true},
		{"an item as deep as an item may nest", map[int]string{20: item(model.MaxNesting - 2)}, true},
		{"an item nested deeper", map[int]string{20: item(model.MaxNesting - 1)}, false},
		{"an alias, counted over the List", map[int]string{3: "    labels: &l {a: !!str b}\n", 4: "    labels: *l\n"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := list(tc.odd)
			if _, fast := transcodeYAML(doc); fast {
				t.Fatal("the transcoder reads the List whole: nothing is converted")
			}
			if _, read := transcodeInParts(doc, 4, convertEntry); read != tc.read {
				t.Fatalf("read %v, want %v", read, tc.read)
			}
			checkTranscodedInParts(t, doc)
		})
	}
}

// An alias in a List's items sends the List to be transcoded whole as soon as a part meets it: its part is not
// transcoded entry by entry first, converting the entry that holds it.
func TestTranscodeInPartsGoesWholeAtAnAlias(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n- metadata:\n    labels: &team\n      team: retail\n")
	for i := range 40 {
		fmt.Fprintf(&b, "- metadata:\n    name: s%d\n", i)
		if i == 30 {
			b.WriteString("    labels: *team\n")
		}
	}
	b.WriteString("kind: List\n")
	doc := []byte(b.String())
	var converted atomic.Int32
	convert := func(entry []byte) ([]byte, bool) {
		converted.Add(1)
		return convertEntry(entry)
	}
	json, read := transcodeInParts(doc, 4, convert)
	if want, _ := transcodeYAML(doc); !read || !bytes.Equal(json, want) {
		t.Fatalf("read %v to %s, the whole to %s", read, json, want)
	}
	if n := converted.Load(); n != 0 {
		t.Errorf("%d entries converted on their own", n)
	}
}

// checkTranscoded compares the transcoder's JSON with the conversion's, as values.
func checkTranscoded(t *testing.T, doc, out []byte) {
	t.Helper()
	want, err := yaml.YAMLToJSON(doc)
	if err != nil {
		t.Fatalf("the conversion refuses %q (%v), the transcoder reads it to %s", doc, err, out)
	}
	if !sameJSON(t, want, out) {
		t.Fatalf("%q: transcoded to %s, the conversion gives %s", doc, out, want)
	}
}

// sameJSON reports whether two JSON texts hold the same value, numbers compared as written.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	for _, x := range []struct {
		text []byte
		into *any
	}{{a, &va}, {b, &vb}} {
		d := stdjson.NewDecoder(bytes.NewReader(x.text))
		d.UseNumber()
		if err := d.Decode(x.into); err != nil {
			t.Fatalf("%s: %v", x.text, err)
		}
	}
	return reflect.DeepEqual(va, vb)
}

// splitYAMLStreams are YAML streams the splitter reads as yamlDocuments does.
var splitYAMLStreams = []string{
	"a: 1\n", "a: 1\n---\nb: 2\n", "---\na: 1\n---\n", "a: 1\n...\nb: 2\n", "...\n", "---\n---\n", "--- # c\na: 1",
	"a: 1\n... # end\n---\nb: 2\n...\n", "\n---\n\n", "a: 1\n---   \nb: 2", "a: '---'\n", "a: 1\n....\n",
	"a: x---y\n---\nb: |\n  ---\n  ...\n", "a: '...'\n...x\n---\n", "---", "...", "a: 1\n---",
}

// TestSplitYAML checks the splitter against yamlDocuments, which it replaces: the same documents, numbered alike.
func TestSplitYAML(t *testing.T) {
	for _, stream := range splitYAMLStreams {
		t.Run(stream, func(t *testing.T) {
			got, ok := splitYAML([]byte(stream))
			if !ok {
				t.Fatal("refused")
			}
			if _, err := yamlDocuments([]byte(stream)); err != nil {
				t.Fatal(err)
			}
			checkSplit(t, []byte(stream), got)
			// With Windows line ends, which the splitter leaves to yamlDocuments, its documents begin on the same lines.
			crlf := []byte(strings.ReplaceAll(stream, "\n", "\r\n"))
			documents, err := yamlDocuments(crlf)
			if err != nil || len(documents) != len(got) {
				t.Fatalf("with Windows line ends: %d documents, %v; want %d", len(documents), err, len(got))
			}
			for i, document := range documents {
				if document.line != got[i].line || !beginsOnItsLine(crlf, document) {
					t.Errorf("with Windows line ends, document %d %q begins on line %d, want %d", i+1, document.text, document.line, got[i].line)
				}
			}
		})
	}
	for _, refused := range []string{"a: 1\r\n", "--- a: 1\n"} {
		if _, ok := splitYAML([]byte(refused)); ok {
			t.Errorf("%q: not refused", refused)
		}
	}
}

// A last line without a line feed is part of its document whatever its length, also where apimachinery's reader
// ends a buffer of 4 KiB exactly at the end of the stream (and drops the line).
func TestYAMLDocumentsKeepTheLastLine(t *testing.T) {
	for _, newline := range []string{"\n", "\r\n"} {
		for _, length := range []int{4095, 4096, 4097, 8192, 12288} {
			head := "a: 1" + newline + "---" + newline + "kind: ConfigMap" + newline + "data:" + newline
			last := "  k: " + strings.Repeat("v", length-len("  k: "))
			documents, err := yamlDocuments([]byte(head + last))
			if err != nil || len(documents) != 2 || !strings.HasSuffix(string(documents[1].text), "data:\n"+last+"\n") {
				t.Errorf("line feeds %q, a last line of %d bytes: %d documents, %v; want it the second's last", newline, length, len(documents), err)
			}
		}
	}
	for _, length := range []int{4095, 4096, 4097, 8192, 12288} {
		line := "k: " + strings.Repeat("v", length-len("k: "))
		if documents, _ := yamlDocuments([]byte(line)); len(documents) != 1 {
			t.Errorf("a stream of one line of %d bytes: %d documents, want 1", length, len(documents))
		}
	}
}

// FuzzSplitYAML checks the splitter against yamlDocuments on what it does not refuse.
func FuzzSplitYAML(f *testing.F) {
	for _, stream := range splitYAMLStreams {
		f.Add([]byte(stream))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		if got, ok := splitYAML(stream); ok {
			checkSplit(t, stream, got)
		}
	})
}

// checkSplit fails unless got are the documents yamlDocuments makes of stream, but for their last line feeds, each
// beginning on the same line, the line of the stream its text begins with.
func checkSplit(t *testing.T, stream []byte, got []yamlDocument) {
	t.Helper()
	want, err := yamlDocuments(stream)
	if err != nil {
		return // a stream the library reader refuses is the decoder's to word
	}
	if len(got) != len(want) {
		t.Fatalf("%q: %d documents %v, want %d %v", stream, len(got), got, len(want), want)
	}
	for i := range got {
		if strings.TrimRight(string(got[i].text), "\n") != strings.TrimRight(string(want[i].text), "\n") {
			t.Errorf("%q: document %d = %q, want %q", stream, i+1, got[i].text, want[i].text)
		}
		if got[i].line != want[i].line || !beginsOnItsLine(stream, got[i]) {
			t.Errorf("%q: document %d %q begins on line %d, yamlDocuments says %d", stream, i+1, got[i].text, got[i].line, want[i].line)
		}
	}
}

// beginsOnItsLine reports whether the document's first line is the stream's line the document says it begins on,
// but for a carriage return before its line feed, which yamlDocuments drops. An empty document begins anywhere.
func beginsOnItsLine(stream []byte, document yamlDocument) bool {
	if len(document.text) == 0 {
		return true
	}
	lines := strings.Split(string(stream), "\n")
	first, _, _ := strings.Cut(string(document.text), "\n")
	return document.line >= 1 && document.line <= len(lines) && strings.TrimSuffix(lines[document.line-1], "\r") == first
}

// FuzzDecodeFast checks the fast object decoder against the strict one: an object it decodes, the strict decoder
// decodes to the same object, without a warning.
func FuzzDecodeFast(f *testing.F) {
	for _, item := range exampleItems(f) {
		f.Add(item)
	}
	for _, tc := range objectDecoderCases {
		f.Add([]byte(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot","metadata":{"name":"a","namespace":"b"}` + comma(tc.members) + `}`))
	}
	f.Add([]byte(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot","metadata":{"name":"a","namespace":"b"},"Spec":{}}`))
	f.Add([]byte(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Shoot","metadata":{"name":"a","namespace":"b","name":"c"}}`))
	f.Add([]byte(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Seed","metadata":{"name":"a"},"spec":{"provider":{"type":1}}}`))
	f.Fuzz(func(t *testing.T, item []byte) {
		documents, ok := readDocuments(item, nil)
		if !ok || len(documents) != 1 || !documents[0].fast || documents[0].h.Kind == "" || isList(documents[0].h) {
			return
		}
		h := documents[0].h
		fast := decodeOne(h, item, model.MaxNesting, nil)
		if fast.typed == nil {
			return
		}
		strict := &Landscape{}
		if err := strict.decodeObjectStrictly("fuzz", item); err != nil {
			t.Fatalf("the fast decoder reads %s, the strict one refuses it: %v", item, err)
		}
		if len(strict.Warnings) > 0 {
			t.Fatalf("the fast decoder reads %s, the strict one warns: %q", item, strict.Warnings)
		}
		if got, want := objectJSON(t, fast.typed), objectJSON(t, onlyObject(t, strict.Objects)); !sameJSON(t, got, want) {
			t.Fatalf("fast %s\nstrict %s", got, want)
		}
	})
}

// objectJSON is an object as JSON, so that raw fields compare by value.
func objectJSON(t *testing.T, o any) []byte {
	t.Helper()
	data, err := stdjson.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// onlyObject is the one object of objs.
func onlyObject(t *testing.T, objs model.Objects) any {
	t.Helper()
	var all []any
	for _, s := range []any{objs.Seeds, objs.Shoots, objs.CloudProfiles, objs.NamespacedCloudProfiles, objs.Projects, objs.ConfigMaps, objs.ManagedSeedSets} {
		v := reflect.ValueOf(s)
		for i := range v.Len() {
			all = append(all, v.Index(i).Interface())
		}
	}
	if len(all) != 1 {
		t.Fatalf("%d objects, want 1", len(all))
	}
	return all[0]
}

// exampleDocuments are the YAML documents of the embedded example landscape, and its first items one by one.
func exampleDocuments(tb testing.TB) [][]byte {
	tb.Helper()
	documents := exampleFileDocuments(tb)
	for _, item := range exampleItems(tb)[:20] {
		converted, err := yaml.JSONToYAML(item)
		if err != nil {
			tb.Fatal(err)
		}
		documents = append(documents, converted)
	}
	return documents
}

// exampleItems are the objects of the embedded example landscape, one JSON document each.
func exampleItems(tb testing.TB) [][]byte {
	tb.Helper()
	var items [][]byte
	for _, doc := range exampleFileDocuments(tb) {
		converted, err := yaml.YAMLToJSON(doc)
		if err != nil {
			tb.Fatal(err)
		}
		var list struct {
			Items []stdjson.RawMessage `json:"items"`
		}
		if err := stdjson.Unmarshal(converted, &list); err != nil {
			tb.Fatal(err)
		}
		for _, item := range list.Items {
			items = append(items, item)
		}
	}
	if len(items) == 0 {
		tb.Fatal("the example has no items")
	}
	return items
}

// exampleFileDocuments are the YAML documents of the embedded example landscape's files, in file order.
func exampleFileDocuments(tb testing.TB) [][]byte {
	tb.Helper()
	var documents [][]byte
	for _, file := range exampleFiles(tb) {
		split, ok := splitYAML(file.data)
		if !ok {
			tb.Fatalf("%s: the splitter refuses it", file.path)
		}
		for _, document := range split {
			documents = append(documents, document.text)
		}
	}
	return documents
}

// exampleFile is a file of the embedded example landscape.
type exampleFile struct {
	path string
	data []byte
}

// exampleFiles are the embedded example landscape's files.
func exampleFiles(tb testing.TB) []exampleFile {
	tb.Helper()
	var files []exampleFile
	err := fs.WalkDir(examples.Landscape, "landscape", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(examples.Landscape, path)
		files = append(files, exampleFile{path, data})
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// TestFastPathReadsTheExample checks that the example landscape, as YAML and as JSON, takes the fast path
// everywhere and loads to the objects the strict path loads.
func TestFastPathReadsTheExample(t *testing.T) {
	for _, file := range exampleFiles(t) {
		path := file.path
		documents, ok := splitYAML(file.data)
		if !ok {
			t.Fatalf("%s: the splitter refuses it", path)
		}
		strict := &Landscape{}
		for i, document := range documents {
			doc := document.text
			converted, err := yaml.YAMLToJSON(doc)
			if err != nil {
				t.Fatal(err)
			}
			if err := strict.decodeObjectStrictly(path, converted); err != nil {
				t.Fatal(err)
			}
			transcoded, fast := transcodeYAML(doc)
			if !fast && !strings.Contains(path, "region-configs") { // region ConfigMaps hold literal blocks
				t.Fatalf("%s: document %d takes the full YAML path", path, i+1)
			}
			if fast {
				checkTranscoded(t, doc, transcoded)
			}
			compact, err := stdjson.Marshal(stdjson.RawMessage(converted))
			if err != nil {
				t.Fatal(err)
			}
			for _, form := range [][]byte{converted, compact} {
				documents, ok := readDocuments(form, nil)
				if !ok || len(documents) != 1 || !documents[0].fast || !isList(documents[0].h) {
					t.Fatalf("%s: document %d: no List header", path, i+1)
				}
				h := documents[0].h
				for j, item := range documents[0].items.all() {
					ih, ok := itemHeader(item.raw, h)
					if !ok {
						t.Fatalf("%s: item %d: no header", path, j)
					}
					if d := decodeOne(ih, item.raw, model.MaxNesting-2, nil); d.typed == nil {
						t.Fatalf("%s: item %d takes the strict path", path, j)
					}
				}
			}
		}
		fast, err := LoadFS(examples.Landscape, path)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := objectJSON(t, fast.Objects), objectJSON(t, strict.Objects); !sameJSON(t, got, want) {
			t.Fatalf("%s: the fast path loads other objects than the strict one", path)
		}
	}
}

// What the fast path does not read, the strict path words as it always did: the warnings and errors of typed and
// untyped List items, in YAML and JSON. A duplicate YAML key, which sigs.k8s.io/yaml's conversion dropped without
// a word, is now a warning, as it always was in JSON; the last value counts in both. A List's repeated field is an
// error.
func TestTheStrictPathWordsWhatTheFastPathLeaves(t *testing.T) {
	for _, tc := range []struct {
		name, data, warning, err string
	}{
		{"an unknown field in a SeedList item without kind",
			"apiVersion: core.gardener.cloud/v1beta1\nkind: SeedList\nitems:\n- metadata:\n    name: a\n  spec:\n    provider:\n      type: aws\n      region: r\n    networks:\n      pods: 10.0.0.0/16\n      services: 10.1.0.0/16\n    bogus: 1\n",
			`in.yaml: document 1: SeedList item 0: Seed a: ignoring unknown field "spec.bogus"`, ""},
		{"a key in other case in a List item",
			"apiVersion: v1\nkind: List\nitems:\n- apiVersion: core.gardener.cloud/v1beta1\n  kind: Project\n  metadata:\n    name: dev\n  Spec:\n    namespace: garden-dev\n",
			`in.yaml: document 1: List item 0: Project dev: ignoring unknown field "Spec"`, ""},
		{"a wrong type in a ShootList item, JSON",
			`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"ShootList","items":[{"metadata":{"name":"s","namespace":"garden-dev"},"spec":{"region":"r","provider":{"type":"aws","workers":"x"}}}]}`,
			"", "in.yaml: document 1: ShootList item 0: Shoot garden-dev/s: field spec.provider.workers: must be a list, not a string"},
		{"a null item of a typed List (it crashed every version before)",
			"apiVersion: core.gardener.cloud/v1beta1\nkind: SeedList\nitems:\n-", "", "in.yaml: document 1: SeedList item 0: empty (null), not an object"},
		{"a duplicate key",
			"apiVersion: core.gardener.cloud/v1beta1\nkind: CloudProfile\nmetadata:\n  name: aws\n  name: aws2\nspec:\n  type: aws\n",
			`in.yaml: document 1: CloudProfile aws2: ignoring duplicate field "metadata.name"`, ""},
		// A List's repeated field is refused: only its last value would be read, and the items of every other
		// List but the last lost without a word (cat seeds.yaml shoots.yaml, each file a List).
		{"Lists joined without a document separator",
			"apiVersion: v1\nkind: List\nitems:\n- apiVersion: core.gardener.cloud/v1beta1\n  kind: Project\n  metadata: {name: a}\n  spec: {namespace: garden-a}\n" +
				"apiVersion: v1\nkind: List\nitems:\n- apiVersion: core.gardener.cloud/v1beta1\n  kind: Project\n  metadata: {name: b}\n  spec: {namespace: garden-b}\n",
			"", "in.yaml: document 1: List: field apiVersion: given 2 times (documents in one file are separated by ---)"},
		{"a List's items that are no list",
			"apiVersion: v1\nkind: List\nitems: {}\n", "", "in.yaml: document 1: List: field items: must be a list, not an object"},
		{"a List's metadata, read by neither path (a repeated name in it leaves it to the strict one)",
			"apiVersion: v1\nkind: List\nmetadata: {resourceVersion: \"\", resourceVersion: \"1\"}\nitems: []\n", "", ""},
		// A field no List has is warned of, as an object's: a misspelt items leaves every object out.
		{"a misspelt items",
			"apiVersion: v1\nkind: List\nitmes:\n- apiVersion: core.gardener.cloud/v1beta1\n  kind: Project\n  metadata: {name: a}\n  spec: {namespace: garden-a}\n",
			`in.yaml: document 1: List: ignoring unknown field "itmes"`, ""},
		{"a field no List has, JSON",
			`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"SeedList","extra":2,"items":[]}`, `in.yaml: document 1: SeedList: ignoring unknown field "extra"`, ""},
		{"a typed List's items given three times, JSON",
			`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"ProjectList","items":[],"metadata":{},"items":[{"metadata":{"name":"a"},"spec":{"namespace":"garden-a"}}],"items":[]}`,
			"", "in.yaml: document 1: ProjectList: field items: given 3 times (documents in one file are separated by ---)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &Landscape{}
			err := l.Decode("in.yaml", []byte(tc.data))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.err != "" && (err == nil || err.Error() != tc.err):
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			var want []string
			if tc.warning != "" {
				want = []string{tc.warning}
			}
			if tc.err == "" && !slices.Equal(l.Warnings, want) {
				t.Fatalf("warnings %q, want %q", l.Warnings, want)
			}
		})
	}
}

// The transcoder refuses a document for its aliases' expansions just where the conversion does ("document
// contains excessive aliasing"): it counts nodes as go.yaml.in/yaml/v2 does, and checks where the share of
// expanded nodes may pass what the decoder allows. Within the input budget, that bound is met only by documents
// of millions of nodes, where the allowance falls: the transcoder finds where it refuses, and the conversion is
// asked on either side.
func TestTranscoderKeepsToTheDecodersBoundOnAliasing(t *testing.T) {
	if RaceDetector {
		t.Skip("one goroutine transcodes a document: nothing for the race detector, and its bisection takes a minute under it")
	}
	// fillers nulls, then an anchored sequence of 1,000 nulls and 1,000 aliases of it: the more fillers, the
	// smaller the expansions' share, but the smaller too the share the decoder allows of the nodes there are.
	doc := func(fillers int) []byte {
		var b bytes.Buffer
		b.WriteString("f:\n" + strings.Repeat("-\n", fillers))
		b.WriteString("a: &x\n" + strings.Repeat("-\n", 1000))
		for i := range 1000 {
			fmt.Fprintf(&b, "b%d: *x\n", i)
		}
		return b.Bytes()
	}
	reads := func(fillers int) bool {
		_, fast := transcodeYAML(doc(fillers))
		return fast
	}
	read, refused := 2_000_000, 2_600_000
	if !reads(read) || reads(refused) {
		t.Fatalf("read with %d fillers: %v, with %d: %v; want true, false", read, reads(read), refused, reads(refused))
	}
	for refused-read > 1 {
		if middle := (read + refused) / 2; reads(middle) {
			read = middle
		} else {
			refused = middle
		}
	}
	if _, err := yaml.YAMLToJSON(doc(read)); err != nil {
		t.Errorf("%d fillers: the transcoder reads the document, the conversion refuses it: %v", read, err)
	}
	if _, err := yaml.YAMLToJSON(doc(refused)); err == nil || !strings.Contains(err.Error(), "excessive aliasing") {
		t.Errorf("%d fillers: the transcoder refuses the document, the conversion: %v", refused, err)
	}
}

// The decoder checks the share of expanded nodes at every node, not only at the end: aliases that come first are
// refused where they are, however many plain nodes follow and lower the share again; the same nodes with the plain
// ones first, of the same size and so within the same input budget, are read by both.
func TestTranscoderRefusesAliasingWhereItPeaks(t *testing.T) {
	aliases, fillers := &strings.Builder{}, "f:\n"+strings.Repeat("-\n", 200_000)
	aliases.WriteString("a: &x\n" + strings.Repeat("-\n", 1000)) // an anchored sequence of 1,000 nulls
	for i := range 300 {
		fmt.Fprintf(aliases, "b%d: *x\n", i)
	}
	for _, tc := range []struct {
		name string
		doc  string
		read bool
	}{
		{"aliases first", aliases.String() + fillers, false},
		{"plain nodes first", fillers + aliases.String(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := yaml.YAMLToJSON([]byte(tc.doc))
			if converted := err == nil; converted != tc.read || !tc.read && !strings.Contains(err.Error(), "excessive aliasing") {
				t.Fatalf("conversion: %v, want read %v", err, tc.read)
			}
			if _, fast := transcodeYAML([]byte(tc.doc)); fast != tc.read {
				t.Errorf("transcoder reads it: %v, want %v", fast, tc.read)
			}
		})
	}
}
