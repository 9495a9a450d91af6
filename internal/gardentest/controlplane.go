// Package gardentest runs a real garden API for integration tests: etcd and kube-apiserver through
// controller-runtime's envtest, and the gardener-apiserver binary registered behind kube-apiserver's aggregation
// layer, all built from the Go module proxy by hack/build-control-plane.sh. Gardener's own defaulting,
// validation, admission and the Shoot binding subresource are the real thing here.
package gardentest

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	securityv1alpha1 "github.com/gardener/gardener/pkg/apis/security/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/seedplan/seedplan/ingest"
)

// BinariesEnv names the directory of prebuilt control-plane binaries; without it, Start runs
// hack/build-control-plane.sh (idempotent and cached) to find or build them.
const BinariesEnv = "SEEDPLAN_CONTROL_PLANE"

// groupVersion is a Gardener API version the tests use, registered as an APIService.
type groupVersion struct{ group, version string }

// apiService is the name of the version's APIService.
func (gv groupVersion) apiService() string { return gv.version + "." + gv.group }

// gardenerGroupVersions are the Gardener API versions the tests use.
var gardenerGroupVersions = []groupVersion{
	{"core.gardener.cloud", "v1beta1"},
	{"security.gardener.cloud", "v1alpha1"},
	{"seedmanagement.gardener.cloud", "v1alpha1"},
}

// Admission plugins that need objects a bare garden lacks (as in Gardener's own scheduler integration test).
const disabledAdmissionPlugins = "DeletionConfirmation,ResourceReferenceManager,ExtensionValidator,ShootQuotaValidator,SeedValidator"

// ControlPlane is a running garden API.
type ControlPlane struct {
	// Config is an admin (system:masters) client configuration of kube-apiserver; Gardener's API is served
	// through it.
	Config *rest.Config
	// Client is an admin client with seedplan's scheme (and Gardener's security API).
	Client client.WithWatch
	// Binaries is the directory of the component binaries (the Pushgateway is there too).
	Binaries string

	env      *envtest.Environment
	dir      string
	certs    *certificates
	gardener *exec.Cmd
	exited   chan struct{}
	replaced map[Component]*replacement
	stopOnce sync.Once
}

// Start brings up etcd, kube-apiserver and gardener-apiserver on 127.0.0.1 and waits until Gardener's API is
// discoverable and listable.
func Start(ctx context.Context) (*ControlPlane, error) {
	return start(ctx, true)
}

// StartWithoutGardener brings up etcd and kube-apiserver only: a cluster that is no garden, as a seed's or a
// shoot's is to a kubeconfig that names it by mistake.
func StartWithoutGardener(ctx context.Context) (*ControlPlane, error) {
	return start(ctx, false)
}

func start(ctx context.Context, withGardener bool) (*ControlPlane, error) {
	binaries, err := Binaries(ctx)
	if err != nil {
		return nil, err
	}
	removeAbandoned(os.TempDir())
	dir, err := os.MkdirTemp("", dirPrefix)
	if err != nil {
		return nil, err
	}
	cp := &ControlPlane{Binaries: binaries, dir: dir}
	ok := false
	defer func() {
		if !ok {
			_ = cp.Stop()
		}
	}()
	if err := claim(dir); err != nil {
		return nil, err
	}

	certs, err := newCertificates(dir)
	if err != nil {
		return nil, err
	}
	cp.certs = certs
	if err := cp.configureEnvtest(); err != nil {
		return nil, err
	}
	if cp.Config, err = cp.env.Start(); err != nil {
		return nil, fmt.Errorf("starting etcd and kube-apiserver: %w", err)
	}
	cp.Config.QPS, cp.Config.Burst = 1000, 2000
	scheme, err := ingest.Scheme()
	if err != nil {
		return nil, err
	}
	if err := securityv1alpha1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	if cp.Client, err = client.NewWithWatch(cp.Config, client.Options{Scheme: scheme}); err != nil {
		return nil, err
	}
	if withGardener {
		if err := cp.startGardenerAPIServer(ctx, certs); err != nil {
			return nil, err
		}
		if err := cp.registerGardenerAPI(ctx, certs); err != nil {
			return nil, err
		}
	}
	ok = true
	return cp, nil
}

