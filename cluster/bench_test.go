package cluster_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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
// a window of the schedule job (read, plan, re-check, bind) up to its last binding, the events it writes after
// timed apart (reports-after-s); and the run loop, from its informers being synced until its last binding (its
// start-up timed apart, loop-startup-s), against the ceiling measured while an informer watches the shoots as the
// loop's does (watched-ceiling). Each is measured on a control plane of its own with the same fresh landscape: for
// every binding gardener-apiserver's admission counts the shoots of every seed in the garden, so a phase measured
// in a garden where earlier phases had bound their shoots paid more per binding than the first. Run with
// -benchtime 1x (make bench-binding): a landscape can be scheduled only once.
func BenchmarkBinding(b *testing.B) {
	const seeds, shoots, allocatable = 50, 2000, 200
	defaults := config.Default()
	concurrency := defaults.Bind.Concurrency
	for _, tc := range []struct {
		qps   float32
		burst int
	}{{defaults.Client.QPS, defaults.Client.Burst}, {50, 100}} {
		b.Run(fmt.Sprintf("qps=%.0f/burst=%d/concurrency=%d", tc.qps, tc.burst, concurrency), func(b *testing.B) {
			// fresh stops the previous phase's control plane and gives a landscape on one of its own, with a
			// client at the case's QPS and burst: an idle control plane beside still takes the cores' time.
			var previous *gardentest.ControlPlane
			b.Cleanup(func() {
				if previous != nil {
					_ = previous.Stop()
				}
			})
			fresh := func(name string) (*gardentest.ControlPlane, client.Client, string) {
				b.StopTimer()
				defer b.StartTimer()
				if previous != nil {
					if err := previous.Stop(); err != nil {
						b.Fatal(err)
					}
				}
				cp, err := gardentest.Start(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				previous = cp
				cfg := rest.CopyConfig(cp.Config)
				cfg.QPS, cfg.Burst = tc.qps, tc.burst
				limited, err := ingest.NewClient(cfg)
				if err != nil {
					b.Fatal(err)
				}
				return cp, limited, cp.Landscape(b, name, slices.Repeat([]int64{allocatable}, seeds), shoots, name)
			}
			_, limited, namespace := fresh("ceiling")
			ceiling := bindingCeiling(b, limited, "ceiling", namespace, concurrency)
			cp, limited, namespace := fresh("watched")
			watched := watchedCeiling(b, cp.Config, limited, "watched", namespace, concurrency)

			_, limited, namespace = fresh("job")
			scheduler := newScheduler(b, limited, namespace, false) // the scheduler name is the project's
			scheduler.Binder.Concurrency = concurrency
			start := time.Now()
			planned, err := scheduler.Plan(context.Background(), nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			window, err := scheduler.Bind(context.Background(), planned)
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

			cp, _, _ = fresh("loop")
			loop, loopStartup := loopBindings(b, cp, tc.qps, tc.burst, "loop", shoots)
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
// second from the moment its informers are synced (/readyz: it plans at once) until its last binding, and how long
// it took to get ready. In the benchmark's own process the loop shared the runtime, and the garbage collector's
// work, with the landscapes the benchmark holds. The loop logs at its default level, as JSON, and its log says
// when each binding succeeded: polling /metrics every 100 ms instead cost the loop more CPU than its bindings.
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
logFormat: json
`, schedulerName, address, qps, burst)
	if err := os.WriteFile(configFile, []byte(configuration), 0o600); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	cmd := exec.Command(binary, "run", "--kubeconfig", kubeconfig, "--config", configFile)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // a killed benchmark takes it along
	log, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	bindings := make(chan time.Time, 1)
	var others strings.Builder // the log but its bindings, for a failure's report
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		defer close(bindings)
		readBindings(log, shoots, bindings, &others)
	}()
	var failure string
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		err := cmd.Wait()
		<-scanned // others is complete and written no more
		switch {
		case failure != "":
			b.Fatalf("%s\n%s", failure, others.String())
		case err != nil:
			b.Errorf("seedplan run: %v\n%s", err, others.String())
		}
	}()
	deadline := time.Now().Add(10 * time.Minute)
	for get(address, "/readyz") != "ok" {
		if time.Now().After(deadline) {
			failure = "the loop was not ready in 10 minutes"
			return 0, 0
		}
		time.Sleep(5 * time.Millisecond)
	}
	ready := time.Now()
	select {
	case last, ok := <-bindings:
		if ok {
			return float64(shoots) / last.Sub(ready).Seconds(), ready.Sub(start)
		}
		failure = fmt.Sprintf("the loop's log ended before it showed %d shoots bound", shoots)
	case <-time.After(time.Until(deadline)):
		failure = fmt.Sprintf("the loop did not bind %d shoots in 10 minutes", shoots)
	}
	return 0, 0
}

// readBindings reads a loop's JSON log, sends the time of its shoots-th "Shoot scheduled" line to last, and reads
// the rest; every other line goes to others.
func readBindings(log io.Reader, shoots int, last chan<- time.Time, others io.Writer) {
	lines := bufio.NewScanner(log)
	lines.Buffer(nil, 1<<20)
	bound := 0
	for lines.Scan() {
		var line struct {
			Time time.Time `json:"time"`
			Msg  string    `json:"msg"`
		}
		if json.Unmarshal(lines.Bytes(), &line) != nil || line.Msg != "Shoot scheduled" {
			fmt.Fprintln(others, lines.Text())
			continue
		}
		if bound++; bound == shoots {
			last <- line.Time
		}
	}
	// A line beyond the scanner's buffer ends the scan: the rest is still read, so that the loop never blocks
	// on a full pipe.
	_, _ = io.Copy(others, log)
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
