package ingest

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	"github.com/seedplan/seedplan/model"
)

// transcodeYAML converts one YAML document to JSON in a single pass over its lines, without building a tree. It
// reads the block style that kubectl, Gardener and seedplan's generator write — block mappings and sequences,
// plain and quoted scalars, literal blocks, comments — and what people write by hand in it too: flow collections
// on one line, anchors and aliases. It reports false for anything else (tags, merge keys, folded blocks, flow
// collections over lines, tabs, carriage returns, unusual characters, nesting or aliasing beyond the input
// budget): such a document takes the full YAML decoder instead, which words every error. Where it reports true,
// its JSON means what sigs.k8s.io/yaml's conversion means (FuzzTranscodeYAML checks it against that conversion),
// though keys keep their order.
func transcodeYAML(doc []byte) ([]byte, bool) {
	json, ok, _ := transcode(nil, doc, wholeDocument)
	return json, ok
}

// transcodeItems is transcodeYAML for a part of a List's items, a sequence at the first column (transcodeInParts),
// or one entry of it: inside the List's mapping, it may nest one level less deep than a document of its own.
func transcodeItems(part []byte) ([]byte, bool) {
	json, ok, _ := transcode(nil, part, itemsPart)
	return json, ok
}

// placing is where the YAML a transcoder reads stands in its document.
type placing int

const (
	wholeDocument placing = iota // a document of its own
	itemsPart                    // a part of a List's items, or one entry of them
	entriesPart                  // a List's entries before or after its items
)

// depth is how many levels deep YAML so placed is nested in its document.
func (p placing) depth() int {
	if p == itemsPart {
		return 1
	}
	return 0
}

// part reports whether YAML so placed is a part of a document: its aliases may name anchors before it, and the
// document's aliasing is bounded as a whole, so it reads none.
func (p placing) part() bool { return p != wholeDocument }

// transcode is transcodeYAML for doc placed in its document as at says, writing the JSON into out's array, from
// its start, where it has room (decodeYAML reuses an arena's). aliased reports that a part was left at an alias,
// which only its whole document can read.
func transcode(out, doc []byte, at placing) (json []byte, ok, aliased bool) {
	if !plainText(doc) {
		return nil, false, false
	}
	if cap(out) < len(doc)+len(doc)/4 {
		out = make([]byte, 0, len(doc)+len(doc)/4)
	}
	t := transcoder{src: doc, out: out[:0], depth: at.depth(), part: at.part(), nodes: 1} // the document is a node
	if !t.next() || t.indent == 0 && isDocumentStart(t.src[t.start:t.end]) && !t.next() {
		return []byte("null"), true, false // only comments
	}
	if t.indent != 0 || !t.node(0, -1) || !t.done || t.excessiveAliasing(true) {
		return nil, false, t.partAlias
	}
	return t.out, true, false
}

// otherLineBreaks are the characters YAML 1.1 breaks a line at besides the line feed: the carriage return, NEL, and
// Unicode's line and paragraph separators. The transcoder refuses them (plainText); code that cuts YAML at line
// feeds cannot see the lines they begin (endsSequence).
const otherLineBreaks = "\r\u0085\u2028\u2029"

// plainText reports whether the document has only characters the transcoder reads as YAML does: no control
// characters but the line feed (so no tabs or carriage returns), no byte-order mark, valid UTF-8 without the
// characters YAML treats as line breaks or refuses.
func plainText(doc []byte) bool {
	for i := 0; i < len(doc); {
		if i+8 <= len(doc) && plainASCII(binary.LittleEndian.Uint64(doc[i:])) {
			i += 8
			continue
		}
		size, plain := plainCharacter(doc[i:])
		if !plain {
			return false
		}
		i += size
	}
	return true
}

// plainCharacter reports whether the character text begins with is one plainText allows, and its size.
func plainCharacter(text []byte) (size int, plain bool) {
	if c := text[0]; c < utf8.RuneSelf {
		return 1, c >= ' ' && c != 0x7f || c == '\n'
	}
	r, size := utf8.DecodeRune(text)
	return size, r != utf8.RuneError && r > 0x9f && r != 0x2028 && r != 0x2029 && r != 0xfeff && (r < 0xfffe || r > 0xffff)
}

// transcoder holds the document and the line being read: its indentation and content, which a sequence entry's
// "- " narrows to what follows it (the entry's node starts there, at a column of its own).
type transcoder struct {
	src []byte
	out []byte
	// next is where the next line starts.
	nextLine int
	// indent is the column of the current line's content, start and end its bounds in src.
	indent, start, end int
	// done is set when there is no line left.
	done bool
	// depth is how many levels deep the node being read is; deepest is the deepest level read since the node of
	// the innermost anchor being read began (anchor), for how deep it nests.
	depth, deepest int
	// part is set for a part of a document, which reads no alias (placing); partAlias once it has met one.
	part, partAlias bool
	// anchors are the nodes anchored so far, for the aliases after them; open are the names of those being read.
	anchors map[string]anchoredNode
	open    []string
	// nodes counts the nodes read as the full decoder counts them, aliased those it counts in aliases' expansions,
	// and expanded is the bytes the expansions stand for: the decoder's bound on aliasing and the input budget's
	// are kept without expanding anything twice.
	nodes, aliased, expanded int
}

// anchoredNode is what an alias repeats of the node its anchor names: its JSON, between two offsets in the
// transcoder's output, and what it counts towards the bounds on aliasing.
type anchoredNode struct {
	from, to int
	// nodes counts its nodes, height the levels it nests below where it stands, and size bounds the bytes the
	// input budget counts of it (textSize). Each with its aliases expanded.
	nodes, height, size int
}

// next moves to the next line with content, skipping blank and comment lines; false at the end.
func (t *transcoder) next() bool {
	for t.nextLine < len(t.src) {
		lineStart := t.nextLine
		var lineEnd int
		lineEnd, t.nextLine = lineBounds(t.src, lineStart)
		i := skipSpaces(t.src[:lineEnd], lineStart)
		if i == lineEnd || t.src[i] == '#' {
			continue
		}
		t.indent, t.start, t.end = i-lineStart, i, lineEnd
		return true
	}
	t.done = true
	return false
}

