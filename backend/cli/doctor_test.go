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
}
