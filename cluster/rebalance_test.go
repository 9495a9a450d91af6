package cluster_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/cluster"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/fixture"
	"github.com/seedplan/seedplan/internal/gardentest"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// Rebalancing on the real gardener-apiserver: an overloaded seed's excess moves, one rebinding at a time, to the
// only seed the migration rules allow; a move whose shoot someone else moved meanwhile is skipped by the re-check,
// one whose shoot's status its gardenlet changed meanwhile, and again as it was bound, is made;
// and the ShootValidator refuses a rebinding to a seed without backup exactly as model.MigrationReason says.
func TestRebalanceApply(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	const name = "rebal"
	region := name + "-1"
	if err := cp.Create(ctx, gardentest.CloudProfile(name, "aws", map[string][]string{region: {region + "a"}, name + "-2": {name + "-2a"}})); err != nil {
		t.Fatal(err)
	}
	seed := func(i int, allocatable int64, backup bool) string {
		s := gardentest.Seed(fmt.Sprintf("%s-seed%d", name, i), "aws", region, region+"a")
		var err error
		if backup {
			err = cp.CreateMigratableSeed(ctx, s, name, allocatable)
		} else {
			s.Spec.DNS.Internal.Domain = "internal." + name + ".example.com" // the same domain, no backup: no migration
			err = cp.CreateSeed(ctx, s, allocatable)
		}
		if err != nil {
			t.Fatal(err)
		}
		return s.Name
	}
	full, roomy, noBackup := seed(0, 4, true), seed(1, 10, true), seed(2, 10, false)
	project := gardentest.Project(name)
	if err := cp.CreateProject(ctx, project, "aws"); err != nil {
		t.Fatal(err)
	}
	namespace := *project.Spec.Namespace
	cp.CreateShoots(t, namespace, name, 0, 8, name) // the even ones in region rebal-1
	binder := &bind.Binder{Client: cp.Client}
	for i := 0; i < 8; i += 2 {
		shoot := &gardencorev1beta1.Shoot{}
		if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: fmt.Sprintf("shoot-%d", i)}, shoot); err != nil {
			t.Fatal(err)
		}
		shoot.Spec.SeedName = &full
		if err := cp.Client.SubResource("binding").Update(ctx, shoot); err != nil {
			t.Fatal(err)
		}
	}

	opts := model.Options{SchedulerName: name}
	// The fixture's shoots have the maintenance windows Gardener gives them; this test is not about those.
	target := model.RebalanceOptions{TargetUtilization: 0.5, IgnoreMaintenanceWindows: true}
	r, err := model.NewRebalancing(snapshot(t, cp.Client), opts, target)
	if err != nil {
		t.Fatal(err)
	}
	rebalanced, err := plan.SolveRebalancing(ctx, r, solver.Rebalancer{Weights: solver.DefaultWeights()})
	if err != nil {
		t.Fatal(err)
	}
	var mine []model.Move
	for _, m := range rebalanced.Moves {
		if strings.HasPrefix(m.Shoot, namespace+"/") {
			mine = append(mine, m)
		}
	}
	if len(mine) != 2 || mine[0].To != roomy || mine[1].To != roomy {
		t.Fatalf("moves %v, want two to %s", mine, roomy)
	}

	// Someone else moves the first shoot before seedplan applies: the re-check skips it.
	moved := &gardencorev1beta1.Shoot{}
	key := strings.SplitN(mine[0].Shoot, "/", 2)
	if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: key[0], Name: key[1]}, moved); err != nil {
		t.Fatal(err)
	}
	moved.Spec.SeedName = &roomy
	if err := cp.Client.SubResource("binding").Update(ctx, moved); err != nil {
		t.Fatalf("the other writer's move: %v", err)
	}

	// The second shoot's gardenlet reconciles it meanwhile: its status changes, its spec does not — it is the
	// shoot the move was planned for.
	reconciled := &gardencorev1beta1.Shoot{}
	key = strings.SplitN(mine[1].Shoot, "/", 2)
	if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: key[0], Name: key[1]}, reconciled); err != nil {
		t.Fatal(err)
	}
	reconciled.Status.LastOperation = &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeReconcile,
		State: gardencorev1beta1.LastOperationStateSucceeded, Progress: 100, LastUpdateTime: metav1.Now()}
	if err := cp.Client.Status().Update(ctx, reconciled); err != nil {
		t.Fatal(err)
	}

	// And writes it again just as seedplan binds it: the binding meets a conflict, and the move is checked and made
	// again on a fresh read.
	var raced sync.Once
	var bindings atomic.Int32 // of the raced shoot
	racing := interceptor.NewClient(cp.Client, interceptor.Funcs{
		SubResourceUpdate: func(ctx context.Context, c client.Client, subResource string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			if subResource == "binding" && obj.GetName() == key[1] {
				bindings.Add(1)
				raced.Do(func() {
					reconciled.Status.LastOperation.Description = "Shoot cluster has been successfully reconciled."
					if err := c.Status().Update(ctx, reconciled); err != nil {
						t.Error(err)
					}
				})
			}
			return c.SubResource(subResource).Update(ctx, obj, opts...)
		},
	})
	mover := &cluster.Rebalance{Reader: cp.Client, PageSize: ingest.ListPageSize, Binder: &bind.Binder{Client: racing}, Options: opts, Target: target}
	results, err := mover.Apply(ctx, mine)
	if err != nil {
		t.Fatal(err)
	}
	if results[0].Result != model.MoveSkipped || !strings.Contains(results[0].Detail, "the shoot is on seed "+roomy+" already, as planned") || results[1].Result != model.MoveApplied {
		t.Fatalf("results %+v", results)
	}
	if n := bindings.Load(); n != 2 {
		t.Fatalf("the raced shoot's binding was sent %d times, want 2: the one that met the conflict, then the one made", n)
	}
	after := snapshot(t, cp.Client)
	if got := after.Usage(full); got != 2 {
		t.Fatalf("seed %s hosts %d shoots after rebalancing, want 2", full, got)
	}

	// A binding that fails for another reason (here: the connection) is a result and, in the end, an error.
	broken := interceptor.NewClient(cp.Client, interceptor.Funcs{
		SubResourceUpdate: func(context.Context, client.Client, string, client.Object, ...client.SubResourceUpdateOption) error {
			return errors.New("connection reset by peer")
		},
	})
	mover.Binder = &bind.Binder{Client: broken}
	var again []model.Move
	for _, shoot := range after.Shoots {
		if shoot.Namespace == namespace && ptr.Deref(shoot.Spec.SeedName, "") == full && len(again) == 0 {
			again = append(again, model.Move{Shoot: model.ShootKey(shoot), From: full, To: roomy, Reason: model.LeaveOverloaded})
		}
	}
	results, err = mover.Apply(ctx, again)
	if err == nil || !strings.Contains(err.Error(), "connection reset by peer") || results[0].Result != model.MoveFailed {
		t.Fatalf("a failed binding: results %+v, error %v", results, err)
	}
	if got := snapshot(t, cp.Client).Usage(full); got != 2 {
		t.Fatalf("seed %s hosts %d shoots after rebalancing, want 2", full, got)
	}

	// A move that is no longer as far as the reviewed plan states (its region ConfigMap changed since) is skipped
	// and reported, nothing written.
	mover.Binder = &bind.Binder{Client: cp.Client}
	farther := again[0]
	farther.Distance = 5
	results, err = mover.Apply(ctx, []model.Move{farther})
	if err != nil || results[0].Result != model.MoveSkipped || !strings.Contains(results[0].Detail, "not the 5 the move states") {
		t.Fatalf("a move at another distance than planned: results %+v, error %v", results, err)
	}
	if got := snapshot(t, cp.Client).Usage(full); got != 2 {
		t.Fatalf("seed %s hosts %d shoots after a skipped move, want 2", full, got)
	}

	// Gardener's admission agrees with the model's migration rule.
	var stay *gardencorev1beta1.Shoot
	for _, shoot := range after.Shoots {
		if shoot.Namespace == namespace && ptr.Deref(shoot.Spec.SeedName, "") == full {
			stay = shoot
		}
	}
	read := &gardencorev1beta1.Shoot{}
	if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(stay), read); err != nil {
		t.Fatal(err)
	}
	want := model.MigrationReason(stay, after.Seed(full), after.Seed(noBackup))
	refused := binder.Rebind(ctx, read, model.Move{Shoot: model.ShootKey(stay), From: full, To: noBackup, Reason: model.LeaveOverloaded})
	if refused.Result != model.MoveRefused || want == "" || !strings.Contains(refused.Detail, want) {
		t.Fatalf("rebinding to a seed without backup: %+v; the model says %q", refused, want)
	}
}

