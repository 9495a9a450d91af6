package report_test

import (
	"bytes"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// FuzzJSONPath: whatever template an operator passes to -o jsonpath, CheckFormat refuses it or the report prints
// through it, and either way with an error at most, never a crash; what it prints is inert (no control character
// but tab and newline reaches the terminal).
func FuzzJSONPath(f *testing.F) {
	for _, template := range []string{`{.window.optimal}`, `{range .placements[*]}{.shoot}{"\n"}{end}`,
		`{.placements[?(@.distance>0)].seed}`, `{.seeds[-1:]}`, `{.placements[0:2:1]}`, `{end}`, `{range}`, `{.a[}`,
		`{..name}`, `{.placements[*]['shoot','seed']}`, `{@}`, `{"\x1b[2J"}`, `{.window.seconds.*}`, `{$}`} {
		f.Add(template)
	}
	allocatable := int64(3)
	r := &report.Report{
		Window:     report.WindowReport{Pending: 2, Solver: "lp", Optimal: true, TargetUtilization: 0.8},
		Placements: []model.Placement{{Shoot: "garden-a/web", Seed: "aws-eu1", Distance: 2}, {Shoot: "garden-a/db\x1b", Seed: "aws-eu1"}},
		Unschedulable: []model.Unschedulable{{Shoot: "garden-a/x", Reason: "Capacity", Message: "0/1 seed cluster candidate(s)",
			Rejections: []model.SeedCount{{Predicate: "Capacity", Seeds: 1}}}},
		Seeds: []report.SeedReport{{Name: "aws-eu1", Allocatable: &allocatable, Usage: 1, Placed: 2}},
	}
	f.Fuzz(func(t *testing.T, template string) {
		format := "jsonpath=" + template
		if err := report.CheckFormat(format, report.Formats()); err != nil {
			return
		}
		var out bytes.Buffer
		if err := r.Print(&out, report.Output{Format: format}); err != nil {
			return
		}
		if !isInert(out.Bytes()) {
			t.Fatalf("-o jsonpath=%q printed a control character: %q", template, out.String())
		}
	})
}

// isInert is the fuzz target's own reading of what a terminal shows as it is: valid UTF-8 without control or
// format characters but tab and newline.
func isInert(p []byte) bool {
	if !utf8.Valid(p) {
		return false
	}
	for _, r := range string(p) {
		if r != '\t' && r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
			return false
		}
	}
	return true
}
