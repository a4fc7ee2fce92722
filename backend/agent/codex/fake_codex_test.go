package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
)

// newRunner returns a process runner shut down at the end of the test.
func newRunner(t testing.TB) *proc.Runner {
	t.Helper()
	r := proc.NewRunner(proc.RunnerOptions{})
	t.Cleanup(func() { r.Shutdown(5 * time.Second) })
	return r
}

// fakeTool returns a codex tool whose executable is testdata/codex/fake-codex.sh,
// which replays recorded transcripts, with the given FAKE_CODEX_* settings.
func fakeTool(t testing.TB, env ...string) *Tool {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "codex", "fake-codex.sh"))
	if err != nil {
		t.Fatal(err)
	}
	_, home := codexHome(t)
	c := New(Options{
		Runner:  newRunner(t),
		Path:    bin,
		Env:     append(home, env...),
		Getenv:  func(string) string { return "" },
		TempDir: t.TempDir(),
	})
	return c
}

type fakeArgs struct {
	Args  []string
	Stdin string
	Dir   string
}

// readArgs reads what the fake codex recorded, with the -o path as "<last>".
func readArgs(t *testing.T, path string) fakeArgs {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var a fakeArgs
	a.Args = strings.Split(string(bytes.TrimSuffix(b, []byte{0})), "\x00")
	for i := range a.Args {
		if i > 0 && a.Args[i-1] == "-o" {
			a.Args[i] = "<last>"
		}
	}
	dir, err := os.ReadFile(path + ".dir")
	if err != nil {
		t.Fatal(err)
	}
	a.Dir = strings.TrimSuffix(string(dir), "\n")
	stdin, _ := os.ReadFile(path + ".stdin")
	a.Stdin = string(stdin)
	return a
}
