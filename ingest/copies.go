package ingest

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/model"
)

// Copies keeps defaulted copies of an informer cache's objects from one window to the next, by UID and
// resourceVersion. A cache's objects must not be changed, and copying and defaulting every object of the garden
// for each window was most of the time a lone new shoot waited for its seed; an object the cache replaced since
// (a new resourceVersion) is copied afresh. It is not safe for concurrent use.
type Copies struct {
	defaulter *model.Defaulter
	kept      map[types.UID]kept
}

// kept is a defaulted copy of one version of an object.
type kept struct {
	resourceVersion string
	object          client.Object
}

// NewCopies returns Copies that keep nothing yet.
func NewCopies() (*Copies, error) {
	defaulter, err := model.NewDefaulter()
	if err != nil {
		return nil, err
	}
	return &Copies{defaulter: defaulter, kept: map[types.UID]kept{}}, nil
}

// Own replaces every object by its defaulted copy, made now for an object new or changed since the last call and
// kept from then for the others, and marks the objects Defaulted; copies of objects gone are dropped. The copies
// are shared between the snapshots built from them, which never change them.
func (c *Copies) Own(objs *model.Objects) error {
	seen := map[types.UID]bool{}
	for _, own := range []func() error{
		func() error { return ownAll(c, objs.Seeds, seen) },
		func() error { return ownAll(c, objs.Shoots, seen) },
		func() error { return ownAll(c, objs.CloudProfiles, seen) },
		func() error { return ownAll(c, objs.NamespacedCloudProfiles, seen) },
		func() error { return ownAll(c, objs.Projects, seen) },
		func() error { return ownAll(c, objs.ConfigMaps, seen) },
	} {
		if err := own(); err != nil {
			return err
		}
	}
	for uid := range c.kept {
		if !seen[uid] {
			delete(c.kept, uid)
		}
	}
	objs.Defaulted = true
	return nil
}

// ownAll replaces the objects of one kind in place by their copies.
func ownAll[T client.Object](c *Copies, objects []T, seen map[types.UID]bool) error {
	for i, obj := range objects {
		uid := obj.GetUID()
		if uid == "" || seen[uid] {
			return fmt.Errorf("%T %s: no UID, or one seen before: not an object of a cache", obj, client.ObjectKeyFromObject(obj))
		}
		seen[uid] = true
		if k, ok := c.kept[uid]; ok && k.resourceVersion == obj.GetResourceVersion() {
			objects[i] = k.object.(T)
			continue
		}
		copied := obj.DeepCopyObject().(T)
		c.defaulter.Default(copied)
		c.kept[uid] = kept{resourceVersion: obj.GetResourceVersion(), object: copied}
		objects[i] = copied
	}
	return nil
}
