// Package peer compares seedplan's run loop with the real gardener-scheduler v1.150.0, each a process of its own
// on a fresh test control plane (etcd, kube-apiserver, gardener-apiserver), on the workloads of a garden: a
// trickle of new shoots, a steady stream and a burst of pending shoots; and seedplan's schedule job on the burst,
// with the quality of the burst's plan as one window, LP and greedy. make bench-peer runs it.
package peer

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/go-logr/logr"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/seedplan/seedplan/bench"
	"github.com/seedplan/seedplan/examples"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/gardentest"
)

// The landscape of the comparison: 50 seeds in 10 regions, 200 shoots allocatable each, no contention, and
// Gardener's region ConfigMaps of aws, azure, gcp and alicloud (createRegionConfigs).
const (
	regions, seeds, allocatable = 10, 50, 200
	landscapeName               = "peer"
	// SEEDPLAN_BIN is the seedplan binary to run (make bench-peer builds bin/seedplan); SEEDPLAN_PEER_OUT the
	// directory the results are written to.
	binEnv, outEnv = "SEEDPLAN_BIN", "SEEDPLAN_PEER_OUT"
)

// Result is one scheduler on one workload.
type Result struct {
	Scheduler string  `json:"scheduler"`
	Workload  string  `json:"workload"`
	Shoots    int     `json:"shoots"`
	P50       float64 `json:"p50Seconds"`
	P90       float64 `json:"p90Seconds"`
	P99       float64 `json:"p99Seconds"`
	Max       float64 `json:"maxSeconds"`
	// BindingsPerSecond is the shoots bound divided by the time from the workload's start to the last binding.
	BindingsPerSecond float64 `json:"bindingsPerSecond"`
	// ExactlyOnce: every shoot's seedName was set once and never changed; no seed above its allocatable.
	ExactlyOnce bool `json:"exactlyOnce"`
	// Spread is, after the workload, the largest difference of shoots between two seeds of the same region.
	Spread int `json:"spread"`
}

// Quality is one solver's plan of the whole burst as one window (schedule --dry-run), before anything is bound.
type Quality struct {
	Solver    string  `json:"solver"`
	Pending   int     `json:"pending"`
	Placed    int     `json:"placed"`
	Objective float64 `json:"objective"`
	// Spread is the largest difference of shoots between two seeds of the same region after the plan.
	Spread int `json:"spread"`
}

// The schedulers compared: the gardener-scheduler and seedplan's loop through every workload, seedplan's
// schedule job through the burst.
const (
	gardenerScheduler = "gardener-scheduler"
	seedplanRun       = "seedplan run"
	seedplanJob       = "seedplan schedule"
)

// BenchmarkPeer runs the schedulers through the workloads and writes peer.txt and peer.json. Run with
// -benchtime 1x.
func BenchmarkPeer(b *testing.B) {
	seedplan := os.Getenv(binEnv)
	if seedplan == "" {
		b.Skipf("%s names no seedplan binary (make bench-peer)", binEnv)
	}
	crlog.SetLogger(logr.Discard()) // the harness's informer logs nothing worth reading
	var (
		results []Result
		quality []Quality
	)
	for _, s := range []string{gardenerScheduler, seedplanRun, seedplanJob} {
		b.Run(strings.ReplaceAll(s, " ", "-"), func(b *testing.B) {
			r, q := run(b, s, seedplan)
			results, quality = append(results, r...), append(quality, q...)
		})
	}
	table := resultTable(b, results) + "\n" + qualityTable(b, quality)
	b.Log("\n" + table)
	if dir := os.Getenv(outEnv); dir != "" {
		data, err := json.MarshalIndent(struct {
			Results []Result  `json:"results"`
			Quality []Quality `json:"burstAsOneWindow"`
		}{results, quality}, "", "  ")
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "peer.json"), data, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "peer.txt"), []byte(table), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// resultTable prints the latency and throughput of every scheduler and workload.
func resultTable(b *testing.B, results []Result) string {
	var table strings.Builder
	w := tabwriter.NewWriter(&table, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "SCHEDULER\tWORKLOAD\tSHOOTS\tP50\tP90\tP99\tMAX\tBINDINGS/S\tEXACTLY ONCE\tSPREAD\t")
	for _, r := range results {
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%.1f\t%v\t%d\t\n", r.Scheduler, r.Workload, r.Shoots, ms(r.P50), ms(r.P90),
			ms(r.P99), ms(r.Max), r.BindingsPerSecond, r.ExactlyOnce, r.Spread)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	return table.String()
}

