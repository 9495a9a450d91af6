package ingest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	seedmanagementv1alpha1 "github.com/gardener/gardener/pkg/apis/seedmanagement/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/seedplan/seedplan/bench/generator"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/fixture"
	"github.com/seedplan/seedplan/model"
)

const seedYAML = `apiVersion: core.gardener.cloud/v1beta1
kind: Seed
metadata:
  name: aws-eu1
spec:
  provider: {type: aws, region: eu-central-1, zones: [eu-central-1a]}
  networks: {pods: 10.243.0.0/16, services: 10.244.0.0/16}
status:
  allocatable: {shoots: "100"}
`

const shootYAML = `apiVersion: core.gardener.cloud/v1beta1
kind: Shoot
metadata: {name: web, namespace: garden-dev}
spec:
  cloudProfile: {kind: CloudProfile, name: aws}
  region: eu-central-1
  provider: {type: aws}
`

const managedSeedSetYAML = "apiVersion: seedmanagement.gardener.cloud/v1alpha1\nkind: ManagedSeedSet\nmetadata: {namespace: garden, name: edge}\nspec: {replicas: 2}\n"

func counts(l *ingest.Landscape) string {
	o := l.Objects
	return strings.Join([]string{
		"seeds=" + itoa(len(o.Seeds)), "shoots=" + itoa(len(o.Shoots)), "profiles=" + itoa(len(o.CloudProfiles)),
		"nsprofiles=" + itoa(len(o.NamespacedCloudProfiles)), "projects=" + itoa(len(o.Projects)), "configmaps=" + itoa(len(o.ConfigMaps)),
	}, " ") + setCount(o.ManagedSeedSets)
}

// setCount shows the ManagedSeedSets read, when there are any.
func setCount(sets []*seedmanagementv1alpha1.ManagedSeedSet) string {
	if len(sets) == 0 {
		return ""
	}
	return " managedseedsets=" + itoa(len(sets))
}

func itoa(n int) string { return strconv.Itoa(n) }

// jsonOf is a YAML manifest as compact JSON.
func jsonOf(manifest string) string {
	data, err := yaml.YAMLToJSON([]byte(manifest))
	if err != nil {
		panic(err)
	}
	return string(data)
}

// decodeFormats is every form of input kubectl accepts, each loading completely; FuzzDecode starts from them.
var decodeFormats = []struct {
	name, data, want string
	warnings         int
}{
	{name: "multi-document YAML", data: seedYAML + "---\n" + shootYAML, want: "seeds=1 shoots=1 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "comment-only documents are ignored", data: "# header\n---\n" + seedYAML + "---\n# trailer\n", want: "seeds=1 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "allocatable 2^63-1 written out", data: strings.Replace(seedYAML, `shoots: "100"`, `shoots: "9223372036854775807"`, 1),
		want: "seeds=1 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "a List of Lists", data: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n  - " +
		strings.ReplaceAll(strings.TrimSpace(seedYAML), "\n", "\n    ") + "\n",
		want: "seeds=1 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "YAML documents ended by ...", data: seedYAML + "...\n" + shootYAML + "...\n---\n" + strings.Replace(shootYAML, "web", "api", 1) + "...\n",
		want: "seeds=1 shoots=2 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "a taint-effects annotation that does not parse (the snapshot's to warn of)", data: strings.Replace(seedYAML, "metadata:\n  name: aws-eu1\n",
		"metadata:\n  name: aws-eu1\n  annotations: {seedplan.gardener.cloud/taint-effects: \"a=Sometimes\"}\n", 1),
		want: "seeds=1 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "a JSON object and a comment after it", data: "# saved by hand\n" + jsonOf(seedYAML) + "\n# the end\n", want: "seeds=1 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "a JSON stream of objects", data: jsonOf(seedYAML) + jsonOf(shootYAML) + "\n" + jsonOf(strings.Replace(shootYAML, "web", "api", 1)),
		want: "seeds=1 shoots=2 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "a JSON List as kubectl prints it, ended by a newline", data: "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"metadata\": {\"resourceVersion\": \"\"},\n  \"items\": [\n" +
		jsonOf(seedYAML) + ",\n" + jsonOf(shootYAML) + "\n  ]\n}\n",
		want: "seeds=1 shoots=1 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "JSON with an escaped surrogate pair", data: strings.Replace(jsonOf(seedYAML), `"metadata":{`, `"metadata":{"annotations":{"note":"\ud83c\udf31"},`, 1),
		want: "seeds=1 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "kind: List as kubectl prints it", data: "apiVersion: v1\nkind: List\nmetadata: {resourceVersion: \"\"}\nitems:\n- " +
		strings.ReplaceAll(strings.TrimSpace(seedYAML), "\n", "\n  ") + "\n- " + strings.ReplaceAll(strings.TrimSpace(shootYAML), "\n", "\n  ") + "\n",
		want: "seeds=1 shoots=1 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "typed SeedList items without kind", data: "apiVersion: core.gardener.cloud/v1beta1\nkind: SeedList\nitems:\n- metadata: {name: a}\n  spec: {provider: {type: aws, region: r}}\n",
		want: "seeds=1 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=0"},
	{name: "typed SeedList items without kind, in a List the strict decoder reads for a field no List has",
		data: "apiVersion: core.gardener.cloud/v1beta1\nkind: SeedList\nnote: x\nitems:\n- metadata: {name: a}\n  spec: {provider: {type: aws, region: r}}\n",
		want: "seeds=1 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=0", warnings: 1},
	{name: "JSON", data: `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Project","metadata":{"name":"dev"},"spec":{"namespace":"garden-dev"}}`,
		want: "seeds=0 shoots=0 profiles=0 nsprofiles=0 projects=1 configmaps=0"},
	{name: "ConfigMaps", data: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r, namespace: garden}\ndata: {eu-central-1: 'eu-west-1: 5'}\n",
		want: "seeds=0 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=1"},
	{name: "ManagedSeedSets, for capacity planning", data: managedSeedSetYAML + "---\n" + seedYAML,
		want: "seeds=1 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=0 managedseedsets=1"},
	{name: "unknown kinds are skipped with a warning", data: "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: garden}\n---\n" + seedYAML,
		want: "seeds=1 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=0", warnings: 1},
	{name: "unknown fields are warnings", data: strings.Replace(seedYAML, "spec:\n", "spec:\n  futureField: 1\n", 1),
		want: "seeds=1 shoots=0 profiles=0 nsprofiles=0 projects=0 configmaps=0", warnings: 1},
}

func TestDecodeFormats(t *testing.T) {
	for _, tc := range decodeFormats {
		t.Run(tc.name, func(t *testing.T) {
			l := &ingest.Landscape{}
			if err := l.Decode("in.yaml", []byte(tc.data)); err != nil {
				t.Fatal(err)
			}
			if got := counts(l); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
			if len(l.Warnings) != tc.warnings {
				t.Fatalf("warnings %q, want %d", l.Warnings, tc.warnings)
			}
		})
	}
}

// laughs is the billion laughs in flow style: nine levels of ten aliases of the level before, 10^9 "lol"s
// in a few hundred bytes.
var laughs = func() string {
	levels := []string{"&l0 [lol]"}
	for i := 1; i <= 9; i++ {
		levels = append(levels, fmt.Sprintf("&l%d [%s]", i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), 10), ",")))
	}
	return "[" + strings.Join(levels, ", ") + "]"
}()