// A move waits for its shoot's maintenance window: applied while the window is closed it is scheduled, with the
// time it opens, and nothing is written; once the window has opened, the same move is made.
func TestRebalanceWaitsForTheMaintenanceWindow(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	const name = "maint"
	region := name + "-1"
	if err := cp.Create(ctx, gardentest.CloudProfile(name, "aws", map[string][]string{region: {region + "a"}})); err != nil {
		t.Fatal(err)
	}
	for _, seed := range []string{name + "-from", name + "-to"} {
		if err := cp.CreateMigratableSeed(ctx, gardentest.Seed(seed, "aws", region, region+"a"), name, 10); err != nil {
			t.Fatal(err)
		}
	}
	project := gardentest.Project(name)
	if err := cp.CreateProject(ctx, project, "aws"); err != nil {
		t.Fatal(err)
	}
	opens := time.Now().UTC().Add(4 * time.Second).Truncate(time.Second)
	shoot := gardentest.Shoot(*project.Spec.Namespace, "waiting", name, "aws", region, region+"a")
	shoot.Spec.Maintenance = &gardencorev1beta1.Maintenance{TimeWindow: &gardencorev1beta1.MaintenanceTimeWindow{
		Begin: opens.Format("150405-0700"), End: opens.Add(time.Hour).Format("150405-0700")}}
	if err := cp.Create(ctx, shoot); err != nil {
		t.Fatal(err)
	}
	shoot.Spec.SeedName = new(name + "-from")
	if err := cp.Client.SubResource("binding").Update(ctx, shoot); err != nil {
		t.Fatal(err)
	}

	move := model.Move{Shoot: model.ShootKey(shoot), From: name + "-from", To: name + "-to", Reason: model.LeaveDrain}
	target := model.RebalanceOptions{TargetUtilization: 1, Drain: []string{name + "-from"}}
	mover := &cluster.Rebalance{Reader: cp.Client, PageSize: ingest.ListPageSize, Binder: &bind.Binder{Client: cp.Client}, Target: target}
	results, err := mover.Apply(ctx, []model.Move{move})
	if err != nil || results[0].Result != model.MoveScheduled || !strings.Contains(results[0].Detail, opens.Format(time.RFC3339)) {
		t.Fatalf("before the window: results %+v, error %v; want scheduled for %s", results, err, opens.Format(time.RFC3339))
	}
	if got := snapshot(t, cp.Client).Shoot(move.Shoot).Spec.SeedName; *got != move.From {
		t.Fatalf("the shoot moved to %s before its window", *got)
	}

	time.Sleep(time.Until(opens) + 100*time.Millisecond)
	if results, err = mover.Apply(ctx, []model.Move{move}); err != nil || results[0].Result != model.MoveApplied {
		t.Fatalf("inside the window: results %+v, error %v; want moved", results, err)
	}
	if got := snapshot(t, cp.Client).Shoot(move.Shoot).Spec.SeedName; *got != move.To {
		t.Fatalf("the shoot is on %s after the move, want %s", *got, move.To)
	}
}

