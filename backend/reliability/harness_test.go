//go:build linux && reliability

package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// The rows drive the real binary: built once per run (headless, no desktop
// tag), on real git repositories in temporary directories, with the mock
// agent; kills are SIGKILL, restarts are `boof-runner runner`.

var (
	buildOnce sync.Once
	binDir    string
	binPath   string
	buildErr  error
)

// binary builds the app once and returns its path. BOOF_RELIABILITY_BIN
// names a prebuilt binary instead (to measure another build, such as a
// baseline, with the same rows).
func binary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("BOOF_RELIABILITY_BIN"); p != "" {
		return p
	}
	buildOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(file), "..", "..")
		if binDir, buildErr = os.MkdirTemp("", "boof-reliability-bin-"); buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "boof-runner")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build the app: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// removeBinary deletes the built app (TestMain calls it last).
func removeBinary() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}

// envOpts shape a trial's repository and settings.
type envOpts struct {
	// slowCheckout adds 30 files whose checkout sleeps 0.1 s each (a
	// smudge filter), so `git worktree add` can be killed half way.
	slowCheckout bool
	// slowAdd makes adding the mock's files sleep 2 s (a clean filter), so
	// the leftovers' `git add -A` can be killed while it runs.
	slowAdd bool
	// slowAccept makes checking the mock's file out sleep 1.5 s (a smudge
	// filter), so an accept's checkout update can be killed while it runs.
	slowAccept bool
	// observer configures the observer role.
	observer bool
	// hook is the body of a post-checkout hook ("" for none).
	hook string
}

// env is one trial: a data root, a repository with main checked out, and
// a private TMPDIR for the app's processes.
type env struct {
	t                     *testing.T
	bin                   string
	data, repo, tmp, home string
	scope                 string
	st                    *store.Store
}

