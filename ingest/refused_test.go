package ingest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seedplan/seedplan/ingest"
)

// A load that refuses some of its input reports every refusal at once, in the input's order, each on a line that
// names file, document, object and field, so that an operator mends a landscape in one round; up to 32, as a
// file of something else entirely would otherwise be answered line by line.
func TestLoadReportsEveryRefusal(t *testing.T) {
	shoot := func(name string) string { return strings.Replace(shootYAML, "name: web", "name: "+name, 1) }
	broken := func(name string) string {
		return strings.Replace(shoot(name), "region: eu-central-1", "region: [eu-central-1]", 1)
	}
	refusedRegion := func(where, name string) string {
		return where + ": Shoot garden-dev/" + name + ": field spec.region: must be a string, not a list"
	}
	list := func(items ...string) string {
		return `{"apiVersion":"v1","kind":"List","items":[` + strings.Join(items, ",") + "]}"
	}
	many := make([]string, 40)
	for i := range many {
		many[i] = jsonOf(broken(fmt.Sprintf("b%d", i)))
	}
	manyRefused := func(where string) []string {
		var lines []string
		for i := range 32 {
			lines = append(lines, refusedRegion(fmt.Sprintf("%s: List item %d", where, i), fmt.Sprintf("b%d", i)))
		}
		return append(lines, "stopped after the first 32 refusals: the rest of the landscape was not read")
	}
	for _, tc := range []struct {
		name  string
		files map[string]string // in the directory loaded; "" a path given after it that does not exist
		want  []string          // each line, the directory's path left out
	}{
		{
			name: "objects, documents, files and paths",
			files: map[string]string{
				"a-seeds.yaml":  seedYAML + "---\n" + strings.Replace(seedYAML, "name: aws-eu1", "name: aws_eu2", 1),
				"b-shoots.json": list(jsonOf(shoot("ok")), jsonOf(broken("one")), jsonOf(shoot("ok")), jsonOf(broken("two"))),
				"c-broken.yaml": shoot("three") + "---\nkind: [\n---\n" + broken("four"),
				"":              "",
			},
			want: []string{
				`a-seeds.yaml: document 2: Seed aws_eu2: field metadata.name: invalid value "aws_eu2": `,
				refusedRegion("b-shoots.json: document 1: List item 1", "one"),
				"b-shoots.json: document 1: List item 2: Shoot garden-dev/ok: duplicate object, read before at ",
				refusedRegion("b-shoots.json: document 1: List item 3", "two"),
				"c-broken.yaml: document 2: not valid YAML or JSON: ",
				refusedRegion("c-broken.yaml: document 3", "four"),
				"landscape missing.yaml: no such file or directory",
			},
		},
		{
			name:  "the items of a List in a List, read strictly",
			files: map[string]string{"nested.json": list(list(jsonOf(broken("one")), jsonOf(broken("two"))))},
			want: []string{
				refusedRegion("nested.json: document 1: List item 0: List item 0", "one"),
				refusedRegion("nested.json: document 1: List item 0: List item 1", "two"),
			},
		},
		{
			name: "a landscape given twice: a refusal a document, not one an object",
			files: map[string]string{
				"a-shoots.json": list(jsonOf(shoot("one")), jsonOf(shoot("two")), jsonOf(shoot("three"))),
				"b-shoots.json": list(jsonOf(shoot("one")), jsonOf(shoot("four")), jsonOf(shoot("two")),
					jsonOf(shoot("three")), jsonOf(shoot("four"))),
				"c-shoots.yaml": shoot("four") + "---\n" + shoot("five") + "---\n" + shoot("one") + "---\n" + shoot("five"),
			},
			want: []string{
				"b-shoots.json: document 1: List item 0: Shoot garden-dev/one: duplicate object, read before at " +
					"a-shoots.json: document 1: List item 0 (and 2 more objects after it, each read before in a-shoots.json: document 1)",
				"b-shoots.json: document 1: List item 4: Shoot garden-dev/four: duplicate object, read before at " +
					"b-shoots.json: document 1: List item 1",
				"c-shoots.yaml: document 1: Shoot garden-dev/four: duplicate object, read before at b-shoots.json: document 1: List item 1",
				"c-shoots.yaml: document 3: Shoot garden-dev/one: duplicate object, read before at a-shoots.json: document 1: List item 0",
				"c-shoots.yaml: document 4: Shoot garden-dev/five: duplicate object, read before at c-shoots.yaml: document 2",
			},
		},
		{
			name:  "more than 32",
			files: map[string]string{"many.json": list(many...), "z-later.yaml": broken("later")},
			want:  manyRefused("many.json: document 1"),
		},
		{
			name:  "more than 32 documents",
			files: map[string]string{"many.yaml": strings.Repeat("kind: [\n---\n", 40), "z-later.yaml": broken("later")},
			want: append(slices.Repeat([]string{"many.yaml: document "}, 32),
				"stopped after the first 32 refusals: the rest of the landscape was not read"),
		},
		{
			name:  "more than 32 in a List in a List",
			files: map[string]string{"many.json": list(list(many...)), "z-later.yaml": broken("later")},
			want:  manyRefused("many.json: document 1: List item 0"),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			paths := []string{dir}
			for name, content := range tc.files {
				if name == "" {
					paths = append(paths, filepath.Join(dir, "missing.yaml"))
					continue
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			l, err := ingest.LoadPaths(paths)
			if err == nil || l != nil {
				t.Fatalf("want an error and no landscape, got %v and %v", err, l)
			}
			got := strings.Split(strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""), "\n")
			if len(got) != len(tc.want) {
				t.Fatalf("%d lines, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i, line := range got {
				if !strings.HasPrefix(line, tc.want[i]) {
					t.Errorf("line %d: %s\nwant prefix: %s", i+1, line, tc.want[i])
				}
			}
		})
	}
}