// qualityTable prints the burst's plans as one window.
func qualityTable(b *testing.B, quality []Quality) string {
	var table strings.Builder
	w := tabwriter.NewWriter(&table, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "BURST AS ONE WINDOW\tPENDING\tPLACED\tOBJECTIVE\tSPREAD\t")
	for _, q := range quality {
		fmt.Fprintf(w, "%s\t%d\t%d\t%.0f\t%d\t\n", q.Solver, q.Pending, q.Placed, q.Objective, q.Spread)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	return table.String()
}

func ms(seconds float64) string { return fmt.Sprintf("%.0fms", seconds*1000) }

// env is one scheduler's fresh control plane, its landscape and what the watch saw.
type env struct {
	b         *testing.B
	cp        *gardentest.ControlPlane
	namespace string
	start     func() func() // starts the scheduler; the function returned stops it
	mu        sync.Mutex
	bound     map[string]time.Time // when the watch first saw the shoot's seedName
	seedOf    map[string]string
	rebound   map[string]bool // the seedName changed after it was set
	next      int
}

// run runs one scheduler through its workloads on a fresh control plane; the schedule job also plans the burst
// as one window with either solver before it binds it.
func run(b *testing.B, scheduler, seedplan string) ([]Result, []Quality) {
	ctx := context.Background()
	cp, err := gardentest.Start(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cp.Stop() }()
	if err := cp.EnsureNamespace(ctx, "garden"); err != nil {
		b.Fatal(err)
	}
	createRegionConfigs(b, cp)
	e := &env{b: b, cp: cp, bound: map[string]time.Time{}, seedOf: map[string]string{}, rebound: map[string]bool{}}
	e.namespace = cp.RegionalLandscape(b, landscapeName, regions, slices.Repeat([]int64{allocatable}, seeds))
	kubeconfig, err := cp.Kubeconfig(scheduler)
	if err != nil {
		b.Fatal(err)
	}
	e.start = func() func() { return startProcess(b, cp, scheduler, seedplan, kubeconfig) }
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	e.watch(watchCtx)

	if scheduler == seedplanJob {
		names := e.createBurst(5000)
		quality := []Quality{e.quality(seedplan, kubeconfig, "lp"), e.quality(seedplan, kubeconfig, "greedy")}
		return []Result{e.burst(scheduler, names)}, quality
	}
	stop := e.start()
	e.warmUp()
	// 300 lone shoots, so that the trickle's p99 is not one shoot's luck on a shared host, as its maximum is.
	results := []Result{e.stream(scheduler, "trickle 300 x 1/s", 300, time.Second), e.stream(scheduler, "steady 20/s for 60 s", 1200, 50*time.Millisecond)}
	stop()
	results = append(results, e.burst(scheduler, e.createBurst(5000)))
	stop = e.start()
	defer stop()
	return append(results, e.waitingForSeed(scheduler, 20, time.Minute)), nil
}

// createRegionConfigs creates Gardener's region ConfigMaps of aws, azure, gcp and alicloud, as a garden holds them
// for its shoots of the MinimalDistance strategy. Neither scheduler's SameRegion strategy reads them, and a
// scheduler must not make a lone shoot wait for them: seedplan once parsed them for every window (README, against
// the gardener-scheduler).
func createRegionConfigs(b *testing.B, cp *gardentest.ControlPlane) {
	l, err := ingest.LoadFS(examples.Regions, examples.RegionsDir)
	if err != nil {
		b.Fatal(err)
	}
	for _, cm := range l.Objects.ConfigMaps {
		if err := cp.Create(context.Background(), cm); err != nil {
			b.Fatal(err)
		}
	}
}

// quality plans the pending burst as one window with the solver, writing nothing.
func (e *env) quality(seedplan, kubeconfig, solver string) Quality {
	out, err := exec.Command(seedplan, "schedule", "--kubeconfig", kubeconfig, "--dry-run", "-o", "json", "--solver", solver).Output()
	if err != nil {
		e.b.Fatalf("schedule --dry-run --solver %s: %v", solver, err)
	}
	var plan struct {
		Window struct {
			Pending   int     `json:"pending"`
			Objective float64 `json:"objective"`
		} `json:"window"`
		Seeds []struct {
			Name   string `json:"name"`
			Usage  int    `json:"usage"`
			Placed int    `json:"placed"`
		} `json:"seeds"`
	}
	if err := json.Unmarshal(out, &plan); err != nil {
		e.b.Fatalf("schedule --dry-run --solver %s: %v", solver, err)
	}
	perSeed, placed := map[string]int{}, 0
	for _, seed := range plan.Seeds {
		perSeed[seed.Name] = seed.Usage + seed.Placed
		placed += seed.Placed
	}
	return Quality{Solver: solver, Pending: plan.Window.Pending, Placed: placed, Objective: plan.Window.Objective, Spread: spread(perSeed)}
}

// startProcess starts the scheduler as a process against the control plane and returns what stops it.
func startProcess(b *testing.B, cp *gardentest.ControlPlane, scheduler, seedplan, kubeconfig string) func() {
	dir := b.TempDir()
	var cmd *exec.Cmd
	switch scheduler {
	case "gardener-scheduler":
		stop, err := cp.StartGardenerScheduler(kubeconfig, dir)
		if err != nil {
			b.Fatal(err)
		}
		return func() {
			if err := stop(); err != nil {
				b.Log(err) // as before: only seedplan's job must end cleanly
			}
		}
	case seedplanJob:
		cmd = exec.Command(seedplan, "schedule", "--kubeconfig", kubeconfig, "-o", "json")
	default:
		config := `apiVersion: seedplan.gardener.cloud/v1alpha1
kind: SeedPlanConfiguration
leaderElection: {leaderElect: false}
server: {bindAddress: "127.0.0.1:0"}
logLevel: error
`
		file := filepath.Join(dir, "seedplan.yaml")
		if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
			b.Fatal(err)
		}
		cmd = exec.Command(seedplan, "run", "--kubeconfig", kubeconfig, "--config", file)
	}
	logFile, err := os.Create(filepath.Join(dir, "log"))
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // a killed benchmark takes it along
	if err := cmd.Start(); err != nil {
		b.Fatalf("starting %s: %v", scheduler, err)
	}
	return func() {
		if scheduler != seedplanJob { // the job ends by itself, with every event written
			_ = cmd.Process.Signal(os.Interrupt)
		}
		if err := cmd.Wait(); err != nil && scheduler == seedplanJob {
			b.Errorf("%s: %v", scheduler, err)
		}
		_ = logFile.Close()
	}
}