// hostileDocuments is one case of each class of malformed or hostile input; each must give one error line naming
// file, document, object and field. FuzzDecode starts from them.
var hostileDocuments = []struct{ name, data, want string }{
	// Not yet up to the table's rule: the YAML library's error names neither the ConfigMap nor the line.
	{name: "a key YAML cannot give JSON beside a number with a point", data: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r}\ndata: {x: 1.5}\n? [a]\n: b\n",
		want: "in.yaml: document 1: not valid YAML or JSON: yaml: invalid map key"},
	{name: "a list, not an object", data: "- kind: Seed\n- kind: Shoot\n",
		want: "in.yaml: document 1: not a Kubernetes object (expected a mapping with apiVersion and kind)"},
	{name: "a scalar, not an object", data: "---\nSeed\n",
		want: "in.yaml: document 1: not a Kubernetes object (expected a mapping with apiVersion and kind)"},
	{name: "wrong type", data: strings.Replace(seedYAML, "zones: [eu-central-1a]", "zones: eu-central-1a", 1),
		want: "in.yaml: document 1: Seed aws-eu1: field spec.provider.zones: must be a list, not a string"},
	{name: "wrong type in a List item", data: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: core.gardener.cloud/v1beta1\n  kind: Shoot\n  metadata: {name: web, namespace: dev}\n  spec: {region: 5}\n",
		want: "in.yaml: document 1: List item 0: Shoot dev/web: field spec.region: must be a string, not a number"},
	{name: "unparsable quantity", data: strings.Replace(seedYAML, `shoots: "100"`, `shoots: "lots"`, 1),
		want: "in.yaml: document 1: Seed aws-eu1: field status.allocatable.shoots: quantities must match the regular expression"},
	{name: "negative allocatable", data: strings.Replace(seedYAML, `shoots: "100"`, `shoots: "-3"`, 1),
		want: "in.yaml: document 1: Seed aws-eu1: field status.allocatable.shoots: must not be negative, is -3"},
	{name: "absurd allocatable", data: strings.Replace(seedYAML, `shoots: "100"`, `shoots: "1e30"`, 1),
		want: "in.yaml: document 1: Seed aws-eu1: field status.allocatable.shoots: must be a whole number of shoots below 2^63, is 1e30"},
	{name: "allocatable 2^63", data: strings.Replace(seedYAML, `shoots: "100"`, `shoots: "9223372036854775808"`, 1),
		want: "in.yaml: document 1: Seed aws-eu1: field status.allocatable.shoots: must be a whole number of shoots below 2^63, is 9223372036854775808"},
	{name: "fractional allocatable", data: strings.Replace(seedYAML, `shoots: "100"`, `shoots: "2500m"`, 1),
		want: "in.yaml: document 1: Seed aws-eu1: field status.allocatable.shoots: must be a whole number of shoots below 2^63, is 2500m"},
	{name: "text after a JSON object", data: jsonOf(seedYAML) + " saved",
		want: "in.yaml: document 2: not valid JSON: line 1, column 280: invalid character 's' at start of value"},
	{name: "text after JSON objects", data: jsonOf(seedYAML) + "\n" + jsonOf(shootYAML) + "\nerror: the server has asked for the client to provide credentials\n",
		want: "in.yaml: document 3: not valid JSON: line 3, column 1: invalid character 'e' at start of value"},
	{name: "text after a list", data: "[" + jsonOf(seedYAML) + "] x",
		want: "in.yaml: document 2: not valid JSON: line 1, column 282: invalid character 'x' at start of value"},
	{name: "text after a YAML flow mapping", data: "{kind: Seed, metadata: {name: a}} x",
		want: "in.yaml: document 1: not valid YAML or JSON: something follows the end of the object the document is"},
	{name: "an empty List item", data: "apiVersion: v1\nkind: List\nitems:\n-\n- " + strings.ReplaceAll(strings.TrimSpace(seedYAML), "\n", "\n  ") + "\n",
		want: "in.yaml: document 1: List item 0: empty (null), not an object"},
	{name: "a name YAML reads as a boolean", data: strings.Replace(shootYAML, "name: web", "name: y", 1),
		want: "in.yaml: document 1: Shoot: field metadata.name: must be a string, not a boolean"},
	{name: "a kind that is a number", data: strings.Replace(shootYAML, "kind: Shoot", "kind: 5", 1),
		want: "in.yaml: document 1: field kind: must be a string, not a number"},
	{name: "a shoot name longer than a DNS label", data: strings.Replace(shootYAML, "name: web", "name: "+strings.Repeat("w", 64), 1),
		want: "in.yaml: document 1: Shoot garden-dev/" + strings.Repeat("w", 64) + ": field metadata.name: must be no more than 63 characters"},
	{name: "a 100,000-character seed name", data: strings.Replace(seedYAML, "name: aws-eu1", "name: "+strings.Repeat("s", 100000), 1),
		want: "in.yaml: document 1: Seed " + strings.Repeat("s", 64) + "…(100000 characters): field metadata.name: must be no more than 63 characters"},
	{name: "a label's value", data: strings.Replace(seedYAML, "  name: aws-eu1\n", "  name: aws-eu1\n  labels: {seed.gardener.cloud/provider: 5}\n", 1),
		want: "in.yaml: document 1: Seed aws-eu1: field metadata.labels[seed.gardener.cloud/provider]: must be a string, not a number"},
	{name: "a NaN as a label's value", data: strings.Replace(seedYAML, "  name: aws-eu1\n", "  name: aws-eu1\n  labels: {seed.gardener.cloud/provider: .nan}\n", 1),
		want: "in.yaml: document 1: Seed aws-eu1: field metadata.labels[seed.gardener.cloud/provider]: NaN and infinities are not numbers JSON holds"},
	{name: "a shoot name that is no DNS label", data: strings.Replace(shootYAML, "name: web", `name: "Bad Name"`, 1),
		want: `in.yaml: document 1: Shoot garden-dev/Bad Name: field metadata.name: invalid value "Bad Name": a lowercase RFC 1123 label must consist of`},
	{name: "a seed name ending in a dash", data: strings.Replace(seedYAML, "name: aws-eu1", "name: aws-eu1-", 1),
		want: `in.yaml: document 1: Seed aws-eu1-: field metadata.name: invalid value "aws-eu1-": a lowercase RFC 1123 label`},
	{name: "a namespace that is no DNS label", data: strings.Replace(shootYAML, "namespace: garden-dev", "namespace: garden_dev", 1),
		want: `in.yaml: document 1: Shoot garden_dev/web: field metadata.namespace: invalid value "garden_dev": a lowercase RFC 1123 label`},
	{name: "a plan of seedplan schedule", data: `{"window": {"pending": 1}, "placements": [], "unschedulable": [], "seeds": []}`,
		want: "in.yaml: document 1: object without kind: it is the output of seedplan schedule, not a manifest; keep it out of the landscape's files and directories"},
	{name: "moves of seedplan rebalance, as YAML", data: "moves: []\nlowerBound: 0\n",
		want: "in.yaml: document 1: object without kind: it is the output of seedplan rebalance, not a manifest"},
	{name: "a 100,000-character region", data: strings.Replace(shootYAML, "region: eu-central-1", "region: "+strings.Repeat("r", 100000), 1),
		want: "in.yaml: document 1: Shoot garden-dev/web: field spec.region: must be no more than 253 characters (a region ConfigMap key), is 100000"},
	{name: "a ManagedSeedSet twice", data: managedSeedSetYAML + "---\n" + managedSeedSetYAML,
		want: "in.yaml: document 2: ManagedSeedSet garden/edge: duplicate object, read before at in.yaml: document 1"},
	{name: "a ManagedSeedSet without namespace", data: strings.Replace(managedSeedSetYAML, "namespace: garden, ", "", 1),
		want: "in.yaml: document 1: ManagedSeedSet edge: field metadata.namespace: required"},
	{name: "missing required field", data: strings.Replace(shootYAML, "  region: eu-central-1\n", "", 1),
		want: "in.yaml: document 1: Shoot garden-dev/web: field spec.region: required"},
	{name: "missing namespace", data: strings.Replace(shootYAML, ", namespace: garden-dev", "", 1),
		want: "in.yaml: document 1: Shoot web: field metadata.namespace: required"},
	{name: "second document broken", data: seedYAML + "---\nkind: [\n",
		want: "in.yaml: document 2: not valid YAML or JSON"},
	{name: "aliases beyond the input budget", data: seedYAML + "---\n" + strings.Replace(shootYAML, "spec:\n", "spec:\n  laughs: "+laughs+"\n", 1),
		want: "in.yaml: document 2: Shoot garden-dev/web: beyond the input budget: its aliases expand it to more than"},
	{name: "JSON nesting beyond the input budget", data: strings.Replace(jsonOf(seedYAML), `"spec":{`, `"spec":{"deep":`+strings.Repeat("[", 200)+strings.Repeat("]", 200)+`,`, 1),
		want: "in.yaml: document 1: Seed aws-eu1: beyond the input budget: collections nest more than 100 deep"},
	{name: "JSON nesting deeper than the YAML parser reads (no parser reads its object's name)", data: strings.Replace(jsonOf(seedYAML), `"spec":{`, `"spec":{"deep":`+strings.Repeat("[", 20000)+strings.Repeat("]", 20000)+`,`, 1),
		want: "in.yaml: document 1: beyond the input budget: collections nest more than 100 deep"},
	{name: "YAML nesting deeper than the YAML parser reads", data: strings.Replace(seedYAML, "spec:\n", "spec:\n  deep: "+strings.Repeat("[", 20000)+strings.Repeat("]", 20000)+"\n", 1),
		want: "in.yaml: document 1: beyond the input budget: collections nest more than 100 deep"},
	{name: "JSON nesting beyond the input budget in a List item", data: `{"apiVersion":"v1","kind":"List","items":[` + jsonOf(shootYAML) + "," +
		strings.Replace(jsonOf(seedYAML), `"spec":{`, `"spec":{"deep":`+strings.Repeat("[", 99)+strings.Repeat("]", 99)+`,`, 1) + `]}`,
		want: "in.yaml: document 1: List item 1: Seed aws-eu1: beyond the input budget: collections nest more than 100 deep"},
	{name: "YAML nesting beyond the input budget in a List item", data: "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSpace(shootYAML), "\n", "\n  ") +
		"\n- " + strings.ReplaceAll(strings.Replace(strings.TrimSpace(seedYAML), "spec:\n", "spec:\n  deep: "+strings.Repeat("[", 99)+strings.Repeat("]", 99)+"\n", 1), "\n", "\n  ") + "\n",
		want: "in.yaml: document 1: List item 1: Seed aws-eu1: beyond the input budget: collections nest more than 100 deep"},
	{name: "YAML nesting beyond the input budget in a SeedList item without kind", data: "apiVersion: core.gardener.cloud/v1beta1\nkind: SeedList\nitems:\n- metadata: {name: a}\n  spec: {deep: " +
		strings.Repeat("[", 99) + strings.Repeat("]", 99) + "}\n",
		want: "in.yaml: document 1: SeedList item 0: Seed a: beyond the input budget: collections nest more than 100 deep"},
	{name: "nesting beyond the input budget", data: strings.Replace(seedYAML, "spec:\n", "spec:\n  deep: "+strings.Repeat("[", 500)+strings.Repeat("]", 500)+"\n", 1),
		want: "in.yaml: document 1: Seed aws-eu1: beyond the input budget: collections nest more than 100 deep"},
	{name: "NaN", data: strings.Replace(seedYAML, `shoots: "100"`, `shoots: .nan`, 1),
		want: "in.yaml: document 1: Seed aws-eu1: field status.allocatable.shoots: NaN and infinities are not numbers JSON holds"},
	{name: "an infinity in a list", data: strings.Replace(seedYAML, "zones: [eu-central-1a]", "zones: [eu-central-1a, -.inf]", 1),
		want: "in.yaml: document 1: Seed aws-eu1: field spec.provider.zones[1]: NaN and infinities"},
	{name: "a timestamp", data: strings.Replace(seedYAML, "  name: aws-eu1\n", "  name: aws-eu1\n  creationTimestamp: yesterday\n", 1),
		want: `in.yaml: document 1: Seed aws-eu1: field metadata.creationTimestamp: parsing time "yesterday"`},
	{name: "of two timestamps, the one the error is about", data: strings.Replace(seedYAML, "  name: aws-eu1\n", "  name: aws-eu1\n  creationTimestamp: yesterday\n  deletionTimestamp: tomorrow\n", 1),
		want: `in.yaml: document 1: Seed aws-eu1: field metadata.creationTimestamp: parsing time "yesterday"`},
	{name: "a wrong type in a list's item", data: strings.Replace(seedYAML, "zones: [eu-central-1a]", "zones: [eu-central-1a, 5]", 1),
		want: "in.yaml: document 1: Seed aws-eu1: field spec.provider.zones[1]: must be a string, not a number"},
	{name: "base64 data", data: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: garden}\nbinaryData: {x: '!!!'}\n",
		want: "in.yaml: document 1: ConfigMap garden/a: field binaryData.x: illegal base64 data"},
	{name: "a duration", data: strings.Replace(shootYAML, "spec:\n", "spec:\n  kubernetes: {kubeControllerManager: {nodeMonitorGracePeriod: soon}}\n", 1),
		want: "in.yaml: document 1: Shoot garden-dev/web: field spec.kubernetes.kubeControllerManager.nodeMonitorGracePeriod: "},
	{name: "a duration as a number: a duration's words", data: strings.Replace(shootYAML, "spec:\n", "spec:\n  kubernetes: {kubeControllerManager: {nodeMonitorGracePeriod: 40}}\n", 1),
		want: `in.yaml: document 1: Shoot garden-dev/web: field spec.kubernetes.kubeControllerManager.nodeMonitorGracePeriod: must be a duration such as "1m30s", not a number`},
	{name: "a timestamp as a number: a time's words", data: strings.Replace(seedYAML, "  name: aws-eu1\n", "  name: aws-eu1\n  creationTimestamp: 1764000000\n", 1),
		want: `in.yaml: document 1: Seed aws-eu1: field metadata.creationTimestamp: must be a time such as "2026-01-31T12:00:00Z", not a number`},
	{name: "a number or a percentage given a list", data: strings.Replace(shootYAML, "provider: {type: aws}", "provider: {type: aws, workers: [{name: a, machine: {type: m5}, maximum: 2, minimum: 1, maxSurge: [1]}]}", 1),
		want: `in.yaml: document 1: Shoot garden-dev/web: field spec.provider.workers[0].maxSurge: must be a whole number or a string such as "25%", not a list`},
	{name: "a duplicate object names both places", data: seedYAML + "---\n" + shootYAML + "---\n" + seedYAML,
		want: "in.yaml: document 3: Seed aws-eu1: duplicate object, read before at in.yaml: document 1"},
	{name: "a duplicate in a larger List later names the first place", data: seedYAML + "---\n" + `{"apiVersion":"v1","kind":"List","items":[` +
		jsonOf(shootYAML) + "," + strings.Replace(jsonOf(shootYAML), `"web"`, `"api"`, 1) + "," + jsonOf(seedYAML) + `]}`,
		want: "in.yaml: document 2: List item 2: Seed aws-eu1: duplicate object, read before at in.yaml: document 1"},
	{name: "a duplicate within a List names both items", data: `{"apiVersion":"v1","kind":"List","items":[` + jsonOf(seedYAML) + "," + jsonOf(shootYAML) + "," + jsonOf(seedYAML) + `]}`,
		want: "in.yaml: document 1: List item 2: Seed aws-eu1: duplicate object, read before at in.yaml: document 1: List item 0"},
	{name: "a kind seedplan reads, without apiVersion", data: strings.Replace(shootYAML, "apiVersion: core.gardener.cloud/v1beta1\n", "", 1),
		want: "in.yaml: document 1: Shoot garden-dev/web: field apiVersion: required"},
	{name: "a ManagedSeedSet without apiVersion", data: strings.Replace(managedSeedSetYAML, "apiVersion: seedmanagement.gardener.cloud/v1alpha1\n", "", 1),
		want: "in.yaml: document 1: ManagedSeedSet garden/edge: field apiVersion: required"},
	{name: "unsupported Gardener version", data: strings.Replace(seedYAML, "v1beta1", "v1alpha1", 1),
		want: `in.yaml: document 1: Seed aws-eu1: apiVersion "core.gardener.cloud/v1alpha1" is not supported`},
}

