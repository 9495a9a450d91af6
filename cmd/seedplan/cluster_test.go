package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/spf13/cobra"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/seedplan/seedplan/internal/fixture"
	"github.com/seedplan/seedplan/internal/gardentest"
	"github.com/seedplan/seedplan/internal/image"
	"github.com/seedplan/seedplan/model"
)

var garden gardentest.Shared

func TestMain(m *testing.M) {
	routeLibraryLogs() // as main does
	garden.Run(m)
}

// The batch job as an operator deploys it: the CLI with a kubeconfig of the seedplan ServiceAccount that
// examples/deploy/rbac.yaml grants (and nothing more), a configuration file, and a real Pushgateway.
func TestScheduleJobWithDeployedRBACAndPushgateway(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	deployRBAC(t, cp)
	namespace := cp.Landscape(t, "cli", []int64{3, 3}, 8, "seedplan") // 3 + 3 slots, 4 + 4 shoots
	kubeconfig := serviceAccountKubeconfig(t, cp, "garden", "seedplan")
	pushgateway := startPushgateway(t, cp.Binaries)

	// The run loop below serves /healthz and /metrics on a free port, not on the default :19251, which another
	// test package's loop may hold at the same time.
	configFile := configurationFile(t, "schedulerName: seedplan\nmetrics:\n  job: seedplan-test\nserver: {bindAddress: \"127.0.0.1:0\"}\n")

	// A dry run first: the plan, no bindings, and nothing pushed (it would replace the real job's metrics).
	out, err := run(t, "schedule", "--kubeconfig", kubeconfig, "--config", configFile, "--dry-run", "--pushgateway", pushgateway, "-o", "json")
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
	var report struct {
		Window struct {
			Pending int `json:"pending"`
		} `json:"window"`
		Placements    []json.RawMessage `json:"placements"`
		Unschedulable []json.RawMessage `json:"unschedulable"`
		Bindings      map[string]int    `json:"bindings"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if report.Window.Pending != 8 || len(report.Placements) != 6 || report.Bindings != nil {
		t.Fatalf("dry run: %d pending, %d placements, bindings %v; want 8, 6, none", report.Window.Pending, len(report.Placements), report.Bindings)
	}
	// It says so, for the operator whose configuration names a Pushgateway.
	said, err := runCombined(t, "schedule", "--kubeconfig", kubeconfig, "--config", configFile, "--dry-run", "--pushgateway", pushgateway, "-o", "name")
	if err != nil || !strings.Contains(said, "Dry run: the job's metrics are not pushed") || !strings.Contains(said, pushgateway) {
		t.Fatalf("dry run: %v; want it to say that nothing is pushed to %s:\n%s", err, pushgateway, said)
	}
	// A server-side dry run: the same plan, each binding sent as a dry run under the deployed RBAC, which the API
	// server admits; nothing bound, no event, nothing pushed.
	said, err = runCombined(t, "schedule", "--kubeconfig", kubeconfig, "--config", configFile, "--dry-run=server", "--pushgateway", pushgateway, "-o", "json")
	if err != nil || !strings.Contains(said, "Sending the placements' bindings as server-side dry runs (nothing is stored) in garden ") {
		t.Fatalf("server dry run: %v; want it to name the garden first:\n%s", err, said)
	}
	out, err = run(t, "schedule", "--kubeconfig", kubeconfig, "--config", configFile, "--dry-run=server", "-o", "json")
	if err != nil {
		t.Fatalf("server dry run: %v\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(report.Placements) != 6 || len(report.Bindings) != 1 || report.Bindings["admitted"] != 6 {
		t.Fatalf("server dry run: %d placements, bindings %v; want 6, all admitted", len(report.Placements), report.Bindings)
	}
	var shoots gardencorev1beta1.ShootList
	if err := cp.Client.List(ctx, &shoots, client.InNamespace(namespace)); err != nil {
		t.Fatal(err)
	}
	var written eventsv1.EventList
	if err := cp.Client.List(ctx, &written, client.InNamespace(namespace)); err != nil {
		t.Fatal(err)
	}
	for _, shoot := range shoots.Items {
		if shoot.Spec.SeedName != nil {
			t.Fatalf("the dry runs bound %s to %s", shoot.Name, *shoot.Spec.SeedName)
		}
	}
	if len(written.Items) > 0 {
		t.Fatalf("the dry runs wrote %d events, the first %s %q", len(written.Items), written.Items[0].Reason, written.Items[0].Note)
	}
	if pushed := grepLines(httpGet(t, pushgateway+"/metrics"), "seedplan_"); pushed != "" {
		t.Fatalf("the dry run pushed metrics:\n%s", pushed)
	}

	// explain reads the cluster the same way.
	out, err = run(t, "explain", namespace+"/shoot-0", "--kubeconfig", kubeconfig, "--config", configFile)
	if err != nil || !strings.Contains(out, "cli-seed0") || !strings.Contains(out, "cli-seed1") {
		t.Fatalf("explain against the cluster: %v\n%s", err, out)
	}

	out, logged, err := runLogged(t, "schedule", "--kubeconfig", kubeconfig, "--config", configFile, "--pushgateway", pushgateway, "-o", "json")
	if err != nil {
		t.Fatalf("schedule: %v\n%s", err, out)
	}
	// The job's log says what the window's answer is worth, as its summary does.
	if !strings.Contains(logged, `msg="Window applied"`) || !strings.Contains(logged, "solver=lp optimal=true") {
		t.Errorf("the log of the applied window does not say the LP proved its plan:\n%s", logged)
	}
	report.Bindings = nil
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if report.Bindings["bound"] != 6 || len(report.Unschedulable) != 2 {
		t.Fatalf("bindings %v, %d unschedulable; want 6 bound, 2 unschedulable (not an error)", report.Bindings, len(report.Unschedulable))
	}
	metrics := httpGet(t, pushgateway+"/metrics")
	for _, want := range []string{
		`seedplan_bindings_total{instance="",job="seedplan-test",result="bound"} 6`,
		`seedplan_windows_total{instance="",job="seedplan-test",solver="lp"} 1`,
		`seedplan_greedy_duration_seconds_count{instance="",job="seedplan-test"} 1`, // the plan made beside the LP
		`seedplan_unschedulable_shoots{instance="",job="seedplan-test",reason="Capacity"} 2`,
		`seedplan_seed_utilization_ratio{instance="",job="seedplan-test",provider="aws",region="cli-1",seed="cli-seed0"} 1`,
		`seedplan_seed_allocatable_shoots{instance="",job="seedplan-test",provider="aws",region="cli-2",seed="cli-seed1"} 3`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("the Pushgateway lacks %s; it has:\n%s", want, grepLines(metrics, "seedplan_"))
		}
	}

	// The run loop under the same RBAC: informers, the Lease, a binding.
	cp.CreateShoots(t, namespace, "cli", 8, 9, "seedplan")
	cp.Landscape(t, "clirun", []int64{5}, 1, "seedplan")
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	// The loop and the schedules below each set the process-wide logger, in turns no one orders: whichever a
	// schedule restores, the test leaves the logger it found.
	defer fixture.RestoreLogging()()
	loopLog := newTestLog(t)
	go func() {
		cmd := newRootCommand()
		cmd.SetOut(loopLog)
		cmd.SetErr(loopLog)
		cmd.SetArgs([]string{"run", "--kubeconfig", kubeconfig, "--config", configFile})
		done <- cmd.ExecuteContext(runCtx)
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, err := run(t, "schedule", "--kubeconfig", kubeconfig, "--config", configFile, "--dry-run", "-o", "json")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, `"shoot": "garden-clirun/shoot-0"`) {
			if time.Now().After(deadline) {
				cancel()
				t.Fatalf("the run loop did not bind garden-clirun/shoot-0 within a minute: %v", <-done)
			}
			time.Sleep(200 * time.Millisecond)
			continue
		}
		break
	}
	var lease coordinationv1.Lease
	if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: "garden", Name: "seedplan-leader-election"}, &lease); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	// The RBAC lets the loop record its election on the Lease, under the identity it held the Lease with.
	var events eventsv1.EventList
	if err := cp.Client.List(ctx, &events, client.InNamespace("garden")); err != nil {
		t.Fatal(err)
	}
	var leaders []string
	for _, e := range events.Items {
		if e.Regarding.Kind == "Lease" && e.Regarding.Name == "seedplan-leader-election" && e.Reason == "LeaderElection" {
			leaders = append(leaders, strings.TrimSuffix(e.Note, " became leader"))
		}
	}
	if holder := ptr.Deref(lease.Spec.HolderIdentity, ""); len(leaders) != 1 || leaders[0] != holder {
		t.Errorf("the Lease's election events name %q; want one, naming its holder %q", leaders, holder)
	}
}

// run --dry-run is a shadow: it says so before it starts, plans the shoots that come, and writes nothing — the
// shoot stays pending, no event is recorded, and no Lease is taken (TestShadowBesideGardenerScheduler compares its
// decisions with the gardener-scheduler's bindings).
func TestRunDryRunWritesNothing(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "shadowcli", []int64{3}, 1, "shadowcli")
	kubeconfig, err := cp.Kubeconfig("shadow-operator")
	if err != nil {
		t.Fatal(err)
	}
	if err := cp.EnsureNamespace(ctx, "garden"); err != nil {
		t.Fatal(err)
	}
	configFile := configurationFile(t, "schedulerName: shadowcli\nleaderElection: {resourceName: seedplan-shadowcli}\nserver: {bindAddress: \"127.0.0.1:0\"}\nlogLevel: debug\n")
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var logged syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- executeContext(runCtx, strings.NewReader(""), io.Discard, &logged, "run", "--dry-run", "--kubeconfig", kubeconfig, "--config", configFile)
	}()
	planned := false
	for deadline := time.Now().Add(30 * time.Second); !planned && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		planned = strings.Contains(logged.String(), `msg="Shoot planned (dry run)" shoot=`+namespace+"/shoot-0 seed=shadowcli-seed0")
	}
	time.Sleep(time.Second) // what it would write, it would have written by now
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run --dry-run: %v\n%s", err, logged.String())
	}
	said := logged.String()
	if !planned || !strings.Contains(said, "Planning shoots as they come, binding none (dry run: a shadow of the scheduler that binds them) in garden ") || !strings.Contains(said, "dryRun=true") {
		t.Fatalf("run --dry-run did not say it is a dry run, or planned nothing:\n%s", said)
	}
	var shoot gardencorev1beta1.Shoot
	if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: "shoot-0"}, &shoot); err != nil || shoot.Spec.SeedName != nil || shoot.Status.LastOperation != nil {
		t.Fatalf("the shoot after the dry run: %v, seed %v, last operation %v; want it untouched", err, shoot.Spec.SeedName, shoot.Status.LastOperation)
	}
	var written eventsv1.EventList
	if err := cp.Client.List(ctx, &written, client.InNamespace(namespace)); err != nil || len(written.Items) > 0 {
		t.Fatalf("events after the dry run: %v, %d", err, len(written.Items))
	}
	var lease coordinationv1.Lease
	if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: "garden", Name: "seedplan-shadowcli"}, &lease); !apierrors.IsNotFound(err) {
		t.Fatalf("the dry run's Lease: %v, want none", err)
	}
}

// syncBuffer is a buffer that a command writes to while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A run loop whose RBAC does not let it take its Lease ends with the garden's refusal, instead of standing by,
// ready, and never binding. examples/deploy/rbac.yaml grants get and update of the Lease named in
// examples/deploy/config.yaml alone: a configuration naming another may not read it; and a Lease another Role lets
// it read but not update — which taking it does — is refused as well.
func TestRunEndsWhenItsRBACForbidsTheLease(t *testing.T) {
	cp := garden.Get(t)
	deployRBAC(t, cp)
	readOnlyLease(t, cp, "garden", "seedplan-read-only", "seedplan")
	kubeconfig := serviceAccountKubeconfig(t, cp, "garden", "seedplan")
	for _, tc := range []struct {
		name, lease, refusal string
	}{
		{"a Lease it may not read", "seedplan-not-granted", "cannot get resource \"leases\""},
		{"a Lease it may read but not take", "seedplan-read-only", "cannot update resource \"leases\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			configFile := configurationFile(t, "schedulerName: leasedenied\nleaderElection: {resourceName: "+tc.lease+
				"}\nserver: {bindAddress: \"127.0.0.1:0\"}\n")
			defer fixture.RestoreLogging()()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := newRootCommand()
			cmd.SetOut(newTestLog(t))
			cmd.SetErr(newTestLog(t))
			cmd.SetArgs([]string{"run", "--kubeconfig", kubeconfig, "--config", configFile})
			err := cmd.ExecuteContext(ctx)
			switch {
			case ctx.Err() != nil:
				t.Fatalf("the loop ran on for a minute with a Lease its RBAC forbids (%v)", err)
			case err == nil || !strings.Contains(err.Error(), "checking the leader election Lease garden/"+tc.lease+": ") ||
				!strings.Contains(err.Error(), tc.refusal):
				t.Fatalf("the loop ended with %v, want the garden's refusal of the Lease (%s)", err, tc.refusal)
			}
		})
	}
}

// readOnlyLease creates the Lease namespace/name, held by another replica, and a Role and RoleBinding that let the
// ServiceAccount namespace/account read it and nothing more.
func readOnlyLease(t *testing.T, cp *gardentest.ControlPlane, namespace, name, account string) {
	t.Helper()
	ctx := context.Background()
	clientset, err := kubernetes.NewForConfig(cp.Config)
	if err != nil {
		t.Fatal(err)
	}
	meta := metav1.ObjectMeta{Namespace: namespace, Name: name}
	_, leaseErr := clientset.CoordinationV1().Leases(namespace).Create(ctx,
		&coordinationv1.Lease{ObjectMeta: meta, Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To("another-replica")}}, metav1.CreateOptions{})
	_, roleErr := clientset.RbacV1().Roles(namespace).Create(ctx, &rbacv1.Role{ObjectMeta: meta, Rules: []rbacv1.PolicyRule{{
		APIGroups: []string{coordinationv1.GroupName}, Resources: []string{"leases"}, ResourceNames: []string{name}, Verbs: []string{"get"},
	}}}, metav1.CreateOptions{})
	_, bindingErr := clientset.RbacV1().RoleBindings(namespace).Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: meta,
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: namespace, Name: account}},
	}, metav1.CreateOptions{})
	for _, err := range []error{leaseErr, roleErr, bindingErr} {
		// Tests share the control plane: what an earlier test created is there already, and the same.
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	// The garden's RBAC authorizer learns of the Role through its informers: wait until it lets the account read.
	review := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
		User:               "system:serviceaccount:" + namespace + ":" + account, // how a ServiceAccount's token authenticates
		Groups:             []string{"system:serviceaccounts", "system:serviceaccounts:" + namespace},
		ResourceAttributes: &authorizationv1.ResourceAttributes{Namespace: namespace, Verb: "get", Group: coordinationv1.GroupName, Resource: "leases", Name: name},
	}}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		answer, err := clientset.AuthorizationV1().SubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
		if err == nil && answer.Status.Allowed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Role %s/%s does not let %s read the Lease after 30 s (%v)", namespace, name, account, err)
		}
	}
}

// deployRBAC applies examples/deploy/rbac.yaml, namespace garden first, as an operator deploys seedplan.
func deployRBAC(t *testing.T, cp *gardentest.ControlPlane) {
	t.Helper()
	if err := cp.EnsureNamespace(context.Background(), "garden"); err != nil {
		t.Fatal(err)
	}
	applyManifests(t, cp, "../../examples/deploy/rbac.yaml")
}

// applyManifests creates every object of a multi-document YAML file.
func applyManifests(t *testing.T, cp *gardentest.ControlPlane, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		obj := &unstructured.Unstructured{}
		if err := decoder.Decode(&obj.Object); err != nil {
			if err == io.EOF {
				return
			}
			t.Fatal(err)
		}
		if len(obj.Object) == 0 {
			continue
		}
		// Tests share the control plane: what an earlier test applied is there already, and the same.
		if err := cp.Client.Create(context.Background(), obj); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("%s %s: %v", obj.GetKind(), obj.GetName(), err)
		}
	}
}

// serviceAccountKubeconfig writes a kubeconfig authenticating as the ServiceAccount with a bound token.
func serviceAccountKubeconfig(t *testing.T, cp *gardentest.ControlPlane, namespace, name string) string {
	t.Helper()
	clientset, err := kubernetes.NewForConfig(cp.Config)
	if err != nil {
		t.Fatal(err)
	}
	expiration := int64(3600)
	token, err := clientset.CoreV1().ServiceAccounts(namespace).CreateToken(context.Background(), name,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &expiration}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	config := clientcmdapi.NewConfig()
	config.Clusters["garden"] = &clientcmdapi.Cluster{Server: cp.Config.Host, CertificateAuthorityData: cp.Config.CAData}
	config.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: token.Status.Token}
	config.Contexts["garden"] = &clientcmdapi.Context{Cluster: "garden", AuthInfo: name}
	config.CurrentContext = "garden"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*config, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// startPushgateway runs the Pushgateway built by hack/build-control-plane.sh and returns its URL.
func startPushgateway(t *testing.T, binaries string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	address := l.Addr().String()
	_ = l.Close()
	cmd := exec.Command(filepath.Join(binaries, "pushgateway"), "--web.listen-address="+address)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := "http://" + address
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(url + "/-/ready")
		if err == nil {
			_ = res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return url
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Pushgateway at %s is not ready: %v\n%s", url, err, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func httpGet(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

func grepLines(text, prefix string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, prefix) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// capacity in a garden with a ManagedSeedSet says how many replicas to add to it: its seeds (edge-0, edge-1) are
// the template of the new seeds. It reads the set with the deployed RBAC, as the CronJob would.
func TestCapacityReportsManagedSeedSetReplicas(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	deployRBAC(t, cp)
	if err := cp.Create(ctx, gardentest.CloudProfile("edge", "aws", map[string][]string{"edge-1": {"edge-1a"}})); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := cp.CreateSeed(ctx, gardentest.Seed(fmt.Sprintf("edge-%d", i), "aws", "edge-1", "edge-1a"), 10); err != nil {
			t.Fatal(err)
		}
	}
	project := gardentest.Project("edge")
	if err := cp.CreateProject(ctx, project, "aws"); err != nil {
		t.Fatal(err)
	}
	shoot := gardentest.Shoot(*project.Spec.Namespace, "template", "edge", "aws", "edge-1", "edge-1a")
	set, err := gardentest.ManagedSeedSet("edge", 2, gardentest.Seed("edge", "aws", "edge-1", "edge-1a"), shoot)
	if err != nil {
		t.Fatal(err)
	}
	if err := cp.Create(ctx, set); err != nil {
		t.Fatal(err)
	}
	for i := range 20 { // 16 fit at the target of 0.8; 4 need one more seed
		if err := cp.Create(ctx, gardentest.Shoot(*project.Spec.Namespace, fmt.Sprintf("shoot-%d", i), "edge", "aws", "edge-1", "edge-1a")); err != nil {
			t.Fatal(err)
		}
	}

	out, err := run(t, "capacity", "--kubeconfig", serviceAccountKubeconfig(t, cp, "garden", "seedplan"), "-o", "json")
	if err != nil {
		t.Fatalf("capacity: %v\n%s", err, out)
	}
	var report struct {
		Pending, OnExisting, OnNew, NewSeeds int
		ManagedSeedSets                      []struct {
			Namespace, Name string
			Replicas, Add   int
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if report.OnExisting != 16 || report.OnNew != 4 || report.NewSeeds != 1 || fmt.Sprint(report.ManagedSeedSets) != "[{garden edge 2 1}]" {
		t.Fatalf("want 16 on existing seeds, 4 on 1 new seed, 1 replica to add to garden/edge (2 now):\n%s", out)
	}
	names, logged, err := runLogged(t, "capacity", "--kubeconfig", serviceAccountKubeconfig(t, cp, "garden", "seedplan"), "-o", "name")
	if err != nil || names != "managedseedset/garden/edge\n" || strings.Contains(logged, "ManagedSeedSet") {
		t.Fatalf("capacity -o name: %q, %v, logging\n%s\nwant managedseedset/garden/edge and no warning", names, err, logged)
	}
}

// The batch job warns, once a run, of what is wrong with the garden's region ConfigMaps, as a command reading
// files does: here an entry Gardener cannot parse, in a ConfigMap the deployed RBAC lets it read.
func TestScheduleJobWarnsOfRegionConfigProblems(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	deployRBAC(t, cp)
	cp.Landscape(t, "rcwarn", []int64{2}, 2, "rcwarn")
	regions := gardentest.RegionConfig("rcwarn-regions", "rcwarn-profile", map[string]string{"rcwarn-1": "rcwarn-2: far"})
	if err := cp.Client.Create(ctx, regions); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cp.Client.Delete(context.Background(), regions); err != nil {
			t.Error(err)
		}
	})
	kubeconfig := serviceAccountKubeconfig(t, cp, "garden", "seedplan")
	for _, args := range [][]string{{"--dry-run"}, {}} {
		out, logged, err := runLogged(t, append([]string{"schedule", "--kubeconfig", kubeconfig, "--scheduler-name", "rcwarn", "-o", "name"}, args...)...)
		if err != nil || out == "" {
			t.Fatalf("schedule %v: %v\n%s", args, err, out)
		}
		const want = `region ConfigMap garden/rcwarn-regions: entry \"rcwarn-1\" does not parse`
		if n := strings.Count(logged, want); n != 1 {
			t.Errorf("schedule %v warned %d times of the malformed entry, want once:\n%s", args, n, logged)
		}
	}
}

