package cluster

import (
	"context"
	"fmt"
	"maps"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/model"
)

// roomChange is what may have made room for a waiting shoot since the loop last looked.
type roomChange struct {
	// landscape: a seed may take shoots it did not before, or a cloud profile, project or region config changed;
	// any waiting shoot may fit now.
	landscape bool
	// freed are the seeds shoots left: a shoot turned away for lack of room there may fit now.
	freed map[string]bool
}

// landscapeChanged is the change of a seed that admits more, or of the rest of the landscape.
var landscapeChanged = roomChange{landscape: true}

// roomFreedOn is the change of shoots that left the seeds.
func roomFreedOn(seeds ...string) roomChange {
	freed := make(map[string]bool, len(seeds))
	for _, seed := range seeds {
		freed[seed] = true
	}
	return roomChange{freed: freed}
}

// none reports whether nothing changed.
func (c roomChange) none() bool { return !c.landscape && len(c.freed) == 0 }

// with is c and other together.
func (c roomChange) with(other roomChange) roomChange {
	if len(other.freed) > 0 && c.freed == nil {
		c.freed = map[string]bool{}
	}
	maps.Copy(c.freed, other.freed)
	c.landscape = c.landscape || other.landscape
	return c
}

// freedAny reports whether room was freed on any of the seeds (any seed at all when seeds is nil).
func (c roomChange) freedAny(seeds map[string]bool) bool {
	if seeds == nil {
		return len(c.freed) > 0
	}
	for seed := range c.freed {
		if seeds[seed] {
			return true
		}
	}
	return false
}

const (
	// roomLookSpacing is how long at least between two looks that take room changes, so that a stream of
	// deletions does not have the loop plan its waiting shoots back to back.
	roomLookSpacing = time.Second
	// roomRetry is how long at least before room freed on a seed makes a shoot due again that room made due
	// before: so a garden whose shoots come and go has a waiting shoot tried (and reported failed) at most this
	// often, as kube-scheduler's longest backoff does, and not every roomLookSpacing. A changed landscape, which is
	// rarer and may come in steps (one seed after another), makes it due at the next look.
	roomRetry = 10 * time.Second
)

// seedEvents tell the loop of room that appears on seeds: a seed that may take shoots it did not before
// (model.SeedAdmitsMore: created usable, ready or visible again, a taint gone, more allocatable shoots, …).
func (w *windowLoop) seedEvents() toolscache.ResourceEventHandlerDetailedFuncs {
	return toolscache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, isInInitialList bool) {
			if seed, ok := obj.(*gardencorev1beta1.Seed); ok && !isInInitialList && model.SeedAdmitsMore(nil, seed) {
				w.roomAppeared(landscapeChanged)
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			oldSeed, ok1 := oldObj.(*gardencorev1beta1.Seed)
			newSeed, ok2 := newObj.(*gardencorev1beta1.Seed)
			if ok1 && ok2 && model.SeedAdmitsMore(oldSeed, newSeed) {
				w.roomAppeared(landscapeChanged)
			}
		},
	}
}

// landscapeEvents tell the loop of a change to what a shoot's placement reads besides seeds and shoots: a cloud
// profile, namespaced cloud profile, project or region config created, or changed in what the predicates and the
// strategy read of it (model.PlacementInput: not a profile's new versions, nor a project's members).
func (w *windowLoop) landscapeEvents() toolscache.ResourceEventHandlerDetailedFuncs {
	return toolscache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(_ any, isInInitialList bool) {
			if !isInInitialList {
				w.roomAppeared(landscapeChanged)
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			if !equality.Semantic.DeepEqual(model.PlacementInput(oldObj), model.PlacementInput(newObj)) {
				w.roomAppeared(landscapeChanged)
			}
		},
	}
}

