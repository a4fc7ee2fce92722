//go:build k8s && linux

package kubernetes_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/executor/kubernetes/k8stest"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// The images of the test node: the app's, one whose boof-runner hands back
// a result of another repository, and one that never pulls.
const (
	imageApp     = "boof-runner-test:dev"
	imageForeign = "boof-runner-test:foreign"
	imageMissing = "registry.invalid/boof-runner:missing"
)

// appEnv holds the folder of the binaries built for the journeys.
const appEnv = "BOOF_K8S_APP"

// skipReason is set when the test control plane is not built: every
// journey is then skipped, saying why.
var skipReason string

// TestMain builds boof-runner and boof-runner-kube (outside the network
// namespace, where the module cache is reachable), then runs the tests in
// a network namespace of their own. Without the test control plane
// (scripts/k8s-testbin.sh) nothing is built and every journey skips.
func TestMain(m *testing.M) {
	if k8stest.InNetns() {
		os.Exit(k8stest.RunInNetns(m))
	}
	bins, err := k8stest.BinDir()
	if err != nil {
		skipReason = "the Kubernetes journeys need the test control plane: " + err.Error()
		fmt.Fprintln(os.Stderr, "k8s: skipping:", skipReason)
		os.Exit(m.Run())
	}
	os.Setenv(k8stest.BinEnv, bins)
	dir, built := os.Getenv(appEnv), false
	if dir == "" {
		if dir, err = buildApp(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		built = true
		os.Setenv(appEnv, dir)
	}
	code := k8stest.RunInNetns(m)
	if built {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

func buildApp() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	dir, err := os.MkdirTemp("", "boof-k8s-app-")
	if err != nil {
		return "", err
	}
	for _, b := range [][2]string{{"boof-runner", "."}, {"boof-runner-kube", "./cmd/boof-runner-kube"}} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, b[0]), b[1])
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	return dir, nil
}

// startCluster starts the test cluster with the three images.
func startCluster(t *testing.T) *k8stest.Cluster {
	t.Helper()
	if skipReason != "" {
		t.Skip(skipReason)
	}
	foreign := t.TempDir()
	if err := os.WriteFile(filepath.Join(foreign, "boof-runner"), []byte(foreignScript), 0o755); err != nil {
		t.Fatal(err)
	}
	return k8stest.Start(t, k8stest.Options{
		Images:     map[string]string{imageApp: os.Getenv(appEnv), imageForeign: foreign},
		FailImages: []string{imageMissing},
	})
}

// foreignScript is the boof-runner of imageForeign: exec-task hands back a
// checkpoint whose task branch is a commit of another repository, under
// the task's name, then ends as done.
const foreignScript = `#!/bin/sh
set -e
in=$3
id=$(sed -n 's/.*"task_id":"\([^"]*\)".*/\1/p' "$in/task.json")
w=$(mktemp -d)
git -C "$w" init -q
git -C "$w" -c user.name=x -c user.email=x@example.com commit -q --allow-empty -m "not this task's"
git -C "$w" branch -q "boof-runner/$id"
sha=$(git -C "$w" rev-parse HEAD)
git -C "$w" bundle create -q "$w/b" "refs/heads/boof-runner/$id"
b=$(base64 -w0 "$w/b")
echo "boof-runner/1 {\"seq\":1,\"k\":\"checkpoint\",\"c\":{\"refs\":{\"refs/heads/boof-runner/$id\":\"$sha\"},\"bundle\":\"$b\",\"final\":true}}"
echo "boof-runner/1 {\"seq\":2,\"k\":\"final\",\"f\":{\"status\":\"done\",\"note\":{}}}"
`

// desk is a desktop: a data root whose queue runs in the cluster, driven
// through the real boof-runner binary.
type desk struct {
	t      *testing.T
	c      *k8stest.Cluster
	root   string
	repo   string
	st     *store.Store
	runner *exec.Cmd
	out    *os.File
}

