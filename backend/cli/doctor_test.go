package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestDoctorReportsEachTool(t *testing.T) {
	dir := t.TempDir()
	// Only git on PATH: the real CLIs are "not installed"; the mock is healthy.
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	os.MkdirAll(bin, 0o755)
	os.Symlink(gitPath, filepath.Join(bin, "git"))
	t.Setenv("PATH", bin)
	if r := runCLI(t, dir, "", "settings", "set", "roles.developer", `{"tool":"mock"}`); r.code != 0 {
		t.Fatalf("settings set: %+v", r)
	}
	r := runCLI(t, dir, "", "doctor", "--json")
	var hs []struct {
		Tool          string `json:"tool"`
		Installed     bool   `json:"installed"`
		Authenticated bool   `json:"authenticated"`
		Error         string `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &hs); err != nil {
		t.Fatalf("doctor --json: %v\n%s\n%s", err, r.stdout, r.stderr)
	}
	got := map[string]string{}
	for _, h := range hs {
		got[h.Tool] = map[bool]string{true: "ok", false: "missing: " + h.Error}[h.Installed && h.Authenticated]
	}
	if got["mock"] != "ok" || !strings.Contains(got["claude-code"], "not") || !strings.Contains(got["codex"], "not") {
		t.Fatalf("health %v", got)
	}
	text := runCLI(t, dir, "", "doctor")
	if text.code != 0 || !strings.Contains(text.stdout, "roles use:") {
		t.Fatalf("doctor: %+v", text)
	}
	// A working directory with go.mod and no verify command: a suggestion,
	// which nothing runs until the user sets it.
	repo := t.TempDir()
	if out, err := exec.Command(gitPath, "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	writeFile(t, filepath.Join(repo, "go.mod"), "module x\n")
	if r := runCLI(t, dir, "", "settings", "set", "workingDirectory", repo); r.code != 0 {
		t.Fatalf("settings set: %+v", r)
	}
	text = runCLI(t, dir, "", "doctor")
	if want := "verify: none set; suggested (from go.mod): boof-runner verify set --repo " + repo + " 'go test ./...'"; !strings.Contains(text.stdout, want) {
		t.Fatalf("doctor lacks %q:\n%s", want, text.stdout)
	}
	runCLI(t, dir, "", "verify", "set", "--repo", repo, "make check")
	if text = runCLI(t, dir, "", "doctor"); !strings.Contains(text.stdout, "verify: make check (for "+repo+")") {
		t.Fatalf("doctor after set:\n%s", text.stdout)
	}
}
