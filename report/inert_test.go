package report_test

import (
	"bytes"
	"testing"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// What reaches a terminal through Inert shows every character instead of acting on it; tabs and newlines lay
// out tables and pass.
func TestInert(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain text", "SHOOT\tSEED\ngarden-a/web\taws-eu1\n", "SHOOT\tSEED\ngarden-a/web\taws-eu1\n"},
		{"UTF-8 letters", "région-ü/日本", "région-ü/日本"},
		{"an escape sequence", "web\x1b[2J\x1b]0;owned\x07", `web\x1b[2J\x1b]0;owned\x07`},
		{"carriage return and DEL", "a\rb\x7f", `a\x0db\x7f`},
		{"a C1 control (CSI)", "a\u009b31m", `a\x9b31m`},
		{"a bidirectional override", "abc\u202edef", `abc\u202edef`},
		{"bytes that are not UTF-8", "a\xff\xfeb", `a\xff\xfeb`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			n, err := report.Inert(&out).Write([]byte(tc.in))
			if err != nil || n != len(tc.in) {
				t.Fatalf("wrote %d of %d bytes: %v", n, len(tc.in), err)
			}
			if out.String() != tc.want {
				t.Fatalf("got %q, want %q", out.String(), tc.want)
			}
		})
	}
}

// A shoot named with an escape sequence reaches table and wide output escaped, and JSON as JSON escapes it.
func TestReportOutputIsInert(t *testing.T) {
	r := &report.Report{
		Placements:    []model.Placement{{Shoot: "garden-a/web\x1b[2J", Seed: "aws-eu1"}},
		Unschedulable: []model.Unschedulable{{Shoot: "garden-a/db\x1b]0;owned\x07", Reason: "Strategy", Message: "no seed\x1b[31m"}},
	}
	for _, format := range []string{"table", "wide", "json", "yaml"} {
		var out bytes.Buffer
		if err := r.Print(&out, report.Output{Format: format}); err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsAny(out.Bytes(), "\x1b\x07") {
			t.Errorf("%s output holds control characters:\n%q", format, out.String())
		}
	}
}
