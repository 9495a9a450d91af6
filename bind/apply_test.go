package bind_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/fixture"
	"github.com/seedplan/seedplan/internal/gardentest"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

var garden gardentest.Shared

func TestMain(m *testing.M) { garden.Run(m) }

// planNamespace reads the cluster and plans the pending shoots of namespace; it returns the shoots as read and the plan.
func planNamespace(t *testing.T, c client.Client, namespace string) (map[string]*gardencorev1beta1.Shoot, *model.Plan) {
	t.Helper()
	ctx := context.Background()
	l, err := ingest.LoadCluster(ctx, c, ingest.ListPageSize)
	if err != nil {
		t.Fatal(err)
	}
	read := map[string]*gardencorev1beta1.Shoot{}
	for _, shoot := range l.Objects.Shoots {
		if shoot.Namespace == namespace {
			read[shoot.Namespace+"/"+shoot.Name] = shoot.DeepCopy()
		}
	}
	snap, err := model.NewSnapshot(l.Objects)
	if err != nil {
		t.Fatal(err)
	}
	var pending []*gardencorev1beta1.Shoot
	for _, shoot := range snap.Pending("default-scheduler") {
		if shoot.Namespace == namespace {
			pending = append(pending, shoot)
		}
	}
	weights := solver.DefaultWeights()
	outcome, err := plan.Schedule(ctx, snap, pending, plan.Policy{Solver: solver.LP{Weights: weights, Timeout: 10 * time.Second}, Weights: weights})
	if err != nil {
		t.Fatal(err)
	}
	return read, outcome.Plan
}

func seedName(t *testing.T, c client.Client, namespace, name string) string {
	t.Helper()
	shoot := &gardencorev1beta1.Shoot{}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: name}, shoot); err != nil {
		t.Fatal(err)
	}
	if shoot.Spec.SeedName == nil {
		return ""
	}
	return *shoot.Spec.SeedName
}

// eventsOf lists the events about one shoot.
func eventsOf(t *testing.T, c client.Client, namespace, name string) []eventsv1.Event {
	t.Helper()
	var list eventsv1.EventList
	if err := c.List(context.Background(), &list, client.InNamespace(namespace)); err != nil {
		t.Fatal(err)
	}
	var out []eventsv1.Event
	for _, e := range list.Items {
		if e.Regarding.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// Placements are bound through the binding subresource, each with the gardener-scheduler's success event;
// unschedulable shoots get its failure event and lastOperation.
func TestApplyBindsAndReports(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "apply", []int64{2, 2}, 5, "") // 4 slots for 5 shoots
	read, p := planNamespace(t, cp.Client, namespace)
	if len(p.Placements) != 4 || len(p.Unschedulable) != 1 {
		t.Fatalf("plan places %d and leaves %d, want 4 and 1", len(p.Placements), len(p.Unschedulable))
	}
	var logged bytes.Buffer
	defer fixture.RestoreLogging()()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
	binder := &bind.Binder{Client: cp.Client, Concurrency: 3, Instance: "test"}
	results, err := binder.Apply(ctx, read, p)
	if err != nil {
		t.Fatal(err)
	}
	// The unschedulable shoot's report is written when Apply returns; the bindings' events when Flush does.
	checkFailureReported(t, cp.Client, p.Unschedulable[0])
	// Each shoot is logged as the gardener-scheduler logs it: the placements bound, the failure with its reason.
	u := p.Unschedulable[0]
	unschedulable := fmt.Sprintf("msg=\"Shoot unschedulable\" shoot=%s reason=%s message=%q", u.Shoot, u.Reason, u.Message)
	if !strings.Contains(logged.String(), unschedulable) || strings.Count(logged.String(), `msg="Shoot scheduled"`) != len(p.Placements) {
		t.Errorf("logged:\n%s\nwant %d lines Shoot scheduled and %s", logged.String(), len(p.Placements), unschedulable)
	}
	binder.Flush()
	for i, r := range results {
		pl := p.Placements[i]
		if r.Result != model.Bound {
			t.Fatalf("%s: result %s (%v), want bound", pl.Shoot, r.Result, r.Err)
		}
		namespace, name, _ := strings.Cut(pl.Shoot, "/")
		if got := seedName(t, cp.Client, namespace, name); got != pl.Seed {
			t.Fatalf("%s: seedName %q, want %q", pl.Shoot, got, pl.Seed)
		}
		events := eventsOf(t, cp.Client, namespace, name)
		if len(events) != 1 {
			t.Fatalf("%s: %d events, want 1", pl.Shoot, len(events))
		}
		e := events[0]
		if e.Type != "Normal" || e.Reason != "SchedulingSuccessful" || e.Action != "Reconcile" || e.Note != fmt.Sprintf("Scheduled to seed %q", pl.Seed) {
			t.Fatalf("%s: event %s %s %s %q, want Normal SchedulingSuccessful Reconcile \"Scheduled to seed %q\"", pl.Shoot, e.Type, e.Reason, e.Action, e.Note, pl.Seed)
		}
	}

}

// placedLandscape makes a landscape of two seeds with room for ten shoots each and n pending shoots, and plans
// it: every shoot is placed.
func placedLandscape(t *testing.T, cp *gardentest.ControlPlane, name string, n int) (string, map[string]*gardencorev1beta1.Shoot, *model.Plan) {
	t.Helper()
	namespace := cp.Landscape(t, name, []int64{10, 10}, n, "")
	read, p := planNamespace(t, cp.Client, namespace)
	if len(p.Placements) != n {
		t.Fatalf("plan places %d, want %d", len(p.Placements), n)
	}
	return namespace, read, p
}

// applyWanting applies the plan with binder, waits for the events of its bindings, and checks each placement's
// result against want, by shoot name.
func applyWanting(t *testing.T, binder *bind.Binder, read map[string]*gardencorev1beta1.Shoot, p *model.Plan, want map[string]model.BindResult) []bind.Result {
	t.Helper()
	results, err := binder.Apply(context.Background(), read, p)
	binder.Flush()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		_, name, _ := strings.Cut(r.Shoot, "/")
		if r.Result != want[name] {
			t.Errorf("%s: %s (%v), want %s", name, r.Result, r.Err, want[name])
		}
	}
	return results
}

