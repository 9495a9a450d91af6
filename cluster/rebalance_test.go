package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/seedplan/seedplan/bind"
	"github.com/seedplan/seedplan/cluster"
	"github.com/seedplan/seedplan/ingest"
	"github.com/seedplan/seedplan/internal/gardentest"
	"github.com/seedplan/seedplan/model"
	"github.com/seedplan/seedplan/plan"
	"github.com/seedplan/seedplan/solver"
)

// Rebalancing on the real gardener-apiserver: an overloaded seed's excess moves, one rebinding at a time, to the
// only seed the migration rules allow; a move whose shoot someone else moved meanwhile is skipped by the re-check;
// and the ShootValidator refuses a rebinding to a seed without backup exactly as model.MigrationReason says.
func TestRebalanceApply(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	const name = "rebal"
	region := name + "-1"
	if err := cp.Client.Create(ctx, gardentest.CloudProfile(name, "aws", map[string][]string{region: {region + "a"}, name + "-2": {name + "-2a"}})); err != nil {
		t.Fatal(err)
	}
	seed := func(i int, allocatable int64, backup bool) string {
		s := gardentest.Seed(fmt.Sprintf("%s-seed%d", name, i), "aws", region, region+"a")
		s.Spec.DNS.Internal.Domain = "internal." + name + ".example.com" // a migration keeps the internal domain
		if backup {
			s.Spec.Backup = &gardencorev1beta1.Backup{Provider: "aws", CredentialsRef: &corev1.ObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: "garden", Name: "backup"}}
		}
		if err := cp.CreateSeed(ctx, s, allocatable); err != nil {
			t.Fatal(err)
		}
		if backup {
			s.Status.Conditions = append(s.Status.Conditions, gardencorev1beta1.Condition{Type: gardencorev1beta1.SeedBackupBucketsReady, Status: gardencorev1beta1.ConditionTrue,
				LastTransitionTime: metav1.Now(), LastUpdateTime: metav1.Now(), Reason: "Ready"})
			if err := cp.Client.Status().Update(ctx, s); err != nil {
				t.Fatal(err)
			}
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

	mover := &cluster.Rebalance{Reader: cp.Client, PageSize: ingest.ListPageSize, Binder: binder, Options: opts, Target: target}
	results, err := mover.Apply(ctx, mine)
	if err != nil {
		t.Fatal(err)
	}
	if results[0].Result != model.MoveSkipped || !strings.Contains(results[0].Detail, fmt.Sprintf("is on seed %q", roomy)) || results[1].Result != model.MoveApplied {
		t.Fatalf("results %+v", results)
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
	if err := cp.Client.Create(ctx, gardentest.CloudProfile(name, "aws", map[string][]string{region: {region + "a"}})); err != nil {
		t.Fatal(err)
	}
	for _, seed := range []string{name + "-from", name + "-to"} {
		s := gardentest.Seed(seed, "aws", region, region+"a")
		s.Spec.DNS.Internal.Domain = "internal." + name + ".example.com"
		s.Spec.Backup = &gardencorev1beta1.Backup{Provider: "aws", CredentialsRef: &corev1.ObjectReference{APIVersion: "v1", Kind: "Secret", Namespace: "garden", Name: "backup"}}
		if err := cp.CreateSeed(ctx, s, 10); err != nil {
			t.Fatal(err)
		}
		s.Status.Conditions = append(s.Status.Conditions, gardencorev1beta1.Condition{Type: gardencorev1beta1.SeedBackupBucketsReady, Status: gardencorev1beta1.ConditionTrue,
			LastTransitionTime: metav1.Now(), LastUpdateTime: metav1.Now(), Reason: "Ready"})
		if err := cp.Client.Status().Update(ctx, s); err != nil {
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
