package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/gardentest"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/report"
)

// Fault injection against the real garden API. After each fault the independent check runs: everything is listed
// afresh and every binding made meanwhile verified against the landscape as it was (model.Verify: predicates and
// capacity), every shoot was bound at most once (events), no seed assignment made by someone else was changed,
// and the next run picks up every shoot still pending.

// checkAfterFault is the independent check; kept are shoots bound by someone else, with their seed. It returns
// the number of the namespace's shoots bound.
func checkAfterFault(t *testing.T, c client.Client, before *model.Snapshot, namespace string, kept map[string]string) int {
	t.Helper()
	n := verifyBindings(t, c, before, namespace)
	var events eventsv1.EventList
	if err := c.List(context.Background(), &events, client.InNamespace(namespace)); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, c)
	scheduled := map[string]int{}
	for _, e := range events.Items {
		if e.Reason != bind.ReasonSchedulingSuccessful {
			continue
		}
		scheduled[e.Regarding.Name]++
		shoot := after.Shoot(namespace + "/" + e.Regarding.Name)
		if shoot == nil || shoot.Spec.SeedName == nil || !strings.Contains(e.Note, `"`+*shoot.Spec.SeedName+`"`) {
			t.Errorf("shoot %s: event %q, but the shoot is bound to %v", e.Regarding.Name, e.Note, shoot.Spec.SeedName)
		}
	}
	for name, count := range scheduled {
		if count > 1 {
			t.Errorf("shoot %s was bound %d times", name, count)
		}
	}
	for name, seed := range kept {
		if shoot := after.Shoot(namespace + "/" + name); shoot == nil || shoot.Spec.SeedName == nil || *shoot.Spec.SeedName != seed {
			t.Errorf("shoot %s was bound to %s by someone else; now %v", name, seed, shoot.Spec.SeedName)
		}
	}
	return n
}

// successEvents counts the namespace's SchedulingSuccessful events.
func successEvents(t *testing.T, c client.Client, namespace string) int {
	t.Helper()
	n := 0
	for _, count := range eventsByShoot(t, c, namespace, bind.ReasonSchedulingSuccessful) {
		n += count
	}
	return n
}

// eventsByShoot counts the namespace's events of the reason, by the name of the shoot they are about.
func eventsByShoot(t testing.TB, c client.Client, namespace, reason string) map[string]int {
	t.Helper()
	var events eventsv1.EventList
	if err := c.List(context.Background(), &events, client.InNamespace(namespace)); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, e := range events.Items {
		if e.Reason == reason {
			counts[e.Regarding.Name]++
		}
	}
	return counts
}

// afterReadingShoots is a reader for the scheduler that runs change once, right after the first window has
// listed the shoots: between reading the garden and binding.
func afterReadingShoots(c client.WithWatch, change func(context.Context, client.Client)) client.WithWatch {
	var once sync.Once
	return interceptor.NewClient(c, interceptor.Funcs{
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			if err := c.List(ctx, list, opts...); err != nil {
				return err
			}
			if _, ok := list.(*gardencorev1beta1.ShootList); ok {
				once.Do(func() { change(ctx, c) })
			}
			return nil
		},
	})
}