// checkFailureReported checks the unschedulable shoot's Warning SchedulingFailed event and its lastOperation.
func checkFailureReported(t *testing.T, c client.Client, u model.Unschedulable) {
	t.Helper()
	namespace, name, _ := strings.Cut(u.Shoot, "/")
	want := "Failed to schedule Shoot: " + u.Message
	events := eventsOf(t, c, namespace, name)
	if len(events) != 1 || events[0].Type != "Warning" || events[0].Reason != "SchedulingFailed" || events[0].Action != "Reconcile" || events[0].Note != want {
		t.Fatalf("%s: events %+v, want one Warning SchedulingFailed %q", u.Shoot, events, want)
	}
	shoot := &gardencorev1beta1.Shoot{}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: name}, shoot); err != nil {
		t.Fatal(err)
	}
	op := shoot.Status.LastOperation
	if op == nil || op.Type != gardencorev1beta1.LastOperationTypeCreate || op.State != gardencorev1beta1.LastOperationStatePending ||
		op.Description != want || time.Since(op.LastUpdateTime.Time) > time.Minute {
		t.Fatalf("%s: lastOperation %+v, want Create Pending %q now", u.Shoot, op, want)
	}
}

// Between read and bind the world changes: someone else binds a shoot, another shoot's spec changes, a third is
// deleted, a fourth gains a label and a fifth a last operation. seedplan leaves the first alone, reports the second
// as a conflict still pending (for the next window) and skips the third; the last two changed in nothing placement
// reads, so it binds them under their new resourceVersions, as planned.
func TestApplyWhenShootsChangeMeanwhile(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace, read, p := placedLandscape(t, cp, "change", 5)
	planned := map[string]string{}
	for _, pl := range p.Placements {
		planned[pl.Shoot] = pl.Seed
	}

	// shoot-0: bound by someone else, to the seed seedplan did not plan.
	other := "change-seed0"
	if planned[namespace+"/shoot-0"] == other {
		other = "change-seed1"
	}
	taken := read[namespace+"/shoot-0"].DeepCopy()
	taken.Spec.SeedName = &other
	if err := cp.Client.SubResource("binding").Update(ctx, taken); err != nil {
		t.Fatal(err)
	}
	// shoot-1: its spec changes.
	changed := &gardencorev1beta1.Shoot{}
	if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: "shoot-1"}, changed); err != nil {
		t.Fatal(err)
	}
	changed.Spec.Provider.Workers[0].Maximum = 3
	if err := cp.Client.Update(ctx, changed); err != nil {
		t.Fatal(err)
	}
	// shoot-2: deleted.
	if err := cp.Client.Delete(ctx, read[namespace+"/shoot-2"].DeepCopy()); err != nil {
		t.Fatal(err)
	}
	// shoot-3: a label; shoot-4: its status, as a failure report writes it.
	labelled := &gardencorev1beta1.Shoot{}
	if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: "shoot-3"}, labelled); err != nil {
		t.Fatal(err)
	}
	metav1.SetMetaDataLabel(&labelled.ObjectMeta, "changed-by", "someone-else")
	if err := cp.Client.Update(ctx, labelled); err != nil {
		t.Fatal(err)
	}
	reported := &gardencorev1beta1.Shoot{}
	if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: "shoot-4"}, reported); err != nil {
		t.Fatal(err)
	}
	reported.Status.LastOperation = &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeCreate,
		State: gardencorev1beta1.LastOperationStatePending, Description: "Failed to schedule Shoot: earlier", LastUpdateTime: metav1.Now()}
	if err := cp.Client.Status().Update(ctx, reported); err != nil {
		t.Fatal(err)
	}

	applyWanting(t, &bind.Binder{Client: cp.Client, Concurrency: 2}, read, p,
		map[string]model.BindResult{"shoot-0": model.Taken, "shoot-1": model.Conflict, "shoot-2": model.Gone, "shoot-3": model.Bound, "shoot-4": model.Bound})
	if got := seedName(t, cp.Client, namespace, "shoot-0"); got != other {
		t.Fatalf("shoot-0: seedName %q, someone else's %q was overwritten", got, other)
	}
	if got := seedName(t, cp.Client, namespace, "shoot-1"); got != "" {
		t.Fatalf("shoot-1 changed meanwhile but was bound to %q", got)
	}
	if n := len(eventsOf(t, cp.Client, namespace, "shoot-0")); n != 0 {
		t.Fatalf("shoot-0: %d events written about a shoot seedplan did not bind", n)
	}
	for _, name := range []string{"shoot-3", "shoot-4"} {
		if got, want := seedName(t, cp.Client, namespace, name), planned[namespace+"/"+name]; got != want {
			t.Errorf("%s: seedName %q, want the planned %q", name, got, want)
		}
		if events := eventsOf(t, cp.Client, namespace, name); len(events) != 1 || events[0].Reason != bind.ReasonSchedulingSuccessful {
			t.Errorf("%s: events %v, want one SchedulingSuccessful", name, events)
		}
	}
}