// configureEnvtest sets up etcd and kube-apiserver for envtest to start: through orphanless, with their files in
// the control plane's directory (rather than envtest's own, so that removeAbandoned finds them with it), and
// kube-apiserver ready to aggregate gardener-apiserver.
func (cp *ControlPlane) configureEnvtest() error {
	cp.env = &envtest.Environment{
		BinaryAssetsDirectory:    cp.Binaries,
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  30 * time.Second,
	}
	var err error
	apiServer := cp.env.ControlPlane.GetAPIServer()
	if apiServer.Path, err = cp.orphanless(KubeAPIServer); err != nil {
		return err
	}
	apiServer.CertDir = filepath.Join(cp.dir, "kube-apiserver")
	if err := os.Mkdir(apiServer.CertDir, 0o700); err != nil {
		return fmt.Errorf("making kube-apiserver's certificate directory: %w", err)
	}
	cp.env.ControlPlane.Etcd = &envtest.Etcd{DataDir: filepath.Join(cp.dir, "etcd")} // etcd makes it, 0700 as it asks
	if cp.env.ControlPlane.Etcd.Path, err = cp.orphanless(Etcd); err != nil {
		return err
	}
	apiServer.Configure().
		Set("requestheader-extra-headers-prefix", "X-Remote-Extra-").
		Set("requestheader-group-headers", "X-Remote-Group").
		Set("requestheader-username-headers", "X-Remote-User").
		Set("requestheader-client-ca-file", cp.certs.frontProxyCA).
		Set("proxy-client-cert-file", cp.certs.frontProxyClientCert).
		Set("proxy-client-key-file", cp.certs.frontProxyClientKey)
	return nil
}

// orphanless is a script that runs component's binary so that it dies with the test process that starts it
// (setpriv --pdeathsig, which sets PR_SET_PDEATHSIG before it execs the binary), as gardener-apiserver and every
// restarted component are started: envtest starts etcd and kube-apiserver without, so a test process killed by
// its timeout or by hand would leave them running. The binary keeps its process (sh and setpriv exec), so Crash finds
// it by its executable and command line. Without setpriv, the binary itself.
func (cp *ControlPlane) orphanless(component Component) (string, error) {
	binary := filepath.Join(cp.Binaries, string(component))
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		return binary, nil
	}
	dir := filepath.Join(cp.dir, "bin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("making the directory of the script that starts %s: %w", component, err)
	}
	script := filepath.Join(dir, string(component))
	text := fmt.Sprintf("#!/bin/sh\nexec %s --pdeathsig KILL -- %s \"$@\"\n", shellQuote(setpriv), shellQuote(binary))
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		return "", fmt.Errorf("writing the script that starts %s: %w", component, err)
	}
	return script, nil
}

// shellQuote is s as one word of a POSIX shell, in single quotes.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Binaries returns the directory of the control-plane binaries, building them when needed.
func Binaries(ctx context.Context) (string, error) {
	if dir := os.Getenv(BinariesEnv); dir != "" {
		return dir, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, filepath.Join(root, "hack", "build-control-plane.sh"))
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("hack/build-control-plane.sh: %w\n%s", err, stderr.String())
	}
	return strings.TrimSpace(stdout.String()), nil
}

// moduleRoot finds the directory of seedplan's go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "hack", "build-control-plane.sh")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("hack/build-control-plane.sh not found above the working directory; set " + BinariesEnv)
		}
		dir = parent
	}
}

// Kubeconfig writes a kubeconfig of a new user of the control plane with every permission (system:masters), for a
// process that runs against it, and returns its path.
func (cp *ControlPlane) Kubeconfig(user string) (string, error) {
	u, err := cp.env.ControlPlane.AddUser(envtest.User{Name: user, Groups: []string{"system:masters"}}, &rest.Config{QPS: 1000, Burst: 2000})
	if err != nil {
		return "", fmt.Errorf("adding the user %s: %w", user, err)
	}
	kubeconfig, err := u.KubeConfig()
	if err != nil {
		return "", err
	}
	path := filepath.Join(cp.dir, user+".kubeconfig")
	return path, os.WriteFile(path, kubeconfig, 0o600)
}

// UnprivilegedConfig is a client configuration of a new user of the control plane that no RBAC rule grants
// anything: every request it makes is forbidden.
func (cp *ControlPlane) UnprivilegedConfig(user string) (*rest.Config, error) {
	u, err := cp.env.ControlPlane.AddUser(envtest.User{Name: user}, &rest.Config{QPS: 1000, Burst: 2000})
	if err != nil {
		return nil, fmt.Errorf("adding the user %s: %w", user, err)
	}
	return u.Config(), nil
}

