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