// gardenlet plays the gardenlets of a test garden: a shoot whose control plane is to move (spec.seedName not its
// status.seedName) reports, after delay, its restore on the new seed — unless stuck says it never will. Every tick
// it also observes the migrations in flight, per source and per destination seed.
type gardenlet struct {
	c        client.Client
	ns       string
	delay    time.Duration
	stuck    func(name string) bool
	mu       sync.Mutex
	seen     map[string]time.Time
	maxTotal int
	maxFrom  int
	maxTo    int
}

func (g *gardenlet) run(ctx context.Context, t *testing.T) {
	for ctx.Err() == nil {
		var shoots gardencorev1beta1.ShootList
		if err := g.c.List(ctx, &shoots, client.InNamespace(g.ns)); err != nil {
			if ctx.Err() == nil {
				t.Errorf("gardenlet: %v", err)
			}
			return
		}
		total, from, to := 0, map[string]int{}, map[string]int{}
		for i := range shoots.Items {
			shoot := &shoots.Items[i]
			spec, status := ptr.Deref(shoot.Spec.SeedName, ""), ptr.Deref(shoot.Status.SeedName, "")
			if spec == status || status == "" {
				continue
			}
			total++
			from[status]++
			to[spec]++
			g.mu.Lock()
			first, ok := g.seen[shoot.Name]
			if !ok {
				g.seen[shoot.Name], first = time.Now(), time.Now()
			}
			g.mu.Unlock()
			if g.stuck(shoot.Name) || time.Since(first) < g.delay {
				continue
			}
			shoot.Status.SeedName = shoot.Spec.SeedName
			shoot.Status.LastOperation = &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeRestore,
				State: gardencorev1beta1.LastOperationStateSucceeded, Progress: 100, LastUpdateTime: metav1.Now(), Description: "restored"}
			if err := g.c.Status().Update(ctx, shoot); err != nil && ctx.Err() == nil && !apierrors.IsConflict(err) {
				t.Errorf("gardenlet: %v", err)
			}
		}
		g.mu.Lock()
		g.maxTotal = max(g.maxTotal, total)
		for _, n := range from {
			g.maxFrom = max(g.maxFrom, n)
		}
		for _, n := range to {
			g.maxTo = max(g.maxTo, n)
		}
		g.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
}