func (cp *ControlPlane) startGardenerAPIServer(ctx context.Context, certs *certificates) error {
	kubeconfigPath, err := cp.Kubeconfig("gardener-apiserver")
	if err != nil {
		return err
	}
	port := certs.gardenerPort // a restart keeps the port the APIServices point to
	if port == 0 {
		if port, err = freePort(); err != nil {
			return err
		}
	}
	log, err := os.OpenFile(filepath.Join(cp.dir, "gardener-apiserver.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cp.gardener = exec.Command(filepath.Join(cp.Binaries, "gardener-apiserver"),
		"--bind-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(port),
		"--etcd-servers="+cp.env.ControlPlane.Etcd.URL.String(),
		"--tls-cert-file="+certs.servingCert,
		"--tls-private-key-file="+certs.servingKey,
		"--cluster-identity=seedplan-test",
		"--authorization-always-allow-paths=/healthz",
		"--authentication-kubeconfig="+kubeconfigPath,
		"--authorization-kubeconfig="+kubeconfigPath,
		"--kubeconfig="+kubeconfigPath,
		"--disable-admission-plugins="+disabledAdmissionPlugins,
	)
	cp.gardener.Stdout, cp.gardener.Stderr = log, log
	cp.gardener.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cp.gardener.Start(); err != nil {
		return fmt.Errorf("starting gardener-apiserver: %w", err)
	}
	cp.exited = make(chan struct{})
	go func() { _ = cp.gardener.Wait(); _ = log.Close(); close(cp.exited) }()
	certs.gardenerPort = port
	return cp.waitForGardenerAPIServer(ctx, certs)
}

// waitForGardenerAPIServer waits until the gardener-apiserver started answers its health endpoint, and stops
// waiting when it exits.
func (cp *ControlPlane) waitForGardenerAPIServer(ctx context.Context, certs *certificates) error {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certs.servingCAPEM)
	httpClient := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	return cp.waitFor(ctx, "gardener-apiserver /healthz", func(ctx context.Context) error {
		select {
		case <-cp.exited:
			return backoffStop{fmt.Errorf("gardener-apiserver exited; see %s", filepath.Join(cp.dir, "gardener-apiserver.log"))}
		default:
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("https://127.0.0.1:%d/healthz", certs.gardenerPort), nil)
		if err != nil {
			return err
		}
		res, err := httpClient.Do(req)
		if err != nil {
			return err
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d", res.StatusCode)
		}
		return nil
	})
}

// registerGardenerAPI makes kube-apiserver serve Gardener's API groups from the gardener-apiserver: an
// ExternalName Service to localhost and one APIService per group version.
func (cp *ControlPlane) registerGardenerAPI(ctx context.Context, certs *certificates) error {
	service := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "gardener-apiserver", Namespace: metav1.NamespaceSystem},
		Spec:       corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "localhost"},
	}
	if err := cp.Client.Create(ctx, service); err != nil {
		return fmt.Errorf("creating the gardener-apiserver service: %w", err)
	}
	for _, gv := range gardenerGroupVersions {
		apiService := newAPIService(gv.apiService())
		apiService.Object["spec"] = map[string]any{
			"group": gv.group, "version": gv.version,
			"groupPriorityMinimum": int64(100), "versionPriority": int64(100),
			"service":  map[string]any{"namespace": service.Namespace, "name": service.Name, "port": int64(certs.gardenerPort)},
			"caBundle": certs.servingCAPEM,
		}
		if err := cp.Client.Create(ctx, apiService); err != nil {
			return fmt.Errorf("registering %s/%s: %w", gv.group, gv.version, err)
		}
	}
	discoveryClient, err := discovery.NewDiscoveryClientForConfig(cp.Config)
	if err != nil {
		return err
	}
	for _, gv := range gardenerGroupVersions {
		groupVersion := gv.group + "/" + gv.version
		if err := cp.waitFor(ctx, groupVersion+" discovery", func(context.Context) error {
			resources, err := discoveryClient.ServerResourcesForGroupVersion(groupVersion)
			if err != nil {
				return err
			}
			if len(resources.APIResources) == 0 {
				return errors.New("no resources yet")
			}
			return nil
		}); err != nil {
			return err
		}
	}
	// Discovery can succeed before the aggregated API lists reliably; wait for a real list too.
	return cp.waitForShootList(ctx)
}

// waitForShootList waits until Gardener's shoots can be listed through kube-apiserver.
func (cp *ControlPlane) waitForShootList(ctx context.Context) error {
	return cp.waitFor(ctx, "listing Gardener shoots", func(ctx context.Context) error {
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(gardencorev1beta1.SchemeGroupVersion.WithKind("ShootList"))
		return cp.Client.List(ctx, list, client.Limit(1))
	})
}

// backoffStop ends a wait at once.
type backoffStop struct{ error }