// A malformed manifest gives one error line naming file, object and field, and nothing is loaded.
func TestDecodeErrorsNameFileObjectAndField(t *testing.T) {
	for _, tc := range hostileDocuments {
		t.Run(tc.name, func(t *testing.T) {
			l := &ingest.Landscape{}
			err := l.Decode("in.yaml", []byte(tc.data))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error = %v\nwant prefix %s", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans several lines: %q", err)
			}
		})
	}
}

// A YAML error names the line of the file, whichever document it is in: the line the document alone in a file
// would name, counted on by the lines before it (the YAML parser counts from the document's start, as kubectl's
// message does). Where the error is a broken line's, that is the broken line.
func TestYAMLErrorsNameTheLineOfTheFile(t *testing.T) {
	broken := "metadata:\n  name: b\n   namespace: garden\n" // "mapping values are not allowed" on its last line
	for _, tc := range []struct {
		name, before, document string
		// marker is the text of the line the error names, if it names the broken line.
		marker string
	}{
		{"the first document", "", "kind: ConfigMap\n" + broken, "   namespace: garden"},
		{"the second document", seedYAML + "---\n", "kind: ConfigMap\n" + broken, "   namespace: garden"},
		{"the third, after comments and a separator of its own", seedYAML + "---\n" + shootYAML + "---\n# a comment\n\n", "---\nkind: ConfigMap\n" + broken, "   namespace: garden"},
		{"a document after a document end", seedYAML + "...\n", "kind: ConfigMap\n" + broken, "   namespace: garden"},
		{"Windows line ends (the library's reader)", strings.ReplaceAll(seedYAML+"---\n", "\n", "\r\n"), strings.ReplaceAll("kind: ConfigMap\n"+broken, "\n", "\r\n"), "   namespace: garden\r"},
		{"an unclosed flow sequence", seedYAML + "---\n", "kind: ConfigMap\ndata: {a: [}\n", ""},
		{"something after a flow mapping (its parser's line inside seedplan's message)", seedYAML + "---\n", "{kind: ConfigMap}\nc: d\n", ""},
		{"an alias after a flow mapping (refused unmeasured, the parser's line inside the budget's message)", seedYAML + "---\n", "{kind: ConfigMap, metadata: &m {name: a}}\n*m\n", ""},
		{"a broken document with an alias (the decoder's words)", seedYAML + "---\n", "kind: ConfigMap\nmetadata: &m {name: a}\ndata: [*m\n", "data: [*m"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			alone := errorLine(t, tc.document)
			first := strings.Count(tc.before, "\n") + 1
			if got, want := errorLine(t, tc.before+tc.document), alone+first-1; got != want {
				t.Fatalf("the error names line %d of the file, want %d: line %d of the document, which begins on line %d", got, want, alone, first)
			}
			if lines := strings.Split(tc.before+tc.document, "\n"); tc.marker != "" && lines[alone+first-2] != tc.marker {
				t.Fatalf("line %d of the file is %q, want the broken line %q", alone+first-1, lines[alone+first-2], tc.marker)
			}
		})
	}
}

