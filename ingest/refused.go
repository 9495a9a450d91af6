package ingest

import (
	"errors"
	"fmt"
	"strings"
)

// maxRefused bounds how many refusals — objects, documents, files — one load reports: enough for an operator to
// mend a landscape's mistakes in one round, as a configuration's values are all reported at once, and few enough
// that a file of something else entirely is not answered with one line per document.
const maxRefused = 32

// errEnoughRefused stops decoding a file's documents once maxRefused of them are refused: the load stops there.
var errEnoughRefused = errors.New("enough documents refused")

// refusals is the error of a load that refused some of its input: each refusal in the input's order, the last
// saying that the load stopped, if it did, at maxRefused. It is joined as errors.Join joins, so callers word each
// line (config.Each).
type refusals struct{ errs []error }

// Error is each refusal on its own line.
func (r *refusals) Error() string {
	lines := make([]string, len(r.errs))
	for i, err := range r.errs {
		lines[i] = err.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap is every refusal.
func (r *refusals) Unwrap() []error { return r.errs }

// refuse records why a part of the input is refused and goes on, so that one load reports every refusal; it is
// the load's error when the load must stop: after maxRefused. The error of a load stopped further in (a List's
// items decoded strictly) is recorded already, and stops this one too.
func (l *Landscape) refuse(err error) error {
	var stopped *refusals
	if errors.As(err, &stopped) {
		return stopped
	}
	if len(l.refused) < maxRefused {
		l.refused = append(l.refused, err)
	}
	if len(l.refused) < maxRefused {
		return nil
	}
	return &refusals{errs: append(l.refused[:maxRefused:maxRefused],
		fmt.Errorf("stopped after the first %d refusals: the rest of the landscape was not read", maxRefused))}
}

// refusal is the error of the load so far: its refusals, or nil.
func (l *Landscape) refusal() error {
	if len(l.refused) == 0 {
		return nil
	}
	return &refusals{errs: l.refused}
}
