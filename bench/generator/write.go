package generator

import (
	"fmt"
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

// Write stores the landscape in dir as one List file per kind, the way `kubectl get -o yaml` prints them, so any
// tool can read it and `seedplan --landscape dir` loads it back.
func Write(dir string, objs model.Objects) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	files := []struct {
		name  string
		items []runtime.Object
	}{
		{"cloudprofiles.yaml", asObjects(objs.CloudProfiles)},
		{"namespacedcloudprofiles.yaml", asObjects(objs.NamespacedCloudProfiles)},
		{"projects.yaml", asObjects(objs.Projects)},
		{"region-configs.yaml", asObjects(objs.ConfigMaps)},
		{"seeds.yaml", asObjects(objs.Seeds)},
		{"shoots.yaml", asObjects(objs.Shoots)},
	}
	for _, f := range files {
		l := list{APIVersion: "v1", Kind: "List", Items: f.items}
		if l.Items == nil {
			l.Items = []runtime.Object{}
		}
		data, err := yaml.Marshal(l)
		if err != nil {
			return fmt.Errorf("encoding %s: %w", f.name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", f.name, err)
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
