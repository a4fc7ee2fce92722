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
	if got["mock"] != "ok" || !strings.Contains(got["claude-code"], "not") || !strings.Contains(got["codex"], "not") ||
		!strings.Contains(got["gemini"], "gemini executable gemini not found in PATH") {
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

// A gemini the developer role uses that is missing, too old, prints
// garbage, exits at once or hangs: doctor names the problem in one line
// of gemini's row and exits 1, within its time bound.
func TestDoctorExplainsABadGemini(t *testing.T) {
	for _, c := range []struct {
		name, script, want string
	}{
		{"missing", "", "gemini executable /nowhere/gemini not found"},
		{"too old", "echo 0.40.0", "gemini 0.40.0 is older than 0.61.0, the oldest version this app drives"},
		{"garbage", `printf '\377\033[2Jnonsense\n'`, "gemini --version printed no version"},
		{"exits at once", "echo 'env: node: No such file or directory' >&2; exit 127", "gemini --version: exit status 127: env: node: No such file or directory"},
		{"hangs", "sleep 60", "timed out"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := "/nowhere/gemini"
			if c.script != "" {
				path = filepath.Join(t.TempDir(), "gemini")
				writeFile(t, path, "#!/bin/sh\n"+c.script+"\n")
				if err := os.Chmod(path, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for k, v := range map[string]string{"tools.gemini.path": path, "roles.developer": `{"tool":"gemini"}`} {
				if r := runCLI(t, dir, "", "settings", "set", k, v); r.code != 0 {
					t.Fatalf("settings set %s: %+v", k, r)
				}
			}
			r := runCLI(t, dir, "", "doctor")
			var row string
			for _, l := range strings.Split(r.stdout, "\n") {
				if strings.HasPrefix(l, "gemini ") {
					row = l
				}
			}
			if r.code != 1 || !strings.Contains(row, c.want) || !strings.Contains(r.stderr, "1 tool(s) the roles use are not ready") {
				t.Fatalf("doctor: code %d row %q\n%s\n%s", r.code, row, r.stdout, r.stderr)
			}
		})
	}
}