// A part of the garden API crashes in the middle of a batch of bindings and comes back: bindings fail, those in
// flight are looked for once it answers again, and every binding that landed is reported bound, none unnoticed;
// the job either reports the failure or, reading again until the part is back, finishes; either way the next run
// binds the rest and nothing is bound twice.
func TestJobSurvivesRestarts(t *testing.T) {
	cp := garden.Get(t)
	for _, tc := range []struct {
		name    string
		project string // Gardener allows 10 characters
		crash   func() (restart func(context.Context) error, err error)
		mayPass bool // etcd's clients wait for it, so no binding may fail at all
	}{
		{name: "gardener-apiserver", project: "crash-ga", crash: func() (func(context.Context) error, error) {
			return cp.RestartGardenerAPIServer, cp.KillGardenerAPIServer()
		}},
		{name: "kube-apiserver", project: "crash-ka", crash: crashOf(cp, gardentest.KubeAPIServer)},
		{name: "etcd", project: "crash-etcd", crash: crashOf(cp, gardentest.Etcd), mayPass: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			namespace := cp.Landscape(t, tc.project, []int64{20, 20}, 30, tc.project)
			before := snapshot(t, cp.Client)
			var calls atomic.Int32
			restarted := make(chan error, 1)
			crashing := interceptor.NewClient(cp.Client, interceptor.Funcs{
				SubResourceUpdate: func(ctx context.Context, c client.Client, subResource string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
					if subResource == "binding" && calls.Add(1) == 10 {
						restart, err := tc.crash()
						if err != nil {
							t.Error(err)
						}
						go func() {
							time.Sleep(2 * time.Second)
							restarted <- restart(context.Background())
						}()
					}
					return c.SubResource(subResource).Update(ctx, obj, opts...)
				},
			})
			report, err := newScheduler(t, crashing, namespace, false).RunJob(ctx, 3)
			if err == nil && report.Bindings[model.Failed] == 0 && !tc.mayPass {
				t.Fatalf("no binding failed through a crash of %s: %v", tc.name, report.Bindings)
			}
			t.Logf("run during the crash: bindings %v; %v", report.Bindings, err)
			if err := <-restarted; err != nil {
				t.Fatal(err)
			}
			// A binding whose answer the crash took is looked for: none lands unreported (and without its event).
			if n := verifyBindings(t, cp.Client, before, namespace); n != report.Bindings[model.Bound] {
				t.Fatalf("%d shoots bound in the garden, %d reported bound", n, report.Bindings[model.Bound])
			}
			next, err := newScheduler(t, cp.Client, namespace, false).RunJob(ctx, 3)
			if err != nil {
				t.Fatalf("the run after the restart: %v", err)
			}
			if n := checkAfterFault(t, cp.Client, before, namespace, nil); n != 30 {
				t.Fatalf("%d of 30 shoots bound after the next run", n)
			}
			// The events of bindings made while the part was down were written once it was back.
			if bound, events := report.Bindings[model.Bound]+next.Bindings[model.Bound], successEvents(t, cp.Client, namespace); events != bound {
				t.Fatalf("%d SchedulingSuccessful events for %d bindings", events, bound)
			}
		})
	}
}

// The job's reads — the window's, and the re-check's before binding — outlast an API server that fails them for a
// while (restarting: 503 or connection refused; overloaded: 429; once a read was answered, a restarted
// gardener-apiserver refusing the anonymous user): each is read again until answered, and the job binds every
// shoot. A read the API server decided on (forbidden, the anonymous user's too before any read was answered)
// fails the job at once, nothing bound.
func TestJobReadsThroughTransientFailures(t *testing.T) {
	cp := garden.Get(t)
	refused := &url.Error{Op: "Get", URL: "https://garden/shoots", Err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}}
	seeds := schema.GroupResource{Group: "core.gardener.cloud", Resource: "seeds"}
	anonymous := apierrors.NewForbidden(seeds, "", errors.New(`User "system:anonymous" cannot list resource "seeds" in API group "core.gardener.cloud" at the cluster scope`))
	for _, tc := range []struct {
		project  string
		failures map[string]error // the answers to the job's lists, by kind of list and its count of that kind (from 1)
		bound    int
	}{
		// The window's read lists Seeds, then Shoots; a failed read is read again whole.
		{"tr-window", map[string]error{"SeedList 1": apierrors.NewServiceUnavailable("restarting"), "ShootList 1": refused, "ShootList 2": refused}, 5},
		// A window that reads at once lists each kind once; the re-check before binding lists Seeds, then Shoots.
		{"tr-recheck", map[string]error{"SeedList 2": apierrors.NewTooManyRequests("slow down", 0), "ShootList 2": refused}, 5},
		{"tr-denied", map[string]error{"SeedList 1": apierrors.NewForbidden(seeds, "", errors.New("no RBAC rule"))}, 0},
		// Once the window's read was answered, the re-check's refused for the anonymous user is a restarted
		// gardener-apiserver's and read again; a first read refused so is a client without credentials.
		{"tr-restart", map[string]error{"SeedList 2": anonymous, "SeedList 3": anonymous}, 5},
		{"tr-anonym", map[string]error{"SeedList 1": anonymous}, 0},
	} {
		t.Run(tc.project, func(t *testing.T) {
			namespace := cp.Landscape(t, tc.project, []int64{10, 10}, 5, tc.project)
			before := snapshot(t, cp.Client)
			var mu sync.Mutex
			lists, injected := map[string]int{}, 0
			reader := interceptor.NewClient(cp.Client, interceptor.Funcs{
				List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
					mu.Lock()
					kind := strings.TrimPrefix(fmt.Sprintf("%T", list), "*v1beta1.")
					lists[kind]++
					err := tc.failures[fmt.Sprintf("%s %d", kind, lists[kind])]
					if err != nil {
						injected++
					}
					mu.Unlock()
					if err != nil {
						return err
					}
					return c.List(ctx, list, opts...)
				},
			})
			report, err := newScheduler(t, reader, namespace, false).RunJob(context.Background(), 1)
			if injected != len(tc.failures) {
				t.Fatalf("%d of the %d failures were answered (lists %v): the test does not fail what it says", injected, len(tc.failures), lists)
			}
			if tc.bound == 0 {
				if !apierrors.IsForbidden(err) || len(lists) != 1 || lists["SeedList"] != 1 {
					t.Fatalf("lists %v, error %v; want the job to fail on the forbidden one", lists, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("the job failed: %v", err)
			}
			if report.Bindings[model.Bound] != tc.bound {
				t.Fatalf("bindings %v, want %d bound", report.Bindings, tc.bound)
			}
			if n := verifyBindings(t, cp.Client, before, namespace); n != tc.bound {
				t.Fatalf("%d shoots bound in the garden, want %d", n, tc.bound)
			}
		})
	}
}