// watch records, for every shoot of the namespace, when its seedName was first seen set, and whether it changed.
// It is an informer: a watch the API server closes (its watch cache drops a watcher that falls behind a burst of
// updates) is listed and watched again.
func (e *env) watch(ctx context.Context) {
	scheme, err := ingest.Scheme()
	if err != nil {
		e.b.Fatal(err)
	}
	shoots, err := cache.New(e.cp.Config, cache.Options{Scheme: scheme, DefaultNamespaces: map[string]cache.Config{e.namespace: {}}})
	if err != nil {
		e.b.Fatal(err)
	}
	informer, err := shoots.GetInformer(ctx, &gardencorev1beta1.Shoot{})
	if err != nil {
		e.b.Fatal(err)
	}
	seen := func(obj any) {
		shoot, ok := obj.(*gardencorev1beta1.Shoot)
		if !ok || shoot.Spec.SeedName == nil {
			return
		}
		now := time.Now()
		e.mu.Lock()
		defer e.mu.Unlock()
		if seed, known := e.seedOf[shoot.Name]; !known {
			e.seedOf[shoot.Name], e.bound[shoot.Name] = *shoot.Spec.SeedName, now
		} else if seed != *shoot.Spec.SeedName {
			e.rebound[shoot.Name] = true
		}
	}
	if _, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: seen, UpdateFunc: func(_, obj any) { seen(obj) },
	}); err != nil {
		e.b.Fatal(err)
	}
	go func() { _ = shoots.Start(ctx) }()
	if !shoots.WaitForCacheSync(ctx) {
		e.b.Fatal("the shoot informer did not sync")
	}
}