// A shoot deleted after the window read it, which the window found unschedulable, is no error: its failure event
// is still written, its lastOperation cannot be, and nothing is logged as an error.
func TestApplyReportsAGoneShootsFailureQuietly(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace, read, _ := placedLandscape(t, cp, "quiet", 1)
	key := namespace + "/shoot-0"
	if err := cp.Client.Delete(ctx, read[key].DeepCopy()); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	defer fixture.RestoreLogging()()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
	binder := &bind.Binder{Client: cp.Client}
	p := &model.Plan{Unschedulable: []model.Unschedulable{{Shoot: key, Message: "0/2 seeds are available", Reason: "Capacity"}}}
	if _, err := binder.Apply(ctx, read, p); err != nil {
		t.Fatal(err)
	}
	binder.Flush()
	if strings.Contains(logged.String(), "level=ERROR") {
		t.Errorf("a gone shoot's failure logged as an error:\n%s", logged.String())
	}
	if events := eventsOf(t, cp.Client, namespace, "shoot-0"); len(events) != 1 || events[0].Reason != bind.ReasonSchedulingFailed {
		t.Errorf("events %v, want one SchedulingFailed", events)
	}
}

// The answer to a binding is lost — the connection breaks, the server restarts — once after the binding landed
// and once before it reached the server; a third binding finds the connection refused. The first counts as
// bound, with its event, as it is; the second stays pending for the next window, with no event; the third too,
// without a look at the shoot (it cannot have landed); a fourth, bound elsewhere meanwhile, counts as taken from
// the one look at it. A fifth landed too, but the restarted server takes the first two looks at it for the
// anonymous user's, as gardener-apiserver does until it knows kube-apiserver's proxy again: it counts as bound.
// Everything else is bound. Shoots are looked at through the Binder's Reader.
func TestApplyWhenABindingsAnswerIsLost(t *testing.T) {
	cp := garden.Get(t)
	namespace, read, p := placedLandscape(t, cp, "lost", 6)
	lost := &url.Error{Op: "Put", URL: "https://garden/binding", Err: io.ErrUnexpectedEOF}
	anonymous := apierrors.NewForbidden(gardencorev1beta1.Resource("shoots"), "shoot-4",
		errors.New(`User "system:anonymous" cannot get resource "shoots" in API group "core.gardener.cloud" in the namespace "garden-lost"`))
	refused := &url.Error{Op: "Put", URL: "https://garden/binding", Err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}}
	var refusedLooks, takenLooks, anonymousLooks atomic.Int32
	writer := interceptor.NewClient(cp.Client, interceptor.Funcs{
		SubResourceUpdate: func(ctx context.Context, c client.Client, subResource string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			switch obj.GetName() {
			case "shoot-0", "shoot-4": // landed, its answer lost
				if err := c.SubResource(subResource).Update(ctx, obj, opts...); err != nil {
					return err
				}
				return lost
			case "shoot-1": // lost on its way
				return lost
			case "shoot-2":
				return refused
			case "shoot-3": // lost on its way, while someone else bound the shoot to the other seed
				if err := bindElsewhere(ctx, c, obj.(*gardencorev1beta1.Shoot)); err != nil {
					return err
				}
				return lost
			}
			return c.SubResource(subResource).Update(ctx, obj, opts...)
		},
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			t.Errorf("%s read through the Binder's Client, not its Reader", key.Name)
			return c.Get(ctx, key, obj, opts...)
		},
	})
	reader := interceptor.NewClient(cp.Client, interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			switch key.Name {
			case "shoot-2":
				refusedLooks.Add(1)
			case "shoot-3":
				takenLooks.Add(1)
			case "shoot-4":
				if anonymousLooks.Add(1) <= 2 {
					return anonymous
				}
			}
			return c.Get(ctx, key, obj, opts...)
		},
	})
	want := map[string]model.BindResult{"shoot-0": model.Bound, "shoot-1": model.Failed, "shoot-2": model.Failed, "shoot-3": model.Taken, "shoot-4": model.Bound, "shoot-5": model.Bound}
	results := applyWanting(t, &bind.Binder{Client: writer, Reader: reader, Concurrency: 2}, read, p, want)
	for i, r := range results {
		_, name, _ := strings.Cut(r.Shoot, "/")
		seed, events := seedName(t, cp.Client, namespace, name), eventsOf(t, cp.Client, namespace, name)
		switch want[name] {
		case model.Failed:
			if seed != "" || len(events) != 0 {
				t.Errorf("%s: seedName %q and %d events, want none", name, seed, len(events))
			}
			continue
		case model.Taken:
			if seed == p.Placements[i].Seed || seed == "" || len(events) != 0 {
				t.Errorf("%s: seedName %q and %d events, want the other seed and none", name, seed, len(events))
			}
			continue
		}
		if seed != p.Placements[i].Seed || len(events) != 1 || events[0].Reason != "SchedulingSuccessful" {
			t.Errorf("%s: seedName %q, events %+v; want %q and one SchedulingSuccessful event", name, seed, events, p.Placements[i].Seed)
		}
	}
	if n := refusedLooks.Load(); n != 0 {
		t.Errorf("shoot-2 was read %d times after its connection was refused", n)
	}
	if n := takenLooks.Load(); n != 1 {
		t.Errorf("shoot-3 was read %d times after its binding's answer was lost, want once", n)
	}
	if n := anonymousLooks.Load(); n != 3 {
		t.Errorf("shoot-4 was read %d times after its binding's answer was lost, want 3: twice refused, then answered", n)
	}
}