// crashOf crashes a component envtest runs; the function it returns starts it again.
func crashOf(cp *gardentest.ControlPlane, c gardentest.Component) func() (func(context.Context) error, error) {
	return func() (func(context.Context) error, error) {
		args, err := cp.Crash(c)
		return func(ctx context.Context) error { return cp.Restart(ctx, c, args) }, err
	}
}

// kube-apiserver hangs for 3 s (SIGSTOP) in the middle of a batch of bindings, with a 1 s request timeout:
// requests time out instead of stopping the job, bindings the server applies after it wakes up are found bound
// (once it answers again, or by the next round or run), and nothing is bound twice.
func TestJobSurvivesAHungAPIServer(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "hung", []int64{20, 20}, 30, "hung")
	before := snapshot(t, cp.Client)
	timed := rest.CopyConfig(cp.Config)
	timed.Timeout = time.Second
	scheme, err := ingest.Scheme()
	if err != nil {
		t.Fatal(err)
	}
	garden, err := client.NewWithWatch(timed, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	var calls, timedOut atomic.Int32
	resumed := make(chan error, 1)
	hanging := interceptor.NewClient(garden, interceptor.Funcs{
		SubResourceUpdate: func(ctx context.Context, c client.Client, subResource string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			if subResource == "binding" && calls.Add(1) == 10 {
				resume, err := cp.Pause(gardentest.KubeAPIServer)
				if err != nil {
					t.Error(err)
				}
				go func() {
					time.Sleep(3 * time.Second)
					resumed <- resume()
				}()
			}
			err := c.SubResource(subResource).Update(ctx, obj, opts...)
			if err != nil {
				timedOut.Add(1)
			}
			return err
		},
	})
	start := time.Now()
	report, err := newScheduler(t, hanging, namespace, false).RunJob(ctx, 3)
	t.Logf("run during the hang (%v): bindings %v; %v", time.Since(start).Round(time.Millisecond), report.Bindings, err)
	if err := <-resumed; err != nil {
		t.Fatal(err)
	}
	if timedOut.Load() == 0 {
		t.Fatalf("no binding timed out while kube-apiserver hung: %v", report.Bindings)
	}
	if _, err := newScheduler(t, cp.Client, namespace, false).RunJob(ctx, 3); err != nil {
		t.Fatalf("the run after the hang: %v", err)
	}
	if n := checkAfterFault(t, cp.Client, before, namespace, nil); n != 30 {
		t.Fatalf("%d of 30 shoots bound after the next run", n)
	}
}