// pacedGarden creates a garden of its own for a paced rebalancing, named name: seeds seeds of one region that take
// migrations, and shoots shoots of a project running (reconciled) on the first drained of them, round robin. It
// returns the project's namespace, the seeds, the target that drains the first drained seeds, and the moves
// planned for it.
func pacedGarden(t *testing.T, cp *gardentest.ControlPlane, name string, seeds, drained, shoots int) (string, []string, model.RebalanceOptions, []model.Move) {
	t.Helper()
	ctx := context.Background()
	region := name + "-1"
	if err := cp.Create(ctx, gardentest.CloudProfile(name, "aws", map[string][]string{region: {region + "a"}})); err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := range seeds {
		seed := fmt.Sprintf("%s-%c", name, 'a'+i)
		if err := cp.CreateMigratableSeed(ctx, gardentest.Seed(seed, "aws", region, region+"a"), name, 10); err != nil {
			t.Fatal(err)
		}
		names = append(names, seed)
	}
	project := gardentest.Project(name)
	if err := cp.CreateProject(ctx, project, "aws"); err != nil {
		t.Fatal(err)
	}
	namespace := *project.Spec.Namespace
	for i := range shoots {
		shoot := gardentest.Shoot(namespace, fmt.Sprintf("shoot-%d", i), name, "aws", region, region+"a")
		if err := cp.Create(ctx, shoot); err != nil {
			t.Fatal(err)
		}
		shoot.Spec.SeedName = &names[i%drained]
		if err := cp.Client.SubResource("binding").Update(ctx, shoot); err != nil {
			t.Fatal(err)
		}
		shoot.Status.SeedName = shoot.Spec.SeedName
		shoot.Status.LastOperation = &gardencorev1beta1.LastOperation{Type: gardencorev1beta1.LastOperationTypeReconcile,
			State: gardencorev1beta1.LastOperationStateSucceeded, Progress: 100, LastUpdateTime: metav1.Now()}
		if err := cp.Client.Status().Update(ctx, shoot); err != nil {
			t.Fatal(err)
		}
	}

	target := model.RebalanceOptions{TargetUtilization: 1, Drain: names[:drained], IgnoreMaintenanceWindows: true}
	r, err := model.NewRebalancing(snapshot(t, cp.Client), model.Options{}, target)
	if err != nil {
		t.Fatal(err)
	}
	rebalanced, err := plan.SolveRebalancing(ctx, r, solver.Rebalancer{Weights: solver.DefaultWeights()})
	if err != nil {
		t.Fatal(err)
	}
	var moves []model.Move
	for _, m := range rebalanced.Moves {
		if strings.HasPrefix(m.Shoot, namespace+"/") {
			moves = append(moves, m)
		}
	}
	return namespace, names, target, moves
}