// newDesk makes a data root on repo whose tasks run on the mock, in the
// cluster by default, with executor's keys over the defaults.
func newDesk(t *testing.T, c *k8stest.Cluster, repo string, executor map[string]any) *desk {
	t.Helper()
	d := &desk{t: t, c: c, root: t.TempDir(), repo: repo}
	ex := map[string]any{"kind": "kubernetes", "kubeconfig": c.Kubeconfig, "context": k8stest.ContextAdmin,
		"namespace": k8stest.Namespace, "image": imageApp, "concurrency": 2, "imagePullTimeoutSeconds": 5}
	for k, v := range executor {
		ex[k] = v
	}
	mock := map[string]any{"tool": "mock"}
	set := map[string]any{"workingDirectory": repo, "executor": ex, "runner": map[string]any{"concurrency": 1},
		"retries": map[string]any{"transient": 0, "backoffMs": []int{0}},
		"roles":   map[string]any{"planner": mock, "refinement": mock, "developer": mock, "reviewer": mock}}
	b, _ := json.Marshal(set)
	if err := os.WriteFile(filepath.Join(d.root, "settings.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(d.root, "boof-runner.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.st = st
	t.Cleanup(func() {
		d.stopRunner()
		st.Close()
	})
	return d
}

// cli runs the app binary on the data root.
func (d *desk) cli(args ...string) (string, int) {
	d.t.Helper()
	cmd := exec.Command(filepath.Join(os.Getenv(appEnv), "boof-runner"), append([]string{"--data-dir", d.root}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		d.t.Fatal(err)
	}
	return strings.TrimSpace(out.String()), code
}

// add adds a task and returns its id.
func (d *desk) add(prompt string, flags ...string) string {
	d.t.Helper()
	out, code := d.cli(append(append([]string{"add"}, flags...), prompt)...)
	if code != 0 {
		d.t.Fatalf("add: %d %s", code, out)
	}
	return strings.Fields(out)[0]
}

// startRunner starts the headless runner (the desktop's queue).
func (d *desk) startRunner() {
	d.t.Helper()
	f, err := os.OpenFile(filepath.Join(d.root, "runner.out"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		d.t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(os.Getenv(appEnv), "boof-runner"), "--data-dir", d.root, "runner")
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		d.t.Fatal(err)
	}
	d.runner, d.out = cmd, f
}

// killRunner kills the runner at once (a crash).
func (d *desk) killRunner() {
	if d.runner == nil {
		return
	}
	_ = d.runner.Process.Kill()
	_ = d.runner.Wait()
	d.runner = nil
	d.out.Close()
}

// stopRunner stops the runner as SIGTERM does.
func (d *desk) stopRunner() {
	if d.runner == nil {
		return
	}
	_ = d.runner.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = d.runner.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		_ = d.runner.Process.Kill()
		<-done
	}
	d.runner = nil
	d.out.Close()
}

// waitStatus waits for the task to reach one of statuses.
func (d *desk) waitStatus(id string, statuses ...task.Status) task.Task {
	d.t.Helper()
	var tk task.Task
	d.waitFor(fmt.Sprintf("task %s %v", id, statuses), func() bool {
		var err error
		tk, err = d.st.GetTask(context.Background(), id)
		return err == nil && slices.Contains(statuses, tk.Status)
	})
	return tk
}

// waitEvent waits for an event of the task that ok accepts.
func (d *desk) waitEvent(id, what string, ok func(task.Event) bool) task.Event {
	d.t.Helper()
	var got task.Event
	d.waitFor(what, func() bool {
		evs, err := d.st.Events(context.Background(), id, time.Time{})
		if err != nil {
			return false
		}
		for _, e := range evs {
			if ok(e) {
				got = e
				return true
			}
		}
		return false
	})
	return got
}

// waitFor waits for ok; a runner that died or ten minutes fail the test
// with the runner's output (the machine is shared and slow: no timing is
// asserted).
func (d *desk) waitFor(what string, ok func() bool) {
	d.t.Helper()
	deadline := time.Now().Add(10 * time.Minute)
	for !ok() {
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(d.root, "runner.out"))
			d.t.Fatalf("waiting for %s: still not there after 10 minutes; runner output:\n%s", what, tail(string(b), 4000))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// git runs git in dir.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo makes a repository with one commit on main.
func newRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	git(t, repo, "config", "user.name", "T")
	git(t, repo, "config", "user.email", "t@example.com")
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "first")
	return repo
}

// refExists reports whether repo has ref.
func refExists(repo, ref string) bool {
	return exec.Command("git", "-C", repo, "rev-parse", "--verify", "--quiet", ref).Run() == nil
}