// Every third binding times out after gardener-apiserver applied it (the response is lost): seedplan looks at the
// shoot, finds it on its seed and counts it bound, with its event, in the same round; nothing is bound twice.
func TestJobSurvivesLostResponses(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "lost", []int64{20, 20}, 24, "lost")
	before := snapshot(t, cp.Client)
	var calls, lost atomic.Int32
	lossy := interceptor.NewClient(cp.Client, interceptor.Funcs{
		SubResourceUpdate: func(ctx context.Context, c client.Client, subResource string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			if err := c.SubResource(subResource).Update(ctx, obj, opts...); err != nil || subResource != "binding" || calls.Add(1)%3 != 0 {
				return err
			}
			lost.Add(1)
			return apierrors.NewTimeoutError("the response to the binding was lost", 1)
		},
	})
	report, err := newScheduler(t, lossy, namespace, false).RunJob(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if report.Bindings[model.Bound] != 24 || report.Bindings[model.Failed] != 0 || report.Rounds != 1 || lost.Load() != 8 {
		t.Fatalf("bindings %v in %d rounds with %d responses lost", report.Bindings, report.Rounds, lost.Load())
	}
	if n := checkAfterFault(t, cp.Client, before, namespace, nil); n != 24 {
		t.Fatalf("%d of 24 shoots bound", n)
	}
	if events := successEvents(t, cp.Client, namespace); events != 24 {
		t.Fatalf("%d SchedulingSuccessful events for 24 bindings", events)
	}
}

// A second writer binds shoots to other seeds while seedplan plans the window: seedplan's bindings of those shoots
// meet conflicts, and it leaves the other writer's choice alone.
func TestJobLeavesASecondWritersBindings(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "writer", []int64{20, 20}, 12, "writer")
	before := snapshot(t, cp.Client)
	kept := map[string]string{"shoot-0": "writer-seed0", "shoot-2": "writer-seed0", "shoot-4": "writer-seed0"}
	reader := afterReadingShoots(cp.Client, func(ctx context.Context, c client.Client) { // the other writer binds three
		for name, seed := range kept {
			shoot := &gardencorev1beta1.Shoot{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, shoot); err != nil {
				t.Error(err)
				continue
			}
			shoot.Spec.SeedName = &seed
			if err := c.SubResource("binding").Update(ctx, shoot); err != nil {
				t.Error(err)
			}
		}
	})
	s := newScheduler(t, cp.Client, namespace, false)
	s.Reader = reader
	report, err := s.RunJob(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if report.Bindings[model.Taken] != 3 || report.Bindings[model.Bound] != 9 {
		t.Fatalf("bindings %v; want 3 taken by the other writer and 9 bound", report.Bindings)
	}
	if n := checkAfterFault(t, cp.Client, before, namespace, kept); n != 12 {
		t.Fatalf("%d of 12 shoots bound", n)
	}
}

// A seed's allocatable is lowered from 10 to 3 after the window read it and before the bindings. Found: Gardener's
// ShootValidator refuses bindings to a full seed, but counts from its informer cache, so of the 8 bindings
// planned there 5 landed (3 refused). So seedplan re-reads the seeds before binding (Binder.Recheck): it binds 3
// there and defers 5 to the next window, which finds no room for them.
func TestJobRespectsAllocatableLoweredBeforeBinding(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "lowered", []int64{10, 10}, 16, "lowered")
	before := snapshot(t, cp.Client)
	reader := afterReadingShoots(cp.Client, func(ctx context.Context, c client.Client) {
		seed := &gardencorev1beta1.Seed{}
		if err := c.Get(ctx, client.ObjectKey{Name: "lowered-seed0"}, seed); err != nil {
			t.Error(err)
			return
		}
		seed.Status.Allocatable[gardencorev1beta1.ResourceShoots] = *resource.NewQuantity(3, resource.DecimalSI)
		if err := c.Status().Update(ctx, seed); err != nil {
			t.Error(err)
		}
		time.Sleep(time.Second) // gardener-apiserver's informers see it
	})
	s := newScheduler(t, cp.Client, namespace, false)
	s.Reader = reader
	report, err := s.RunJob(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if report.Bindings[model.Deferred] != 5 || report.Bindings[model.Bound] != 11 || report.Bindings[model.Refused] != 0 {
		t.Fatalf("bindings %v; want 3 + 8 bound and 5 deferred", report.Bindings)
	}
	if usage := snapshot(t, cp.Client).Usage("lowered-seed0"); usage != 3 {
		t.Fatalf("seed lowered-seed0 hosts %d shoots, want its allocatable of 3", usage)
	}
	checkAfterFault(t, cp.Client, before, namespace, nil)
}

