package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// An unschedulable shoot's line says in kube-scheduler's words how many seeds each predicate excluded; Gardener's
// message, which names every seed, is in wide output only.
func TestUnschedulableShootsSummarizeTheirSeeds(t *testing.T) {
	gardener := "0/8 seed cluster candidate(s) are eligible for scheduling: {a => seed does not have available capacity for shoots, ...}"
	r := &report.Report{
		Window: report.WindowReport{Seeds: 8},
		Unschedulable: []model.Unschedulable{{Shoot: "garden-dev/web", Reason: "Capacity", Message: gardener,
			Rejections: []model.SeedCount{{Predicate: "Capacity", Seeds: 6}, {Predicate: "Tolerations", Seeds: 2}}}},
	}
	for _, tc := range []struct {
		format, want, notWant string
	}{
		{format: "table", want: "garden-dev/web  Capacity  0/8 seeds: 6 Capacity, 2 Tolerations\n", notWant: gardener},
		{format: "wide", want: "garden-dev/web  Capacity  0/8 seeds: 6 Capacity, 2 Tolerations  " + gardener + "\n"},
		{format: "json", want: `"rejections": [`},
	} {
		var out bytes.Buffer
		if err := r.Print(&out, report.Output{Format: tc.format}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tc.want) || (tc.notWant != "" && strings.Contains(out.String(), tc.notWant)) {
			t.Errorf("%s output:\n%s\nwant it to contain %q (and not %q)", tc.format, out.String(), tc.want, tc.notWant)
		}
	}
}