// node transcodes the block node whose first line is the current one, at column indent; owner is the column of
// the key or dash the node belongs to (-1 at the root), which a following line must not exceed once a scalar
// ends.
func (t *transcoder) node(indent, owner int) bool {
	if !t.enter() {
		return false
	}
	defer t.leave()
	line := t.src[t.start:t.end]
	switch {
	case isDash(line):
		return t.sequence(indent)
	case bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("...")) || line[0] == '%':
		return false
	}
	if _, _, _, isEntry := splitEntry(line); isEntry {
		return t.mapping(indent)
	}
	// A scalar on a line of its own: only where a dash put it, as "- value", or below a dash or key.
	if owner < 0 || indent == owner {
		return false
	}
	if line[0] == '&' || line[0] == '*' {
		return t.property(line, owner, false)
	}
	return t.inline(line, owner)
}

// enter goes a level deeper, into a block node or a flow collection, if the nesting budget allows it; leave comes
// back out.
func (t *transcoder) enter() bool {
	if t.depth == model.MaxNesting {
		return false
	}
	t.depth++
	t.deepest = max(t.deepest, t.depth)
	return true
}

// leave undoes enter.
func (t *transcoder) leave() { t.depth-- }

// below transcodes the node on the lines below a key or dash whose line ends without one ("key:", "-",
// "key: &anchor"): a node indented beyond owner's column, a sequence at a key's own column (keyed), or null. A
// node an anchor above gave its property (anchored) may begin with no other, nor be an alias.
func (t *transcoder) below(owner int, keyed, anchored bool) bool {
	if !t.next() || t.indent < owner || t.indent == owner && !(keyed && isDash(t.src[t.start:t.end])) {
		t.nodes++
		t.out = append(t.out, "null"...)
		return true
	}
	if c := t.src[t.start]; anchored && (c == '&' || c == '*') {
		return false
	}
	// A sequence at the key's own column is a node of its own as one below it is, which the budget counts.
	return t.node(t.indent, owner)
}

// isDocumentStart reports whether the line is "---", perhaps followed by a comment: the start of a document,
// which the splitter leaves in the document that follows it.
func isDocumentStart(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := line[skipSpaces(line, 3):]
	return len(rest) == 0 || rest[0] == '#' && len(rest) < len(line)-3
}

// isDash reports whether the line — alone, or the rest of a document from its start — is a sequence entry: "-"
// alone or followed by a space.
func isDash(line []byte) bool {
	return line[0] == '-' && (len(line) == 1 || line[1] == ' ' || line[1] == '\n')
}

// sequence transcodes the entries at column indent.
func (t *transcoder) sequence(indent int) bool {
	t.nodes++
	t.out = append(t.out, '[')
	for first := true; !t.done && t.indent == indent && isDash(t.src[t.start:t.end]); first = false {
		if !first {
			t.out = append(t.out, ',')
		}
		rest := skipSpaces(t.src[:t.end], t.start+1)
		if rest == t.end || t.src[rest] == '#' && t.src[rest-1] == ' ' {
			// "-" alone: the entry's node is on the lines below, or it is null.
			if !t.below(indent, false, false) {
				return false
			}
			continue
		}
		// "- node": the node starts after the dash, at its own column.
		t.indent += rest - t.start
		t.start = rest
		if !t.node(t.indent, indent) {
			return false
		}
	}
	if !t.done && t.indent > indent {
		return false
	}
	t.out = append(t.out, ']')
	return true
}

// mapping transcodes the entries at column indent.
func (t *transcoder) mapping(indent int) bool {
	t.nodes++
	t.out = append(t.out, '{')
	for first := true; !t.done && t.indent == indent; first = false {
		line := t.src[t.start:t.end]
		if isDash(line) {
			return false // a sequence entry where a key belongs
		}
		key, value, quoted, isEntry := splitEntry(line)
		if !isEntry || !quoted && !t.key(key) {
			return false
		}
		if !first {
			t.out = append(t.out, ',')
		}
		t.nodes++
		t.out = appendJSONString(t.out, key)
		t.out = append(t.out, ':')
		var ok bool
		switch {
		case len(value) == 0 || value[0] == '#':
			ok = t.below(indent, true, false) // "key:" alone
		case value[0] == '&' || value[0] == '*':
			ok = t.property(value, indent, true)
		default:
			ok = t.inline(value, indent)
		}
		if !ok {
			return false
		}
	}
	if !t.done && t.indent > indent {
		return false
	}
	t.out = append(t.out, '}')
	return true
}

// key checks a mapping key: a string that YAML does not read as something else (a boolean, null, a number), and
// not longer than longestKey.
func (t *transcoder) key(key []byte) bool {
	if len(key) == 0 || len(key) > longestKey || key[len(key)-1] == ' ' {
		return false
	}
	_, special := resolvedWord(key)
	return !special && !numberLike(key[0]) && !bytes.Equal(key, []byte("<<"))
}

// longestKey is the longest mapping key the transcoder reads: YAML's are at most 1024 characters, counted in a
// way of its own; Kubernetes' keys (label keys, field names) are at most 317 bytes.
const longestKey = 512

// splitEntry splits "key: value" (or "key:" at the end of the line) into the key and the value with its leading
// spaces removed; isEntry is false when the line is not a mapping entry with a plain key or one quoted on its line
// (quoted).
func splitEntry(line []byte) (key, value []byte, quoted, isEntry bool) {
	if line[0] == '"' || line[0] == '\'' {
		key, value, isEntry = quotedEntry(line)
		return key, value, true, isEntry
	}
	if !plainStart(line) {
		return nil, nil, false, false
	}
	for i := 1; i < len(line); i++ {
		switch line[i] {
		case ':':
			if i+1 == len(line) || line[i+1] == ' ' {
				return line[:i], line[skipSpaces(line, i+1):], false, true
			}
		case '#':
			if line[i-1] == ' ' {
				return nil, nil, false, false
			}
		}
	}
	return nil, nil, false, false
}