// create creates the next shoot of the landscape, in its next region, with the default scheduler name; change,
// when given, changes it first.
func (e *env) create(ctx context.Context, change ...func(*gardencorev1beta1.Shoot) *gardencorev1beta1.Shoot) (string, error) {
	e.mu.Lock()
	i := e.next
	e.next++
	e.mu.Unlock()
	region := regionOf(i)
	shoot := gardentest.Shoot(e.namespace, fmt.Sprintf("shoot-%d", i), landscapeName, "aws", region, region+"a")
	for _, c := range change {
		shoot = c(shoot)
	}
	return shoot.Name, e.cp.Create(ctx, shoot)
}

// regionOf is the region of the landscape's i-th shoot (and i-th region): they take the regions in turn.
func regionOf(i int) string { return fmt.Sprintf("%s-%d", landscapeName, 1+i%regions) }

// waitingForSeed creates shoots that no seed may take yet — their seed selector asks for a label no seed has
// (gardentest.Unschedulable) — lets the scheduler fail them for wait, and then creates a seed with that label in
// every region in turn: the latency of each shoot counts from its region's new seed being ready (its status
// written) to the watch seeing the shoot bound. The gardener-scheduler tries a shoot again only when its backoff
// ends; seedplan's loop when room appears.
func (e *env) waitingForSeed(scheduler string, shoots int, wait time.Duration) Result {
	ctx := context.Background()
	var names []string
	e.mu.Lock()
	first := e.next // the shoots are created one after another, each in the next region
	e.mu.Unlock()
	for range shoots {
		name, err := e.create(ctx, gardentest.Unschedulable)
		if err != nil {
			e.b.Fatal(err)
		}
		names = append(names, name)
	}
	time.Sleep(wait)
	start := time.Now()
	ready := map[string]time.Time{}
	for r := range regions {
		region := regionOf(r)
		seed := gardentest.Seed(fmt.Sprintf("%s-new-%d", landscapeName, r+1), "aws", region, region+"a")
		seed.Labels = map[string]string{gardentest.UnschedulableLabel: "true"}
		if err := e.cp.CreateSeed(ctx, seed, allocatable); err != nil {
			e.b.Fatal(err)
		}
		ready[region] = time.Now()
	}
	created := map[string]time.Time{}
	for i, name := range names {
		created[name] = ready[regionOf(first+i)]
	}
	return e.result(scheduler, fmt.Sprintf("%d waiting %s, then seeds", shoots, wait), created, start)
}

// stream creates shoots at one every interval, the latency of each from just before its Create to the watch
// seeing it bound.
func (e *env) stream(scheduler, workload string, shoots int, interval time.Duration) Result {
	ctx := context.Background()
	created := map[string]time.Time{}
	var mu sync.Mutex
	var creating sync.WaitGroup
	tick := time.NewTicker(interval)
	start := time.Now()
	for range shoots {
		creating.Go(func() {
			at := time.Now()
			name, err := e.create(ctx)
			if err != nil {
				e.b.Error(err)
				return
			}
			mu.Lock()
			created[name] = at
			mu.Unlock()
		})
		<-tick.C
	}
	tick.Stop()
	creating.Wait()
	return e.result(scheduler, workload, created, start)
}