// A seed whose gardenlet stopped being ready a minute ago keeps its shoots: rebalance reports it in grace with the
// time left, and moves nothing off it; once the condition is older than the grace, its shoots move, each move
// saying which condition since when. The condition's lastTransitionTime is the real gardener-apiserver's.
func TestRebalanceGraceForUnhealthySeeds(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	const name = "grace"
	region := name + "-1"
	if err := cp.Create(ctx, gardentest.CloudProfile(name, "aws", map[string][]string{region: {region + "a"}})); err != nil {
		t.Fatal(err)
	}
	seed := func(suffix string) *gardencorev1beta1.Seed {
		s := gardentest.Seed(name+"-"+suffix, "aws", region, region+"a")
		if err := cp.CreateMigratableSeed(ctx, s, name, 10); err != nil {
			t.Fatal(err)
		}
		return s
	}
	sick, healthy := seed("sick"), seed("healthy")
	project := gardentest.Project(name)
	if err := cp.CreateProject(ctx, project, "aws"); err != nil {
		t.Fatal(err)
	}
	namespace := *project.Spec.Namespace
	for i := range 3 {
		shoot := gardentest.Shoot(namespace, fmt.Sprintf("shoot-%d", i), name, "aws", region, region+"a")
		if err := cp.Create(ctx, shoot); err != nil {
			t.Fatal(err)
		}
		shoot.Spec.SeedName = &sick.Name
		if err := cp.Client.SubResource("binding").Update(ctx, shoot); err != nil {
			t.Fatal(err)
		}
	}
	notReadySince := metav1.NewTime(time.Now().Add(-time.Minute).Truncate(time.Second))
	for i, c := range sick.Status.Conditions {
		if c.Type == gardencorev1beta1.GardenletReady {
			sick.Status.Conditions[i].Status, sick.Status.Conditions[i].LastTransitionTime = gardencorev1beta1.ConditionFalse, notReadySince
		}
	}
	if err := cp.Client.Status().Update(ctx, sick); err != nil {
		t.Fatal(err)
	}
	kubeconfig, err := cp.Kubeconfig("grace-operator")
	if err != nil {
		t.Fatal(err)
	}
	type report struct {
		Moves   []struct{ Shoot, From, To, Reason, Detail string }
		InGrace []struct {
			Name        string
			LeftSeconds float64
		}
	}
	rebalance := func(args ...string) report {
		t.Helper()
		out, err := run(t, append([]string{"rebalance", "--kubeconfig", kubeconfig, "-o", "json"}, args...)...)
		if err != nil {
			t.Fatalf("rebalance %v: %v\n%s", args, err, out)
		}
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return r
	}

	within := rebalance() // the default grace: 5 minutes
	for _, m := range within.Moves {
		if m.From == sick.Name {
			t.Fatalf("a move off %s inside its grace: %+v", sick.Name, m)
		}
	}
	inGrace := false
	for _, g := range within.InGrace {
		inGrace = inGrace || g.Name == sick.Name && g.LeftSeconds > 3*60 && g.LeftSeconds <= 4*60
	}
	if !inGrace {
		t.Fatalf("%s not reported in grace with about 4 minutes left: %+v", sick.Name, within.InGrace)
	}

	after := rebalance("--unusable-grace", "30s")
	moved := 0
	want := "seed condition GardenletReady is not True since " + notReadySince.UTC().Format(time.RFC3339)
	for _, m := range after.Moves {
		if m.From != sick.Name {
			continue
		}
		moved++
		if m.To != healthy.Name || m.Reason != "unusable" || m.Detail != want {
			t.Fatalf("move %+v, want to %s, reason unusable, detail %q", m, healthy.Name, want)
		}
	}
	if moved != 3 {
		t.Fatalf("%d moves off %s after its grace, want 3: %+v", moved, sick.Name, after.Moves)
	}

	// The reviewed moves, applied: the first migration starts exactly as planned; with no gardenlet to finish it,
	// the run stops after the migration timeout, saying so, and starts nothing beyond the pacing.
	out, err := run(t, "rebalance", "--kubeconfig", kubeconfig, "--unusable-grace", "30s", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	movesFile := filepath.Join(t.TempDir(), "moves.json")
	if err := os.WriteFile(movesFile, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	// A dry run sends every rebinding as a server-side dry run, without pacing anything: all three admitted,
	// none made.
	dry, err := run(t, "apply", "-f", movesFile, "--kubeconfig", kubeconfig, "--dry-run", "--ignore-maintenance-window", "-o", "json")
	if err != nil || strings.Count(dry, `"result": "admitted"`) != 3 {
		t.Fatalf("apply --dry-run of the moves: %v\n%s", err, dry)
	}
	for _, m := range after.Moves {
		key := strings.SplitN(m.Shoot, "/", 2)
		shoot := &gardencorev1beta1.Shoot{}
		if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: key[0], Name: key[1]}, shoot); err != nil {
			t.Fatal(err)
		}
		if ptrString(shoot.Spec.SeedName) != m.From {
			t.Fatalf("apply --dry-run moved %s to %s", m.Shoot, ptrString(shoot.Spec.SeedName))
		}
	}
	out, err = run(t, "apply", "-f", movesFile, "--kubeconfig", kubeconfig, "--yes", "--ignore-maintenance-window",
		"--migration-timeout", "1s", "-o", "json")
	if err == nil || !strings.Contains(err.Error(), "did not finish within 1s") {
		t.Fatalf("apply -f of moves no gardenlet finishes: %v\n%s", err, out)
	}
	var stopped struct {
		Reviewed int               `json:"reviewed"`
		Applied  []json.RawMessage `json:"applied"`
	}
	if err := json.Unmarshal([]byte(out), &stopped); err != nil || stopped.Reviewed != 3 || len(stopped.Applied) == 0 || len(stopped.Applied) >= 3 {
		t.Fatalf("the stopped run's report does not say it tried only some of the 3 reviewed moves (%v):\n%s", err, out)
	}
	rebound := 0
	for _, m := range after.Moves {
		key := strings.SplitN(m.Shoot, "/", 2)
		shoot := &gardencorev1beta1.Shoot{}
		if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: key[0], Name: key[1]}, shoot); err != nil {
			t.Fatal(err)
		}
		if ptrString(shoot.Spec.SeedName) == m.To {
			rebound++
		}
	}
	if rebound != 1 {
		t.Fatalf("%d shoots rebound; the pacing allows one migration off a seed at a time", rebound)
	}

	// Draining the healthy seed (nowhere to go while the other is sick) cordons it, moves or not; without --yes
	// it is only said what would be done.
	if _, err := run(t, "rebalance", "--kubeconfig", kubeconfig, "--drain", healthy.Name, "--apply"); err == nil ||
		!strings.Contains(err.Error(), "--apply: cordoning 1 seed to drain (no control plane migration to start); add --yes to confirm") {
		t.Fatalf("rebalance --drain --apply without --yes: %v", err)
	}
	unconfirmed := &gardencorev1beta1.Seed{}
	if err := cp.Client.Get(ctx, client.ObjectKey{Name: healthy.Name}, unconfirmed); err != nil || !unconfirmed.Spec.Settings.Scheduling.Visible {
		t.Fatalf("seed %s cordoned without --yes (%v)", healthy.Name, err)
	}
	if out, err := run(t, "rebalance", "--kubeconfig", kubeconfig, "--drain", healthy.Name, "--apply", "--yes", "-o", "json"); err != nil {
		t.Fatalf("rebalance --drain --apply: %v\n%s", err, out)
	}
	drained := &gardencorev1beta1.Seed{}
	if err := cp.Client.Get(ctx, client.ObjectKey{Name: healthy.Name}, drained); err != nil {
		t.Fatal(err)
	}
	if drained.Spec.Settings.Scheduling.Visible {
		t.Fatalf("seed %s is drained but still visible for scheduling", healthy.Name)
	}
}