// bindElsewhere binds the shoot to the seed of its landscape other than the one it is about to be bound to, as
// another scheduler would.
func bindElsewhere(ctx context.Context, c client.Client, about *gardencorev1beta1.Shoot) error {
	current := &gardencorev1beta1.Shoot{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(about), current); err != nil {
		return err
	}
	seed := *about.Spec.SeedName // name-seed0 or name-seed1 (placedLandscape)
	other := strings.TrimSuffix(seed, "0") + "1"
	if strings.HasSuffix(seed, "1") {
		other = strings.TrimSuffix(seed, "1") + "0"
	}
	current.Spec.SeedName = &other
	return c.SubResource("binding").Update(ctx, current)
}

// A seed's allocatable is lowered between planning and binding: Gardener's admission refuses the binding
// (capacity), seedplan records it as refused and writes the failure as Gardener would; the shoot stays pending.
func TestApplyRefusedByAdmission(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "refuse", []int64{5}, 1, "")
	read, p := planNamespace(t, cp.Client, namespace)
	if len(p.Placements) != 1 {
		t.Fatalf("plan places %d, want 1", len(p.Placements))
	}
	seed := &gardencorev1beta1.Seed{}
	if err := cp.Client.Get(ctx, client.ObjectKey{Name: "refuse-seed0"}, seed); err != nil {
		t.Fatal(err)
	}
	seed.Status.Allocatable[gardencorev1beta1.ResourceShoots] = resource.MustParse("0")
	if err := cp.Client.Status().Update(ctx, seed); err != nil {
		t.Fatal(err)
	}
	// Admission reads seeds through an informer: wait until a server-side dry run of the binding is refused, so
	// that the test does not race the informer (the dry run writes nothing).
	deadline := time.Now().Add(30 * time.Second)
	for {
		probe := read[namespace+"/shoot-0"].DeepCopy()
		probe.Spec.SeedName = &p.Placements[0].Seed
		err := cp.Client.SubResource("binding").Update(ctx, probe, client.DryRunAll)
		if apierrors.IsForbidden(err) {
			break
		}
		if err != nil {
			t.Fatalf("dry-run binding: %v", err)
		}
		if time.Now().After(deadline) {
			t.Fatal("admission still admits the binding 30 s after the seed's allocatable was lowered")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// A dry run (apply --dry-run) hears the same refusal and writes no report of it.
	dry := &bind.Binder{Client: cp.Client, Concurrency: 1, DryRun: true}
	results, err := dry.Apply(ctx, read, p)
	dry.Flush()
	if err != nil {
		t.Fatal(err)
	}
	if r := results[0]; r.Result != model.Refused || !strings.Contains(r.Err.Error(), "maximum number of shoots") {
		t.Fatalf("dry run: result %s (%v), want refused for capacity", r.Result, r.Err)
	}
	if events := eventsOf(t, cp.Client, namespace, "shoot-0"); len(events) != 0 {
		t.Fatalf("a dry run wrote events %+v", events)
	}
	binder := &bind.Binder{Client: cp.Client, Concurrency: 1}
	results, err = binder.Apply(ctx, read, p) // a refusal is reported when Apply returns: no Flush
	if err != nil {
		t.Fatal(err)
	}
	if r := results[0]; r.Result != model.Refused || !strings.Contains(r.Err.Error(), "maximum number of shoots") {
		t.Fatalf("result %s (%v), want refused for capacity", r.Result, r.Err)
	}
	if got := seedName(t, cp.Client, namespace, "shoot-0"); got != "" {
		t.Fatalf("bound to %q over the seed's capacity", got)
	}
	events := eventsOf(t, cp.Client, namespace, "shoot-0")
	if len(events) != 1 || events[0].Reason != "SchedulingFailed" || !strings.HasPrefix(events[0].Note, "Failed to schedule Shoot: ") {
		t.Fatalf("events %+v, want one SchedulingFailed", events)
	}
}

// A plan applied after its context ended binds nothing, reports every placement as interrupted (still pending),
// and says so.
func TestApplyAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := &model.Plan{Placements: []model.Placement{{Shoot: "garden-a/x", Seed: "s1"}, {Shoot: "garden-a/y", Seed: "s2"}}}
	results, err := (&bind.Binder{Concurrency: 2}).Apply(ctx, nil, p)
	if want := "stopped before binding 2 of 2 shoots, which stay pending: context canceled"; err == nil || err.Error() != want || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want %q", err, want)
	}
	for i, r := range results {
		if r.Result != model.Interrupted || r.Shoot != p.Placements[i].Shoot || !r.Retry() {
			t.Fatalf("result %d: %+v, want interrupted (to retry) for %s", i, r, p.Placements[i].Shoot)
		}
	}
}

