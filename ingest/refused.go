package ingest

import (
	"errors"
	"fmt"
)

// maxRefused bounds how many refusals — objects, documents, files — one load reports: enough for an operator to
// mend a landscape's mistakes in one round, as a configuration's values are all reported at once, and few enough
// that a file of something else entirely is not answered with one line per document.
const maxRefused = 32

// errEnoughRefused stops decoding a file's documents once maxRefused of them are refused: the load stops there.
var errEnoughRefused = errors.New("enough documents refused")

// refuse records why a part of the input is refused and goes on, so that one load reports every refusal; it is
// the load's error when the load must stop: once maxRefused are recorded. The error of a load stopped further in
// (a List's items decoded strictly) is that error again, and is not recorded twice.
func (l *Landscape) refuse(err error) error {
	if len(l.refused) < maxRefused {
		l.refused = append(l.refused, err)
	}
	if len(l.refused) < maxRefused {
		return nil
	}
	return l.refusal()
}

// refusal is the error of the load so far: each refusal on its own line, joined as errors.Join joins them so that
// callers word each (config.Each), and last, if the load stopped at maxRefused, that it did; nil without any.
func (l *Landscape) refusal() error {
	if len(l.refused) == maxRefused {
		return errors.Join(append(l.refused[:maxRefused:maxRefused],
			fmt.Errorf("stopped after the first %d refusals: the rest of the landscape was not read", maxRefused))...)
	}
	return errors.Join(l.refused...)
}

// duplicateObjects refuses the objects of one document (a List, a stream) that were read before in one other
// document, or earlier in the same: a landscape given twice — a directory holding both the YAML and the JSON of
// a garden — is answered with a refusal a file, not one an object up to maxRefused.
type duplicateObjects struct {
	// where is the first such object, object its kind and name, and before where it was read before.
	where, before place
	object        string
	// more counts the document's later objects read before in the same document as the first.
	more int
}

// Error names the first duplicate object and both its places, and how many more there are.
func (d *duplicateObjects) Error() string {
	first := fmt.Sprintf("%s: %s: duplicate object, read before at %s", d.where, d.object, d.before)
	switch d.more {
	case 0:
		return first
	case 1:
		return fmt.Sprintf("%s (and 1 more object after it, read before in %s)", first, d.before.in.document)
	}
	return fmt.Sprintf("%s (and %d more objects after it, each read before in %s)", first, d.more, d.before.in.document)
}
