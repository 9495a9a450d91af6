package report

import (
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"
)

// Inert returns a writer that escapes, in everything written through it, every control and format character but
// tab and newline (which lay out a table), and every byte that is not UTF-8, as Go escapes them (\x1b, \u202e).
// Names and messages come from the garden or from files, and an escape sequence in a shoot's name must not reach
// an operator's terminal.
func Inert(w io.Writer) io.Writer { return inertWriter{w: w} }

// inertWriter is the writer Inert returns.
type inertWriter struct{ w io.Writer }

// Write writes p to the underlying writer, escaped where it holds what a terminal would act on.
func (i inertWriter) Write(p []byte) (int, error) {
	if inert(p) {
		return i.w.Write(p)
	}
	escaped := make([]byte, 0, len(p)+16)
	for rest := p; len(rest) > 0; {
		r, size := utf8.DecodeRune(rest)
		switch {
		case r == utf8.RuneError && size <= 1:
			escaped = fmt.Appendf(escaped, `\x%02x`, rest[0])
		case r == '\t' || r == '\n' || !unsafeRune(r):
			escaped = append(escaped, rest[:size]...)
		case r < 0x100:
			escaped = fmt.Appendf(escaped, `\x%02x`, r)
		default:
			escaped = fmt.Appendf(escaped, `\u%04x`, r)
		}
		rest = rest[size:]
	}
	if _, err := i.w.Write(escaped); err != nil {
		return 0, err
	}
	return len(p), nil
}

// inert reports whether p needs no escaping, as nearly all output does.
func inert(p []byte) bool {
	for len(p) > 0 {
		r, size := utf8.DecodeRune(p)
		if r == utf8.RuneError && size <= 1 || r != '\t' && r != '\n' && unsafeRune(r) {
			return false
		}
		p = p[size:]
	}
	return true
}

// unsafeRune reports whether a terminal may act on r instead of showing it: C0 and C1 controls, DEL, and format
// characters such as the bidirectional overrides.
func unsafeRune(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }
