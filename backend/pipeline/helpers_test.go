package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/verify"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// agentEnv makes the re-run test binary act as the mock agent.
const agentEnv = "BOOF_PIPELINE_TEST_MOCK_AGENT"

var testRunner *proc.Runner

func TestMain(m *testing.M) {
	if os.Getenv(agentEnv) == "1" {
		os.Exit(mock.Main(os.Args[1:], os.Stdin, os.Stdout))
	}
	testRunner = proc.NewRunner(proc.RunnerOptions{})
	code := m.Run()
	testRunner.Shutdown(time.Second)
	os.Exit(code)
}

// env is one scenario: a git repo, a store, the mock tool and a pipeline.
type env struct {
	t      testing.TB
	st     *store.Store
	p      *Pipeline
	repo   string
	set    settings.Settings
	sleeps []time.Duration
	// onSleep runs inside the injected Sleep (e.g. to request a stop).
	onSleep func()
	rec     *recTool
	// opts built p; a test may change them and build p again.
	opts Options
	mu   sync.Mutex
	// events are what Hooks.OnEvent received, with their execution ids.
	events []hookEvent
}

// hookEvent is one call of Hooks.OnEvent.
type hookEvent struct {
	execID int64
	ev     task.Event
}

// hookEvents returns the events Hooks.OnEvent received so far.
func (e *env) hookEvents() []hookEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]hookEvent(nil), e.events...)
}

// recTool wraps the real mock tool and records every request's prompt.
type recTool struct {
	agent.Tool
	noMidRun bool
	mu       sync.Mutex
	reqs     []agent.Request
}

func (r *recTool) Capabilities() agent.Capabilities {
	c := r.Tool.Capabilities()
	if r.noMidRun {
		c.MidRunInput = false
	}
	return c
}

func (r *recTool) Start(ctx context.Context, req agent.Request) (agent.Run, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return r.Tool.Start(ctx, req)
}

// prompts returns the prompts sent to a role, in order.
func (r *recTool) prompts(role task.Role) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, q := range r.reqs {
		if q.Role == role {
			out = append(out, q.Prompt)
		}
	}
	return out
}

func gitRun(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func newRepo(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("repo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "add", "README.md")
	gitRun(t, dir, "-c", "user.name=T", "-c", "user.email=t@t", "commit", "-q", "-m", "init")
	return dir
}

func mockTool(t testing.TB) *mock.Tool {
	return mock.New(mock.Options{Command: []string{os.Args[0]}, Env: []string{agentEnv + "=1", "GORACE=atexit_sleep_ms=0"},
		Runner: testRunner, StateDir: t.TempDir()})
}

func newEnv(t *testing.T, mut func(*settings.Settings)) *env { return newEnvTB(t, mut) }

func newEnvTB(t testing.TB, mut func(*settings.Settings)) *env {
	t.Helper()
	e := &env{t: t, repo: newRepo(t)}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "db.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e.st = st
	s := settings.Defaults(settings.Catalog{Names: []string{mock.Name}})
	s.WorkingDirectory = e.repo
	s.Retries.BackoffMs = []int64{30000, 120000}
	s.Retries.IdleTimeoutMs = 20000
	s.Stop.GraceMs = 500
	if mut != nil {
		mut(&s)
	}
	e.set = s
	e.rec = &recTool{Tool: mockTool(t)}
	e.opts = Options{
		Store:         st,
		Tools:         agent.NewRegistry(e.rec),
		Worktrees:     worktree.NewManager(gitx.New(), time.Now),
		Settings:      func() settings.Settings { return e.set },
		TranscriptDir: filepath.Join(t.TempDir(), "transcripts"),
		ControlPoll:   20 * time.Millisecond,
		Verify:        &verify.Runner{Procs: testRunner, Git: gitx.New()},
		Hooks: Hooks{OnEvent: func(taskID string, execID int64, ev task.Event) {
			e.mu.Lock()
			e.events = append(e.events, hookEvent{execID, ev})
			e.mu.Unlock()
		}},
		Sleep: func(ctx context.Context, d time.Duration) error {
			e.mu.Lock()
			e.sleeps = append(e.sleeps, d)
			f := e.onSleep
			e.mu.Unlock()
			if f != nil {
				f()
			}
			return ctx.Err()
		},
	}
	e.p = New(e.opts)
	return e
}

func (e *env) addTask(prompt string, runs int) task.Task {
	e.t.Helper()
	tk, err := e.st.CreateTask(context.Background(), task.NewTask{Prompt: prompt, Runs: runs})
	if err != nil {
		e.t.Fatal(err)
	}
	return tk
}

// claimRun claims the task and runs one iteration.
func (e *env) claimRun(ctx context.Context, id string) Result {
	e.t.Helper()
	ex, err := e.st.Claim(ctx, id, store.ClaimInfo{Runner: "test", Role: task.RolePlanner, Tool: "mock"})
	if err != nil {
		e.t.Fatalf("claim: %v", err)
	}
	tk, err := e.st.GetTask(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	ex.Iteration = tk.CompletedRuns + 1
	res, err := e.p.Run(ctx, tk, ex)
	if err != nil {
		e.t.Fatalf("run: %v", err)
	}
	return res
}

// startRun claims the task and runs one iteration in the background; the
// channel gets its result.
func (e *env) startRun(ctx context.Context, id string) <-chan Result {
	done := make(chan Result, 1)
	go func() {
		ex, err := e.st.Claim(ctx, id, store.ClaimInfo{Runner: "test", Role: task.RolePlanner, Tool: "mock"})
		if err != nil {
			e.t.Error(err)
			done <- Result{}
			return
		}
		cur, _ := e.st.GetTask(ctx, id)
		res, err := e.p.Run(ctx, cur, ex)
		if err != nil {
			e.t.Error(err)
		}
		done <- res
	}()
	return done
}

func (e *env) get(id string) task.Task {
	e.t.Helper()
	tk, err := e.st.GetTask(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return tk
}

func (e *env) logText(id string) string {
	e.t.Helper()
	lines, err := e.st.Log(context.Background(), id, 0, 100000)
	if err != nil {
		e.t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteString("\n")
	}
	return b.String()
}

func (e *env) sections(id string, kind task.SectionKind) []task.Section {
	e.t.Helper()
	secs, err := e.st.Sections(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []task.Section
	for _, s := range secs {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

func (e *env) verdicts(id string, kind task.SectionKind) string {
	var vs []string
	for _, s := range e.sections(id, kind) {
		vs = append(vs, s.Verdict)
	}
	return strings.Join(vs, ",")
}

func (e *env) branchExists(name string) bool {
	err := exec.Command("git", "-C", e.repo, "rev-parse", "--verify", "--quiet", "refs/heads/"+name).Run()
	return err == nil
}

func (e *env) openExecutions() []task.Execution {
	e.t.Helper()
	ex, err := e.st.OpenExecutions(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return ex
}

func mustContain(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}