// The run loop keeps running through a crash of kube-apiserver shorter than its lease's renew deadline: its
// informers watch again once the server is back, the shoots created meanwhile are bound, nothing twice.
func TestLoopSurvivesKubeAPIServerRestart(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "loopcrash", []int64{20, 20}, 10, "loopcrash")
	before := snapshot(t, cp.Client)
	c := loopConfig(t, cp, "loopcrash")
	loop := startLoop(t, cp.Config, c, "loopcrash")
	waitFor(t, 60*time.Second, "the loop binds the first ten shoots", func() bool { return boundCount(t, cp.Client, namespace) == 10 })
	args, err := cp.Crash(gardentest.KubeAPIServer)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	if err := cp.Restart(ctx, gardentest.KubeAPIServer, args); err != nil {
		t.Fatal(err)
	}
	cp.CreateShoots(t, namespace, "loopcrash", 10, 20, "loopcrash")
	waitFor(t, 60*time.Second, "the loop binds the shoots created after the restart", func() bool { return boundCount(t, cp.Client, namespace) == 20 })
	loop.stop(t)
	if n := checkAfterFault(t, cp.Client, before, namespace, nil); n != 10 {
		t.Fatalf("%d of the first 10 shoots bound", n)
	}
	if events := successEvents(t, cp.Client, namespace); events != 20 {
		t.Fatalf("%d SchedulingSuccessful events for 20 bindings", events)
	}
}

// A job or a loop that starts while the garden does not answer waits for it, as either waits out a read that fails
// for a while, and binds once it is back. gardener-apiserver down (an upgrade of Gardener restarts it) makes
// kube-apiserver answer 503 for Gardener's API and leave it out of discovery; kube-apiserver down refuses every
// connection. Both use clients of their own, whose REST mappers have never found Gardener's API, as a new
// process's have not. While it waits, the loop answers /healthz, so that a liveness probe does not restart it, and
// not /readyz.
func TestJobAndLoopStartWhileTheGardenDoesNotAnswer(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name, project string // Gardener allows 10 characters, and -j and -l are added
		crash         func() (restart func(context.Context) error, err error)
	}{
		{name: "gardener-apiserver", project: "down-ga", crash: func() (func(context.Context) error, error) {
			if err := cp.KillGardenerAPIServer(); err != nil {
				return nil, err
			}
			return cp.RestartGardenerAPIServer, cp.MarkGardenerAPIUnavailable(ctx)
		}},
		{name: "kube-apiserver", project: "down-ka", crash: crashOf(cp, gardentest.KubeAPIServer)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jobNamespace := cp.Landscape(t, tc.project+"-j", []int64{10, 10}, 5, tc.project+"-j")
			loopNamespace := cp.Landscape(t, tc.project+"-l", []int64{10, 10}, 5, tc.project+"-l")
			c := loopConfig(t, cp, tc.project+"-l")
			before := snapshot(t, cp.Client)
			fresh, err := ingest.NewClient(cp.Config)
			if err != nil {
				t.Fatal(err)
			}
			restart, err := tc.crash()
			if err != nil {
				t.Fatal(err)
			}
			down := time.Now()
			restarted := false
			t.Cleanup(func() { // a failure before the restart must not leave the garden down for the next test
				if !restarted {
					if err := restart(ctx); err != nil {
						t.Errorf("restarting the garden after the test failed: %v", err)
					}
				}
			})
			loop := startLoop(t, cp.Config, c, tc.project+"-l")
			type jobResult struct {
				report *report.Report
				err    error
			}
			job, scheduler := make(chan jobResult, 1), newScheduler(t, fresh, jobNamespace, false)
			go func() {
				r, err := scheduler.RunJob(ctx, 1)
				job <- jobResult{r, err}
			}()
			loop.unready(t, "the garden does not answer")
			time.Sleep(time.Until(down.Add(3 * time.Second))) // both wait some seconds, as for a restart
			restarted = true
			if err := restart(ctx); err != nil {
				t.Fatal(err)
			}
			result := <-job
			if result.err != nil {
				t.Fatalf("the job failed: %v", result.err)
			}
			if result.report.Bindings[model.Bound] != 5 {
				t.Fatalf("bindings %v, want 5 bound", result.report.Bindings)
			}
			waitFor(t, 60*time.Second, "the loop binds its shoots", func() bool { return boundCount(t, cp.Client, loopNamespace) == 5 })
			loop.stop(t)
			for _, namespace := range []string{jobNamespace, loopNamespace} {
				if n := checkAfterFault(t, cp.Client, before, namespace, nil); n != 5 {
					t.Fatalf("%s: %d of 5 shoots bound", namespace, n)
				}
			}
		})
	}
}
