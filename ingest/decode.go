package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	seedmanagementv1alpha1 "github.com/gardener/gardener/pkg/apis/seedmanagement/v1alpha1"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The fast path of decoding reads an object once, with encoding/json's semantics for everything it accepts
// (github.com/go-json-experiment/json with the v1 options), but strictly: an unknown or duplicate field, a key in
// other case, a wrong type — anything the strict decoder would warn or err about — fails it, and the object is
// decoded again by decodeObjectStrictly, which words every warning and error as before. FuzzDecodeFast checks that
// both paths decode what the fast one accepts to the same object.
var (
	fastObject = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsonv2.RejectUnknownMembers(true),
		jsonv2.MatchCaseInsensitiveNames(false), jsontext.AllowDuplicateNames(false), jsontext.AllowInvalidUTF8(false))
	fastSyntax = jsonv2.JoinOptions(jsontext.AllowDuplicateNames(false), jsontext.AllowInvalidUTF8(false))
)

// decoded is one object read from a document or a List item, not yet added to the landscape: decoding is done in
// parallel, adding in the input's order.
type decoded struct {
	where, object string
	// typed is the object, when the fast path read it.
	typed any
	// strictly, when set, is a document the fast path does not read: it is decoded (in order) by
	// decodeObjectStrictly, which words every warning and error.
	strictly []byte
}

// decodeObject adds what one JSON document holds: an object, or the items of a List.
func (l *Landscape) decodeObject(where string, data []byte) error {
	h, items, ok := readHeader(data, false)
	if !ok || h.Kind == "" {
		return l.decodeObjectStrictly(where, data)
	}
	if !isList(h) {
		return l.add(decodeOne(where, h, data))
	}
	results := make([]decoded, len(items))
	inParallel(len(items), func(i int) {
		itemWhere := fmt.Sprintf("%s: %s item %d", where, h.Kind, i)
		if item, ok := itemHeader(items[i], h); ok && !isList(item) {
			results[i] = decodeOne(itemWhere, item, items[i])
		} else {
			results[i] = decoded{where: itemWhere, strictly: items[i]}
		}
		if kind := strings.TrimSuffix(h.Kind, "List"); results[i].strictly != nil && kind != "" {
			// Items of a typed List (SeedList) may omit apiVersion and kind; the strict path reads them as the List's.
			results[i].strictly = withDefaultType(items[i], h.APIVersion, kind)
		}
	})
	for _, r := range results {
		if err := l.add(r); err != nil {
			return err
		}
	}
	return nil
}

// isList reports whether the header is a List's: kind List, or a kind ending in List with items.
func isList(h header) bool {
	return h.Kind == "List" || strings.HasSuffix(h.Kind, "List") && h.hasItems
}

// readHeader reads a document's type, name and List items (parts of data), skipping the rest; ok is false when
// the document is not a JSON object or holds anything the fast path leaves to the strict decoder. With
// headerOnly it stops once it has the type and name of something other than a List: the object's decoder reads
// the rest.
func readHeader(data []byte, headerOnly bool) (h header, items [][]byte, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), fastSyntax)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return header{}, nil, false
	}
	var seen int
	for dec.PeekKind() != '}' {
		if headerOnly && seen == 3 && !strings.HasSuffix(h.Kind, "List") {
			return h, nil, true
		}
		token, err := dec.ReadToken()
		if err != nil {
			return header{}, nil, false
		}
		switch name := token.String(); name {
		case "apiVersion", "kind":
			value, err := dec.ReadToken()
			if err != nil || value.Kind() != '"' {
				return header{}, nil, false
			}
			seen++
			if name == "kind" {
				h.Kind = value.String()
			} else {
				h.APIVersion = value.String()
			}
		case "metadata":
			value, err := dec.ReadValue()
			if err != nil || value.Kind() != '{' || jsonv2.Unmarshal(value, &h.Metadata, fastObject, jsonv2.RejectUnknownMembers(false)) != nil {
				return header{}, nil, false
			}
			seen++
		case "items":
			if items, ok = readItems(dec, data); !ok {
				return header{}, nil, false
			}
			h.hasItems = true
		default:
			if dec.SkipValue() != nil {
				return header{}, nil, false
			}
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return header{}, nil, false
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return header{}, nil, false
	}
	return h, items, true
}

// readItems reads the array of a List's items as parts of data.
func readItems(dec *jsontext.Decoder, data []byte) ([][]byte, bool) {
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		return nil, false
	}
	items := [][]byte{}
	for dec.PeekKind() != ']' {
		value, err := dec.ReadValue()
		if err != nil {
			return nil, false
		}
		end := int(dec.InputOffset())
		items = append(items, data[end-len(value):end])
	}
	_, err := dec.ReadToken()
	return items, err == nil
}