// cordon closes a seed to new shoots through Gardener's own switch, which the real gardener-apiserver stores and
// seedplan's schedule honours; uncordon opens it again. Both say which garden they write to first.
func TestCordon(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "cordon", []int64{10, 10}, 0, "cordon") // cordon-seed0 in cordon-1, cordon-seed1 in cordon-2
	cp.CreateShoots(t, namespace, "cordon", 0, 4, "cordon")              // two shoots in each region
	kubeconfig, err := cp.Kubeconfig("cordon-operator")
	if err != nil {
		t.Fatal(err)
	}
	visible := func() bool {
		t.Helper()
		seed := &gardencorev1beta1.Seed{}
		if err := cp.Client.Get(ctx, client.ObjectKey{Name: "cordon-seed0"}, seed); err != nil {
			t.Fatal(err)
		}
		return seed.Spec.Settings == nil || seed.Spec.Settings.Scheduling == nil || seed.Spec.Settings.Scheduling.Visible
	}
	placedOnSeed0 := func() int {
		t.Helper()
		out, err := run(t, "schedule", "--kubeconfig", kubeconfig, "--scheduler-name", "cordon", "--dry-run", "-o", "json")
		if err != nil {
			t.Fatalf("schedule: %v\n%s", err, out)
		}
		var r struct{ Placements []struct{ Seed string } }
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		n := 0
		for _, p := range r.Placements {
			if p.Seed == "cordon-seed0" {
				n++
			}
		}
		return n
	}
	if !visible() || placedOnSeed0() != 2 {
		t.Fatal("before cordoning, the seed is visible and takes the two shoots of its region")
	}
	// A dry run says what would change, and the gardener-apiserver stores nothing.
	out, err := runCombined(t, "cordon", "cordon-seed0", "--kubeconfig", kubeconfig, "--dry-run=server") // as kubectl takes it
	if err != nil || !strings.Contains(out, "seed/cordon-seed0 cordoned (server dry run)") || !strings.Contains(out, "(server dry run: nothing is stored) in garden https://") {
		t.Fatalf("cordon --dry-run: %v\n%s", err, out)
	}
	if !visible() {
		t.Fatal("cordon --dry-run cordoned the seed")
	}
	// Seeds the garden does not have fail the command before any seed is written, each named.
	if out, err := runCombined(t, "cordon", "cordon-no-such-seed", "cordon-seed0", "cordon-no-such-seed2", "--kubeconfig", kubeconfig); err == nil ||
		!strings.HasPrefix(err.Error(), "seed cordon-no-such-seed: setting spec.settings.scheduling.visible to false: ") ||
		!strings.HasSuffix(err.Error(), `: seeds.core.gardener.cloud "cordon-no-such-seed2" not found`+"\nno seed was cordoned") ||
		strings.Count(err.Error(), "\n") != 2 {
		t.Fatalf("cordon of seeds the garden lacks: %v\n%s", err, out)
	}
	if !visible() {
		t.Fatal("cordon of a seed the garden lacks cordoned the seed given before it")
	}

	// cordon completes the garden's visible seeds not given yet, uncordon its cordoned ones.
	completes := func(args ...string) []string {
		t.Helper()
		out, err := run(t, append([]string{cobra.ShellCompRequestCmd, "--kubeconfig", kubeconfig}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		return slices.DeleteFunc(strings.Split(out, "\n"), func(line string) bool { return !strings.HasPrefix(line, "cordon-") })
	}
	if got := completes("cordon", "cordon-seed"); !slices.Equal(got, []string{"cordon-seed0", "cordon-seed1"}) {
		t.Fatalf("cordon completes %v, want both visible seeds", got)
	}
	for _, given := range []string{"cordon-seed1", "seed/cordon-seed1"} {
		if got := completes("cordon", given, "cordon-seed"); !slices.Equal(got, []string{"cordon-seed0"}) {
			t.Fatalf("cordon completes %v after %s, want cordon-seed0", got, given)
		}
	}

	out, err = runCombined(t, "cordon", "cordon-seed0", "--kubeconfig", kubeconfig)
	if err != nil || !strings.Contains(out, "seed/cordon-seed0 cordoned") || !strings.Contains(out, "in garden https://") {
		t.Fatalf("cordon: %v\n%s", err, out)
	}
	if got := completes("uncordon", "cordon-seed"); !slices.Equal(got, []string{"cordon-seed0"}) {
		t.Fatalf("uncordon completes %v, want the cordoned seed", got)
	}
	if visible() || placedOnSeed0() != 0 {
		t.Fatal("a cordoned seed is invisible to the gardener-apiserver and takes no shoot")
	}
	if out, err := runCombined(t, "cordon", "cordon-seed0", "--kubeconfig", kubeconfig); err != nil || !strings.Contains(out, "already cordoned") {
		t.Fatalf("cordon again: %v\n%s", err, out)
	}
	// as explain -o name prints the seed
	if out, err := runCombined(t, "uncordon", "seed/cordon-seed0", "--kubeconfig", kubeconfig); err != nil || !strings.Contains(out, "seed/cordon-seed0 uncordoned") {
		t.Fatalf("uncordon: %v\n%s", err, out)
	}
	if !visible() || placedOnSeed0() != 2 {
		t.Fatal("an uncordoned seed is visible again and takes its shoots")
	}

	// -l cordons the seeds whose labels match, as kubectl cordon -l does; matching none is an error.
	labelled := &gardencorev1beta1.Seed{}
	if err := cp.Client.Get(ctx, client.ObjectKey{Name: "cordon-seed1"}, labelled); err != nil {
		t.Fatal(err)
	}
	labelled.Labels = map[string]string{"test.seedplan.gardener.cloud/cordon": "selected"}
	if err := cp.Client.Update(ctx, labelled); err != nil {
		t.Fatal(err)
	}
	if out, err := runCombined(t, "cordon", "-l", "test.seedplan.gardener.cloud/cordon=selected", "--kubeconfig", kubeconfig); err != nil ||
		!strings.Contains(out, "on 1 seed in garden") || !strings.Contains(out, "seed/cordon-seed1 cordoned\n") || strings.Contains(out, "cordon-seed0") {
		t.Fatalf("cordon -l: %v\n%s", err, out)
	}
	if !visible() {
		t.Fatal("cordon -l cordoned a seed its selector does not match")
	}
	if got := completes("uncordon", "cordon-seed"); !slices.Equal(got, []string{"cordon-seed1"}) {
		t.Fatalf("after cordon -l, uncordon completes %v, want the seed it matched", got)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-l", "test.seedplan.gardener.cloud/cordon=nobody"}, "--selector test.seedplan.gardener.cloud/cordon=nobody: no seed of the garden matches"},
		{[]string{"cordon-seed0", "-l", "test.seedplan.gardener.cloud/cordon=selected"}, `cordon takes seed names or --selector, not both; given 1: "cordon-seed0"`},
		{[]string{"-l", "a=(b"}, `--selector "a=(b": unable to parse requirement`},
	} {
		if _, err := runCombined(t, append([]string{"cordon", "--kubeconfig", kubeconfig}, tc.args...)...); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Fatalf("cordon %v: %v, want an error starting %q", tc.args, err, tc.want)
		}
	}
	if out, err := runCombined(t, "uncordon", "-l", "test.seedplan.gardener.cloud/cordon=selected", "--kubeconfig", kubeconfig); err != nil || !strings.Contains(out, "seed/cordon-seed1 uncordoned\n") {
		t.Fatalf("uncordon -l: %v\n%s", err, out)
	}
}

