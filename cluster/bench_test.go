package cluster_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/config"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/gardentest"
	"github.com/seedplan/seedplan/model"
)

// BenchmarkScheduleJob10k is the schedule job on the real control plane: 10,000 pending shoots over 500 seeds,
// one batch run, bound through the binding subresource; it reports bindings per second and then checks every
// binding independently (list everything, model.Verify). Run with -benchtime 1x (make bench-cluster): a
// landscape can be scheduled only once.
func BenchmarkScheduleJob10k(b *testing.B) {
	const seeds, shoots, allocatable = 500, 10_000, 25
	cp := garden.Get(b)
	ctx := context.Background()
	start := time.Now()
	namespace := cp.Landscape(b, "bench", slices.Repeat([]int64{allocatable}, seeds), shoots, "bench")
	b.Logf("created %d seeds and %d shoots through the API in %.0fs", seeds, shoots, time.Since(start).Seconds())
	before := snapshot(b, cp.Client)
	scheduler := newScheduler(b, cp.Client, namespace, false)
	scheduler.Binder.Concurrency = 32

	b.ResetTimer()
	start = time.Now()
	report, err := scheduler.RunJob(ctx, 3)
	elapsed := time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	bound := report.Bindings[model.Bound]
	if bound != shoots {
		b.Fatalf("bound %d of %d shoots (bindings %v)", bound, shoots, report.Bindings)
	}
	b.ReportMetric(float64(bound)/elapsed.Seconds(), "bindings/s")
	b.ReportMetric(report.Window.Seconds.Model, "model-s")
	b.ReportMetric(report.Window.Seconds.Solve, "solve-s")
	b.ReportMetric(report.Window.Seconds.Total, "read+plan-s")
	b.ReportMetric(elapsed.Seconds(), "job-s")
	if n := verifyBindings(b, cp.Client, before, namespace); n != shoots {
		b.Fatalf("independent check: %d shoots bound, want %d", n, shoots)
	}
}

// BenchmarkBinding measures bindings per second on the real control plane with a client at the configured
// QPS and burst and the configured concurrency: the ceiling, a plain loop of binding updates and nothing else;
// a window of the schedule job on an identical landscape (read, plan, re-check, bind) up to its last binding,
// the events it writes after timed apart (reports-after-s); and the run loop on a third one, from its informers
// being synced until its metrics count every shoot bound (its start-up timed apart, loop-startup-s), against the
// ceiling measured while an informer watches the shoots as the loop's does (watched-ceiling). Run with -benchtime 1x (make bench-binding): a
// landscape can be scheduled only once.
func BenchmarkBinding(b *testing.B) {
	const seeds, shoots, allocatable = 50, 2000, 200
	defaults := config.Default()
	for _, tc := range []struct {
		qps   float32
		burst int
	}{{defaults.Client.QPS, defaults.Client.Burst}, {50, 100}} {
		b.Run(fmt.Sprintf("qps=%.0f/burst=%d/concurrency=%d", tc.qps, tc.burst, defaults.Bind.Concurrency), func(b *testing.B) {
			cp := garden.Get(b)
			cfg := rest.CopyConfig(cp.Config)
			cfg.QPS, cfg.Burst = tc.qps, tc.burst
			limited, err := ingest.NewClient(cfg)
			if err != nil {
				b.Fatal(err)
			}
			// project names: 10 bytes at most
			ceilingName, jobName, loopName := fmt.Sprintf("ceil%.0f", tc.qps), fmt.Sprintf("job%.0f", tc.qps), fmt.Sprintf("loop%.0f", tc.qps)
			watchedName := fmt.Sprintf("watch%.0f", tc.qps)
			ceilingNamespace := cp.Landscape(b, ceilingName, slices.Repeat([]int64{allocatable}, seeds), shoots, ceilingName)
			watchedNamespace := cp.Landscape(b, watchedName, slices.Repeat([]int64{allocatable}, seeds), shoots, watchedName)
			jobNamespace := cp.Landscape(b, jobName, slices.Repeat([]int64{allocatable}, seeds), shoots, jobName)
			cp.Landscape(b, loopName, slices.Repeat([]int64{allocatable}, seeds), shoots, loopName)

			b.ResetTimer()
			ceiling := bindingCeiling(b, limited, ceilingName, ceilingNamespace, defaults.Bind.Concurrency)
			watched := watchedCeiling(b, cp.Config, limited, watchedName, watchedNamespace, defaults.Bind.Concurrency)
			scheduler := newScheduler(b, limited, jobNamespace, false) // the scheduler name is the project's
			scheduler.Binder.Concurrency = defaults.Bind.Concurrency
			start := time.Now()
			window, err := scheduler.Window(context.Background(), nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			var lastBinding time.Time
			for _, r := range window.Results {
				if r.Result != model.Bound {
					b.Fatalf("shoot %s: %s (%v)", r.Shoot, r.Result, r.Err)
				}
				lastBinding = maxTime(lastBinding, r.BoundAt)
			}
			flushStart := time.Now()
			scheduler.Binder.Flush()
			reportsAfter := time.Since(flushStart)
			if len(window.Results) != shoots {
				b.Fatalf("the job bound %d of %d shoots", len(window.Results), shoots)
			}
			loop, loopStartup := loopBindings(b, cp, tc.qps, tc.burst, loopName, shoots)
			b.StopTimer()
			job := float64(shoots) / lastBinding.Sub(start).Seconds()
			b.ReportMetric(ceiling, "ceiling-bindings/s")
			b.ReportMetric(job, "job-bindings/s")
			b.ReportMetric(job/ceiling, "job/ceiling")
			b.ReportMetric(loop, "loop-bindings/s")
			b.ReportMetric(loop/ceiling, "loop/ceiling")
			b.ReportMetric(watched, "watched-ceiling-bindings/s")
			b.ReportMetric(loop/watched, "loop/watched-ceiling")
			b.ReportMetric(loopStartup.Seconds(), "loop-startup-s")
			b.ReportMetric(window.Report.Window.Seconds.Total, "read+plan-s")
			b.ReportMetric(reportsAfter.Seconds(), "reports-after-s")
		})
	}
}

// loopBindings runs the loop as its own process, as it runs in a garden (the binary of $SEEDPLAN_BIN, or one
// built here), without leader election, for the scheduler name's pending shoots, and returns the bindings per
// second from the moment its informers are synced (/readyz: it plans at once) until its metrics count every shoot
// bound, and how long it took to get ready. In the benchmark's own process the loop shared the runtime, and the
// garbage collector's work, with the landscapes the benchmark holds.
func loopBindings(b *testing.B, cp *gardentest.ControlPlane, qps float32, burst int, schedulerName string, shoots int) (perSecond float64, startup time.Duration) {
	b.Helper()
	binary := os.Getenv("SEEDPLAN_BIN")
	if binary == "" {
		binary = filepath.Join(b.TempDir(), "seedplan")
		if out, err := exec.Command("go", "build", "-o", binary, "../cmd/seedplan").CombinedOutput(); err != nil {
			b.Fatalf("building seedplan: %v\n%s", err, out)
		}
	}
	kubeconfig, err := cp.Kubeconfig("loop-" + schedulerName)
	if err != nil {
		b.Fatal(err)
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	address := listener.Addr().String()
	_ = listener.Close()
	configFile := filepath.Join(b.TempDir(), "seedplan.yaml")
	configuration := fmt.Sprintf(`apiVersion: seedplan.gardener.cloud/v1alpha1
kind: SeedPlanConfiguration
schedulerName: %s
leaderElection: {leaderElect: false}
server: {bindAddress: %q}
clientConnection: {qps: %v, burst: %d}
logLevel: error
`, schedulerName, address, qps, burst)
	if err := os.WriteFile(configFile, []byte(configuration), 0o600); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	cmd := exec.Command(binary, "run", "--kubeconfig", kubeconfig, "--config", configFile)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			b.Errorf("seedplan run: %v\n%s", err, logs.String())
		}
	}()
	// Every poll of /metrics gathers the Go and process collectors: every 100 ms it errs by less than 1% over
	// the ~15 s it measures.
	poll := func(path, want string, every time.Duration) {
		deadline := time.Now().Add(10 * time.Minute)
		for !strings.Contains(get(address, path), want) {
			if time.Now().After(deadline) {
				b.Fatalf("%s of the loop did not show %q in 10 minutes\n%s", path, want, logs.String())
			}
			time.Sleep(every)
		}
	}
	poll("/readyz", "ok", 5*time.Millisecond)
	ready := time.Now()
	poll("/metrics", fmt.Sprintf("seedplan_bindings_total{result=%q} %d\n", model.Bound, shoots), 100*time.Millisecond)
	return float64(shoots) / time.Since(ready).Seconds(), ready.Sub(start)
}

