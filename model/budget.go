package model

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	yaml2 "go.yaml.in/yaml/v2"
	yaml "go.yaml.in/yaml/v3"
)

// The input budget of one YAML or JSON document: what decoding it may cost, whatever its size on disk. YAML
// aliases let a document of kilobytes stand for gigabytes, which the YAML-to-JSON conversion every Kubernetes
// decoder makes would expand in memory; deep nesting makes the decoders' recursion slow. Kubernetes objects nest
// a few dozen levels at most and use aliases, if at all, for a few shared blocks.
const (
	// MaxNesting is the deepest a document's collections may nest.
	MaxNesting = 100
	// maxExpansion and expansionAllowance bound a document's size with its aliases expanded: at most
	// maxExpansion times its own size plus expansionAllowance bytes.
	maxExpansion       = 4
	expansionAllowance = 64 << 10
)

// ErrBudget is the error of a document beyond the input budget.
var ErrBudget = errors.New("beyond the input budget")

// NestingError is a document whose collections nest deeper than MaxNesting; it is ErrBudget. Path leads from the
// document to the node found nested too deep, by each node's index in its parent's Content, so that a caller can
// name the part at fault: the item of a List of thousands.
type NestingError struct {
	Path []int
}

// Error words the budget the document breaks, not where: the caller names that.
func (e *NestingError) Error() string {
	return fmt.Sprintf("%v: collections nest more than %d deep", ErrBudget, MaxNesting)
}

// Unwrap makes a NestingError ErrBudget.
func (e *NestingError) Unwrap() error { return ErrBudget }

// CheckBudget checks YAML or JSON input, every document of it, against the input budget before it is decoded:
// its nesting, and its size with every alias expanded, counted without expanding anything. Every error is
// ErrBudget. Input this parser cannot read is left to the decoder, which words the syntax error as before
// (Gardener's own words for a region ConfigMap), unless it may hold aliases and the decoder's parser reads it (it
// reads what follows a flow collection at the root as nothing, for one): that is refused, unmeasured.
func CheckBudget(input []byte) error {
	_, err := BudgetedDocuments(input)
	return err
}

// BudgetedDocuments is CheckBudget that also returns the documents it parsed (their aliases not expanded), for a
// caller that looks at their structure too: up to the first it cannot read, when that is left to the decoder.
func BudgetedDocuments(input []byte) ([]*yaml.Node, error) {
	limit := ExpandedLimit(len(input))
	// Every document of the input counts: a decoder handed the whole input may read past the first.
	decoder := yaml.NewDecoder(bytes.NewReader(input))
	var documents []*yaml.Node
	var size int64
	for {
		root := &yaml.Node{}
		err := decoder.Decode(root)
		if errors.Is(err, io.EOF) {
			return documents, nil
		}
		if err != nil {
			if tooDeepToParse(err) {
				return nil, &NestingError{}
			}
			if !mayHoldAlias(input) || !decoderParses(input) {
				return documents, nil
			}
			return nil, fmt.Errorf("%w: it may hold aliases but cannot be parsed to count them: %v", ErrBudget, err)
		}
		m := measure{known: map[*yaml.Node]extent{}, open: map[*yaml.Node]bool{}}
		e, err := m.extent(root)
		switch {
		case err != nil:
			return nil, err
		case e.height > MaxNesting:
			return nil, &NestingError{}
		}
		if size = min(size+e.size, sizeCap); size > limit {
			return nil, fmt.Errorf("%w: its aliases expand it to more than %d bytes (%d times its %d bytes, and %d)", ErrBudget,
				limit, maxExpansion, len(input), expansionAllowance)
		}
		documents = append(documents, root)
	}
}

// tooDeepToParse reports whether the parser gave up on input nested deeper than its own limit, which lies far
// above MaxNesting: such input breaks the budget, and is refused in its words rather than as a syntax error.
// go.yaml.in/yaml/v3 has no error type for it; its words are pinned with it (TestCheckBudget).
func tooDeepToParse(err error) bool {
	return strings.Contains(err.Error(), "exceeded max depth of ")
}