// cordon while an upgrade restarts the garden's gardener-apiserver waits for it, as the schedule job's read does,
// and cordons the seed once it answers again, instead of failing at once with the garden's 503: a seed named, whose
// update waits, and seeds selected by label, whose list does.
func TestCordonWaitsForARestartingGardenerAPIServer(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	cp.Landscape(t, "cordonup", []int64{10, 10}, 0, "cordonup")
	kubeconfig, err := cp.Kubeconfig("cordonup-operator")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		seed  string
		given []string
	}{
		{"cordonup-seed0", []string{"cordonup-seed0"}},
		{"cordonup-seed1", []string{"-l", "test.seedplan.gardener.cloud/cordon=during-restart"}},
	} {
		t.Run(tc.given[0], func(t *testing.T) {
			seed := &gardencorev1beta1.Seed{}
			if err := cp.Client.Get(ctx, client.ObjectKey{Name: tc.seed}, seed); err != nil {
				t.Fatal(err)
			}
			seed.Labels = map[string]string{"test.seedplan.gardener.cloud/cordon": "during-restart"}
			if err := cp.Client.Update(ctx, seed); err != nil {
				t.Fatal(err)
			}
			out, err := whileGardenerAPIServerRestarts(t, cp, func() (string, error) {
				return runCombined(t, append([]string{"cordon", "--kubeconfig", kubeconfig}, tc.given...)...)
			})
			if err != nil || !strings.Contains(out, "The garden did not answer; asking again") || !strings.Contains(out, "seed/"+tc.seed+" cordoned\n") {
				t.Fatalf("cordon while gardener-apiserver restarts: %v\n%s", err, out)
			}
			if err := cp.Client.Get(ctx, client.ObjectKey{Name: tc.seed}, seed); err != nil {
				t.Fatal(err)
			}
			if model.SchedulingVisible(seed) {
				t.Fatal("the command said it cordoned the seed, and the seed is visible")
			}
		})
	}
}

