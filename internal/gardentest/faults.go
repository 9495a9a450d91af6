package gardentest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Component names a process of the control plane that envtest started, by its binary.
type Component string

// The components envtest runs; gardener-apiserver has KillGardenerAPIServer and RestartGardenerAPIServer.
const (
	KubeAPIServer Component = "kube-apiserver"
	Etcd          Component = "etcd"
)

// replacement is a component started again by Restart: the process the control plane now owns.
type replacement struct {
	cmd    *exec.Cmd
	exited chan struct{}
}

// Crash kills a component as a crash would (SIGKILL) and returns once it is gone; the garden API fails until
// Restart brings it back.
func (cp *ControlPlane) Crash(c Component) ([]string, error) {
	pid, args, err := cp.process(c)
	if err != nil {
		return nil, err
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return nil, fmt.Errorf("killing %s (pid %d): %w", c, pid, err)
	}
	if r := cp.replaced[c]; r != nil {
		<-r.exited
		return args, nil
	}
	// envtest's own goroutine reaps it; wait until the pid is gone.
	for deadline := time.Now().Add(30 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s (pid %d) did not exit after SIGKILL", c, pid)
		}
	}
	return args, nil
}

// Restart starts a crashed component again with the command line it had (same ports, certificates and data
// directory) and returns when kube-apiserver has checked Gardener's API afresh and lists it again.
func (cp *ControlPlane) Restart(ctx context.Context, c Component, args []string) error {
	logFile, err := os.OpenFile(filepath.Join(cp.dir, string(c)+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return fmt.Errorf("starting %s again: %w", c, err)
	}
	r := &replacement{cmd: cmd, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); _ = logFile.Close(); close(r.exited) }()
	if cp.replaced == nil {
		cp.replaced = map[Component]*replacement{}
	}
	cp.replaced[c] = r
	if err := cp.waitFor(ctx, string(c)+" serving namespaces", func(ctx context.Context) error {
		select {
		case <-r.exited:
			return backoffStop{fmt.Errorf("%s exited after its restart; see %s", c, logFile.Name())}
		default:
		}
		return cp.Client.List(ctx, &corev1.NamespaceList{}, client.Limit(1))
	}); err != nil {
		return err
	}
	return cp.recheckGardenerAPI(ctx)
}

// Pause stops a component without ending it (SIGSTOP), as a hung server: requests reach it and get no answer
// until the returned resume is called.
func (cp *ControlPlane) Pause(c Component) (resume func() error, err error) {
	pid, _, err := cp.process(c)
	if err != nil {
		return nil, err
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		return nil, fmt.Errorf("pausing %s (pid %d): %w", c, pid, err)
	}
	return func() error { return syscall.Kill(pid, syscall.SIGCONT) }, nil
}

// process finds the running component among this process's children: its pid and command line.
func (cp *ControlPlane) process(c Component) (int, []string, error) {
	if r := cp.replaced[c]; r != nil {
		select {
		case <-r.exited:
		default:
			return r.cmd.Process.Pid, r.cmd.Args, nil
		}
	}
	binary, err := filepath.EvalSymlinks(filepath.Join(cp.Binaries, string(c)))
	if err != nil {
		return 0, nil, err
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, nil, err
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || parentOf(pid) != os.Getpid() {
			continue
		}
		if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err != nil || exe != binary {
			continue
		}
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil {
			continue
		}
		return pid, strings.Split(string(bytes.TrimRight(cmdline, "\x00")), "\x00"), nil
	}
	return 0, nil, fmt.Errorf("no running %s among the test's processes", c)
}

// parentOf is the parent pid of a process, from /proc; -1 when it cannot be read.
func parentOf(pid int) int {
	fields := statFields(pid)
	if len(fields) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return -1
	}
	return ppid
}

// statFields are the fields of a process's /proc stat after its command name, its state first; nil when it cannot
// be read. The command name may hold spaces and parentheses, so the fields are counted after its last ')'.
func statFields(pid int) []string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return nil
	}
	return strings.Fields(string(stat[end+1:]))
}

// stopReplacement ends a restarted component, gently first.
func (cp *ControlPlane) stopReplacement(c Component) error {
	r := cp.replaced[c]
	if r == nil {
		return nil
	}
	_ = r.cmd.Process.Signal(syscall.SIGCONT) // a paused process cannot handle SIGTERM
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.exited:
		return nil
	case <-time.After(30 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.exited
		return errors.New(string(c) + " did not stop on SIGTERM within 30s")
	}
}

// gardenerSchedulerConfig is the real gardener-scheduler's configuration beside seedplan: Gardener's
// defaults for its shoots (schedulerName default-scheduler or none), SameRegion, no leader election. It serves
// its probes and metrics on free ports of the loopback (%d, %d), not on Gardener's 10251 and 19251, the latter
// seedplan's own default, which a run loop of another test package may be serving at the same time.
const gardenerSchedulerConfig = `apiVersion: scheduler.config.gardener.cloud/v1alpha1
kind: SchedulerConfiguration
clientConnection: {qps: 100, burst: 130}
leaderElection: {leaderElect: false}
logLevel: error
schedulers: {shoot: {candidateDeterminationStrategy: SameRegion}}
server:
  healthProbes: {bindAddress: 127.0.0.1, port: %d}
  metrics: {bindAddress: 127.0.0.1, port: %d}
`

// StartGardenerScheduler runs the real gardener-scheduler v1.150.0 (built by hack/build-control-plane.sh) against
// the garden of kubeconfig, logging into dir; stop interrupts it and waits for it to end.
func (cp *ControlPlane) StartGardenerScheduler(kubeconfig, dir string) (stop func() error, err error) {
	probes, err := freePort()
	metrics := probes
	for err == nil && metrics == probes {
		metrics, err = freePort()
	}
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "gardener-scheduler.yaml")
	if err := os.WriteFile(file, fmt.Appendf(nil, gardenerSchedulerConfig, probes, metrics), 0o600); err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(dir, "gardener-scheduler.log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(filepath.Join(cp.Binaries, "gardener-scheduler"), "--config", file)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return nil, fmt.Errorf("starting gardener-scheduler: %w", err)
	}
	return func() error {
		defer logFile.Close()
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			return err
		}
		if err := cmd.Wait(); err != nil && !outlastedGracePeriod(logFile.Name()) {
			return fmt.Errorf("gardener-scheduler: %w; see %s", err, logFile.Name())
		}
		return nil
	}, nil
}

// outlastedGracePeriod reports whether the gardener-scheduler whose log is at path exited because its controllers
// took longer to stop than its manager's grace period (5 s): on a loaded machine its reconcilers may still be
// waiting for their rate limiter. It stopped all the same, and how fast is not what the tests judge.
func outlastedGracePeriod(path string) bool {
	log, err := os.ReadFile(path)
	return err == nil && bytes.Contains(log, []byte("failed waiting for all runnables to end within grace period"))
}