// A stop in the middle of a plan (Ctrl-C, SIGTERM, a lost lease) ends the binding whose request it cuts off and
// sends no other: the bindings made are bound, the one cut off is bound if it landed (it is looked for), and
// every other placement is interrupted — still pending, as a read of each shoot shows — and none failed.
func TestApplyStoppedMidway(t *testing.T) {
	cp := garden.Get(t)
	for _, tc := range []struct {
		name, landscape string
		landed          bool // whether the binding cut off reached the API server first
		bound           int
	}{
		{"cut off before it landed", "stopped", false, 3},
		{"cut off after it landed", "landed", true, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			namespace, read, p := placedLandscape(t, cp, tc.landscape, 12)
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			var sent atomic.Int32
			writer := interceptor.NewClient(cp.Client, interceptor.Funcs{
				SubResourceUpdate: func(ctx context.Context, c client.Client, subResource string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
					if sent.Add(1) != 4 {
						return c.SubResource(subResource).Update(ctx, obj, opts...)
					}
					if tc.landed {
						if err := c.SubResource(subResource).Update(ctx, obj, opts...); err != nil {
							return err
						}
					}
					stop() // as client-go answers a request whose context ends before its answer
					return &url.Error{Op: "Put", URL: "https://garden/binding", Err: context.Canceled}
				},
			})
			results, err := (&bind.Binder{Client: writer, Reader: cp.Client, Concurrency: 1}).Apply(ctx, read, p)
			want := fmt.Sprintf("stopped before binding %d of 12 shoots, which stay pending: context canceled", 12-tc.bound)
			if err == nil || err.Error() != want {
				t.Fatalf("error %v, want %q", err, want)
			}
			if got := bind.Summarize(results); got[model.Bound] != tc.bound || got[model.Interrupted] != 12-tc.bound {
				t.Fatalf("results %v, want %d bound and the others interrupted", got, tc.bound)
			}
			for i, r := range results {
				_, name, _ := strings.Cut(r.Shoot, "/")
				want := map[model.BindResult]string{model.Bound: p.Placements[i].Seed, model.Interrupted: ""}[r.Result]
				if got := seedName(t, cp.Client, namespace, name); got != want || !r.Retry() && r.Result != model.Bound {
					t.Errorf("%s: %s (%v), seedName %q; want seedName %q", name, r.Result, r.Err, got, want)
				}
			}
		})
	}
}