// quotedEntry splits a mapping entry whose key is quoted on its line — sigs.k8s.io/yaml quotes a key that YAML
// would read as something else: "yes", "n", "1", "" — into the key's text and the value, as splitEntry does.
func quotedEntry(line []byte) (key, value []byte, isEntry bool) {
	key, colon, ok := quotedKey(line)
	if !ok || colon == len(line) || line[colon] != ':' || colon+1 < len(line) && line[colon+1] != ' ' {
		return nil, nil, false
	}
	return key, line[skipSpaces(line, colon+1):], true
}

// quotedKey reads a key quoted at the start of line, as unquote does, if it is no longer than longestKey.
func quotedKey(line []byte) (key []byte, end int, ok bool) {
	key, end, ok = unquote(line)
	return key, end, ok && len(key) <= longestKey
}

// unquote reads the quoted scalar that line begins with, which ends on the line: its text, and where it ends,
// after its closing quote.
func unquote(line []byte) (text []byte, end int, ok bool) {
	closing := quotedEnd(line)
	if closing < 0 {
		return nil, 0, false
	}
	for i := 1; i < closing; i++ {
		switch {
		case line[0] == '\'' && line[i] == '\'':
			text = append(text, '\'')
			i++ // two quotes stand for one
		case line[0] == '"' && line[i] == '\\':
			if text, i, ok = appendEscape(text, line, i+1); !ok {
				return nil, 0, false
			}
		default:
			text = append(text, line[i])
		}
	}
	return text, closing + 1, true
}

// quotedEnd is where the quoted scalar that line begins with ends, at its closing quote, or -1 if it does not end
// on the line.
func quotedEnd(line []byte) int {
	quote := line[0]
	for i := 1; i < len(line); i++ {
		switch {
		case quote == '"' && line[i] == '\\':
			i++
		case line[i] == quote && quote == '\'' && i+1 < len(line) && line[i+1] == '\'':
			i++
		case line[i] == quote:
			return i
		}
	}
	return -1
}