// An object without kind in a file of several documents is refused with the lines its document spans: most often a
// "---" or "..." line in the middle of an object, or of a List before its kind (kubectl writes it after the items),
// ended the document there, and the line after them is that one. A file of one document is its lines.
func TestAnObjectWithoutKindNamesItsLines(t *testing.T) {
	item := func(object string) string {
		return "- " + strings.ReplaceAll(strings.TrimSuffix(object, "\n"), "\n", "\n  ") + "\n"
	}
	list := "apiVersion: v1\nitems:\n" + item(seedYAML) + "---\n" + item(shootYAML) + "kind: List\nmetadata: {}\n"
	separator := slices.Index(strings.Split(list, "\n"), "---") + 1
	for _, tc := range []struct {
		name, data, want string
	}{
		{"a --- inside a List, before its kind", list, fmt.Sprintf("in.yaml: document 1: object without kind (the document is lines 1-%d of the file)", separator-1)},
		{"the same with Windows line ends", strings.ReplaceAll(list, "\n", "\r\n"), fmt.Sprintf("in.yaml: document 1: object without kind (the document is lines 1-%d of the file)", separator-1)},
		{"an object of one line after a document", seedYAML + "---\nmetadata: {name: a}\n", "in.yaml: document 2: object without kind (the document is line 11 of the file)"},
		{"a document end inside an object", "metadata: {name: a}\n...\n" + seedYAML, "in.yaml: document 1: object without kind (the document is line 1 of the file)"},
		{"a file of one document", "metadata: {name: a}\nspec: {}\n", "in.yaml: document 1: object without kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := (&ingest.Landscape{}).Decode("in.yaml", []byte(tc.data))
			if err == nil {
				t.Fatal("no error")
			}
			if first, _, _ := strings.Cut(err.Error(), "\n"); first != tc.want {
				t.Fatalf("error %q\nwant %q", first, tc.want)
			}
		})
	}
}

// A YAML error that names no line of its own — an unknown anchor, a key that is a collection, aliases beyond the
// input budget — names the lines its document spans when the file holds other documents: "document 7" sends no
// editor anywhere. An error that names a line names only that (TestYAMLErrorsNameTheLineOfTheFile).
func TestYAMLErrorsWithoutALineNameTheirDocumentsLines(t *testing.T) {
	second := func(document string) string { return seedYAML + "---\n" + document }
	span := func(document string) string {
		first := strings.Count(seedYAML, "\n") + 2
		return fmt.Sprintf("(the document is lines %d-%d of the file)", first, first+strings.Count(document, "\n")-1)
	}
	unknownAnchor := "kind: Project\nmetadata:\n  name: b\n  labels: *nope\n"
	mapKey := "kind: Project\nmetadata: {name: x}\nspec: {? [a]: 1}\n"
	laughing := "kind: Project\nmetadata: {name: c}\nspec:\n  laughs: " + laughs + "\n"
	for _, tc := range []struct {
		name, data string
		// want begins the error; suffix ends it, or is empty for an error that names no lines.
		want, suffix string
	}{
		{"an unknown anchor in the second document", second(unknownAnchor),
			"in.yaml: document 2: not valid YAML or JSON: yaml: unknown anchor 'nope' referenced", span(unknownAnchor)},
		{"a key that is a collection in the second document", second(mapKey), "in.yaml: document 2: not valid YAML or JSON: yaml: invalid map key", span(mapKey)},
		{"aliases beyond the budget in the second document", second(laughing), "in.yaml: document 2: Project c: beyond the input budget: its aliases expand it", span(laughing)},
		{"the first of two documents", mapKey + "---\n" + seedYAML, "in.yaml: document 1: not valid YAML or JSON: yaml: invalid map key",
			fmt.Sprintf("(the document is lines 1-%d of the file)", strings.Count(mapKey, "\n"))},
		{"a file of one document", mapKey, "in.yaml: document 1: not valid YAML or JSON: yaml: invalid map key", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := (&ingest.Landscape{}).Decode("in.yaml", []byte(tc.data))
			if err == nil {
				t.Fatal("no error")
			}
			message, _, _ := strings.Cut(err.Error(), "\n")
			if !strings.HasPrefix(message, tc.want) {
				t.Fatalf("error %q\nwant it to begin %q", message, tc.want)
			}
			if tc.suffix == "" && strings.Contains(message, "line") || !strings.HasSuffix(message, tc.suffix) {
				t.Fatalf("error %q\nwant it to end %q", message, tc.suffix)
			}
		})
	}
}

// A character the YAML parser refuses — bytes that are not UTF-8, as a file saved in Latin-1 holds; a control
// character, as a terminal's colours pasted in — is named where it is, in the file's lines, and by what it is: the
// parser's own error says neither.
func TestCharactersYAMLRefusesAreNamedWhereTheyAre(t *testing.T) {
	first := strings.Count(seedYAML, "\n") + 2 // the line the second document begins on
	const notYAML = "in.yaml: document %d: not valid YAML or JSON: yaml: "
	const notUTF8 = "; the file must be UTF-8, or UTF-16 behind its byte order mark)"
	for _, tc := range []struct {
		name, data, want string
	}{
		{"Latin-1", "kind: Project\nmetadata:\n  name: caf\xe9\n",
			fmt.Sprintf(notYAML, 1) + "incomplete UTF-8 octet sequence (line 3, column 12: byte 0xe9" + notUTF8},
		{"a terminal's escape in the second document", seedYAML + "---\nkind: Project\nmetadata:\n  name: \x1b[0mweb\n",
			fmt.Sprintf(notYAML+"control characters are not allowed (line %d, column 9: U+001B)", 2, first+2)},
		{"a NUL in a comment", "kind: Project\n# a\x00\nmetadata: {name: a}\n",
			fmt.Sprintf(notYAML, 1) + "control characters are not allowed (line 2, column 4: U+0000)"},
		{"a surrogate, which UTF-8 does not encode", "kind: Project\nmetadata:\n  name: a\xed\xa0\x80b\n",
			fmt.Sprintf(notYAML, 1) + "invalid Unicode character (line 3, column 10: byte 0xed" + notUTF8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := (&ingest.Landscape{}).Decode("in.yaml", []byte(tc.data))
			if err == nil {
				t.Fatal("no error")
			}
			if message, _, _ := strings.Cut(err.Error(), "\n"); message != tc.want && !strings.Contains(err.Error(), "\n"+tc.want) {
				t.Fatalf("error %q\nwant %q", err, tc.want)
			}
		})
	}
}