// Paced apply on the real gardener-apiserver, with the test as the gardenlets: never more migrations in flight than
// allowed in all, off one seed or onto one seed (an observer independent of seedplan counts them from the shoots);
// a migration that does not finish in time stops the run with a report; running the same moves again continues
// where it stopped and repeats no finished move.
func TestRebalancePaced(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace, seeds, target, moves := pacedGarden(t, cp, "paced", 4, 2, 6)
	if len(moves) != 6 {
		t.Fatalf("%d moves, want the 6 shoots off the drained seeds", len(moves))
	}

	stuck := moves[3].Shoot[len(namespace)+1:]
	recovered := atomic.Bool{}
	g := &gardenlet{c: cp.Client, ns: namespace, delay: time.Second, seen: map[string]time.Time{},
		stuck: func(name string) bool { return name == stuck && !recovered.Load() }}
	gctx, stop := context.WithCancel(ctx)
	defer stop()
	go g.run(gctx, t)

	logged := &lockedBuffer{}
	defer fixture.RestoreLogging()()
	slog.SetDefault(slog.New(slog.NewTextHandler(logged, nil)))

	pacing := &cluster.Pacing{MaxInFlight: 2, MaxPerSeed: 1, Timeout: 3 * time.Second, Poll: 100 * time.Millisecond}
	mover := &cluster.Rebalance{Reader: cp.Client, PageSize: ingest.ListPageSize, Binder: &bind.Binder{Client: cp.Client}, Target: target, Pacing: pacing}
	results, err := mover.Apply(ctx, moves)
	if err == nil || !strings.Contains(err.Error(), "did not finish within 3s") || !strings.Contains(err.Error(), stuck) {
		t.Fatalf("a stuck migration should stop the run: %v, results %+v", err, results)
	}
	finished, stalled := 0, 0
	for _, res := range results {
		switch res.Result {
		case model.MoveFinished:
			finished++
		case model.MoveStalled:
			stalled++
		}
	}
	if stalled != 1 {
		t.Fatalf("results %+v: want the stuck move stalled", results)
	}
	allFinished := finished

	moved := func(results []model.MoveResult) (n int) {
		for _, res := range results {
			if res.Result == model.MoveFinished || res.Result == model.MoveApplied {
				n++
			}
		}
		return n
	}
	// The moves the stopped run did not start: besides the stalled one, it started those that finished and any still
	// in flight when the stall stopped it (moved, finished by the gardenlet after the run; on a slow machine the
	// timeout can pass while the move after the stuck one migrates).
	left := len(moves) - moved(results) - 1

	// Run again at once, allowed one migration in flight: the stalled one, still stuck, holds it, so no move
	// starts, and the run stops saying what it waited for.
	single := *mover
	single.Pacing = &cluster.Pacing{MaxInFlight: 1, MaxPerSeed: 1, Timeout: 3 * time.Second, Poll: 100 * time.Millisecond}
	results, err = single.Apply(ctx, moves)
	if moved(results) != 0 {
		t.Fatalf("a run allowed one migration started another beside the stuck one: %v, results %+v", err, results)
	}
	if want := "for a slot held by migrations this run did not start (shoot " + namespace + "/" + stuck; left > 0 && (err == nil || !strings.Contains(err.Error(), want)) {
		t.Fatalf("a run waiting for a stuck migration it did not start should stop saying so (%q): %v", want, err)
	}

	recovered.Store(true) // the gardenlet comes back; the same moves again continue where the run stopped
	capped := *mover
	capped.MaxMovesPerProject = 1 // first a run that may move one shoot of the project
	results, err = capped.Apply(ctx, moves)
	cappedOnes := 0
	for _, res := range results {
		if res.Result == model.MoveFinished {
			allFinished++
		}
		if res.Result == model.MoveCapped {
			cappedOnes++
			if !strings.HasSuffix(res.Detail, " had its 1 move of this run; a later run moves it") {
				t.Errorf("a capped move's detail: %q", res.Detail)
			}
		}
	}
	if err != nil || moved(results) != min(left, 1) || cappedOnes != max(left-1, 0) {
		t.Fatalf("a run capped at one move per project, %d moves left: %v, results %+v", left, err, results)
	}
	results, err = mover.Apply(ctx, moves)
	if err != nil || moved(results) != max(left-1, 0) {
		t.Fatalf("the last run should move the %d shoots left: %v, results %+v", max(left-1, 0), err, results)
	}
	for _, res := range results {
		if res.Result == model.MoveFinished {
			allFinished++
		}
	}
	// An operator watching a paced run sees it wait for slots, its migrations progress, and each one finish.
	log := logged.String()
	if got := strings.Count(log, `msg="Migration finished"`); got != allFinished ||
		!strings.Contains(log, `msg="Move waits for migrations in flight"`) || !strings.Contains(log, `heldBy="`) || !strings.Contains(log, `msg="Migration in progress"`) ||
		!strings.Contains(log, `msg="Waiting for the migrations started to finish"`) {
		t.Errorf("%d migrations finished, %d logged so; the log:\n%s", allFinished, got, log)
	}
	after := snapshot(t, cp.Client)
	if after.Usage(seeds[0])+after.Usage(seeds[1]) != 0 {
		t.Fatalf("the drained seeds still host shoots")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.maxTotal > 2 || g.maxFrom > 1 || g.maxTo > 1 {
		t.Fatalf("observed up to %d migrations in flight, %d off one seed, %d onto one seed; the limits are 2, 1, 1", g.maxTotal, g.maxFrom, g.maxTo)
	}
	if g.maxTotal < 2 {
		t.Fatalf("never more than %d migration in flight: the pacing did not run two at once", g.maxTotal)
	}
}

// A paced run outlasts an API server that fails its reads for a while (503, as one restarting or overloaded
// answers): it reads again at the next poll and sees the migrations finish — its own, and one it did not start that
// holds the slot its move waits for — and a move whose read of the garden before its binding failed is made once
// the garden reads again. A migration it cannot read at all stalls after the timeout, saying what the last read
// said; a garden it cannot read before a move stops the run after the timeout, the move not started. A one-shot run
// reads again through such failures before a move (up to 30 s). A read that fails for a reason no retry changes
// fails its move at once.
func TestRebalancePacedReadsThroughTransientFailures(t *testing.T) {
	cp := garden.Get(t)
	for _, tc := range []struct {
		name        string
		others      int   // moves started before the run, as another operator's
		failedReads int   // of the migrating shoots, from the first; -1: every read
		failedLists int   // of the garden's shoots (the read before a move), from the first; -1: every list
		listErr     error // what the failed lists return; nil: 503
		oneShot     bool  // no pacing: the move is started and not awaited
		wantErr     []string
		want        []model.MoveOutcome
	}{
		{name: "pblip", failedReads: 5, want: []model.MoveOutcome{model.MoveFinished}},
		{name: "pother", others: 1, failedReads: 5, want: []model.MoveOutcome{model.MoveFinished}},
		{name: "plist", failedLists: 5, want: []model.MoveOutcome{model.MoveFinished}},
		{name: "pdown", failedReads: -1, want: []model.MoveOutcome{model.MoveStalled},
			wantErr: []string{"did not finish within 3s", "reading shoot garden-pdown/shoot-0 in migration: restarting"}},
		{name: "plistdown", failedLists: -1,
			wantErr: []string{"found the garden unreadable for 3s", "listing Shoots", "restarting"}},
		{name: "pbroken", failedLists: -1, listErr: errors.New("decoding the ShootList: unexpected end of JSON input"),
			want: []model.MoveOutcome{model.MoveFailed}, wantErr: []string{"listing Shoots: decoding the ShootList"}},
		{name: "olist", oneShot: true, failedLists: 3, want: []model.MoveOutcome{model.MoveApplied}},
		{name: "obroken", oneShot: true, failedLists: -1, listErr: errors.New("decoding the ShootList: unexpected end of JSON input"),
			want: []model.MoveOutcome{model.MoveFailed}, wantErr: []string{"listing Shoots: decoding the ShootList"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			namespace, _, target, moves := pacedGarden(t, cp, tc.name, 2, 1, 1+tc.others)
			if len(moves) != 1+tc.others {
				t.Fatalf("%d moves, want the %d shoots off the drained seed", len(moves), 1+tc.others)
			}
			for _, m := range moves[:tc.others] {
				ns, name, _ := strings.Cut(m.Shoot, "/")
				shoot := &gardencorev1beta1.Shoot{}
				if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, shoot); err != nil {
					t.Fatal(err)
				}
				if result := (&bind.Binder{Client: cp.Client}).Rebind(ctx, shoot, m); result.Result != model.MoveApplied {
					t.Fatalf("starting the other migration: %+v", result)
				}
			}
			moves = moves[tc.others:]
			g := &gardenlet{c: cp.Client, ns: namespace, delay: time.Second, seen: map[string]time.Time{}, stuck: func(string) bool { return false }}
			gctx, stop := context.WithCancel(ctx)
			defer stop()
			go g.run(gctx, t)

			var reads, lists atomic.Int64
			fails := func(calls *atomic.Int64, failing int) bool {
				n := calls.Add(1)
				return failing < 0 || n <= int64(failing)
			}
			reader := interceptor.NewClient(cp.Client, interceptor.Funcs{
				Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
					if _, ok := obj.(*gardencorev1beta1.Shoot); ok && key.Namespace == namespace && fails(&reads, tc.failedReads) {
						return apierrors.NewServiceUnavailable("restarting")
					}
					return c.Get(ctx, key, obj, opts...)
				},
				List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
					if _, ok := list.(*gardencorev1beta1.ShootList); ok && fails(&lists, tc.failedLists) {
						if tc.listErr != nil {
							return tc.listErr
						}
						return apierrors.NewServiceUnavailable("restarting")
					}
					return c.List(ctx, list, opts...)
				},
			})
			// Bounded per seed only: the garden is shared, and a migration another test left would take a slot of all.
			mover := &cluster.Rebalance{Reader: reader, PageSize: ingest.ListPageSize, Binder: &bind.Binder{Client: cp.Client}, Target: target,
				Pacing: &cluster.Pacing{MaxInFlight: 100, MaxPerSeed: 1, Timeout: 3 * time.Second, Poll: 100 * time.Millisecond}}
			if tc.oneShot {
				mover.Pacing = nil
			}
			results, err := mover.Apply(ctx, moves)
			if tc.failedReads > 0 && reads.Load() <= int64(tc.failedReads) || tc.failedLists > 0 && lists.Load() <= int64(tc.failedLists) {
				t.Fatalf("shoots were read %d and listed %d times; the test wants more than %d and %d: %v, results %+v",
					reads.Load(), lists.Load(), tc.failedReads, tc.failedLists, err, results)
			}
			g.mu.Lock()
			if g.maxTo > 1 {
				t.Errorf("%d migrations onto one seed at once; the limit is 1", g.maxTo)
			}
			g.mu.Unlock()
			var got []model.MoveOutcome
			for _, r := range results {
				got = append(got, r.Result)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("results %+v (%v), want %v", results, err, tc.want)
			}
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatalf("reads failing for a while should not stop the run: %v, results %+v", err, results)
				}
				return
			}
			for _, want := range tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("the run's error should say %q: %v, results %+v", want, err, results)
				}
			}
			if len(results) == 1 && !strings.Contains(results[0].Detail, tc.wantErr[len(tc.wantErr)-1]) {
				t.Fatalf("the move's result should say what its last read said: %+v", results)
			}
		})
	}
}

// lockedBuffer is a buffer the loggers of several goroutines may write to while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