// whileGardenerAPIServerRestarts runs command while gardener-apiserver is down, for some seconds as in a restart,
// and returns what it returned once the restarted one answers.
func whileGardenerAPIServerRestarts(t *testing.T, cp *gardentest.ControlPlane, command func() (string, error)) (string, error) {
	t.Helper()
	restart := cp.TakeDownGardenerAPIServer(t)
	restarted := make(chan error, 1)
	go func() {
		time.Sleep(3 * time.Second)
		restarted <- restart(context.Background())
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := interruptible(ctx, command)
	if err := <-restarted; err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil {
		t.Fatal("the command ran on for a minute")
	}
	return out, err
}

// --context selects the kubeconfig context of the garden, as kubectl's does; the announcement names it.
func TestKubeconfigContext(t *testing.T) {
	cp := garden.Get(t)
	path, err := cp.Kubeconfig("context-operator")
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig, err := clientcmd.LoadFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	good := kubeconfig.Contexts[kubeconfig.CurrentContext]
	kubeconfig.Contexts = map[string]*clientcmdapi.Context{"garden": good, "elsewhere": {Cluster: "nowhere", AuthInfo: good.AuthInfo}}
	kubeconfig.Clusters["nowhere"] = &clientcmdapi.Cluster{Server: "https://127.0.0.1:1"}
	kubeconfig.CurrentContext = "elsewhere"
	two := filepath.Join(t.TempDir(), "two-contexts.kubeconfig")
	if err := clientcmd.WriteToFile(*kubeconfig, two); err != nil {
		t.Fatal(err)
	}
	// Nothing answers there: the command says so at once and asks again (up to 30 s) until its context ends.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var logged bytes.Buffer
	err = executeContext(ctx, strings.NewReader(""), io.Discard, &logged, "capacity", "--kubeconfig", two, "-o", "json")
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") || !strings.Contains(logged.String(), "The garden did not answer; asking again") {
		t.Fatalf("the current context points nowhere: %v, logged:\n%s", err, logged.String())
	}
	if out, err := run(t, "capacity", "--kubeconfig", two, "--context", "garden", "-o", "json"); err != nil {
		t.Fatalf("--context garden: %v\n%s", err, out)
	}
	out, err := runCombined(t, "uncordon", "no-such-seed", "--kubeconfig", two, "--context", "garden")
	if err == nil || !strings.Contains(out, "(context garden)") || !strings.Contains(err.Error(), "no-such-seed") {
		t.Fatalf("uncordon of a missing seed: %v\n%s", err, out)
	}
}

