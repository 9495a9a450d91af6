package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// chromium is Debian's chromium, which hack/install-deps.sh (make test's setup) installs when it is missing.
func chromium(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not installed: run hack/install-deps.sh (make test does)")
	}
	return path
}

// render loads the page in headless Chromium: the DOM after rendering, a screenshot, and the console messages.
func render(t *testing.T, page, screenshot string) (dom string, console []string) {
	t.Helper()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
		"--window-size=1100,1600"}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(chromium(t), append(args, "--dump-dom", "file://"+page)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium --dump-dom %s: %v\n%s", page, err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") {
			console = append(console, line)
		}
	}
	shot := exec.Command(chromium(t), append(args, "--screenshot="+screenshot, "file://"+page)...)
	if out, err := shot.CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot %s: %v\n%s", page, err, out)
	}
	return stdout.String(), console
}

// data sums an attribute over the elements that carry it, and counts them.
func data(dom, attribute string) (count, sum int) {
	for _, m := range regexp.MustCompile(attribute+`="(\d+)"`).FindAllStringSubmatch(dom, -1) {
		n, _ := strconv.Atoi(m[1])
		count, sum = count+1, sum+n
	}
	return count, sum
}

// chart is the page's chart of that ID, "" when it has none.
func chart(dom, id string) string {
	return regexp.MustCompile(`data-chart="` + id + `"[\s\S]*?</svg>`).FindString(dom)
}

// listItems counts the items of the page's list of that ID.
func listItems(dom, id string) int {
	_, list, _ := strings.Cut(dom, `<ul data-list="`+id+`">`)
	list, _, _ = strings.Cut(list, "</ul>")
	return strings.Count(list, "<li>")
}

// --report writes one self-contained page per plan, which a real Chromium renders without console messages and
// which shows what the plan says: every seed before and after and the shoots placed outside their region
// (schedule), the moves and in words why seeds shed shoots and why the plan is incomplete (rebalance), the new
// seeds per region (capacity), and the unschedulable shoots by reason.
func TestReportPagesRenderInChromium(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		command string
		args    []string
		check   func(t *testing.T, dom string, plan map[string]any)
	}{
		{command: "schedule", args: []string{"--strategy", "MinimalDistance"}, check: func(t *testing.T, dom string, plan map[string]any) {
			seeds, _ := data(dom, "data-allocatable")
			_, after := data(dom, "data-after")
			_, before := data(dom, "data-before")
			placed := len(plan["placements"].([]any))
			_, unschedulable := data(chart(dom, "reasons"), "data-count")
			if seeds != 40 || after-before != placed || unschedulable != len(plan["unschedulable"].([]any)) {
				t.Errorf("page: %d seeds, %d placed, %d unschedulable; plan: 40 seeds, %d placed, %d unschedulable",
					seeds, after-before, unschedulable, placed, len(plan["unschedulable"].([]any)))
			}
			elsewhere := 0
			for _, p := range plan["placements"].([]any) {
				if p := p.(map[string]any); p["shootRegion"] != p["seedRegion"] {
					elsewhere++
				}
			}
			if _, shown := data(chart(dom, "elsewhere"), "data-count"); shown != elsewhere || elsewhere == 0 {
				t.Errorf("page shows %d shoots placed outside their region, the plan places %d", shown, elsewhere)
			}
		}},
		{command: "rebalance", check: func(t *testing.T, dom string, plan map[string]any) {
			_, moves := data(chart(dom, "moves"), "data-count")
			if moves != len(plan["moves"].([]any)) || moves == 0 {
				t.Errorf("page shows %d moves, the plan has %d", moves, len(plan["moves"].([]any)))
			}
			reasons, migrating := 0, 0
			for _, seed := range plan["seeds"].([]any) {
				if why, ok := seed.(map[string]any)["reasons"].([]any); ok {
					reasons += len(why)
				}
				if seed.(map[string]any)["migratingAway"].(float64) > 0 {
					migrating++
				}
			}
			if got := listItems(dom, "migrating-away"); got != migrating || migrating == 0 {
				t.Errorf("page names %d seeds with migrations moving away, the plan %d", got, migrating)
			}
			incomplete := len(strings.Split(plan["message"].(string), "\n"))
			if got := listItems(dom, "seed-reasons"); got != reasons || reasons == 0 {
				t.Errorf("page says why seeds shed shoots %d times, the plan %d", got, reasons)
			}
			if got := listItems(dom, "incomplete"); got != incomplete || plan["complete"].(bool) {
				t.Errorf("page says why the plan is incomplete in %d lines, the plan in %d", got, incomplete)
			}
		}},
		{command: "capacity", check: func(t *testing.T, dom string, plan map[string]any) {
			if !strings.Contains(dom, `data-chart="new-seeds"`) {
				t.Error("no chart of new seeds")
			}
			_, newSeeds := data(chart(dom, "new-seeds"), "data-count")
			if want := int(plan["newSeeds"].(float64)); newSeeds != want || want == 0 {
				t.Errorf("page shows %d new seeds, the answer %d", newSeeds, want)
			}
		}},
	} {
		t.Run(tc.command, func(t *testing.T) {
			page := filepath.Join(dir, tc.command+".html")
			out, err := run(t, append([]string{tc.command, "--report", page, "-o", "json"}, tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			var plan map[string]any
			if err := json.Unmarshal([]byte(out), &plan); err != nil {
				t.Fatal(err)
			}
			html, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			if external := regexp.MustCompile(`(?i)(src|href)\s*=|url\(|<script|<link`).FindString(string(html)); external != "" {
				t.Errorf("the page is not self-contained: %q", external)
			}
			screenshot := filepath.Join(dir, tc.command+".png")
			dom, console := render(t, page, screenshot)
			if len(console) > 0 {
				t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
			}
			if shot, err := os.ReadFile(screenshot); err != nil || !bytes.HasPrefix(shot, []byte("\x89PNG")) || len(shot) < 10_000 {
				t.Errorf("screenshot %s: %d bytes, %v", screenshot, len(shot), err)
			}
			tc.check(t, dom, plan)
		})
	}
}
