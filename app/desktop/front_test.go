//go:build !desktop

package desktop

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildFront builds the headless boof-runner into dir.
func buildFront(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "boof-runner")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/boof-runner/boof-runner").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// fakeDesktop writes a stand-in for the window binary at path that
// records its arguments and the front's variable into rec (a script's $0
// is its own path, so argv[0] is not recorded).
func fakeDesktop(t *testing.T, path, rec string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" \"front=$BOOF_RUNNER_FRONT\" >" + rec + "\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// The command the user types opens the window by replacing itself with the
// window binary next to it (a build tree) or in ../lib/boof-runner (an
// install), with the same arguments and its own path in BOOF_RUNNER_FRONT;
// a headless command never starts the window binary; without one the
// window launch fails with one clear line.
func TestFrontExecsTheDesktopBinaryOnlyForTheWindow(t *testing.T) {
	tmp := t.TempDir()
	bin := buildFront(t, filepath.Join(tmp, "bin"))
	rec := filepath.Join(tmp, "rec")
	data := filepath.Join(tmp, "data")
	env := append(os.Environ(), "BOOF_DESKTOP_BIN=", "BOOF_RUNNER_HOME=")

	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}

	out, code := run("--data-dir", data)
	if code != 1 || !strings.Contains(out, "the desktop app is not installed (no boof-runner-desktop in "+filepath.Join(tmp, "bin", "boof-runner-desktop")) ||
		strings.Count(out, "\n") != 1 {
		t.Fatalf("window launch without the desktop binary: code %d, %q", code, out)
	}

	fakeDesktop(t, filepath.Join(tmp, "lib", "boof-runner", "boof-runner-desktop"), rec)
	if out, code := run("--review", "T1", "--data-dir", data); code != 0 {
		t.Fatalf("window launch: code %d, %q", code, out)
	}
	got, err := os.ReadFile(rec)
	if err != nil {
		t.Fatalf("the desktop binary was not started: %v", err)
	}
	want := "--review\nT1\n--data-dir\n" + data + "\nfront=" + bin + "\n"
	if string(got) != want {
		t.Fatalf("the desktop binary got\n%s\nwant\n%s", got, want)
	}

	os.Remove(rec)
	if out, code := run("list", "--data-dir", data); code != 0 {
		t.Fatalf("list: code %d, %q", code, out)
	}
	if out, code := run("--version"); code != 0 || !strings.HasPrefix(out, "boof-runner ") {
		t.Fatalf("--version: code %d, %q", code, out)
	}
	if out, code := run("--hidden", "extra"); code != 2 || !strings.Contains(out, `unknown command "extra"`) {
		t.Fatalf("bad launch: code %d, %q", code, out)
	}
	if _, err := os.Stat(rec); !os.IsNotExist(err) {
		t.Fatal("a headless command, --version or a bad launch started the desktop binary")
	}

	// Next to the command (a build tree) wins over ../lib.
	fakeDesktop(t, filepath.Join(tmp, "bin", "boof-runner-desktop"), rec+"2")
	if out, code := run("--hidden"); code != 0 {
		t.Fatalf("window launch: code %d, %q", code, out)
	}
	if _, err := os.Stat(rec + "2"); err != nil {
		t.Fatal("the desktop binary next to the command was not the one started")
	}
}