// explain takes a shoot given as NAME, in a garden, in the namespace of the kubeconfig context, as kubectl does
// (gardenctl's project targets set it); -n and NAMESPACE/NAME still say another, and a context that sets none
// leaves the shoot to be given with one.
func TestExplainTakesANameInTheContextsNamespace(t *testing.T) {
	cp := garden.Get(t)
	namespace := cp.Landscape(t, "ctxns", []int64{2}, 2, "ctxns")
	path, err := cp.Kubeconfig("namespace-operator")
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig, err := clientcmd.LoadFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	plain := kubeconfig.Contexts[kubeconfig.CurrentContext]
	project := plain.DeepCopy()
	project.Namespace = namespace
	kubeconfig.Contexts = map[string]*clientcmdapi.Context{"garden": plain, "project": project}
	kubeconfig.CurrentContext = "project"
	file := filepath.Join(t.TempDir(), "project.kubeconfig")
	if err := clientcmd.WriteToFile(*kubeconfig, file); err != nil {
		t.Fatal(err)
	}
	explained := "Shoot " + namespace + "/shoot-0:"
	for _, args := range [][]string{{"shoot-0"}, {"shoot/shoot-0"}, {"shoot-0", "-n", namespace, "--context", "garden"}, {namespace + "/shoot-0", "--context", "garden"}} {
		out, err := run(t, append([]string{"explain", "--kubeconfig", file, "--scheduler-name", "ctxns"}, args...)...)
		if err != nil || !strings.HasPrefix(out, explained) {
			t.Fatalf("explain %s: %v; want it to begin %q:\n%s", strings.Join(args, " "), err, explained, out)
		}
	}
	const none = `"shoot-0": the shoot must be given as NAMESPACE/NAME, or as NAME with -n NAMESPACE (the kubeconfig context sets no namespace)`
	if out, err := run(t, "explain", "--kubeconfig", file, "--context", "garden", "--scheduler-name", "ctxns", "shoot-0"); err == nil || err.Error() != none {
		t.Fatalf("explain NAME in a context without a namespace: %v; want %q\n%s", err, none, out)
	}
	// Without names, every pending shoot of the context's namespace, as kubectl describe takes it.
	out, err := run(t, "explain", "--kubeconfig", file, "--scheduler-name", "ctxns", "-o", "jsonpath={.kind} {.items[*].shoot}")
	if want := "List " + namespace + "/shoot-0 " + namespace + "/shoot-1"; err != nil || out != want {
		t.Fatalf("explain without names in the context's namespace = %q, %v; want %q", out, err, want)
	}
	const noneGiven = "explain takes one or more shoots, NAMESPACE/NAME or NAME with -n, or -n NAMESPACE alone for all its pending shoots; given none (the kubeconfig context sets no namespace) (see 'seedplan explain --help')"
	if out, err := run(t, "explain", "--kubeconfig", file, "--context", "garden", "--scheduler-name", "ctxns"); err == nil || err.Error() != noneGiven {
		t.Fatalf("explain without names in a context without a namespace: %v; want %q\n%s", err, noneGiven, out)
	}
	// Completion offers what explain takes: a name in the context's namespace, as kubectl completes one, and
	// NAMESPACE/NAME where the context sets none; a shoot given in either form is not offered again.
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{args: []string{"shoot-"}, want: []string{"shoot-0", "shoot-1"}},
		{args: []string{"shoot-0", "shoot-"}, want: []string{"shoot-1"}},
		{args: []string{namespace + "/shoot-1", "shoot-"}, want: []string{"shoot-0"}},
		{args: []string{"--context", "garden", namespace + "/"}, want: []string{namespace + "/shoot-0", namespace + "/shoot-1"}},
		{args: []string{"--context", "garden", "-n", namespace, "shoot-1", ""}, want: []string{"shoot-0"}},
	} {
		out, err := run(t, append([]string{cobra.ShellCompRequestCmd, "explain", "--kubeconfig", file, "--scheduler-name", "ctxns"}, tc.args...)...)
		got := slices.DeleteFunc(strings.Split(out, "\n"), func(line string) bool { return line == "" || strings.HasPrefix(line, ":") })
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("completing explain %s offers %q, %v; want %q", strings.Join(tc.args, " "), got, err, tc.want)
		}
	}
}

// A kubeconfig whose server does not speak TLS on its port (a plain-HTTP port, a proxy's) is wrong in a way no
// restart of the server mends: every command that reads or writes the garden fails at once, as kubectl does,
// instead of asking again for 30 s as it does while a garden restarts. (A host name that does not exist is the
// other such mistake; TestTransient covers it, since a test cannot count on a DNS server to deny one.)
func TestCommandsFailAtOnceOnAServerThatDoesNotSpeakTLS(t *testing.T) {
	plain := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(plain.Close)
	config := clientcmdapi.NewConfig()
	config.Clusters["garden"] = &clientcmdapi.Cluster{Server: strings.Replace(plain.URL, "http://", "https://", 1), InsecureSkipTLSVerify: true}
	config.AuthInfos["operator"] = &clientcmdapi.AuthInfo{Token: "token"}
	config.Contexts["garden"] = &clientcmdapi.Context{Cluster: "garden", AuthInfo: "operator"}
	config.CurrentContext = "garden"
	kubeconfig := filepath.Join(t.TempDir(), "plain-http.kubeconfig")
	if err := clientcmd.WriteToFile(*config, kubeconfig); err != nil {
		t.Fatal(err)
	}
	for _, command := range gardenCommands(t) {
		t.Run(command[0], func(t *testing.T) {
			// Were it asked again, the context would end it with "retried until", not the patience.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var logged bytes.Buffer
			err := executeContext(ctx, strings.NewReader(""), io.Discard, &logged, append(command, "--kubeconfig", kubeconfig)...)
			if err == nil || !strings.Contains(err.Error(), "HTTP") && !strings.Contains(err.Error(), "TLS") ||
				strings.Contains(err.Error(), "retried") || strings.Contains(logged.String(), "asking again") {
				t.Fatalf("error %v; want the plain-HTTP server named at once, never asked again; logged:\n%s", err, logged.String())
			}
		})
	}
}

// A kubeconfig or context that names another cluster than the garden (a seed's, a shoot's) is a likely mistake
// of a first run: every command that reads or writes the garden, the loop included, says that the cluster does not
// serve Gardener's API, instead of the REST mapper's "no matches for core.gardener.cloud/v1beta1, Resource=".
func TestCommandsSayTheClusterIsNoGarden(t *testing.T) {
	cp, err := gardentest.StartWithoutGardener(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cp.Stop(); err != nil {
			t.Error(err)
		}
	})
	kubeconfig, err := cp.Kubeconfig("operator")
	if err != nil {
		t.Fatal(err)
	}
	const want = "the cluster does not serve Seed (core.gardener.cloud/v1beta1): either it is not a garden " +
		"(check the kubeconfig and its context), or its gardener-apiserver is unavailable or lacks that API"
	for _, args := range gardenCommands(t) {
		_, err := run(t, append(args, "--kubeconfig", kubeconfig)...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", strings.Join(args, " "), err, want)
		}
	}
}

// gardenCommands are the arguments, but for --kubeconfig, of every command that reads or writes the garden: the
// loop serves on a free port, and apply applies a reviewed plan of one placement.
func gardenCommands(t *testing.T) [][]string {
	t.Helper()
	loopConfig, planFile := configurationFile(t, "server: {bindAddress: \"127.0.0.1:0\"}\n"), filepath.Join(t.TempDir(), "plan.json")
	reviewed := `{"window": {"strategy": "SameRegion"}, "placements": [{"shoot": "garden-dev/web", "seed": "seed-a", "resourceVersion": "7"}]}`
	if err := os.WriteFile(planFile, []byte(reviewed), 0o600); err != nil {
		t.Fatal(err)
	}
	return [][]string{
		{"schedule"}, {"schedule", "--dry-run"}, {"run", "--config", loopConfig}, {"explain", "garden-dev/web"},
		{"rebalance"}, {"capacity"}, {"cordon", "seed-a"}, {"uncordon", "-l", "env=dev"}, {"apply", "-f", planFile, "--yes"},
	}
}

