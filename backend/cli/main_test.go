package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// binary is the real boof-runner binary, built once for the CLI tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "boof-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "boof-runner")
	build := exec.Command("go", "build", "-o", binary, "github.com/boof-runner/boof-runner")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build boof-runner:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one run of the binary.
type result struct {
	code           int
	stdout, stderr string
}

// runCLI runs the binary with args against dataDir (appended as --data-dir
// unless empty) and stdin.
func runCLI(t *testing.T, dataDir, stdin string, args ...string) result {
	t.Helper()
	r, err := tryCLI(dataDir, stdin, args...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// tryCLI is runCLI for other goroutines than the test's (t.Fatal belongs
// to the test goroutine): a failure to run is returned.
func tryCLI(dataDir, stdin string, args ...string) (result, error) {
	cmd := exec.Command(binary, args...)
	if dataDir != "" {
		cmd.Args = append(cmd.Args, "--data-dir", dataDir)
		cmd.Env = append(os.Environ(), "BOOF_RUNNER_HOME=")
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		return result{}, fmt.Errorf("run %v: %w", args, err)
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}, nil
}

// newGitRepo makes a git repository on branch main with one commit.
func newGitRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return repo
}

// useRepo makes a fresh git repository (branch main, one commit) the
// working directory of data root dir, through `settings set`, and returns
// it: a task added without --repo runs there (and without one, add
// refuses the task).
func useRepo(t *testing.T, dir string) string {
	t.Helper()
	repo := newGitRepo(t)
	if r := runCLI(t, dir, "", "settings", "set", "workingDirectory", repo); r.code != 0 {
		t.Fatalf("settings set workingDirectory: %+v", r)
	}
	return repo
}

// ensureRepo is useRepo unless dir's settings already name a working
// directory.
func ensureRepo(t *testing.T, dir string) {
	t.Helper()
	if r := runCLI(t, dir, "", "settings", "get", "workingDirectory"); r.code == 0 && strings.TrimSpace(r.stdout) != `""` && strings.TrimSpace(r.stdout) != "" {
		return
	}
	useRepo(t, dir)
}