// Recheck keeps, per seed as it is now, what still fits beside what the seed hosted when the window was read,
// in plan order, and defers the rest: a seed whose allocatable was lowered, a seed without allocatable keeps
// everything, a seed deleted meanwhile nothing.
func TestRecheck(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	for name, allocatable := range map[string]int64{"recheck-full": 3, "recheck-unlimited": -1} {
		if err := cp.CreateSeed(ctx, gardentest.Seed(name, "aws", "recheck-1", "recheck-1a"), allocatable); err != nil {
			t.Fatal(err)
		}
	}
	placements := func(seedsAndShoots ...string) []model.Placement {
		var out []model.Placement
		for i := 0; i < len(seedsAndShoots); i += 2 {
			out = append(out, model.Placement{Seed: seedsAndShoots[i], Shoot: "ns/" + seedsAndShoots[i+1]})
		}
		return out
	}
	plan := &model.Plan{Placements: placements("recheck-full", "a", "recheck-unlimited", "b", "recheck-full", "c",
		"recheck-gone", "d", "recheck-full", "e", "recheck-unlimited", "f")}
	hosted := func(seed string) int { return map[string]int{"recheck-full": 1, "recheck-unlimited": 50}[seed] }
	seeds, shoots, err := ingest.LoadOccupancy(ctx, cp.Client, ingest.ListPageSize)
	if err != nil {
		t.Fatal(err)
	}
	kept, deferred := bind.Recheck(ctx, plan, seeds, shoots, hosted, nil)
	if want := placements("recheck-full", "a", "recheck-unlimited", "b", "recheck-full", "c", "recheck-unlimited", "f"); fmt.Sprint(kept.Placements) != fmt.Sprint(want) {
		t.Errorf("kept %v, want %v", kept.Placements, want)
	}
	var got []string
	for _, r := range deferred {
		if r.Result != model.Deferred || !r.Retry() {
			t.Errorf("%s: %s, retry %v", r.Shoot, r.Result, r.Retry())
		}
		got = append(got, r.Shoot)
	}
	if fmt.Sprint(got) != "[ns/d ns/e]" {
		t.Errorf("deferred %v, want [ns/d ns/e]", got)
	}
}
