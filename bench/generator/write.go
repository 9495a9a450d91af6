package generator

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/seedplan/seedplan/model"
)

// list is a `kind: List` as `kubectl get ... -o yaml` prints it.
type list struct {
	APIVersion string           `json:"apiVersion"`
	Kind       string           `json:"kind"`
	Items      []runtime.Object `json:"items"`
	Metadata   struct {
		ResourceVersion string `json:"resourceVersion"`
	} `json:"metadata"`
}

// Formats are the encodings a landscape is written in.
func Formats() []string { return []string{"yaml", "json"} }

// namedList is one kind's List and the name of the file it is written to, without extension.
type namedList struct {
	name string
	list list
}

// lists are the landscape's Lists, one per kind.
func lists(objs model.Objects) []namedList {
	kinds := []struct {
		name  string
		items []runtime.Object
	}{
		{"cloudprofiles", asObjects(objs.CloudProfiles)},
		{"namespacedcloudprofiles", asObjects(objs.NamespacedCloudProfiles)},
		{"projects", asObjects(objs.Projects)},
		{"region-configs", asObjects(objs.ConfigMaps)},
		{"seeds", asObjects(objs.Seeds)},
		{"shoots", asObjects(objs.Shoots)},
	}
	out := make([]namedList, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, namedList{name: k.name, list: list{APIVersion: "v1", Kind: "List", Items: k.items}})
	}
	return out
}

// encode is one List in format.
func encode(l list, format string) ([]byte, error) {
	switch format {
	case "yaml":
		return yaml.Marshal(l)
	case "json":
		data, err := json.MarshalIndent(l, "", "  ")
		return append(data, '\n'), err
	}
	return nil, fmt.Errorf("unknown format %q (yaml or json)", format)
}

// Write stores the landscape in dir as one List file per kind (kinds.yaml or kinds.json), the way `kubectl get -o
// yaml|json` prints them, so any tool can read it and `seedplan --landscape dir` loads it back. written are the
// names of the files it wrote, in dir.
func Write(dir string, objs model.Objects, format string) (written []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	for _, l := range lists(objs) {
		name := l.name + "." + format
		data, err := encode(l.list, format)
		if err != nil {
			return written, fmt.Errorf("encoding %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return written, fmt.Errorf("writing %s: %w", name, err)
		}
		written = append(written, name)
	}
	return written, nil
}

// Encode writes the landscape to w as one stream: YAML documents separated by ---, or a stream of JSON Lists;
// `seedplan --landscape -` reads either back.
func Encode(w io.Writer, objs model.Objects, format string) error {
	for i, l := range lists(objs) {
		data, err := encode(l.list, format)
		if err != nil {
			return fmt.Errorf("encoding %s: %w", l.name, err)
		}
		if i > 0 && format == "yaml" {
			data = append([]byte("---\n"), data...)
		}
		if _, err := w.Write(data); err != nil {
			return fmt.Errorf("writing %s: %w", l.name, err)
		}
	}
	return nil
}

func asObjects[T runtime.Object](in []T) []runtime.Object {
	out := make([]runtime.Object, 0, len(in))
	for _, o := range in {
		out = append(out, o)
	}
	return out
}