// decoderParses reports whether the YAML decoder that converts every document to JSON after the budget
// (sigs.k8s.io/yaml, on go.yaml.in/yaml/v2) parses input. Input it does not parse is refused by it before anything
// is expanded, in its own words, which for a region ConfigMap are Gardener's; only the parse runs here.
func decoderParses(input []byte) bool {
	return yaml2.Unmarshal(input, &parseOnly{}) == nil
}

// parseOnly decodes nothing: handed the root of the parsed document, it leaves it, and with it every alias.
type parseOnly struct{}

// UnmarshalYAML leaves the node it is given undecoded.
func (*parseOnly) UnmarshalYAML(func(any) error) error { return nil }

// mayHoldAlias reports whether input the parser cannot read might still hold an alias for another decoder: a '*'
// where a YAML token starts, followed by a name. YAML decoders read UTF-16 behind its byte order mark, where any
// '*' byte may be one; other input that is not UTF-8 holds none, since no YAML decoder reads it.
func mayHoldAlias(input []byte) bool {
	if bytes.HasPrefix(input, []byte{0xff, 0xfe}) || bytes.HasPrefix(input, []byte{0xfe, 0xff}) {
		return bytes.IndexByte(input, '*') >= 0
	}
	if !utf8.Valid(input) {
		return false
	}
	input = bytes.TrimPrefix(input, []byte("\ufeff")) // a byte order mark is no token: "*a" behind it starts one
	for i, c := range input {
		if c != '*' {
			continue
		}
		startsToken := i == 0 || strings.IndexByte(" \t\r\n[{,:", input[i-1]) >= 0
		named := i+1 < len(input) && strings.IndexByte(" \t\r\n,[]{}", input[i+1]) < 0
		if startsToken && named {
			return true
		}
	}
	return false
}

// ExpandedLimit is the most bytes a document of size bytes may stand for with its aliases expanded, counted as
// its scalars' bytes and one per collection.
func ExpandedLimit(size int) int64 {
	return int64(maxExpansion)*int64(size) + expansionAllowance
}

// extent is a node with its aliases expanded: its size (bytes of scalars, one per collection) and its height
// (how deep collections nest in it).
type extent struct {
	size   int64
	height int
}

// measure computes extents, each node once: an alias costs its anchor's extent without being walked again, so
// that the count takes time linear in the document while it stands for its expansion.
type measure struct {
	known map[*yaml.Node]extent
	// open are the collections being measured, around the node being measured: an alias to one of them is an
	// alias to itself, and their number is how deep the walk is.
	open map[*yaml.Node]bool
}

// sizeCap keeps sums from overflowing: a document beyond it is beyond any budget.
const sizeCap = 1 << 62

// extent measures n. A walk deeper than MaxNesting stops at once: the recursion stays shallow whatever the input.
func (m *measure) extent(n *yaml.Node) (extent, error) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if e, ok := m.known[n]; ok {
		return e, nil
	}
	if m.open[n] {
		return extent{}, fmt.Errorf("%w: anchor %q contains an alias to itself", ErrBudget, n.Anchor)
	}
	own := 0 // a collection nests its content one deeper; a document does not
	if n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode {
		own = 1
	}
	e := extent{size: int64(len(n.Value)) + 1, height: own}
	if len(n.Content) > 0 {
		if len(m.open) > MaxNesting { // the collections around n, and the document: n is nested deeper
			return extent{}, &NestingError{}
		}
		m.open[n] = true
		defer delete(m.open, n)
		for i, child := range n.Content {
			c, err := m.extent(child)
			if err != nil {
				return extent{}, within(err, i)
			}
			e.size = min(e.size+c.size, sizeCap)
			e.height = max(e.height, own+c.height)
		}
		if e.height > MaxNesting {
			return extent{}, &NestingError{}
		}
	}
	if n.Anchor != "" {
		m.known[n] = e
	}
	return e, nil
}

// within puts a child's index in front of a nesting error's path, as the walk returns through the child's parent.
func within(err error, child int) error {
	var nesting *NestingError
	if errors.As(err, &nesting) {
		nesting.Path = append([]int{child}, nesting.Path...)
	}
	return err
}