func newEnv(t *testing.T, o envOpts) *env {
	t.Helper()
	base := t.TempDir()
	e := &env{t: t, bin: binary(t), data: filepath.Join(base, "data"), repo: filepath.Join(base, "repo"),
		tmp: filepath.Join(base, "tmp"), home: filepath.Join(base, "home")}
	for _, d := range []string{e.data, e.repo, e.tmp, e.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.scope = proc.Scope(e.data)
	e.git(e.repo, "init", "-q", "-b", "main")
	e.write("README.md", "repo\n")
	e.write(".gitignore", "litter/\n")
	attrs := ""
	if o.slowCheckout {
		for i := 0; i < 30; i++ {
			e.write(fmt.Sprintf("big/f%02d.txt", i), fmt.Sprintf("file %d\n", i))
		}
		attrs += "big/*.txt filter=slowco\n"
	}
	if o.slowAdd {
		attrs += "mock-* filter=slowadd\n"
	}
	if o.slowAccept {
		attrs += "mock-*.md filter=slowaccept\n"
	}
	if attrs != "" {
		e.write(".gitattributes", attrs)
	}
	e.git(e.repo, "add", "-A")
	e.git(e.repo, "commit", "-q", "-m", "init")
	if o.slowCheckout {
		e.git(e.repo, "config", "filter.slowco.smudge", "sleep 0.1; cat")
		e.git(e.repo, "config", "filter.slowco.clean", "cat")
	}
	if o.slowAdd {
		e.git(e.repo, "config", "filter.slowadd.clean", "sleep 2; cat")
		e.git(e.repo, "config", "filter.slowadd.smudge", "cat")
	}
	if o.slowAccept {
		e.git(e.repo, "config", "filter.slowaccept.smudge", "sleep 1.5; cat")
		e.git(e.repo, "config", "filter.slowaccept.clean", "cat")
	}
	if o.hook != "" {
		if err := os.WriteFile(filepath.Join(e.repo, ".git", "hooks", "post-checkout"), []byte("#!/bin/sh\n"+o.hook+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mockRole := map[string]any{"tool": "mock"}
	roles := map[string]any{"planner": mockRole, "refinement": mockRole, "developer": mockRole, "reviewer": mockRole}
	if o.observer {
		roles["observer"] = mockRole
	}
	set := map[string]any{
		"workingDirectory": e.repo,
		"roles":            roles,
		"retries":          map[string]any{"idleTimeoutMs": 120000, "backoffMs": []int{10}},
		"stop":             map[string]any{"graceMs": 500},
	}
	b, _ := json.MarshalIndent(set, "", "  ")
	if err := os.WriteFile(dataroot.Paths{Root: e.data}.Settings(), b, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), dataroot.Paths{Root: e.data}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.st = st
	t.Cleanup(func() {
		st.Close()
		// Nothing of a trial outlives it, whatever the trial found.
		_, _ = proc.KillTagged(proc.TagPrefix(e.scope, ""), 200*time.Millisecond)
		for pid, start := range e.hostilePids() {
			if got, ok := proc.StartTimes(pid)[pid]; ok && got == start {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	return e
}

func (e *env) write(rel, content string) {
	e.t.Helper()
	p := filepath.Join(e.repo, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// gitEnv is the identity and configuration isolation of the harness's own
// git commands (the app's processes get HOME only).
func (e *env) gitEnv() []string {
	return append(os.Environ(), "HOME="+e.home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=User", "GIT_AUTHOR_EMAIL=user@example.com",
		"GIT_COMMITTER_NAME=User", "GIT_COMMITTER_EMAIL=user@example.com")
}

// git runs git in dir and returns its trimmed output; failure fails the test.
func (e *env) git(dir string, args ...string) string {
	e.t.Helper()
	out, err := e.gitErr(dir, args...)
	if err != nil {
		e.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return out
}

func (e *env) gitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = e.gitEnv()
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// appEnv is the environment of the app's processes.
func (e *env) appEnv(extra ...string) []string {
	return append(append(os.Environ(), "TMPDIR="+e.tmp, "HOME="+e.home, "GIT_CONFIG_NOSYSTEM=1"), extra...)
}

// result is a finished command of the app.
type result struct {
	code           int
	stdout, stderr string
}

// run runs the app with args (and the data root) to its end.
func (e *env) run(extraEnv []string, args ...string) result {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin, append(args, "--data-dir", e.data)...)
	cmd.Env = e.appEnv(extraEnv...)
	cmd.Dir = e.repo
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	} else if err != nil {
		e.t.Fatalf("run %v: %v", args, err)
	}
	return result{code, out.String(), errb.String()}
}

// running is an app process started in the background.
type running struct {
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
}

func (e *env) start(extraEnv []string, args ...string) *running {
	e.t.Helper()
	cmd := exec.Command(e.bin, append(args, "--data-dir", e.data)...)
	cmd.Env = e.appEnv(extraEnv...)
	cmd.Dir = e.repo
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	r := &running{cmd: cmd, out: &out, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(r.done) }()
	e.t.Cleanup(func() { r.kill() })
	return r
}

func (r *running) exited() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (r *running) kill() {
	if !r.exited() {
		_ = r.cmd.Process.Signal(syscall.SIGKILL)
	}
	<-r.done
}

// signal sends sig and waits (bounded) for the exit.
func (r *running) signal(sig syscall.Signal, within time.Duration) bool {
	_ = r.cmd.Process.Signal(sig)
	select {
	case <-r.done:
		return true
	case <-time.After(within):
		return false
	}
}

// killedBySignal reports whether the process ended by SIGKILL.
func (r *running) killedBySignal() bool {
	<-r.done
	ws, ok := r.cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// add stores a pending task with prompt.
func (e *env) add(prompt string) string {
	e.t.Helper()
	tk, err := e.st.CreateTask(context.Background(), task.NewTask{Prompt: prompt, Repo: e.repo})
	if err != nil {
		e.t.Fatal(err)
	}
	return tk.ID
}

func (e *env) task(id string) task.Task {
	e.t.Helper()
	tk, err := e.st.GetTask(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return tk
}

func (e *env) logText(id string) string {
	lines, _ := e.st.Log(context.Background(), id, 0, 1000000)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

// openStep reports whether role's step (round ≥ minRound) runs a process.
func (e *env) openStep(id string, role task.Role, minRound int) bool {
	xs, err := e.st.OpenExecutions(context.Background())
	if err != nil {
		return false
	}
	for _, x := range xs {
		if x.TaskID == id && x.Role == role && x.Round >= minRound && x.PID > 0 {
			return true
		}
	}
	return false
}

// taggedCommand reports whether a live process of this data root's runner
// has a command line containing sub.
func (e *env) taggedCommand(sub string) bool {
	ps, _ := proc.FindTagged(proc.TagPrefix(e.scope, ""))
	for _, p := range ps {
		if strings.Contains(p.Command, sub) {
			return true
		}
	}
	return false
}

// survivors lists the live processes of this data root: carrying one of
// its step tags, or recorded by the mock's hostile behaviours.
func (e *env) survivors() []string {
	var out []string
	seen := map[int]bool{}
	ps, _ := proc.FindTagged(proc.TagPrefix(e.scope, ""))
	for _, p := range ps {
		seen[p.PID] = true
		out = append(out, fmt.Sprintf("%d %s (%s)", p.PID, p.Command, p.Tag))
	}
	for pid, start := range e.hostilePids() {
		if got, ok := proc.StartTimes(pid)[pid]; ok && got == start && !seen[pid] {
			out = append(out, fmt.Sprintf("%d (recorded by the mock)", pid))
		}
	}
	return out
}

// hostilePids reads the pids the mock's hostile behaviours recorded.
func (e *env) hostilePids() map[int]uint64 {
	files, _ := filepath.Glob(filepath.Join(e.data, "*-state", "*", "hostile.pids"))
	out := map[int]uint64{}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, l := range strings.Split(string(b), "\n") {
			var pid int
			var st uint64
			if _, err := fmt.Sscan(l, &pid, &st); err == nil {
				out[pid] = st
			}
		}
	}
	return out
}

// waitUntil polls cond every 5 ms until it holds (true) or limit passes.
func waitUntil(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

// leakedTemp lists what the app's processes left in their TMPDIR.
func (e *env) leakedTemp() []string {
	ents, _ := os.ReadDir(e.tmp)
	var out []string
	for _, en := range ents {
		if strings.HasPrefix(en.Name(), "boof-") && en.Name() != "boof-mock-state" {
			out = append(out, en.Name())
		}
	}
	return out
}