// apply -f binds exactly the plan an operator reviewed: every placement to its planned seed, except the shoot
// whose spec changed after the plan was made, which is skipped with the reason (one whose labels changed is the
// shoot reviewed, and bound); applying the same file again binds nothing twice.
func TestApplyReviewedPlan(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	namespace := cp.Landscape(t, "reviewed", []int64{10, 10}, 4, "reviewed")
	kubeconfig, err := cp.Kubeconfig("reviewer")
	if err != nil {
		t.Fatal(err)
	}
	planned, err := run(t, "schedule", "--kubeconfig", kubeconfig, "--scheduler-name", "reviewed", "--dry-run", "-o", "json")
	if err != nil {
		t.Fatalf("schedule --dry-run: %v\n%s", err, planned)
	}
	planFile := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(planFile, []byte(planned), 0o600); err != nil {
		t.Fatal(err)
	}
	var plan struct{ Placements []model.Placement }
	if err := json.Unmarshal([]byte(planned), &plan); err != nil || len(plan.Placements) != 4 || plan.Placements[0].ResourceVersion == "" {
		t.Fatalf("the dry run should place 4 shoots, each with its resourceVersion: %v\n%s", err, planned)
	}
	// Someone changes a shoot's spec after the review, and another's labels, which no placement reads.
	for name, change := range map[string]func(*gardencorev1beta1.Shoot){
		"shoot-2": func(s *gardencorev1beta1.Shoot) { s.Spec.Provider.Workers[0].Maximum++ },
		"shoot-1": func(s *gardencorev1beta1.Shoot) { s.Labels = map[string]string{"changed": "after-review"} },
	} {
		changed := &gardencorev1beta1.Shoot{}
		if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, changed); err != nil {
			t.Fatal(err)
		}
		change(changed)
		if err := cp.Client.Update(ctx, changed); err != nil {
			t.Fatal(err)
		}
	}

	if _, err := run(t, "apply", "-f", planFile, "--kubeconfig", kubeconfig, "--scheduler-name", "reviewed"); err == nil || !strings.Contains(err.Error(), "binding 4 reviewed placements: add --yes to confirm") {
		t.Fatalf("apply without --yes: %v", err)
	}
	// A dry run checks each placement as apply does and sends its binding as a server-side dry run: the changed
	// shoot is skipped, the others admitted, and nothing is bound or reported on the shoots.
	dry, err := runCombined(t, "apply", "-f", planFile, "--kubeconfig", kubeconfig, "--scheduler-name", "reviewed", "--dry-run=server")
	if err != nil || !strings.Contains(dry, "Binding 4 reviewed placements (server dry run: nothing is stored) in garden") ||
		!strings.Contains(dry, "4 reviewed placements: admitted 3, skipped 1") {
		t.Fatalf("apply --dry-run: %v\n%s", err, dry)
	}
	var events eventsv1.EventList
	var shoots gardencorev1beta1.ShootList
	if err := errors.Join(cp.Client.List(ctx, &events, client.InNamespace(namespace)), cp.Client.List(ctx, &shoots, client.InNamespace(namespace))); err != nil {
		t.Fatal(err)
	}
	for _, shoot := range shoots.Items {
		if shoot.Spec.SeedName != nil || shoot.Status.LastOperation != nil {
			t.Errorf("apply --dry-run wrote shoot %s: seed %v, lastOperation %+v", shoot.Name, ptrString(shoot.Spec.SeedName), shoot.Status.LastOperation)
		}
	}
	if len(events.Items) > 0 {
		t.Fatalf("apply --dry-run wrote events: %+v", events.Items)
	}
	// Under another scheduler's name, the plan's shoots are not pending: none is bound (shoot-2 is skipped first
	// for its change).
	other, err := run(t, "apply", "-f", planFile, "--kubeconfig", kubeconfig, "--scheduler-name", "someone-else", "--yes", "-o", "json")
	if err != nil {
		t.Fatalf("apply as another scheduler: %v\n%s", err, other)
	}
	if n := strings.Count(other, `is not pending for scheduler \"someone-else\": its spec.schedulerName is \"reviewed\"`); n != 3 {
		t.Fatalf("apply as another scheduler skipped %d of the 3 unchanged placements for their scheduler name:\n%s", n, other)
	}
	// The plan piped in, as kubectl apply -f - takes it.
	out, err := runReading(t, strings.NewReader(planned), newTestLog(t), "apply", "-f", "-", "--kubeconfig", kubeconfig, "--scheduler-name", "reviewed", "--yes", "-o", "json")
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	var applied struct {
		Applied []struct{ Shoot, To, Result, Detail string }
	}
	if err := json.Unmarshal([]byte(out), &applied); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	results := map[string]string{}
	for i, a := range applied.Applied {
		if a.Shoot != plan.Placements[i].Shoot { // the plan's order, skipped or not, as kubectl lists what it applied
			t.Errorf("result %d is of %s, placement %d of %s", i, a.Shoot, i, plan.Placements[i].Shoot)
		}
		results[a.Shoot] = a.Result
		if a.Shoot == namespace+"/shoot-2" && !strings.Contains(a.Detail, "the shoot's spec changed since the plan was made (generation 1, now 2)") {
			t.Errorf("the changed shoot is skipped for %q", a.Detail)
		}
	}
	for _, pl := range plan.Placements {
		shoot := &gardencorev1beta1.Shoot{}
		key := strings.SplitN(pl.Shoot, "/", 2)
		if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: key[0], Name: key[1]}, shoot); err != nil {
			t.Fatal(err)
		}
		want, seed := "bound", ptrString(shoot.Spec.SeedName)
		if key[1] == "shoot-2" {
			want = "skipped"
		}
		switch {
		case results[pl.Shoot] != want:
			t.Errorf("%s: %s, want %s", pl.Shoot, results[pl.Shoot], want)
		case want == "bound" && seed != pl.Seed:
			t.Errorf("%s bound to %s, the reviewed plan says %s", pl.Shoot, seed, pl.Seed)
		case want == "skipped" && seed != "":
			t.Errorf("%s bound to %s though it changed after the review", pl.Shoot, seed)
		}
	}

	// Applied again, the plan binds nothing and says where each shoot already is.
	out, err = run(t, "apply", "-f", planFile, "--kubeconfig", kubeconfig, "--scheduler-name", "reviewed", "--yes", "-o", "json")
	if err != nil || strings.Contains(out, `"bound"`) {
		t.Fatalf("applying the same plan again bound something: %v\n%s", err, out)
	}
	applied.Applied = nil
	if err := json.Unmarshal([]byte(out), &applied); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, a := range applied.Applied {
		want := "the shoot is on seed " + a.To + " already, as planned"
		if a.Shoot == namespace+"/shoot-2" {
			want = "the shoot's spec changed since the plan was made"
		}
		if !strings.Contains(a.Detail, want) {
			t.Errorf("applied again, %s is %s for %q, want %q", a.Shoot, a.Result, a.Detail, want)
		}
	}
}

