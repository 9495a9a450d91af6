package gardentest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// orphanChildEnv makes the test process a child that starts a control plane, prints the pids of its etcd and
// kube-apiserver, and waits to be killed.
const orphanChildEnv = "GARDENTEST_ORPHAN_CHILD"

// A test process killed while its control plane runs — by go test's timeout, by Ctrl-C, by hand — takes etcd and
// kube-apiserver with it, as it takes gardener-apiserver, instead of leaving them running; the next control plane
// to start removes the files it left.
func TestAKilledTestLeavesNoControlPlaneBehind(t *testing.T) {
	if os.Getenv(orphanChildEnv) != "" {
		runOrphanChild(t)
		return
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("no setpriv: etcd and kube-apiserver are started without a parent death signal")
	}
	if _, err := Binaries(context.Background()); err != nil {
		t.Fatalf("the control-plane binaries: %v", err)
	}
	child := exec.Command(os.Args[0], "-test.run", "^TestAKilledTestLeavesNoControlPlaneBehind$", "-test.count", "1")
	child.Env = append(os.Environ(), orphanChildEnv+"=1")
	child.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // a killed parent takes its child along
	child.Stderr = os.Stderr
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	pids, dirs := readPids(t, out)
	defer func() { // should the test fail before removeAbandoned does it
		for _, dir := range dirs {
			_ = os.RemoveAll(dir)
		}
	}()
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	for name, pid := range pids {
		deadline := time.Now().Add(10 * time.Second)
		for identity(pid) != "" {
			if time.Now().After(deadline) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("%s (pid %d) still runs 10 s after the test process that started it was killed", name, pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	removeAbandoned(os.TempDir()) // what the next Start does first
	for _, dir := range dirs {
		if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is still there after the next start (%v)", dir, err)
		}
	}
}

// runOrphanChild is the child: it starts a control plane without Gardener and prints "component pid" lines and a
// "dir" line for each directory of its files.
func runOrphanChild(t *testing.T) {
	cp, err := StartWithoutGardener(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Component{Etcd, KubeAPIServer} {
		pid, _, err := cp.process(c)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%s %d\n", c, pid)
	}
	for _, dir := range []string{cp.dir, cp.env.ControlPlane.Etcd.DataDir, cp.env.ControlPlane.APIServer.CertDir} {
		fmt.Printf("dir %s\n", dir)
	}
	fmt.Println("started")
	time.Sleep(time.Hour) // until the parent kills it
}

// readPids reads the child's lines up to "started": each component's pid, and the directories of its files.
func readPids(t *testing.T, out io.Reader) (map[Component]int, []string) {
	t.Helper()
	pids, dirs := map[Component]int{}, []string(nil)
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		line := lines.Text()
		if line == "started" {
			if len(pids) != 2 {
				t.Fatalf("the child named %d components, want etcd and kube-apiserver", len(pids))
			}
			return pids, dirs
		}
		name, value, _ := strings.Cut(line, " ")
		if name == "dir" {
			dirs = append(dirs, value)
		} else if n, err := strconv.Atoi(value); err == nil {
			pids[Component(name)] = n
		}
	}
	t.Fatalf("the child ended before its control plane started: %v", lines.Err())
	return nil, nil
}