// plainStart reports whether s may begin a plain scalar that the transcoder reads: not an indicator character.
func plainStart(s []byte) bool {
	switch s[0] {
	case '-', '?', ':':
		return len(s) > 1 && s[1] != ' '
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	return true
}

// flowCollection transcodes the flow sequence or mapping at line[at] — "[a, 'b', {c: d}]" — if it ends on the line
// and holds only scalars on it and flow collections; end is where it ends. Anything else in one (an empty entry, a
// pair in a sequence, a key without a value, a property or a tag) is left to the full path. A collection is a
// level deeper than the one it is in.
func (t *transcoder) flowCollection(line []byte, at int) (end int, ok bool) {
	if !t.enter() {
		return 0, false
	}
	defer t.leave()
	mapping, closing := line[at] == '{', byte(']')
	if mapping {
		closing = '}'
	}
	t.out = append(t.out, line[at])
	i := skipSpaces(line, at+1)
	for first := true; ; first = false {
		switch {
		case i == len(line):
			return 0, false // it goes on below
		case line[i] == closing:
			t.out = append(t.out, closing)
			return i + 1, true
		case !first:
			if line[i] != ',' {
				return 0, false
			}
			if i = skipSpaces(line, i+1); i == len(line) || line[i] == ',' || line[i] == closing {
				return 0, false // an empty entry, or a comma before the end
			}
			t.out = append(t.out, ',')
		}
		if mapping {
			i, ok = t.flowPair(line, i)
		} else {
			i, ok = t.flowNode(line, i)
		}
		if !ok {
			return 0, false
		}
		i = skipSpaces(line, i)
	}
}

// flowPair transcodes a flow mapping's "key: value" at line[i], and is where it ends.
func (t *transcoder) flowPair(line []byte, i int) (int, bool) {
	var key []byte
	if line[i] == '"' || line[i] == '\'' {
		text, end, ok := quotedKey(line[i:])
		if !ok {
			return 0, false
		}
		key, i = text, i+end
	} else {
		end := flowPlainEnd(line, i)
		if key = bytes.TrimRight(line[i:end], " "); !flowPlain(line, i) || !t.key(key) {
			return 0, false
		}
		i = end
	}
	if i+1 >= len(line) || line[i] != ':' || line[i+1] != ' ' {
		return 0, false
	}
	if i = skipSpaces(line, i+1); i == len(line) || line[i] == ',' || line[i] == '}' {
		return 0, false // a key without a value
	}
	t.nodes++
	t.out = appendJSONString(t.out, key)
	t.out = append(t.out, ':')
	return t.flowNode(line, i)
}

// flowNode transcodes the node at line[i] in a flow collection — a flow collection, a quoted scalar on the line,
// or a plain scalar — and is where it ends.
func (t *transcoder) flowNode(line []byte, i int) (int, bool) {
	t.nodes++
	switch line[i] {
	case '[', '{':
		return t.flowCollection(line, i)
	case '"', '\'':
		text, end, ok := unquote(line[i:])
		if !ok {
			return 0, false
		}
		t.out = appendJSONString(t.out, text)
		return i + end, true
	}
	end := flowPlainEnd(line, i)
	text := bytes.TrimRight(line[i:end], " ")
	if !flowPlain(line, i) || len(text) == 0 || string(text) == "-" {
		return 0, false
	}
	return end, t.plain(text)
}

// flowPlain reports whether a plain scalar in a flow collection may begin at line[i]: YAML 1.1, which
// go.yaml.in/yaml/v2 reads, takes "?" and ":" there for a key's and a value's indicators.
func flowPlain(line []byte, i int) bool {
	return plainStart(line[i:]) && line[i] != '?' && line[i] != ':'
}

// flowPlainEnd is where a plain scalar that begins at line[i] in a flow collection ends, as YAML 1.1 reads it: at
// a flow indicator or "?", a colon before a space, or a comment.
func flowPlainEnd(line []byte, i int) int {
	for j := i; j < len(line); j++ {
		switch line[j] {
		case ',', '?', '[', ']', '{', '}':
			return j
		case ':':
			if j+1 == len(line) || line[j+1] == ' ' {
				return j
			}
		case '#':
			if j > i && line[j-1] == ' ' {
				return j
			}
		}
	}
	return len(line)
}

// skipSpaces is where the first byte at or after i that is not a space is, or len(line).
func skipSpaces(line []byte, i int) int {
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}

// property transcodes a value that an anchor begins ("&name value", or "&name" with the node on the lines below)
// or that is an alias ("*name"), on the line of its key or dash, or of its own below one: at owner's column,
// keyed for a key's.
func (t *transcoder) property(value []byte, owner int, keyed bool) bool {
	name, rest, ok := propertyName(value)
	if !ok {
		return false
	}
	if value[0] == '*' {
		return len(rest) == 0 && t.alias(name) && (!t.next() || t.indent <= owner)
	}
	if len(rest) == 0 {
		return t.anchor(name, func() bool { return t.below(owner, keyed, true) })
	}
	if _, _, _, isEntry := splitEntry(rest); isEntry {
		return false // "&name key: value" anchors the key
	}
	return t.anchor(name, func() bool { return t.inline(rest, owner) })
}

// propertyName reads an anchor or alias: its name, of the characters YAML allows in one (letters, digits, "-"
// and "_"), and what follows it on the line after the spaces, nothing if that is a comment.
func propertyName(value []byte) (name, rest []byte, ok bool) {
	i := 1
	for i < len(value) && anchorCharacter(value[i]) {
		i++
	}
	if i == 1 || i < len(value) && value[i] != ' ' {
		return nil, nil, false
	}
	rest = value[skipSpaces(value, i):]
	if len(rest) > 0 && rest[0] == '#' {
		rest = nil
	}
	return value[1:i], rest, true
}

// anchorCharacter reports whether c may be part of an anchor's name.
func anchorCharacter(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-'
}

// anchor transcodes the node read names, and keeps it for the aliases of it that follow, in a whole document.
// An alias in the node to its own anchor, or one of the same name anchored inside it, is the full decoder's.
func (t *transcoder) anchor(name []byte, read func() bool) bool {
	if slices.Contains(t.open, string(name)) {
		return false
	}
	t.open = append(t.open, string(name))
	deepest, lineStart := t.deepest, t.start
	node := anchoredNode{from: len(t.out), nodes: t.nodes, size: t.expanded}
	t.deepest = t.depth
	ok := read()
	t.open = t.open[:len(t.open)-1]
	if !ok {
		return false
	}
	end := len(t.src)
	if !t.done {
		end = t.start
	}
	node.to, node.nodes = len(t.out), t.nodes-node.nodes
	node.size, node.height = textSize(end-lineStart)+t.expanded-node.size, t.deepest-t.depth
	t.deepest = max(deepest, t.deepest)
	if !t.part {
		if t.anchors == nil {
			t.anchors = make(map[string]anchoredNode)
		}
		t.anchors[string(name)] = node
	}
	return true
}

// alias writes the JSON of the node an anchor before it names, where the full decoder would expand it: within
// the nesting budget, the input budget of expanded bytes and the decoder's bound on aliasing.
func (t *transcoder) alias(name []byte) bool {
	if t.part {
		t.partAlias = true
		return false
	}
	node, known := t.anchors[string(name)]
	if !known || slices.Contains(t.open, string(name)) || t.depth+node.height > model.MaxNesting {
		return false
	}
	t.out = append(t.out, t.out[node.from:node.to]...)
	t.nodes += 1 + node.nodes
	t.aliased += node.nodes
	t.expanded += node.size
	t.deepest = max(t.deepest, t.depth+node.height)
	return int64(textSize(len(t.src))+t.expanded) <= model.ExpandedLimit(len(t.src)) && !t.excessiveAliasing(false)
}

// textSize bounds the bytes the input budget counts of YAML text of n bytes — its scalars' bytes and one per
// collection — at half as much again: no escape of two characters stands for more than three bytes.
func textSize(n int) int {
	return n + (n+1)/2
}

// excessiveAliasing reports whether the full decoder refuses the document for how much of it aliases' expansions
// are, with the nodes counted so far (atEnd: all of them). go.yaml.in/yaml/v2, which sigs.k8s.io/yaml converts
// with, checks the share at every node, allowing 99% of up to 400,000 nodes, 10% from 4,000,000 on, and a share
// falling evenly in between. Within an expansion the share only grows; between two, it is highest at one of them,
// or where the allowance stops falling, at 4,000,000 nodes: there it is taken with every expansion counted.
func (t *transcoder) excessiveAliasing(atEnd bool) bool {
	const low, high = 400_000, 4_000_000
	excessive := func(nodes int) bool {
		allowed := 0.99 - 0.89*float64(min(max(nodes-low, 0), high-low))/(high-low)
		return t.aliased > 100 && nodes > 1000 && float64(t.aliased)/float64(nodes) > allowed
	}
	return excessive(t.nodes) || atEnd && t.nodes > high && excessive(high)
}

// inline transcodes a value written on the current line (after "key: " or "- "), then moves to the next line,
// which must not continue the value: its column is at most owner's.
func (t *transcoder) inline(value []byte, owner int) bool {
	t.nodes++
	var ok bool
	switch value[0] {
	case '"':
		ok = t.doubleQuoted(value, owner)
	case '\'':
		ok = t.singleQuoted(value, owner)
	case '[', '{':
		var end int
		end, ok = t.flowCollection(value, 0)
		ok = ok && len(trimComment(value[end:])) == 0
	case '|':
		ok = t.literal(value, owner)
	default:
		var text []byte
		if ok = plainStart(value); ok {
			text, ok = t.plainLines(value, owner)
		}
		ok = ok && t.plain(text)
	}
	if !ok {
		return false
	}
	return !t.next() || t.indent <= owner
}

// plainLines is the plain scalar that starts with first and goes on over the lines below indented beyond owner:
// sigs.k8s.io/yaml, and so kubectl, wraps long strings so. YAML folds each line break between them into a space.
// ok is false where a line goes on in a form the transcoder leaves (an indicator, a comment, a sequence entry).
// A blank or comment line ends the scalar here; a line beyond owner after it is then refused by the caller.
func (t *transcoder) plainLines(first []byte, owner int) (text []byte, ok bool) {
	text = trimComment(first)
	if len(text) < len(bytes.TrimRight(first, " ")) {
		return text, true // a comment ends the scalar
	}
	for copied := false; ; copied = true {
		line, indent, next, ok := t.rawLine()
		if !ok || indent == len(line) || indent <= owner || line[indent] == '#' {
			break
		}
		content := bytes.TrimRight(line[indent:], " ")
		if !plainStart(content) || isDash(content) || len(trimComment(content)) < len(content) {
			return nil, false
		}
		if !copied {
			text = append([]byte(nil), text...) // text is still part of the document
		}
		text = append(append(text, ' '), content...)
		t.nextLine = next
	}
	return text, true
}

// literal transcodes a literal block scalar ("|") whose header is on the current line: its lines are those below
// indented beyond owner, and the empty lines among them; their indentation is the first one's, or owner's and the
// header's indentation indicator. Without a chomping indicator the text keeps its final line feed; "-" removes
// it, "+" keeps the empty lines after it too. A line of spaces alone, or no content at all, is left to the
// conversion.
func (t *transcoder) literal(header []byte, owner int) bool {
	chomping, indent, ok := literalHeader(header)
	if !ok {
		return false
	}
	if indent > 0 {
		indent += max(owner, 0)
	}
	var text []byte
	empty := 0 // empty lines since the last content
	for {
		line, spaces, next, ok := t.rawLine()
		if !ok {
			break
		}
		if spaces == len(line) {
			if spaces > 0 {
				return false
			}
			empty++
			t.nextLine = next
			continue
		}
		if indent == 0 {
			indent = spaces
		}
		if spaces < indent || spaces <= owner {
			break
		}
		text = append(text, bytes.Repeat([]byte{'\n'}, empty)...)
		text = append(text, line[indent:]...)
		if next > t.nextLine+len(line) {
			text = append(text, '\n') // the last line of a document may end without one
		}
		empty = 0
		t.nextLine = next
	}
	if len(text) == 0 {
		return false
	}
	switch chomping {
	case '-':
		text = bytes.TrimSuffix(text, []byte{'\n'})
	case '+':
		text = append(text, bytes.Repeat([]byte{'\n'}, empty)...)
	}
	t.out = appendJSONString(t.out, text)
	return true
}

// literalHeader reads a literal block scalar's header: "|", a chomping indicator ("-" or "+") and an indentation
// indicator (1-9) in either order, each at most once, then spaces and perhaps a comment.
func literalHeader(header []byte) (chomping byte, indent int, ok bool) {
	for rest := header[1:]; len(rest) > 0; rest = rest[1:] {
		switch c := rest[0]; {
		case (c == '-' || c == '+') && chomping == 0:
			chomping = c
		case c >= '1' && c <= '9' && indent == 0:
			indent = int(c - '0')
		default:
			return chomping, indent, c == ' ' && len(trimComment(rest)) == 0
		}
	}
	return chomping, indent, true
}

// trimComment removes a trailing " # comment" and the spaces before it.
func trimComment(value []byte) []byte {
	for i := 1; i < len(value); i++ {
		if value[i] == '#' && value[i-1] == ' ' {
			value = value[:i]
			break
		}
	}
	return bytes.TrimRight(value, " ")
}

// plainASCII reports whether the eight bytes of word are ASCII without control characters but the line feed, as
// plainText reads them: most of a document is, and a word is tested at once. Each test clears the high bit of the
// bytes it finds and no other: with every high bit set first, no subtraction borrows from the byte beside.
func plainASCII(word uint64) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	if word&highs != 0 {
		return false
	}
	control := ^((word | highs) - ones*0x20) & highs
	lineFeed := ^(((word ^ ones*'\n') | highs) - ones) & highs
	del := ^(((word ^ ones*0x7f) | highs) - ones) & highs
	return control&^lineFeed|del == 0
}