// itemHeader is a List item's header: an item of a typed List (SeedList) may omit its apiVersion and kind, which
// are the List's then.
func itemHeader(item []byte, list header) (header, bool) {
	h, _, ok := readHeader(item, true)
	kind := strings.TrimSuffix(list.Kind, "List")
	if !ok || h.Kind == "" && kind == "" {
		return header{}, false
	}
	if kind != "" && h.Kind == "" {
		h.Kind = kind
	}
	if kind != "" && h.APIVersion == "" {
		h.APIVersion = list.APIVersion
	}
	return h, true
}

// decodeOne decodes one object (not a List); it changes nothing shared, so objects are decoded in parallel.
func decodeOne(where string, h header, data []byte) decoded {
	typed, validate := newObject(h)
	if typed == nil {
		return decoded{where: where, strictly: data} // a kind seedplan does not read: the strict path words why
	}
	d := decoded{where: where, object: objectName(h.Kind, h.Metadata.Namespace, h.Metadata.Name)}
	if jsonv2.Unmarshal(data, typed, fastObject) != nil || validate(where, d.object, setType(typed, h)) != nil {
		return decoded{where: where, strictly: data}
	}
	d.typed = typed
	return d
}

// newObject is an empty object of a kind seedplan reads, with its validation, or nil.
func newObject(h header) (typed any, validate func(where, object string, typed any) error) {
	named := func(namespaced bool) func(where, object string, typed any) error {
		return func(where, object string, typed any) error {
			return requireName(where, object, *typed.(metav1.ObjectMetaAccessor).GetObjectMeta().(*metav1.ObjectMeta), namespaced)
		}
	}
	switch {
	case h.APIVersion == gardencorev1beta1.SchemeGroupVersion.String():
		switch h.Kind {
		case "Seed":
			return &gardencorev1beta1.Seed{}, func(where, object string, typed any) error {
				return validateSeed(where, object, typed.(*gardencorev1beta1.Seed))
			}
		case "Shoot":
			return &gardencorev1beta1.Shoot{}, func(where, object string, typed any) error {
				return validateShoot(where, object, typed.(*gardencorev1beta1.Shoot))
			}
		case "CloudProfile":
			return &gardencorev1beta1.CloudProfile{}, named(false)
		case "NamespacedCloudProfile":
			return &gardencorev1beta1.NamespacedCloudProfile{}, named(true)
		case "Project":
			return &gardencorev1beta1.Project{}, named(false)
		}
	case h.APIVersion == "v1" && h.Kind == "ConfigMap":
		return &corev1.ConfigMap{}, named(true)
	case isManagedSeedSet(h):
		return &seedmanagementv1alpha1.ManagedSeedSet{}, named(true)
	}
	return nil, nil
}

// setType fills in the apiVersion and kind a List item may omit, and returns the object.
func setType(typed any, h header) any {
	kind := typed.(interface{ GetObjectKind() schema.ObjectKind }).GetObjectKind()
	if kind.GroupVersionKind().Kind == "" {
		kind.SetGroupVersionKind(schema.FromAPIVersionAndKind(h.APIVersion, h.Kind))
	}
	return typed
}

// add adds a decoded object to the landscape, refusing one read before.
func (l *Landscape) add(d decoded) error {
	if d.strictly != nil {
		return l.decodeObjectStrictly(d.where, d.strictly)
	}
	if err := l.once(d.where, d.object); err != nil {
		return err
	}
	l.appendObject(d.typed)
	return nil
}

// appendObject adds a decoded object of a kind newObject makes to the landscape's objects.
func (l *Landscape) appendObject(typed any) {
	switch o := typed.(type) {
	case *gardencorev1beta1.Seed:
		l.Objects.Seeds = append(l.Objects.Seeds, o)
	case *gardencorev1beta1.Shoot:
		l.Objects.Shoots = append(l.Objects.Shoots, o)
	case *gardencorev1beta1.CloudProfile:
		l.Objects.CloudProfiles = append(l.Objects.CloudProfiles, o)
	case *gardencorev1beta1.NamespacedCloudProfile:
		l.Objects.NamespacedCloudProfiles = append(l.Objects.NamespacedCloudProfiles, o)
	case *gardencorev1beta1.Project:
		l.Objects.Projects = append(l.Objects.Projects, o)
	case *corev1.ConfigMap:
		l.Objects.ConfigMaps = append(l.Objects.ConfigMaps, o)
	case *seedmanagementv1alpha1.ManagedSeedSet:
		l.Objects.ManagedSeedSets = append(l.Objects.ManagedSeedSets, o)
	}
}

// inParallel calls do(i) for every i below n on every processor, in batches.
func inParallel(n int, do func(i int)) {
	const batch = 64
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), (n+batch-1)/batch) {
		wg.Go(func() {
			for {
				start := int(next.Add(batch)) - batch
				if start >= n {
					return
				}
				for i := start; i < min(start+batch, n); i++ {
					do(i)
				}
			}
		})
	}
	wg.Wait()
}