// A JSON document that neither the JSON reader nor the YAML parser reads is refused in the JSON reader's words,
// with the line and column of the fault: the YAML parser names no line on a file's first line, where all of a
// minified file is, and in a file that is a stream of JSON values (jq -c's output, kubectl get -o json of one
// object after another) it reads one document in the flow style, of which "something follows the end of the
// object" for a fault in any value after the first. A stream's values are its documents, as when it is read
// without fault. YAML in the flow style, and a stream inside one of several YAML documents, keep the YAML
// parser's words.
func TestBrokenJSONNamesTheLineAndColumnOfTheFault(t *testing.T) {
	project := func(name string) string {
		return `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"Project","metadata":{"name":"` + name + `"},"spec":{"namespace":"garden-` + name + `"}}` + "\n"
	}
	minified := jsonOf(seedYAML)
	comma := strings.Index(minified, `,"spec"`)
	for _, tc := range []struct {
		name, data string
		// want is the error, or how it begins when it ends in a YAML parser's words; "" when data loads.
		want string
	}{
		{"a comma before the end of the second object", project("a") + "{\"kind\": \"Project\",\n\"spec\": {\"namespace\": \"b\",}}\n",
			`in.json: document 2: not valid JSON: line 3, column 27: invalid character '}' at start of string (expecting '"')`},
		{"a file cut short in the third object", project("a") + project("b") + `{"kind":"Project","metadata":{"na`,
			"in.json: document 3: not valid JSON: line 3, column 34: the document ends before its JSON value does"},
		{"YAML after an object", project("a") + "kind: Project\n", "in.json: document 2: not valid JSON: line 2, column 1: invalid character 'k' at start of value"},
		{"columns counted in characters", project("a") + `{"a":"ü",}`, `in.json: document 2: not valid JSON: line 2, column 10: invalid character '}' at start of string (expecting '"')`},
		{"after a leading ---", "---\n" + project("a") + "{,}\n", `in.json: document 2: not valid JSON: line 3, column 2: invalid character ',' at start of string (expecting '"')`},
		{"after a leading --- with Windows line ends (the library's reader drops it)", "---\r\n" + strings.ReplaceAll(project("a")+"{,}\n", "\n", "\r\n"),
			`in.json: document 2: not valid JSON: line 3, column 2: invalid character ',' at start of string (expecting '"')`},
		{"Windows line ends", strings.ReplaceAll(project("a")+project("b")+"{\n,}\n", "\n", "\r\n"), "in.json: document 3: not valid JSON: line 4, column 1: invalid character ',' at start of string (expecting '\"')"},
		{"the first object at fault", `{"kind": "Project",,}` + "\n" + project("a"), `in.json: document 1: not valid JSON: line 1, column 20: invalid character ',' at start of string (expecting '"')`},
		{"a minified object, a comma left out", minified[:comma] + minified[comma+1:],
			fmt.Sprintf(`in.json: document 1: not valid JSON: line 1, column %d: invalid character '"' after object value (expecting ',' or '}')`, comma+1)},
		{"a minified object cut short", minified[:len(minified)/2], fmt.Sprintf("in.json: document 1: not valid JSON: line 1, column %d: the document ends before its JSON value does", len(minified)/2+1)},
		{"a JSON document of a YAML file", seedYAML + "---\n" + `{"kind": "Project",,}` + "\n", `in.json: document 2: not valid JSON: line 11, column 20: invalid character ',' at start of string (expecting '"')`},
		{"a stream in a document of a YAML file", seedYAML + "---\n" + project("a") + "{,}\n", "in.json: document 2: not valid YAML or JSON: something follows the end of the object"},
		{"YAML in the flow style", "{kind: Project, metadata: {name: a}", "in.json: document 1: not valid YAML or JSON: yaml: "},
		{"a comment after an object (YAML reads it)", project("a") + "# a comment\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := (&ingest.Landscape{}).Decode("in.json", []byte(tc.data))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case tc.want == "":
				return
			case err == nil:
				t.Fatal("no error")
			}
			// The JSON reader's words are wanted whole; the YAML parser's, which go on, by how they begin.
			yamlWords := strings.Contains(tc.want, "not valid YAML or JSON")
			if message := err.Error(); !yamlWords && message != tc.want || yamlWords && !strings.HasPrefix(message, tc.want) {
				t.Fatalf("error %q\nwant %q", message, tc.want)
			}
		})
	}
}

// errorLine is the line the YAML error of decoding data names, which must be the only line named.
func errorLine(t *testing.T, data string) int {
	t.Helper()
	err := (&ingest.Landscape{}).Decode("in.yaml", []byte(data))
	if err == nil {
		t.Fatalf("%q: no error", data)
	}
	_, after, found := strings.Cut(err.Error(), "yaml: line ")
	number, _, _ := strings.Cut(after, ":")
	line, convErr := strconv.Atoi(number)
	if !found || convErr != nil || strings.Count(err.Error(), "line ") != 1 {
		t.Fatalf("%q: error %v names no line, or more than one", data, err)
	}
	return line
}

// A file of Windows line ends (read by the library's reader) keeps a last line without a line feed of any
// length: 4 KiB exactly was dropped, and with it an annotation, without a word.
func TestALongLastLineIsRead(t *testing.T) {
	for _, length := range []int{4095, 4096, 8192} {
		annotation := "    note: "
		note := strings.Repeat("n", length-len(annotation))
		data := strings.ReplaceAll(shootYAML, "metadata: {name: web, namespace: garden-dev}\n", "") +
			"metadata:\n  name: web\n  namespace: garden-dev\n  annotations:\n" + annotation + note
		l := &ingest.Landscape{}
		if err := l.Decode("shoots.yaml", []byte(strings.ReplaceAll(data, "\n", "\r\n"))); err != nil {
			t.Fatalf("last line of %d bytes: %v", length, err)
		}
		if len(l.Objects.Shoots) != 1 || l.Objects.Shoots[0].Annotations["note"] != note {
			t.Errorf("last line of %d bytes: the annotation is not read (shoots read: %d)", length, len(l.Objects.Shoots))
		}
	}
}

func TestLoadPathsFailsWholeLoad(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a-seeds.yaml"), []byte(seedYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b-shoots.yaml"), []byte(strings.Replace(shootYAML, "type: aws", "type: [aws]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := ingest.LoadPaths([]string{dir})
	if err == nil || l != nil {
		t.Fatalf("want an error and no landscape, got %v and %v", err, l)
	}
	if want := filepath.Join(dir, "b-shoots.yaml") + ": document 1: Shoot garden-dev/web: field spec.provider.type"; !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %q does not start with %q", err, want)
	}
}

// A 200 MB file is refused by its size before a byte of it is read, and with it the whole load.
func TestLoadPathsRefusesOversizedFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a-seeds.yaml"), []byte(seedYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "b-shoots.yaml")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(200 << 20); err != nil { // sparse: no disk space, nothing to read
		t.Fatal(err)
	}
	f.Close()
	l, err := ingest.LoadPaths([]string{dir})
	if err == nil || l != nil {
		t.Fatalf("want an error and no landscape, got %v and %v", err, l)
	}
	if want := huge + ": 209715200 bytes, more than the limit of 134217728 (128 MiB)"; err.Error() != want {
		t.Fatalf("error %q, want %q", err, want)
	}
}

// Input whose size is unknown beforehand, or that grows after its size was taken, is read to one byte past the
// limit and refused with the whole load: standard input, and a file that grows while it is read.
func TestLoadRefusesInputThatGrowsPastTheLimit(t *testing.T) {
	if ingest.RaceDetector {
		t.Skip("one goroutine reads 128 MiB twice: nothing for the race detector, and ten times the time under it")
	}
	const limit = ": file is more than the limit of 134217728 bytes (128 MiB)"
	t.Run("standard input", func(t *testing.T) {
		withStdin(t, "")
		if err := os.Stdin.Truncate(ingest.MaxFileSize + 1); err != nil { // sparse: no disk space
			t.Fatal(err)
		}
		l, err := ingest.LoadPaths([]string{"-"})
		if want := "standard input" + limit; l != nil || err == nil || err.Error() != want {
			t.Fatalf("got %v and error %v, want no landscape and %q", l, err, want)
		}
	})
	t.Run("a file", func(t *testing.T) {
		fsys := growingFS{MapFS: fstest.MapFS{"garden/a-seeds.yaml": {Data: []byte(seedYAML)}, "garden/b-shoots.yaml": {Data: []byte(shootYAML)}}, growing: "garden/b-shoots.yaml"}
		l, err := ingest.LoadFS(fsys, "garden")
		if want := "garden/b-shoots.yaml" + limit; l != nil || err == nil || err.Error() != want {
			t.Fatalf("got %v and error %v, want no landscape and %q", l, err, want)
		}
	})
}

// growingFS is a file system whose file growing says its size is what MapFS holds but reads on without end, as a
// log being appended to does.
type growingFS struct {
	fstest.MapFS
	growing string
}

// Open opens name, endless if it is the growing file.
func (g growingFS) Open(name string) (fs.File, error) {
	f, err := g.MapFS.Open(name)
	if err != nil || name != g.growing {
		return f, err
	}
	return endlessFile{f}, nil
}

// endlessFile is a file whose content never ends.
type endlessFile struct{ fs.File }

// Read reads zeros.
func (endlessFile) Read(p []byte) (int, error) { return fixture.Zeros{}.Read(p) }