// resolvedWord is the JSON of s if it is a plain scalar YAML 1.1 reads as a boolean or null, as the YAML-to-JSON
// conversion of sigs.k8s.io/yaml does. A switch, which compares lengths first, rather than a map: every key and
// plain scalar of a landscape is looked up, and a hash of each cost more than the comparisons.
func resolvedWord(s []byte) (json string, ok bool) {
	switch string(s) {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE":
		return "true", true
	case "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE":
		return "false", true
	case "~", "null", "Null", "NULL":
		return "null", true
	}
	return "", false
}

// numberLike reports whether a plain scalar starting with c may be a number (or .inf, .nan).
func numberLike(c byte) bool {
	return c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

// plainInteger reports whether s is a decimal integer that JSON writes as YAML does: 0, or digits without a
// leading zero, at most 18 of them, perhaps negative.
func plainInteger(s []byte) bool {
	if string(s) == "0" {
		return true
	}
	if s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 || s[0] == '0' {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// dottedNumbers reports whether s is numbers joined by two dots or more, like the version 1.33.4: a string, for
// no integer, float or timestamp has two dots.
func dottedNumbers(s []byte) bool {
	dots, digits := 0, 0
	for _, c := range s {
		switch {
		case c == '.' && digits > 0:
			dots, digits = dots+1, 0
		case c >= '0' && c <= '9':
			digits++
		default:
			return false
		}
	}
	return dots >= 2 && digits > 0
}

// plain transcodes a plain scalar: a boolean, null, a number, or a string.
func (t *transcoder) plain(s []byte) bool {
	if bytes.Contains(s, []byte(": ")) || bytes.HasSuffix(s, []byte(":")) || string(s) == "<<" || string(s) == "=" {
		return false // a mapping inside a plain scalar, which YAML refuses, or YAML 1.1's merge and value keys
	}
	if word, ok := resolvedWord(s); ok {
		t.out = append(t.out, word...)
		return true
	}
	if !numberLike(s[0]) || dottedNumbers(s) || bytes.IndexByte(s, '/') >= 0 {
		t.out = appendJSONString(t.out, s)
		return true
	}
	if plainInteger(s) {
		t.out = append(t.out, s...)
		return true
	}
	// A slash (CIDRs) is in no number or timestamp either. Anything else that starts like a number (floats, octal,
	// hexadecimal, timestamps, .inf) is resolved by the conversion itself — rare in a landscape, and its rules are
	// many — as a sequence's entry: on a line of its own, "---" or "..." would mark a document, not be a string.
	converted, err := yaml.YAMLToJSON(append([]byte("- "), s...))
	converted = bytes.TrimSpace(converted)
	if err != nil || len(converted) < 3 || converted[0] != '[' || converted[len(converted)-1] != ']' {
		return false
	}
	value := converted[1 : len(converted)-1]
	if value[0] == '{' || value[0] == '[' {
		return false
	}
	t.out = append(t.out, value...)
	return true
}

// doubleQuoted transcodes a double-quoted scalar with the common escapes. It may go on over the lines below
// indented beyond owner, as sigs.k8s.io/yaml wraps long strings: YAML folds a line break into a space, after
// the spaces before it, unless a backslash escapes it.
func (t *transcoder) doubleQuoted(value []byte, owner int) bool {
	var s []byte
	line := value[1:]
	for {
		// kept is how much of s the spaces at a line's end leave: they are folded away, escaped ones are not.
		kept, escapedBreak := len(s), false
		i := 0
		for ; i < len(line) && line[i] != '"'; i++ {
			c := line[i]
			if c != '\\' {
				if s = append(s, c); c != ' ' {
					kept = len(s)
				}
				continue
			}
			if i++; i == len(line) {
				escapedBreak = true
				break
			}
			var ok bool
			if s, i, ok = appendEscape(s, line, i); !ok {
				return false
			}
			kept = len(s)
		}
		if i < len(line) {
			return t.closeQuoted(s, line[i+1:])
		}
		if !escapedBreak {
			s = append(s[:kept], ' ')
		}
		if line = t.quotedLine(owner); line == nil {
			return false
		}
	}
}

// oneCharacterEscapes are the escapes of one character in a double-quoted YAML 1.1 scalar, as go.yaml.in/yaml/v2
// reads them (JSON's "\/" is not one of them), and escapedCharacters what each stands for.
const oneCharacterEscapes = "\"\\' \tntrbf0aveN_LP"

var escapedCharacters = [len(oneCharacterEscapes)]rune{'"', '\\', '\'', ' ', '\t', '\n', '\t', '\r', '\b', '\f', 0, '\a', '\v', 0x1b, 0x85, 0xa0, 0x2028, 0x2029}

// appendEscape appends what the escape at line[i] (after its backslash) stands for to s, and is where it ends:
// JSON's escapes and every one the YAML emitter of sigs.k8s.io/yaml, and so kubectl, writes — an emoji in an
// annotation, beyond the Basic Multilingual Plane, as \U and eight digits.
func appendEscape(s, line []byte, i int) ([]byte, int, bool) {
	if k := strings.IndexByte(oneCharacterEscapes, line[i]); k >= 0 {
		return utf8.AppendRune(s, escapedCharacters[k]), i, true
	}
	digits := 0
	switch line[i] {
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	default:
		return s, i, false
	}
	if i+digits >= len(line) {
		return s, i, false
	}
	r, err := strconv.ParseUint(string(line[i+1:i+1+digits]), 16, 32)
	if err != nil || r >= 0xd800 && r <= 0xdfff || r > utf8.MaxRune {
		return s, i, false
	}
	return utf8.AppendRune(s, rune(r)), i + digits, true
}

// singleQuoted transcodes a single-quoted scalar (two quotes in it stand for one), which may go on over the lines
// below indented beyond owner as doubleQuoted's does, without escapes.
func (t *transcoder) singleQuoted(value []byte, owner int) bool {
	line := value[1:]
	if i := bytes.IndexByte(line, '\''); i >= 0 && (i+1 == len(line) || line[i+1] != '\'') {
		return t.closeQuoted(line[:i], line[i+1:]) // on one line, without a quote in it: its text as it stands
	}
	var s []byte
	for {
		i := 0
		for ; i < len(line); i++ {
			if line[i] == '\'' {
				if i+1 < len(line) && line[i+1] == '\'' {
					s = append(s, '\'')
					i++
					continue
				}
				return t.closeQuoted(s, line[i+1:])
			}
			s = append(s, line[i])
		}
		s = append(bytes.TrimRight(s, " "), ' ')
		if line = t.quotedLine(owner); line == nil {
			return false
		}
	}
}

// quotedLine is the next line of a quoted scalar that goes on below, without its indentation, or nil where the
// transcoder leaves it: at the end of the document, at a blank line (which YAML folds into a line feed) or at a
// line not indented beyond owner.
func (t *transcoder) quotedLine(owner int) []byte {
	line, indent, next, ok := t.rawLine()
	if !ok || indent == len(line) || indent <= owner {
		return nil
	}
	t.nextLine = next
	return line[indent:]
}

// rawLine is the line at nextLine as it stands — blank and comment lines too, which next skips — with its
// indentation and where the line after it starts; ok is false at the end of the document. The scalars that go
// on over lines read them so.
func (t *transcoder) rawLine() (line []byte, indent, next int, ok bool) {
	if t.nextLine >= len(t.src) {
		return nil, 0, 0, false
	}
	end, next := lineBounds(t.src, t.nextLine)
	line = t.src[t.nextLine:end]
	return line, skipSpaces(line, 0), next, true
}

// closeQuoted writes a quoted scalar's text s once its closing quote is found, if nothing but a comment follows
// it on its line.
func (t *transcoder) closeQuoted(s, rest []byte) bool {
	if len(trimComment(rest)) != 0 {
		return false
	}
	t.out = appendJSONString(t.out, s)
	return true
}

// appendJSONString appends s as a JSON string. What a JSON string holds as it is (plainRun), most of a landscape's
// text, is copied a run at a time.
func appendJSONString(out, s []byte) []byte {
	out = append(out, '"')
	for {
		n := plainRun(s)
		out = append(out, s[:n]...)
		if n == len(s) {
			return append(out, '"')
		}
		switch c := s[n]; {
		case c == '"' || c == '\\':
			out = append(out, '\\', c)
		case c == '\n':
			out = append(out, '\\', 'n')
		case c == '\t':
			out = append(out, '\\', 't')
		case c < 0x20:
			out = append(out, `\u00`...)
			out = append(out, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
		default:
			out = append(out, c) // beyond ASCII
		}
		s = s[n+1:]
	}
}

// splitYAML splits a YAML stream into the documents yamlDocuments makes of it — at "---" lines (followed by
// nothing but a comment) and after "..." lines, empty ones included so that documents keep their numbers —
// without copying: each document is a part of data. It reports false when the stream holds what yamlDocuments
// words an error for or treats apart (a "---" line with content, a carriage return); yamlDocuments reads it then.
func splitYAML(data []byte) ([]yamlDocument, bool) {
	if bytes.IndexByte(data, '\r') >= 0 {
		return nil, false
	}
	var documents []yamlDocument
	// Lines are counted up to the last document's start only: a file of one document costs no count.
	startLine, counted := 1, 0
	add := func(from, to int) {
		startLine += lineFeeds(data[counted:from])
		counted = from
		documents = append(documents, yamlDocument{text: data[from:to], line: startLine})
	}
	// chunk is where the lines since the last separator begin (a separator that starts them is one of them, as in
	// yamlDocuments), piece where the current document begins: at chunk or after a "..." line.
	chunk, piece := 0, 0
	for lineStart := markerLine(data, 0); lineStart < len(data); {
		lineEnd, next := lineBounds(data, lineStart)
		line := data[lineStart:lineEnd]
		switch {
		case bytes.HasPrefix(line, []byte("---")):
			if rest := bytes.TrimSpace(line[3:]); len(rest) > 0 && rest[0] != '#' {
				return nil, false
			}
			if lineStart > chunk {
				if lineStart > piece {
					add(piece, lineStart)
				}
				chunk, piece = next, next
			}
		case bytes.HasPrefix(line, []byte("...")) && documentEnd.Match(line):
			add(piece, lineStart)
			piece = next
		}
		lineStart = markerLine(data, next)
	}
	if piece < len(data) {
		add(piece, len(data))
	}
	return documents, true
}

// markerLine is where the first line at or after from that begins with "---" or "..." begins — the only lines
// that separate or end documents — or len(data). The markers are searched for, not read line by line: a List of
// 15,000 shoots is 300,000 lines and no marker.
func markerLine(data []byte, from int) int {
	first := len(data)
	for _, marker := range [][]byte{[]byte("---"), []byte("...")} {
		for at := from; at < first; {
			i := bytes.Index(data[at:first], marker)
			if i < 0 {
				break
			}
			if at += i; at == 0 || data[at-1] == '\n' {
				first = at
				break
			}
			at++
		}
	}
	return first
}

// lineBounds returns the end of the line starting at start (without its line feed) and where the next begins.
func lineBounds(data []byte, start int) (end, next int) {
	end = bytes.IndexByte(data[start:], '\n')
	if end < 0 {
		return len(data), len(data)
	}
	return start + end, start + end + 1
}

// transcodeInParts is transcodeYAML for a document that is a mapping with an "items:" sequence at its first
// column, as kubectl writes a List: the sequence's entries are transcoded in parts on every processor, between the
// mapping's entries before and after it, and the parts joined. The JSON is transcodeYAML's, byte for byte
// (FuzzTranscodeInParts): no entry of such a sequence has a line at the first column but its dash, so each part
// reads as the whole does, at the same depth (transcodeItems). Any other document is transcoded whole. In a part the transcoder
// leaves, each entry is transcoded on its own, and convert, if not nil, converts the entries it leaves: one odd
// shoot costs its own conversion, not its List's. A part reads no alias, which may name an anchor in another: once
// one is met, the parts not begun are left and the whole is transcoded, on one processor. ok is false when that
// leaves it too.
func transcodeInParts(doc []byte, parts int, convert func(entry []byte) ([]byte, bool)) (json []byte, ok bool) {
	head, items, tail, ok := splitItems(doc)
	if !ok {
		return transcodeYAML(doc)
	}
	pieces := append(append([][]byte{head}, entryParts(items, parts)...), tail)
	if len(pieces) < 4 {
		return transcodeYAML(doc) // one part: nothing to share
	}
	out, read := make([][]byte, len(pieces)), make([]bool, len(pieces))
	var aliased atomic.Bool
	model.OnEveryProcessor(len(pieces), func(i int) {
		if aliased.Load() {
			return
		}
		at := itemsPart
		if i == 0 || i == len(pieces)-1 {
			at = entriesPart // the mapping's entries before and after the items
		}
		var partAlias bool
		if out[i], read[i], partAlias = transcode(nil, pieces[i], at); partAlias {
			aliased.Store(true)
		} else if !read[i] && at == itemsPart && convert != nil {
			out[i], read[i] = transcodeEntries(pieces[i], convert)
		}
	})
	if !aliased.Load() && !slices.Contains(read, false) {
		if joined, ok := joinItems(out); ok {
			return joined, true
		}
	}
	return transcodeYAML(doc) // the whole words it, or reads what a part could not
}

// transcodeEntries transcodes a part of a sequence at the first column entry by entry, an entry the transcoder
// leaves by convert, and joins them into the part's JSON array.
func transcodeEntries(part []byte, convert func(entry []byte) ([]byte, bool)) ([]byte, bool) {
	joined := []byte{'['}
	for i, entry := range entryParts(part, len(part)) { // as many parts as bytes: every entry
		json, ok := transcodeItems(entry)
		if !ok && !endsSequence(entry) {
			json, ok = convert(entry)
		}
		if !ok || !nonEmptyArray(json) {
			return nil, false
		}
		if i > 0 {
			joined = append(joined, ',')
		}
		joined = append(joined, json[1:len(json)-1]...)
	}
	return append(joined, ']'), true
}

// endsSequence reports whether a line after the first of an entry of a sequence at the first column ends the
// sequence (endsItems): the mapping's next key, or a document's marker; or may, when the entry holds a line break
// other than a line feed, whose line the entry's lines, cut at line feeds, do not show ("\r..."). Such an entry is
// no entry, and its part is read whole (splitItems).
func endsSequence(entry []byte) bool {
	if bytes.ContainsAny(entry, otherLineBreaks) {
		return true
	}
	_, at := lineBounds(entry, 0) // the entry's dash
	for at < len(entry) {
		end, next := lineBounds(entry, at)
		if endsItems(entry[at:end]) {
			return true
		}
		at = next
	}
	return false
}

// endsItems reports whether a line after a sequence at the first column ends it: a line at the first column that
// is neither blank, a comment nor an entry's dash.
func endsItems(line []byte) bool {
	return len(line) > 0 && line[0] != ' ' && line[0] != '#' && !isDash(line)
}

// lastEntry is where the last line at or after start that is a dash at the first column begins, start if none
// after it is: it is looked for from the end.
func lastEntry(doc []byte, start int) int {
	for end := len(doc); ; {
		i := bytes.LastIndex(doc[start:end], []byte("\n-"))
		if i < 0 {
			return start
		}
		if at := start + i + 1; isDash(doc[at:]) {
			return at
		}
		end = start + i
	}
}

// splitItems splits a document at its "items:" line into the lines before it, the sequence at the first column
// that follows it, and the lines after that; ok is false when there is no such sequence, or a second document
// follows it. The sequence's end is looked for after its last entry's dash, found from the end of the document: the
// lines before are its parts', whose transcoders refuse a line at the first column that would end it sooner (and
// transcodeEntries does not convert such an entry: endsSequence), so that the whole is read instead, and a List's
// items are not read line by line here, on one processor, before the parts are read on every one.
func splitItems(doc []byte) (head, items, tail []byte, ok bool) {
	at := 0
	for at < len(doc) {
		end, next := lineBounds(doc, at)
		if string(doc[at:end]) == "items:" {
			head, at = doc[:at], next
			break
		}
		at = next
	}
	if head == nil || at == len(doc) || !isDash(doc[at:]) {
		return nil, nil, nil, false
	}
	start := at
	for at = lastEntry(doc, start); at < len(doc); {
		end, next := lineBounds(doc, at)
		if line := doc[at:end]; endsItems(line) {
			if isDocumentStart(line) {
				return nil, nil, nil, false // a second document, which the whole refuses, not a tail of null
			}
			break // the mapping's next key
		}
		at = next
	}
	return head, doc[start:at], doc[at:], true
}

// entryParts splits a sequence at the first column into at most parts pieces, each beginning at an entry's dash.
func entryParts(items []byte, parts int) [][]byte {
	var pieces [][]byte
	from := 0
	for p := 1; p < parts; p++ {
		at := max(len(items)*p/parts, from+1)
		for at < len(items) && !(items[at-1] == '\n' && isDash(items[at:])) {
			at++
		}
		if at >= len(items) {
			break
		}
		pieces, from = append(pieces, items[from:at]), at
	}
	return append(pieces, items[from:])
}

// joinItems joins the JSON of the pieces transcodeInParts made: the mapping before the items, the items' parts,
// the mapping after them.
func joinItems(out [][]byte) ([]byte, bool) {
	head, tail, parts := out[0], out[len(out)-1], out[1:len(out)-1]
	if !isMapping(head) || !isMapping(tail) || slices.ContainsFunc(parts, func(part []byte) bool { return !nonEmptyArray(part) }) {
		return nil, false
	}
	size := len(head) + len(tail) + len(`,"items":[]`)
	for _, part := range parts {
		size += len(part)
	}
	joined := make([]byte, 0, size)
	if head[0] == '{' && len(head) > 2 {
		joined = append(append(joined, head[:len(head)-1]...), ',')
	} else {
		joined = append(joined, '{')
	}
	joined = append(joined, `"items":[`...)
	// The items' parts are copied on every processor: the joined copy is fresh memory, faulted in page by page
	// by whoever writes it first.
	starts := make([]int, len(parts))
	for i, part := range parts {
		if i > 0 {
			joined = append(joined, ',')
		}
		starts[i] = len(joined)
		joined = joined[:len(joined)+len(part)-2]
	}
	model.OnEveryProcessor(len(parts), func(i int) { copy(joined[starts[i]:], parts[i][1:len(parts[i])-1]) })
	joined = append(joined, ']')
	if tail[0] == '{' && len(tail) > 2 {
		joined = append(append(joined, ','), tail[1:]...)
	} else {
		joined = append(joined, '}')
	}
	return joined, true
}

// nonEmptyArray reports whether a transcoded piece of a sequence is an array of one element or more: what its
// brackets hold is joined with the other pieces' between one pair.
func nonEmptyArray(json []byte) bool {
	return len(json) > 2 && json[0] == '[' && json[len(json)-1] == ']'
}

// isMapping reports whether a transcoded piece is a mapping, or nothing (null): what may stand beside the items.
func isMapping(json []byte) bool {
	return len(json) >= 2 && json[0] == '{' || string(json) == "null"
}