// warmUp creates one shoot and waits until it is bound, unmeasured: the streams then time a scheduler that is up,
// not its start (its process, informers and first connections), for both schedulers alike.
func (e *env) warmUp() {
	name, err := e.create(context.Background())
	if err != nil {
		e.b.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		e.mu.Lock()
		_, bound := e.bound[name]
		e.mu.Unlock()
		if bound {
			return
		}
		if time.Now().After(deadline) {
			e.b.Fatalf("the warm-up shoot %s was not bound in 2 minutes", name)
		}
	}
}

// createBurst creates the shoots of a burst while no scheduler runs.
func (e *env) createBurst(shoots int) []string {
	ctx := context.Background()
	var names []string
	var mu sync.Mutex
	var creating sync.WaitGroup
	work := make(chan struct{})
	for range 8 {
		creating.Go(func() {
			for range work {
				name, err := e.create(ctx)
				if err != nil {
					e.b.Error(err)
					continue
				}
				mu.Lock()
				names = append(names, name)
				mu.Unlock()
			}
		})
	}
	for range shoots {
		work <- struct{}{}
	}
	close(work)
	creating.Wait()
	return names
}

// burst starts the scheduler on the pending shoots; latencies count from its start.
func (e *env) burst(scheduler string, names []string) Result {
	start := time.Now()
	stop := e.start()
	defer stop()
	created := map[string]time.Time{}
	for _, name := range names {
		created[name] = start
	}
	return e.result(scheduler, fmt.Sprintf("burst %d pending", len(names)), created, start)
}

// result waits until every created shoot is bound (at most 15 minutes) and measures the workload.
func (e *env) result(scheduler, workload string, created map[string]time.Time, start time.Time) Result {
	deadline := time.Now().Add(15 * time.Minute)
	for {
		e.mu.Lock()
		missing := 0
		for name := range created {
			if _, ok := e.bound[name]; !ok {
				missing++
			}
		}
		e.mu.Unlock()
		if missing == 0 {
			break
		}
		if time.Now().After(deadline) {
			e.b.Fatalf("%s, %s: %d of %d shoots not bound after 15 minutes", scheduler, workload, missing, len(created))
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var latencies []float64
	var last time.Time
	exactlyOnce := true
	for name, at := range created {
		latencies = append(latencies, e.bound[name].Sub(at).Seconds())
		if e.bound[name].After(last) {
			last = e.bound[name]
		}
		exactlyOnce = exactlyOnce && !e.rebound[name]
	}
	quantile := func(q float64) float64 { return bench.Quantile(latencies, q) }
	perSeed := map[string]int{}
	for _, seed := range e.seedOf {
		perSeed[seed]++
	}
	for _, n := range perSeed {
		exactlyOnce = exactlyOnce && n <= allocatable
	}
	return Result{Scheduler: scheduler, Workload: workload, Shoots: len(created), P50: quantile(0.5), P90: quantile(0.9),
		P99: quantile(0.99), Max: quantile(1), BindingsPerSecond: float64(len(created)) / last.Sub(start).Seconds(),
		ExactlyOnce: exactlyOnce, Spread: spread(perSeed)}
}

// spread is the largest difference of shoots between two seeds of the same region.
func spread(perSeed map[string]int) int {
	largest := 0
	for region := 1; region <= regions; region++ {
		var counts []int
		for i := range seeds {
			if i%regions == region-1 {
				counts = append(counts, perSeed[fmt.Sprintf("%s-seed%d", landscapeName, i)])
			}
		}
		largest = max(largest, slices.Max(counts)-slices.Min(counts))
	}
	return largest
}