// roomAppeared notes room that may have appeared, for the loop's next look: where the gardener-scheduler waits
// out a shoot's backoff (up to 1000 s) whatever changed, a shoot waiting for room here takes it when it appears,
// as kube-scheduler moves unschedulable pods back to its queue on the cluster events that may admit them.
func (w *windowLoop) roomAppeared(change roomChange) {
	w.keepRoom(change)
	w.poke()
}

// keepRoom adds change to the room changes the loop's next look takes.
func (w *windowLoop) keepRoom(change roomChange) {
	w.roomMu.Lock()
	defer w.roomMu.Unlock()
	w.roomChanged = w.roomChanged.with(change)
}

// roomLook takes the room changes since the loop's last such look: at most once per roomLookSpacing, and when it
// is too early, later is when it may.
func (w *windowLoop) roomLook(now time.Time) (changes roomChange, later time.Time) {
	w.roomMu.Lock()
	defer w.roomMu.Unlock()
	if w.roomChanged.none() {
		return roomChange{}, time.Time{}
	}
	if next := w.lastRoomLook.Add(roomLookSpacing); now.Before(next) {
		return roomChange{}, next
	}
	w.lastRoomLook = now
	changes, w.roomChanged = w.roomChanged, roomChange{}
	return changes, time.Time{}
}

// roomFor brings a waiting shoot's next try forward when the changes may let it be placed: to now for a changed
// landscape; for room freed on a seed that turned it away for lack of room (one of its roomSeeds), to now but
// not to less than roomRetry after room last made it due. It reports whether it did.
func (s *tracked) roomFor(changes roomChange, now time.Time) bool {
	freed := s.turnedAwayForRoom && changes.freedAny(s.roomSeeds)
	if !changes.landscape && !freed {
		return false
	}
	at := now
	if !changes.landscape && !s.roomDue.IsZero() && now.Before(s.roomDue.Add(roomRetry)) {
		at = s.roomDue.Add(roomRetry)
	}
	if !at.Before(s.notBefore) {
		return false
	}
	if !s.roomTry {
		s.roomTry, s.backoffEnd = true, s.notBefore
	}
	s.notBefore, s.roomDue = at, at
	return true
}

// watch registers the loop's event handlers with the informers — the shoots' (work arrives, room is freed), the
// seeds' and the rest of the landscape's (room appears) — and returns what removes them.
func (w *windowLoop) watch(ctx context.Context) (unwatch func(), err error) {
	var removes []func()
	unwatch = func() {
		for _, remove := range removes {
			remove()
		}
	}
	for _, obj := range informedKinds() {
		informer, err := w.cache.GetInformer(ctx, obj)
		if err != nil {
			unwatch()
			return nil, fmt.Errorf("starting the informer of %T: %w", obj, err)
		}
		registration, err := informer.AddEventHandler(w.eventsOf(obj))
		if err != nil {
			unwatch()
			return nil, fmt.Errorf("watching %T: %w", obj, err)
		}
		removes = append(removes, func() { _ = informer.RemoveEventHandler(registration) })
	}
	return unwatch, nil
}

// informedKinds are the kinds of the loop's informers: what a window reads (the cache of ConfigMaps holds the
// region configs only).
func informedKinds() []client.Object {
	return []client.Object{
		&gardencorev1beta1.Seed{}, &gardencorev1beta1.Shoot{}, &gardencorev1beta1.CloudProfile{},
		&gardencorev1beta1.NamespacedCloudProfile{}, &gardencorev1beta1.Project{}, &corev1.ConfigMap{},
	}
}

// eventsOf is the loop's handler of an informer's events: the shoots' give work and free room, the seeds' and
// the rest of the landscape's make room.
func (w *windowLoop) eventsOf(obj client.Object) toolscache.ResourceEventHandler {
	switch obj.(type) {
	case *gardencorev1beta1.Shoot:
		return w.shootEvents()
	case *gardencorev1beta1.Seed:
		return w.seedEvents()
	}
	return w.landscapeEvents()
}
