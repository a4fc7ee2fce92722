package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/cli"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// cliEnv makes the re-run test binary act as the boof-runner CLI (a
// headless runner process); mock.AgentCommand as first argument makes it the
// mock agent, as the real binary does.
const cliEnv = "BOOF_RUNNER_TEST_CLI"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == mock.AgentCommand {
		os.Exit(mock.Main(os.Args[2:], os.Stdin, os.Stdout))
	}
	if os.Getenv(cliEnv) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Run(ctx, os.Args[1:], cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, cli.Env{Getenv: os.Getenv})
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// root is a data root with a git repo as working directory.
type root struct {
	t    testing.TB
	dir  string
	repo string
	st   *store.Store
}

func gitRun(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func newRoot(t *testing.T, extra map[string]any) *root { return newRootTB(t, extra) }

func newRootTB(t testing.TB, extra map[string]any) *root {
	t.Helper()
	r := &root{t: t, dir: filepath.Join(t.TempDir(), "data"), repo: filepath.Join(t.TempDir(), "repo")}
	for _, d := range []string{r.dir, r.repo} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, r.repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(r.repo, "README.md"), []byte("repo\n"), 0o644)
	gitRun(t, r.repo, "add", "README.md")
	gitRun(t, r.repo, "-c", "user.name=T", "-c", "user.email=t@t", "commit", "-q", "-m", "init")
	mockRole := map[string]any{"tool": "mock"}
	s := map[string]any{
		"workingDirectory": r.repo,
		"roles":            map[string]any{"planner": mockRole, "refinement": mockRole, "developer": mockRole, "reviewer": mockRole},
		"retries":          map[string]any{"idleTimeoutMs": 120000, "backoffMs": []int{10}},
		"stop":             map[string]any{"graceMs": 500},
	}
	for k, v := range extra {
		s[k] = v
	}
	b, _ := json.MarshalIndent(s, "", "  ")
	if err := os.WriteFile(dataroot.Paths{Root: r.dir}.Settings(), b, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), dataroot.Paths{Root: r.dir}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r.st = st
	return r
}

func (r *root) add(prompt string, runs int) task.Task {
	r.t.Helper()
	tk, err := r.st.CreateTask(context.Background(), task.NewTask{Prompt: prompt, Runs: runs})
	if err != nil {
		r.t.Fatal(err)
	}
	return tk
}

func (r *root) get(id string) task.Task {
	r.t.Helper()
	tk, err := r.st.GetTask(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return tk
}

type result struct {
	code           int
	stdout, stderr string
}

// cliRun runs a CLI command in this process.
func (r *root) cli(ctx context.Context, args ...string) result {
	var out, errb bytes.Buffer
	code := cli.Run(ctx, append(args, "--data-dir", r.dir), cli.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, cli.Env{Getenv: os.Getenv})
	return result{code, out.String(), errb.String()}
}

// spawn starts a headless runner process on the data root.
func (r *root) spawn(args ...string) (*exec.Cmd, *bytes.Buffer) {
	r.t.Helper()
	cmd := exec.Command(os.Args[0], append(append([]string{"runner"}, args...), "--data-dir", r.dir)...)
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, &out
}

// spawnEnv starts a headless runner process with extra environment.
func (r *root) spawnEnv(env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	r.t.Helper()
	cmd := exec.Command(os.Args[0], append(append([]string{"runner"}, args...), "--data-dir", r.dir)...)
	cmd.Env = append(append(os.Environ(), cliEnv+"=1"), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, &out
}

// waitFor polls cond (bounded) and fails the test when it never holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func (r *root) openExec(id string, role task.Role) (task.Execution, bool) {
	xs, err := r.st.OpenExecutions(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	for _, x := range xs {
		if x.TaskID == id && x.Role == role && x.PID > 0 {
			return x, true
		}
	}
	return task.Execution{}, false
}

func (r *root) logText(id string) string {
	lines, _ := r.st.Log(context.Background(), id, 0, 100000)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

func alive(pid int) bool { return runner.Alive(pid) }

// groupAlive lists the live (not zombie) members of a process group.
func groupAlive(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		f := strings.Fields(string(b[i+2:]))
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && runner.Alive(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// procsUnder lists live (non-zombie) processes whose cwd is dir or below,
// including directories removed since.
func procsUnder(dir string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		// A process left in a removed worktree has a cwd "<dir> (deleted)".
		cwd = strings.TrimSuffix(cwd, " (deleted)")
		if err != nil || (cwd != dir && !strings.HasPrefix(cwd, dir+"/")) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i:]), ") Z") {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, e.Name()+":"+strings.ReplaceAll(string(cmd), "\x00", " "))
	}
	return out
}