func ptrString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// capacity and rebalance push their answers to a Pushgateway, each under its own grouping key: the gauges there
// add up to what the command printed, and the second push does not replace the first.
func TestAnswersArePushed(t *testing.T) {
	binaries, err := gardentest.Binaries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pushgateway := startPushgateway(t, binaries)
	out, err := run(t, "capacity", "--pushgateway", pushgateway, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var capacity struct {
		Pending, OnExisting, OnNew, NewSeeds, LowerBound int
		Unplaceable                                      []any
	}
	if err := json.Unmarshal([]byte(out), &capacity); err != nil {
		t.Fatal(err)
	}
	if out, err = run(t, "rebalance", "--pushgateway", pushgateway, "-o", "json"); err != nil {
		t.Fatal(err)
	}
	var rebalance struct {
		Moves    []any
		Fallback string
	}
	if err := json.Unmarshal([]byte(out), &rebalance); err != nil {
		t.Fatal(err)
	}
	fallbacks := 0
	if rebalance.Fallback != "" {
		fallbacks = 1
	}
	metrics := httpGet(t, pushgateway+"/metrics")
	for name, want := range map[string]int{
		"seedplan_capacity_new_seeds":             capacity.NewSeeds,
		"seedplan_capacity_new_seeds_total":       capacity.NewSeeds,
		"seedplan_capacity_new_seeds_lower_bound": capacity.LowerBound,
		"seedplan_capacity_pending_shoots":        capacity.Pending,
		"seedplan_capacity_existing_seeds_shoots": capacity.OnExisting,
		"seedplan_capacity_new_seeds_shoots":      capacity.OnNew,
		"seedplan_capacity_unplaceable_shoots":    len(capacity.Unplaceable),
		"seedplan_rebalance_moves":                len(rebalance.Moves),
		"seedplan_rebalance_fallback":             fallbacks, // the reason's series at 1, the other at 0
	} {
		if got := sumSamples(metrics, name); got != float64(want) {
			t.Errorf("%s sums to %v on the Pushgateway, want %d:\n%s", name, got, want, grepLines(metrics, name))
		}
	}
	if series := grepLines(metrics, "seedplan_rebalance_fallback{"); strings.Count(series, "\n") != 1 {
		t.Errorf("seedplan_rebalance_fallback has no series for each reason, timeout and range:\n%s", series)
	}
	if capacity.OnExisting+capacity.OnNew+len(capacity.Unplaceable) != capacity.Pending {
		t.Errorf("%d on existing + %d on new seeds + %d unplaceable, want the %d pending", capacity.OnExisting, capacity.OnNew, len(capacity.Unplaceable), capacity.Pending)
	}
	if capacity.NewSeeds == 0 || len(rebalance.Moves) == 0 {
		t.Fatalf("the example asks for %d new seeds and %d moves: the test proves nothing", capacity.NewSeeds, len(rebalance.Moves))
	}
	for _, group := range []string{`answer="capacity"`, `answer="rebalance"`} {
		if !strings.Contains(grepLines(metrics, "seedplan_build_info"), group) {
			t.Errorf("no seedplan_build_info grouped by %s:\n%s", group, grepLines(metrics, "seedplan_build_info"))
		}
	}
}

// sumSamples is the sum of every sample of the metric in an exposition text.
func sumSamples(text, name string) float64 {
	sum := 0.0
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, name+"{") && !strings.HasPrefix(line, name+" ") {
			continue
		}
		fields := strings.Fields(line)
		value, err := strconv.ParseFloat(fields[len(fields)-1], 64)
		if err == nil {
			sum += value
		}
	}
	return sum
}

// The deploy manifests are what the real kube-apiserver accepts: server-side apply with dry run of every object
// (RBAC, the configuration, the CronJob, the Deployment), and the workloads run the image `make image` builds.
func TestDeployManifestsApplyWithServerSideDryRun(t *testing.T) {
	cp := garden.Get(t)
	ctx := context.Background()
	if err := cp.EnsureNamespace(ctx, "garden"); err != nil {
		t.Fatal(err)
	}
	restricted := restrictedNamespace(t, cp)
	workloads := 0
	applied := map[string]*unstructured.Unstructured{} // by kind
	for _, file := range []string{"rbac.yaml", "config.yaml", "cronjob.yaml", "deployment.yaml"} {
		data, err := os.ReadFile(filepath.Join("../../examples/deploy", file))
		if err != nil {
			t.Fatal(err)
		}
		decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
		for {
			obj := &unstructured.Unstructured{}
			if err := decoder.Decode(&obj.Object); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if len(obj.Object) == 0 {
				continue
			}
			applied[obj.GetKind()] = obj.DeepCopy() // Apply reads the server's answer into obj
			if err := cp.Client.Apply(ctx, client.ApplyConfigurationFromUnstructured(obj), client.DryRunAll,
				client.FieldOwner("seedplan-deploy-test"), client.ForceOwnership); err != nil {
				t.Fatalf("%s: %s %s: %v", file, obj.GetKind(), obj.GetName(), err)
			}
			workloads += checkWorkload(t, restricted, file, applied[obj.GetKind()])
		}
	}
	if workloads != 2 {
		t.Fatalf("%d containers in the CronJob and the Deployment, want 2", workloads)
	}
	// A drain evicts one of the loop's replicas at a time: the PodDisruptionBudget selects the Deployment's pods.
	budget, _, _ := unstructured.NestedStringMap(applied["PodDisruptionBudget"].Object, "spec", "selector", "matchLabels")
	pods, _, _ := unstructured.NestedStringMap(applied["Deployment"].Object, "spec", "template", "metadata", "labels")
	if len(budget) == 0 || !labels.SelectorFromSet(budget).Matches(labels.Set(pods)) {
		t.Errorf("the PodDisruptionBudget selects %v, the Deployment's pods are labelled %v", budget, pods)
	}
}

// checkWorkload checks the containers of a CronJob's or a Deployment's pod template, and is how many there are
// (none of another kind): each runs the image make image builds, and the template keeps to the restricted Pod
// Security Standard — which it would not without the containers' security context.
func checkWorkload(t *testing.T, restricted *podSecurity, file string, workload *unstructured.Unstructured) int {
	t.Helper()
	obj := workload.DeepCopy()
	path := []string{"spec", "template", "spec", "containers"}
	if obj.GetKind() == "CronJob" {
		path = append([]string{"spec", "jobTemplate"}, path...)
	}
	containers, _, _ := unstructured.NestedSlice(obj.Object, path...) // a copy
	if len(containers) == 0 {
		return 0
	}
	for _, c := range containers {
		if img := c.(map[string]any)["image"]; img != image.Name {
			t.Errorf("%s: %s runs image %v, want %s (what make image builds)", file, obj.GetName(), img, image.Name)
		}
	}
	if warnings := restricted.warnings(t, obj); len(warnings) > 0 {
		t.Errorf("%s: %s: its pod template breaks the restricted Pod Security Standard: %q", file, obj.GetName(), warnings)
	}
	for _, c := range containers {
		delete(c.(map[string]any), "securityContext")
	}
	if err := unstructured.SetNestedSlice(obj.Object, containers, path...); err != nil {
		t.Fatal(err)
	}
	if warnings := restricted.warnings(t, obj); len(warnings) == 0 {
		t.Errorf("%s: %s without its security context: no warning from a namespace that warns of the restricted profile", file, obj.GetName())
	}
	return len(containers)
}

// podSecurity applies workloads, as a dry run, in a namespace whose Pod Security admission warns of what breaks
// the restricted profile — as a garden's namespaces may enforce it — and hears the warnings.
type podSecurity struct {
	namespace string
	client    client.Client
	heard     *heardWarnings
}

// heardWarnings are the API server's warnings a client heard.
type heardWarnings struct {
	mu   sync.Mutex
	text []string
}

// HandleWarningHeader implements rest.WarningHandler.
func (h *heardWarnings) HandleWarningHeader(_ int, _ string, text string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.text = append(h.text, text)
}

// restrictedNamespace is a namespace labelled pod-security.kubernetes.io/warn=restricted and a client that hears
// its warnings.
func restrictedNamespace(t *testing.T, cp *gardentest.ControlPlane) *podSecurity {
	t.Helper()
	ctx := context.Background()
	namespace := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "seedplan-restricted",
		Labels: map[string]string{"pod-security.kubernetes.io/warn": "restricted"}}}
	if err := cp.Client.Create(ctx, namespace); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	heard := &heardWarnings{}
	config := rest.CopyConfig(cp.Config)
	config.WarningHandler = heard
	c, err := client.New(config, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &podSecurity{namespace: namespace.Name, client: c, heard: heard}
}

// warnings are what the API server warns of when the workload obj is applied, as a dry run, in the namespace.
func (p *podSecurity) warnings(t *testing.T, obj *unstructured.Unstructured) []string {
	t.Helper()
	workload := obj.DeepCopy()
	workload.SetNamespace(p.namespace)
	p.heard.mu.Lock()
	p.heard.text = nil
	p.heard.mu.Unlock()
	if err := p.client.Apply(context.Background(), client.ApplyConfigurationFromUnstructured(workload), client.DryRunAll,
		client.FieldOwner("seedplan-deploy-test"), client.ForceOwnership); err != nil {
		t.Fatalf("%s %s in %s: %v", obj.GetKind(), obj.GetName(), p.namespace, err)
	}
	p.heard.mu.Lock()
	defer p.heard.mu.Unlock()
	return slices.Clone(p.heard.text)
}
