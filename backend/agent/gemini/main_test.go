package gemini

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// testRunner starts the processes of every test in this package.
var testRunner *proc.Runner

func TestMain(m *testing.M) {
	testRunner = proc.NewRunner(proc.RunnerOptions{NoSubreaper: true})
	code := m.Run()
	testRunner.Shutdown(5 * time.Second)
	os.Exit(code)
}

// testdata is the absolute path of testdata/gemini.
func testdata(t *testing.T) string {
	t.Helper()
	td, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "gemini"))
	if err != nil {
		t.Fatal(err)
	}
	return td
}

// fakeCLI returns a tool running testdata/gemini/fake-gemini.sh on the
// recorded case, and the dir where the script records what it got. The
// app's environment is appEnv (HOME a fresh directory unless it says).
func fakeCLI(t *testing.T, recorded, exit string, appEnv map[string]string) (*Tool, string) {
	t.Helper()
	td := testdata(t)
	rec := t.TempDir()
	app := map[string]string{"HOME": t.TempDir(), "PATH": os.Getenv("PATH")}
	for k, v := range appEnv {
		app[k] = v
	}
	env := []string{"FAKE_GEMINI_DIR=" + rec, "FAKE_GEMINI_STREAM=" + filepath.Join(td, recorded, "stream.jsonl"), "FAKE_GEMINI_EXIT=" + exit}
	if b, err := os.ReadFile(filepath.Join(td, recorded, "meta.txt")); err == nil {
		if _, stderr, ok := strings.Cut(string(b), "--- stderr\n"); ok {
			env = append(env, "FAKE_GEMINI_STDERR="+strings.TrimSpace(stderr))
		}
	}
	return New(Options{Path: filepath.Join(td, "fake-gemini.sh"), Runner: testRunner, StateDir: t.TempDir(), Env: env,
		Getenv: func(k string) string { return app[k] }}), rec
}

// readArgs returns the arguments the fake CLI got.
func readArgs(t *testing.T, rec string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(rec, "args.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// readEnv returns the environment the fake CLI got, by name.
func readEnv(t *testing.T, rec string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(rec, "env.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			out[k] = v
		}
	}
	return out
}

// runFake runs one step of tool and returns its result and events.
func runFake(t *testing.T, tool *Tool, req agent.Request) (agent.Result, []agent.Event) {
	t.Helper()
	var evs []agent.Event
	req.OnEvent = func(e agent.Event) { evs = append(evs, e) }
	if req.Dir == "" {
		req.Dir = t.TempDir()
	}
	if req.Grace == 0 {
		req.Grace = time.Second
	}
	run, err := tool.Start(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := run.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return res, evs
}