// The generator's output loads back identically.
func TestGeneratorRoundTrip(t *testing.T) {
	dir, objs := generated(t, generator.Config{Seeds: 15, Shoots: 60, Existing: 30, Contention: 0.9, Seed: 4, Mix: generator.StressMix()}, "yaml")
	l, err := ingest.LoadPaths([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Warnings) != 0 {
		t.Fatalf("warnings loading generated landscape: %q", l.Warnings)
	}
	if size := fixture.DirSize(t, dir); l.Bytes != size {
		t.Errorf("the landscape says it was read from %d bytes, its files hold %d", l.Bytes, size)
	}
	want, err := model.NewSnapshot(objs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := model.NewSnapshot(l.Objects)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Seeds) != len(got.Seeds) || len(want.Shoots) != len(got.Shoots) || len(got.RegionConfigs) != 4 {
		t.Fatalf("loaded %d seeds, %d shoots, %d region configs; want %d, %d, 4", len(got.Seeds), len(got.Shoots), len(got.RegionConfigs), len(want.Seeds), len(want.Shoots))
	}
	for i := range want.Seeds {
		if a, b := asJSON(t, want.Seeds[i]), asJSON(t, got.Seeds[i]); a != b {
			t.Fatalf("seed differs after the round trip:\n%s\n%s", a, b)
		}
	}
	for i := range want.Shoots {
		// Defaulting picks a random maintenance window; everything else must be identical.
		want.Shoots[i].Spec.Maintenance, got.Shoots[i].Spec.Maintenance = nil, nil
		if a, b := asJSON(t, want.Shoots[i]), asJSON(t, got.Shoots[i]); a != b {
			t.Fatalf("shoot differs after the round trip:\n%s\n%s", a, b)
		}
	}
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A directory without manifests is an error, and a landscape without Seeds, CloudProfiles or Shoots says so:
// never a silent "placed 0 of 0".
func TestLoadPathsSaysWhatIsMissing(t *testing.T) {
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("not a manifest"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.LoadPaths([]string{empty}); err == nil || !strings.Contains(err.Error(), "no .yaml, .yml or .json files") {
		t.Fatalf("an empty directory: %v", err)
	}
	seeds := filepath.Join(t.TempDir(), "seeds.yaml")
	if err := os.WriteFile(seeds, []byte(seedYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := ingest.LoadPaths([]string{seeds})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"the landscape has no CloudProfiles: shoots that reference one cannot be placed", "the landscape has no Shoots: nothing to place"}
	if !slices.Equal(l.Warnings, want) {
		t.Fatalf("warnings %q, want %q", l.Warnings, want)
	}
	// CloudProfiles without NamespacedCloudProfiles, as most gardens have, lack nothing.
	profile := filepath.Join(filepath.Dir(seeds), "profiles.yaml")
	if err := os.WriteFile(profile, []byte("apiVersion: core.gardener.cloud/v1beta1\nkind: CloudProfile\nmetadata:\n  name: aws\nspec:\n  type: aws\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if l, err = ingest.LoadPaths([]string{seeds, profile}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"the landscape has no Shoots: nothing to place"}; !slices.Equal(l.Warnings, want) {
		t.Fatalf("with a CloudProfile: warnings %q, want %q", l.Warnings, want)
	}
}

// Input without any object — an empty file, or comments and document separators only — is refused, naming the
// inputs: it is what a pipe gives when the command writing it failed, and "placed 0 of 0" with exit status 0 would
// pass that off as an empty garden. So is input whose objects are all of kinds seedplan does not read. An empty
// garden is a List without items and loads; an empty file or an unknown kind beside objects is nothing to refuse.
func TestLoadPathsRefusesInputWithoutObjects(t *testing.T) {
	const emptyList = "apiVersion: v1\nkind: List\nitems: []\n"
	for _, tc := range []struct {
		name   string
		files  map[string]string // beside the paths: a directory's files
		paths  []string
		stdin  string
		refuse string // "": loads
	}{
		{name: "empty standard input", paths: []string{"-"}, refuse: "landscape: no object in standard input: empty, or only comments"},
		{name: "whitespace", files: map[string]string{"a.yaml": " \n\n"}, paths: []string{"a.yaml"}, refuse: "no object in DIR/a.yaml"},
		{name: "comments and separators", files: map[string]string{"a.yaml": "# shoots\n---\n# seeds\n---\n"}, paths: []string{"a.yaml"}, refuse: "no object in DIR/a.yaml"},
		{name: "null", files: map[string]string{"a.yaml": "null\n"}, paths: []string{"a.yaml"}, refuse: "no object in DIR/a.yaml"},
		{name: "empty JSON file", files: map[string]string{"a.json": ""}, paths: []string{"a.json"}, refuse: "no object in DIR/a.json"},
		{name: "every input", files: map[string]string{"d/a.yaml": "", "d/b.json": "\n", "c.yaml": "---\n"},
			paths: []string{"d", "c.yaml", "-"}, refuse: "no object in DIR/d, DIR/c.yaml, standard input: empty"},
		{name: "an empty List", paths: []string{"-"}, stdin: emptyList},
		{name: "an empty JSON List", files: map[string]string{"a.json": `{"apiVersion": "v1", "kind": "List", "items": []}`}, paths: []string{"a.json"}},
		// Objects only of kinds seedplan does not read are not a garden's: `kubectl get deploy,secrets -o yaml`.
		{name: "only unknown kinds", files: map[string]string{"a.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n",
			"b.json": `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "x"}}`}, paths: []string{"a.yaml", "b.json"},
			refuse: "landscape: no object in DIR/a.yaml, DIR/b.json is of a kind seedplan reads (Seed, Shoot, CloudProfile, " +
				"NamespacedCloudProfile, Project, ManagedSeedSet, ConfigMap): 2 of other kinds, the first Secret s (v1) at DIR/a.yaml: document 1"},
		{name: "an unknown kind beside a seed", files: map[string]string{"a.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n---\n" + seedYAML}, paths: []string{"a.yaml"}},
		{name: "only a ConfigMap", files: map[string]string{"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: garden}\n"}, paths: []string{"a.yaml"}},
		{name: "an empty file beside a seed", files: map[string]string{"d/a.yaml": "", "d/seeds.yaml": seedYAML}, paths: []string{"d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{}
			for name, content := range tc.files {
				files[filepath.Join(dir, name)] = content
			}
			writeFiles(t, files)
			paths := make([]string, len(tc.paths))
			for i, path := range tc.paths {
				paths[i] = path
				if path != "-" {
					paths[i] = filepath.Join(dir, path)
				}
			}
			withStdin(t, tc.stdin)
			l, err := ingest.LoadPaths(paths)
			if tc.refuse == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if len(l.Warnings) == 0 {
					t.Fatal("no warning of what the landscape lacks")
				}
				return
			}
			if want := strings.ReplaceAll(tc.refuse, "DIR", dir); err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error %v, want one containing %q", err, want)
			}
			if l != nil {
				t.Fatal("a refused load returned a landscape")
			}
		})
	}
}

// "-" reads the landscape from standard input, as kubectl's -f - does.
func TestLoadPathsReadsStandardInput(t *testing.T) {
	withStdin(t, seedYAML+"---\n"+shootYAML)
	l, err := ingest.LoadPaths([]string{"-"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := counts(l), "seeds=1 shoots=1 profiles=0 nsprofiles=0 projects=0 configmaps=0"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// withStdin makes os.Stdin a file holding content until the test ends.
func withStdin(t *testing.T, content string) {
	t.Helper()
	stdin, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stdin.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if _, err := stdin.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	saved := os.Stdin
	os.Stdin = stdin
	t.Cleanup(func() { os.Stdin = saved; _ = stdin.Close() })
}

// writeFiles writes each file's content at its path, making the directories it needs.
func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A file read twice would be refused object by object as a duplicate of itself, naming the same place twice: a
// path given again in another spelling or through a link, or inside a directory also given, is refused before
// anything is read, naming both. What reading a directory leaves out may be given beside it.
func TestLoadPathsRefusesWhatWouldBeReadTwice(t *testing.T) {
	dir := t.TempDir()
	landscape := filepath.Join(dir, "landscape")
	seeds := filepath.Join(landscape, "seeds.yaml")
	notes := filepath.Join(landscape, "seeds.txt")
	link := filepath.Join(dir, "link.yaml")
	nested := filepath.Join(landscape, "more")
	writeFiles(t, map[string]string{seeds: seedYAML, notes: seedYAML, filepath.Join(nested, "shoots.yaml"): shootYAML})
	if err := os.Symlink(seeds, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{[]string{seeds, seeds}, seeds + " and " + seeds + " are the same file: it would be read twice"},
		{[]string{seeds, landscape + "/./seeds.yaml"}, " are the same file"},
		{[]string{link, seeds}, link + " and " + seeds + " are the same file"},
		{[]string{landscape, landscape + "/"}, " are the same directory"},
		{[]string{landscape, seeds}, seeds + " is inside " + landscape + ", given before it: it would be read twice"},
		{[]string{nested, landscape}, nested + ", given before " + landscape + ", is inside it: it would be read twice"},
		{[]string{"-", "-"}, `"-" (standard input) is given more than once`},
		{[]string{"-", seeds, "-"}, `"-" (standard input) is given more than once`},
	} {
		if _, err := ingest.LoadPaths(tc.paths); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one saying %q", tc.paths, err, tc.want)
		}
	}
	// A file the directory's reading skips, and a path that is not there, are no second reading.
	if _, err := ingest.LoadPaths([]string{landscape, notes}); err == nil || !strings.Contains(err.Error(), "duplicate object") {
		t.Errorf("the directory and a .txt file in it: %v, want them read, each once (their seed is a duplicate)", err)
	}
	missing := filepath.Join(landscape, "missing.yaml")
	if _, err := ingest.LoadPaths([]string{landscape, missing}); !errors.Is(err, fs.ErrNotExist) || err.Error() != "landscape "+missing+": no such file or directory" {
		t.Errorf("a missing file in a given directory: %v, want it named once as missing", err)
	}
}

// A file or directory in a landscape directory that cannot be read is named once, by its path from the directory
// given, with the cause alone: not by its name inside the directory again, after the system call ("stat x.yaml").
func TestUnreadablePartsOfADirectoryAreNamedOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, "gone.yaml"), filepath.Join(dir, "seeds.yaml")); err != nil {
		t.Fatal(err)
	}
	_, err := ingest.LoadPaths([]string{dir})
	if want := filepath.Join(dir, "seeds.yaml") + ": no such file or directory"; !errors.Is(err, fs.ErrNotExist) || err.Error() != want {
		t.Errorf("a link to a file that is gone: %v, want %q", err, want)
	}
	private := unreadableDir{FS: fstest.MapFS{"landscape/seeds.yaml": {Data: []byte(seedYAML)}, "landscape/private/shoots.yaml": {}}, dir: "landscape/private"}
	_, err = ingest.LoadFS(private, "landscape")
	if want := "landscape landscape/private: permission denied"; !errors.Is(err, fs.ErrPermission) || err.Error() != want {
		t.Errorf("a directory that cannot be read: %v, want %q", err, want)
	}
}

// unreadableDir is a file system whose directory dir cannot be read, as one of another user's without permission
// to read it, which a test running as root could not make on disk.
type unreadableDir struct {
	fs.FS
	dir string
}

func (u unreadableDir) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == u.dir {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return fs.ReadDir(u.FS, name)
}

// Only regular files are read, or links to them: a named pipe would block the load until someone writes to it.
// It is refused by name, in a directory or given by itself.
func TestLoadPathsReadsOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	seeds := filepath.Join(dir, "a-seeds.yaml")
	if err := os.WriteFile(seeds, []byte(seedYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(t.TempDir(), "linked.yaml")
	if err := os.Symlink(seeds, linked); err != nil {
		t.Fatal(err)
	}
	if l, err := ingest.LoadPaths([]string{linked}); err != nil || len(l.Objects.Seeds) != 1 {
		t.Fatalf("a link to a regular file: %v", err)
	}
	pipe := filepath.Join(dir, "b-shoots.yaml")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, paths := range [][]string{{dir}, {pipe}} {
		l, err := ingest.LoadPaths(paths)
		want := pipe + ": not a regular file but a named pipe (FIFO); refusing to read it"
		if err == nil || err.Error() != want || l != nil {
			t.Fatalf("loading %v: %v, want %q and no landscape", paths, err, want)
		}
	}
}

// Documents are decoded on every processor, a batch at a time, but added and refused in the file's order: of
// many documents, the first that fails is the one named, also when a later one in the same batch fails too, and
// a duplicate names the place read first, also across batches. In YAML and as a JSON stream alike.
func TestDecodeDocumentsInOrder(t *testing.T) {
	shoots := func(n int, change map[int]string) string {
		var documents []string
		for i := range n {
			document := strings.Replace(shootYAML, "name: web", fmt.Sprintf("name: web-%d", i), 1)
			if replaced, ok := change[i]; ok {
				document = replaced
			}
			documents = append(documents, document)
		}
		return strings.Join(documents, "---\n")
	}
	asJSON := func(yamlDocuments string) string {
		var stream []string
		for _, document := range strings.Split(yamlDocuments, "---\n") {
			stream = append(stream, jsonOf(document))
		}
		return strings.Join(stream, "\n")
	}
	broken := strings.Replace(shootYAML, "region: eu-central-1", "region: [eu-central-1]", 1)
	for _, tc := range []struct {
		name, data, want string
	}{
		{"600 documents", shoots(600, nil), ""},
		{"the first of two broken documents in a batch", shoots(300, map[int]string{9: broken, 5: strings.Replace(broken, "web", "api", 1)}),
			"in.yaml: document 6: Shoot garden-dev/api: field spec.region"},
		{"a broken document in the third batch", shoots(600, map[int]string{599: broken}),
			"in.yaml: document 600: Shoot garden-dev/web: field spec.region"},
		{"a duplicate across batches", shoots(600, map[int]string{2: strings.Replace(shootYAML, "name: web", "name: web-400", 1)}),
			"in.yaml: document 401: Shoot garden-dev/web-400: duplicate object, read before at in.yaml: document 3"},
	} {
		for format, data := range map[string]string{"YAML": tc.data, "JSON": asJSON(tc.data)} {
			t.Run(tc.name+" in "+format, func(t *testing.T) {
				l := &ingest.Landscape{}
				err := l.Decode("in.yaml", []byte(data))
				switch {
				case tc.want == "" && err != nil:
					t.Fatal(err)
				case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
					t.Fatalf("error = %v\nwant prefix %s", err, tc.want)
				case tc.want == "":
					for i, shoot := range l.Objects.Shoots {
						if want := fmt.Sprintf("web-%d", i); shoot.Name != want {
							t.Fatalf("shoot %d is %s, want %s: not in the file's order", i, shoot.Name, want)
						}
					}
					if documents := strings.Count(tc.data, "---\n") + 1; len(l.Objects.Shoots) != documents {
						t.Fatalf("%d shoots loaded, want one of each of the %d documents", len(l.Objects.Shoots), documents)
					}
				}
			})
		}
	}
}

// Small files are read and decoded on every processor ahead of their turn, a batch at a time, but added and
// refused in the directory's order, with a large file read in its turn among them: the first file that fails is
// the one named, also when a later one in the same batch fails too or is a named pipe, and a duplicate names the
// file read first, also across batches.
func TestLoadDirAddsFilesInOrder(t *testing.T) {
	shoot := func(name string) string { return strings.Replace(shootYAML, "name: web", "name: "+name, 1) }
	broken := strings.Replace(shoot("broken"), "region: eu-central-1", "region: [eu-central-1]", 1)
	var large strings.Builder
	large.WriteString(`{"apiVersion":"v1","kind":"List","items":[`)
	for i := range 25000 {
		if i > 0 {
			large.WriteString(",")
		}
		large.WriteString(jsonOf(shoot(fmt.Sprintf("large-%d", i))))
	}
	large.WriteString("]}")
	if large.Len() < 4<<20 {
		t.Fatalf("the large file is %d bytes, too small to be mapped", large.Len())
	}
	for _, tc := range []struct {
		name   string
		change map[int]string // a file's content other than one shoot web-i; "fifo" makes it a named pipe
		want   string
	}{
		{"600 files", nil, ""},
		{"a large file among them", map[int]string{300: large.String()}, ""},
		{"a broken file before a large one", map[int]string{299: broken, 300: large.String()}, "shoot-299.yaml: document 1: Shoot garden-dev/broken: field spec.region"},
		{"a duplicate in a large file", map[int]string{300: large.String(), 301: shoot("large-7")}, "shoot-301.yaml: document 1: Shoot garden-dev/large-7: duplicate object, read before at "},
		{"the first of two broken files in a batch", map[int]string{9: broken, 5: broken}, "shoot-005.yaml: document 1: Shoot garden-dev/broken: field spec.region"},
		{"a broken file before a named pipe", map[int]string{7: broken, 8: "fifo"}, "shoot-007.yaml: document 1: Shoot garden-dev/broken: field spec.region"},
		{"a named pipe before a broken file", map[int]string{7: "fifo", 8: broken}, "shoot-007.yaml: not a regular file but a named pipe (FIFO)"},
		{"a broken file in the third batch", map[int]string{599: broken}, "shoot-599.yaml: document 1: Shoot garden-dev/broken: field spec.region"},
		{"a duplicate across batches", map[int]string{400: shoot("web-2")}, "shoot-400.yaml: document 1: Shoot garden-dev/web-2: duplicate object, read before at "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var want []string
			for i := range 600 {
				path := filepath.Join(dir, fmt.Sprintf("shoot-%03d.yaml", i))
				content, changed := tc.change[i]
				switch {
				case content == "fifo":
					if err := syscall.Mkfifo(path, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				case content == large.String():
					for j := range 25000 {
						want = append(want, fmt.Sprintf("large-%d", j))
					}
				case !changed:
					content = shoot(fmt.Sprintf("web-%d", i))
					want = append(want, fmt.Sprintf("web-%d", i))
				}
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			l, err := ingest.LoadPaths([]string{dir})
			if tc.want != "" {
				if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, tc.want)) {
					t.Fatalf("error = %v\nwant %s", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range l.Objects.Shoots {
				got = append(got, s.Name)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%d shoots loaded, not the %d of the files in their order", len(got), len(want))
			}
		})
	}
}

// TestSmallListsAllocateForTheirBytes checks that a directory of many small Lists — one per namespace, as
// `kubectl get shoots -n NAMESPACE -o json` writes them — loads in memory in proportion to its bytes. Each List
// was read in as many stretches as a large one, each with 32 KiB of caches: twenty times the bytes of the files;
// and then in an arena of its own, whose slabs each List left a third empty: more than four times.
func TestSmallListsAllocateForTheirBytes(t *testing.T) {
	if ingest.RaceDetector {
		t.Skip("the race detector's sync.Pool drops arenas at random")
	}
	dir, _ := generated(t, generator.Config{Seeds: 10, Shoots: 400, Existing: 200, Seed: 1, Mix: generator.RealisticMix()}, "json")
	shoots := filepath.Join(dir, "shoots.json")
	items := itemsOf(t, shoots)
	for i := 0; i < len(items); i += 15 {
		part, err := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": items[i:min(i+15, len(items))]}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("shoots-%03d.json", i/15)), part, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(shoots); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.LoadPaths([]string{dir}); err != nil { // the kinds' decoders are planned on first use
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	l, err := ingest.LoadPaths([]string{dir})
	runtime.ReadMemStats(&after)
	if err != nil || len(l.Objects.Shoots) != len(items) {
		t.Fatalf("loaded %d of %d shoots: %v", len(l.Objects.Shoots), len(items), err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 4*uint64(l.Bytes) {
		t.Errorf("loading %d bytes in %d small Lists allocated %d", l.Bytes, len(items)/15, allocated)
	}
}

// TestLayoutsLoadAlike checks that a landscape loads to the same objects whatever the layout of its files, each
// read by a reader of its own: a List per kind as generated (readList), one JSON stream of the objects
// (splitObjects, documents decoded in shared arenas), one YAML stream of them (each document transcoded and read
// by readObject in a shared arena), and a file per object (readObject, in the arenas the load's small files share).
func TestLayoutsLoadAlike(t *testing.T) {
	lists, _ := generated(t, generator.Config{Seeds: 12, Shoots: 80, Existing: 40, Seed: 3, Mix: generator.RealisticMix()}, "json")
	want, err := ingest.LoadPaths([]string{lists})
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(lists, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var items []string // in the order the Lists are read
	for _, file := range files {
		for _, item := range itemsOf(t, file) {
			items = append(items, string(item))
		}
	}
	yamlOf := func(item string) string {
		converted, err := yaml.JSONToYAML([]byte(item))
		if err != nil {
			t.Fatal(err)
		}
		return string(converted)
	}
	for _, layout := range []struct {
		name  string
		files func() map[string]string
	}{
		{"a JSON stream", func() map[string]string { return map[string]string{"all.json": strings.Join(items, "\n")} }},
		{"a YAML stream", func() map[string]string {
			var documents []string
			for _, item := range items {
				documents = append(documents, yamlOf(item))
			}
			return map[string]string{"all.yaml": strings.Join(documents, "---\n")}
		}},
		{"a file per object", func() map[string]string {
			perObject := map[string]string{}
			for i, item := range items {
				perObject[fmt.Sprintf("%05d.json", i)] = item
			}
			return perObject
		}},
	} {
		t.Run(layout.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range layout.files() {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := ingest.LoadPaths([]string{dir})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Objects, want.Objects) || len(got.Warnings) != 0 {
				t.Errorf("loaded other objects than the Lists hold (warnings %q)", got.Warnings)
			}
		})
	}
}

// generated writes the landscape the generator makes of cfg into a directory of the test's, a List of each kind
// per file in format, and is the directory and the objects.
func generated(t *testing.T, cfg generator.Config, format string) (string, model.Objects) {
	t.Helper()
	objs, err := generator.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := generator.Write(dir, objs, format); err != nil {
		t.Fatal(err)
	}
	return dir, objs
}

// itemsOf are the items of the JSON List in file.
func itemsOf(t *testing.T, file string) []json.RawMessage {
	t.Helper()
	content, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Items []json.RawMessage }
	if err := json.Unmarshal(content, &list); err != nil {
		t.Fatal(err)
	}
	return list.Items
}

// A large YAML List with one shoot a person wrote in a form the transcoder leaves (an anchor) loads as it does
// without it, now that that shoot is converted on its own and the rest transcoded (the whole List went through
// the full decoder, twenty times as slow). That only that shoot is converted, TestTranscodeInPartsConvertsWhatItLeaves
// checks; this test, that the List's objects and warnings are the same for it.
func TestALargeYAMLListWithAnOddShootLoadsAsRead(t *testing.T) {
	dir, _ := generated(t, generator.Config{Seeds: 20, Shoots: 1500, Existing: 500, Seed: 2, Mix: generator.RealisticMix()}, "yaml")
	shoots := filepath.Join(dir, "shoots.yaml")
	content, err := os.ReadFile(shoots)
	if err != nil {
		t.Fatal(err)
	}
	if len(content) < 1<<20 {
		t.Fatalf("shoots.yaml is %d bytes: not a large document", len(content))
	}
	at := bytes.Index(content[len(content)/2:], []byte("\n    namespace: ")) + len(content)/2
	end := at + 1 + bytes.IndexByte(content[at+1:], '\n')
	load := func(labels string) *ingest.Landscape {
		edited := slices.Concat(content[:end], []byte("\n    labels: "+labels), content[end:])
		if err := os.WriteFile(shoots, edited, 0o644); err != nil {
			t.Fatal(err)
		}
		l, err := ingest.LoadPaths([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	plain, anchored := load("{team: retail}"), load("&team {team: retail}")
	if !reflect.DeepEqual(plain.Objects, anchored.Objects) || !reflect.DeepEqual(anchored.Warnings, plain.Warnings) {
		t.Fatal("the List with an anchored label loads to other objects than without the anchor")
	}
}

// blockShootYAML is shootYAML in the block style kubectl writes, which the transcoder reads.
const blockShootYAML = `apiVersion: core.gardener.cloud/v1beta1
kind: Shoot
metadata:
  name: web
  namespace: garden-dev
spec:
  cloudProfile:
    kind: CloudProfile
    name: aws
  region: eu-central-1
  provider:
    type: aws
`

// The documents of a file share the array they are transcoded into, one after another: one the strict decoder
// reads later, in order, still reads as it was written, though the documents after it were transcoded over it.
func TestTranscodedDocumentsKeepTheirJSON(t *testing.T) {
	stream := func(second string) string {
		documents := make([]string, 6)
		for i := range documents {
			documents[i] = strings.Replace(blockShootYAML, "name: web", fmt.Sprintf("name: web-%d", i), 1)
		}
		documents[1] = strings.Replace(documents[1], "  region: eu-central-1\n", second, 1)
		return strings.Join(documents, "---\n")
	}
	for _, tc := range []struct {
		name, second, warning, err string
	}{
		{name: "a field of a newer Gardener", second: "  region: eu-central-1\n  fromANewerGardener: 1\n",
			warning: `in.yaml: document 2: Shoot garden-dev/web-1: ignoring unknown field "spec.fromANewerGardener"`},
		{name: "a field of the wrong type", second: "  region:\n  - eu-central-1\n",
			err: "in.yaml: document 2: Shoot garden-dev/web-1: field spec.region: must be a string, not a list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &ingest.Landscape{}
			err := l.Decode("in.yaml", []byte(stream(tc.second)))
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want one starting %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(l.Warnings) != "["+tc.warning+"]" {
				t.Errorf("warnings %q, want %q", l.Warnings, tc.warning)
			}
			for i, shoot := range l.Objects.Shoots {
				if want := fmt.Sprintf("web-%d", i); shoot.Name != want || shoot.Spec.Region != "eu-central-1" {
					t.Errorf("shoot %d is %s in %s, want %s in eu-central-1", i, shoot.Name, shoot.Spec.Region, want)
				}
			}
		})
	}
}