// waitFor retries check every 100 ms until it succeeds, for at most two minutes.
func (cp *ControlPlane) waitFor(ctx context.Context, what string, check func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var last error
	for {
		last = check(ctx)
		if last == nil {
			return nil
		}
		var stop backoffStop
		if errors.As(last, &stop) {
			return stop.error
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w (last error: %v)", what, ctx.Err(), last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// KillGardenerAPIServer kills gardener-apiserver as a crash would; Gardener's API answers 503 through
// kube-apiserver until RestartGardenerAPIServer.
func (cp *ControlPlane) KillGardenerAPIServer() error {
	if err := cp.gardener.Process.Kill(); err != nil {
		return fmt.Errorf("killing gardener-apiserver: %w", err)
	}
	<-cp.exited
	return nil
}

// RestartGardenerAPIServer starts gardener-apiserver again after KillGardenerAPIServer, on the same port, and
// returns when kube-apiserver has checked Gardener's API afresh and lists it again.
func (cp *ControlPlane) RestartGardenerAPIServer(ctx context.Context) error {
	if err := cp.startGardenerAPIServer(ctx, cp.certs); err != nil {
		return err
	}
	return cp.recheckGardenerAPI(ctx)
}

// TakeDownGardenerAPIServer kills gardener-apiserver and marks Gardener's APIServices unavailable, as kube-apiserver
// finds them some seconds later: Gardener's API answers 503 at once, as during an upgrade's restart. It returns the
// restart; a test that ends before it restarts gardener-apiserver has it restarted then, so that the tests after it
// find the garden up. An error fails the test.
func (cp *ControlPlane) TakeDownGardenerAPIServer(t testing.TB) (restart func(context.Context) error) {
	t.Helper()
	if err := cp.KillGardenerAPIServer(); err != nil {
		t.Fatal(err)
	}
	restarted := false
	restart = func(ctx context.Context) error {
		restarted = true
		return cp.RestartGardenerAPIServer(ctx)
	}
	t.Cleanup(func() {
		if !restarted {
			if err := restart(context.Background()); err != nil {
				t.Errorf("restarting gardener-apiserver: %v", err)
			}
		}
	})
	if err := cp.MarkGardenerAPIUnavailable(context.Background()); err != nil {
		t.Fatal(err)
	}
	return restart
}

// recheckGardenerAPI has kube-apiserver check Gardener's APIServices afresh after a restart and waits for the
// answer. A check kube-apiserver began while a component was starting can time out after Gardener's API already
// listed again; it then marks the APIService unavailable, and every request gets 503 until a later check, so a
// test right after the restart would fail for a reason that is not its own. Marking each APIService unavailable
// here queues a new check and turns an older check's answer into a write conflict; once all are available again,
// no check older than the restart can change them.
func (cp *ControlPlane) recheckGardenerAPI(ctx context.Context) error {
	if err := cp.MarkGardenerAPIUnavailable(ctx); err != nil {
		return err
	}
	for _, gv := range gardenerGroupVersions {
		if err := cp.waitFor(ctx, "APIService "+gv.apiService()+" available", func(ctx context.Context) error {
			return cp.checkAvailable(ctx, gv.apiService())
		}); err != nil {
			return err
		}
	}
	return cp.waitForShootList(ctx)
}

// MarkGardenerAPIUnavailable marks each of Gardener's APIServices unavailable at once, as kube-apiserver's
// availability check does some seconds after gardener-apiserver stops answering; it also queues a new check.
func (cp *ControlPlane) MarkGardenerAPIUnavailable(ctx context.Context) error {
	for _, gv := range gardenerGroupVersions {
		if err := retry.RetryOnConflict(retry.DefaultRetry, func() error { return cp.markUnchecked(ctx, gv.apiService()) }); err != nil {
			return fmt.Errorf("marking APIService %s unavailable: %w", gv.apiService(), err)
		}
	}
	return nil
}

// markUnchecked sets an APIService's Available condition to False, as kube-apiserver's availability check would.
func (cp *ControlPlane) markUnchecked(ctx context.Context, name string) error {
	apiService := newAPIService(name)
	if err := cp.Client.Get(ctx, client.ObjectKey{Name: name}, apiService); err != nil {
		return err
	}
	condition := map[string]any{
		"type": "Available", "status": "False", "reason": "Restarted",
		"message":            "a component restarted; waiting for a new check",
		"lastTransitionTime": metav1.Now().UTC().Format(time.RFC3339),
	}
	if err := unstructured.SetNestedSlice(apiService.Object, []any{condition}, "status", "conditions"); err != nil {
		return err
	}
	return cp.Client.Status().Update(ctx, apiService)
}

// checkAvailable fails until kube-apiserver reports the APIService available.
func (cp *ControlPlane) checkAvailable(ctx context.Context, name string) error {
	apiService := newAPIService(name)
	if err := cp.Client.Get(ctx, client.ObjectKey{Name: name}, apiService); err != nil {
		return err
	}
	conditions, _, err := unstructured.NestedSlice(apiService.Object, "status", "conditions")
	if err != nil {
		return err
	}
	for _, c := range conditions {
		if c, ok := c.(map[string]any); ok && c["type"] == "Available" {
			if c["status"] == "True" {
				return nil
			}
			return fmt.Errorf("not available: %v: %v", c["reason"], c["message"])
		}
	}
	return errors.New("no Available condition yet")
}

// newAPIService is an empty APIService to read into.
func newAPIService(name string) *unstructured.Unstructured {
	apiService := &unstructured.Unstructured{}
	apiService.SetAPIVersion("apiregistration.k8s.io/v1")
	apiService.SetKind("APIService")
	apiService.SetName(name)
	return apiService
}

// Stop stops gardener-apiserver, kube-apiserver and etcd and removes their files.
func (cp *ControlPlane) Stop() error {
	var errs []error
	cp.stopOnce.Do(func() {
		if cp.gardener != nil && cp.gardener.Process != nil {
			_ = cp.gardener.Process.Signal(syscall.SIGTERM)
			select {
			case <-cp.exited:
			case <-time.After(10 * time.Second):
				_ = cp.gardener.Process.Kill()
				<-cp.exited
			}
		}
		// kube-apiserver before etcd, whichever of them envtest still owns.
		errs = append(errs, cp.stopReplacement(KubeAPIServer))
		if cp.env != nil {
			if err := cp.env.Stop(); err != nil {
				errs = append(errs, err)
			}
		}
		errs = append(errs, cp.stopReplacement(Etcd))
		if err := os.RemoveAll(cp.dir); err != nil {
			errs = append(errs, err)
		}
	})
	return errors.Join(errs...)
}

// EnsureNamespace creates a namespace unless it exists.
func (cp *ControlPlane) EnsureNamespace(ctx context.Context, name string) error {
	err := cp.Client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", name, err)
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Shared starts one control plane for a test package on first use; TestMain stops it after the tests.
type Shared struct {
	once sync.Once
	cp   *ControlPlane
	err  error
}

// Get returns the package's control plane, starting it on the first call; a failed start fails the test.
//
// Under -count above 1 each call gets a control plane of its own instead, stopped when its test ends: the tests
// give their objects fixed names, which the same test's next round would find taken in a shared one, and a
// flake is hunted by running a test again and again.
func (s *Shared) Get(t testing.TB) *ControlPlane {
	t.Helper()
	if testCount() > 1 {
		return ownControlPlane(t)
	}
	s.once.Do(func() { s.cp, s.err = startLogged() })
	if s.err != nil {
		t.Fatalf("starting the garden control plane: %v", s.err)
	}
	return s.cp
}

// ownControlPlane starts a control plane of the test's own, stopped when the test ends; a failed start fails it.
func ownControlPlane(t testing.TB) *ControlPlane {
	t.Helper()
	cp, err := startLogged()
	if err != nil {
		t.Fatalf("starting the garden control plane: %v", err)
	}
	t.Cleanup(func() {
		if err := cp.Stop(); err != nil {
			t.Errorf("stopping the garden control plane: %v", err)
		}
	})
	return cp
}

// startLogged starts a control plane and says how long it took.
func startLogged() (*ControlPlane, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Minute) // includes a first build
	defer cancel()
	start := time.Now()
	cp, err := Start(ctx)
	if err == nil {
		fmt.Fprintf(os.Stderr, "gardentest: garden control plane up in %.1fs\n", time.Since(start).Seconds())
	}
	return cp, err
}

// testCount is go test's -count: how many times each test runs in this process (1 outside go test).
func testCount() uint64 {
	f := flag.Lookup("test.count")
	if f == nil {
		return 1
	}
	count, err := strconv.ParseUint(f.Value.String(), 10, 64)
	if err != nil {
		return 1
	}
	return count
}

// Run is a test package's TestMain: it runs the tests, stops the control plane if one was started, and exits.
func (s *Shared) Run(m *testing.M) {
	code := m.Run()
	s.stop()
	os.Exit(code)
}

func (s *Shared) stop() {
	if s.cp != nil {
		if err := s.cp.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "gardentest: stopping the control plane: %v\n", err)
		}
	}
}
