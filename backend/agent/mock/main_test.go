package mock

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// agentEnv makes the re-run test binary act as the mock agent.
const agentEnv = "BOOF_MOCK_AGENT_TEST"

// testRunner is the one process runner of this test binary.
var testRunner *proc.Runner

func TestMain(m *testing.M) {
	if os.Getenv(agentEnv) == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout))
	}
	testRunner = proc.NewRunner(proc.RunnerOptions{})
	code := m.Run()
	testRunner.Shutdown(time.Second)
	os.Exit(code)
}

// newTool returns a mock tool that runs this test binary as its agent.
func newTool(t *testing.T) *Tool {
	t.Helper()
	return New(Options{Command: []string{os.Args[0]}, Env: []string{agentEnv + "=1", "GORACE=atexit_sleep_ms=0"}, Runner: testRunner, StateDir: t.TempDir()})
}

// gitRepo makes a git repository with one commit in a dir named name.
func gitRepo(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("repo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "add", "README.md")
	gitT(t, dir, "-c", "user.name=T", "-c", "user.email=t@t", "commit", "-q", "-m", "init")
	return dir
}

func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// recorder collects events.
type recorder struct {
	mu  sync.Mutex
	evs []agent.Event
}

func (r *recorder) add(e agent.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, e)
}

func (r *recorder) all() []agent.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]agent.Event(nil), r.evs...)
}

func (r *recorder) has(kind agent.EventKind, text string) bool {
	for _, e := range r.all() {
		if e.Kind == kind && strings.Contains(e.Text, text) {
			return true
		}
	}
	return false
}

// runRole runs one role to the end and returns its result and events.
func runRole(t *testing.T, tool *Tool, dir string, role task.Role, prompt string, mod func(*agent.Request)) (agent.Result, *recorder) {
	t.Helper()
	rec := &recorder{}
	req := agent.Request{Role: role, Prompt: prompt, Dir: dir, OnEvent: rec.add, Grace: time.Second,
		TranscriptPath: filepath.Join(t.TempDir(), "transcript.log")}
	if mod != nil {
		mod(&req)
	}
	run, err := tool.Start(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := run.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return res, rec
}

// alive reports which of pids still exist (zombies count as gone).
func alive(pids []int) []int {
	var out []int
	for _, p := range pids {
		b, err := os.ReadFile(filepath.Join("/proc", itoa(p), "stat"))
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:])); len(f) > 0 && f[0] != "Z" {
			out = append(out, p)
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