// watchedCeiling is bindingCeiling while an informer watches every shoot, as the run loop's does: each binding
// then also travels the watch, from gardener-apiserver through kube-apiserver's aggregation to the informer, on
// the same cores.
func watchedCeiling(b *testing.B, config *rest.Config, c client.Client, landscape, namespace string, concurrency int) float64 {
	b.Helper()
	scheme, err := ingest.Scheme()
	if err != nil {
		b.Fatal(err)
	}
	shoots, err := cache.New(config, cache.Options{Scheme: scheme})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := shoots.GetInformer(ctx, &gardencorev1beta1.Shoot{}); err != nil {
		b.Fatal(err)
	}
	go func() { _ = shoots.Start(ctx) }()
	if !shoots.WaitForCacheSync(ctx) {
		b.Fatal("the shoot informer did not sync")
	}
	return bindingCeiling(b, c, landscape, namespace, concurrency)
}

// bindingCeiling binds every pending shoot of the landscape's namespace round-robin to the landscape's seeds of its
// region, concurrency at a time, with nothing else done, and returns the bindings per second.
func bindingCeiling(b *testing.B, c client.Client, landscape, namespace string, concurrency int) float64 {
	b.Helper()
	ctx := context.Background()
	var shoots gardencorev1beta1.ShootList
	if err := c.List(ctx, &shoots, client.InNamespace(namespace)); err != nil {
		b.Fatal(err)
	}
	var seeds gardencorev1beta1.SeedList
	if err := c.List(ctx, &seeds); err != nil {
		b.Fatal(err)
	}
	byRegion := map[string][]string{}
	for _, seed := range seeds.Items {
		if strings.HasPrefix(seed.Name, landscape+"-seed") {
			byRegion[seed.Spec.Provider.Region] = append(byRegion[seed.Spec.Provider.Region], seed.Name)
		}
	}
	work := make(chan int)
	var failed atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range concurrency {
		wg.Go(func() {
			for i := range work {
				shoot := &shoots.Items[i]
				candidates := byRegion[shoot.Spec.Region]
				if len(candidates) == 0 {
					failed.Add(1)
					continue
				}
				shoot.Spec.SeedName = &candidates[i%len(candidates)]
				if err := c.SubResource("binding").Update(ctx, shoot); err != nil {
					failed.Add(1)
				}
			}
		})
	}
	for i := range shoots.Items {
		work <- i
	}
	close(work)
	wg.Wait()
	elapsed := time.Since(start)
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d of %d plain bindings failed", n, len(shoots.Items))
	}
	return float64(len(shoots.Items)) / elapsed.Seconds()
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
