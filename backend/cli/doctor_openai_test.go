package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// doctor says what is wrong with an opencode or qwen that is missing, too
// old or broken, in one line each, without running a step.
func TestDoctorExplainsBadOpencodeAndQwen(t *testing.T) {
	dir := t.TempDir()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	os.MkdirAll(bin, 0o755)
	os.Symlink(gitPath, filepath.Join(bin, "git"))
	t.Setenv("PATH", bin)
	scripts := t.TempDir()
	old := filepath.Join(scripts, "opencode")
	writeFile(t, old, "#!/bin/sh\necho 1.2.27\n")
	broken := filepath.Join(scripts, "qwen")
	writeFile(t, broken, "#!/bin/sh\necho 'node: bad option: --expose-gc' >&2\nexit 9\n")
	for _, f := range []string{old, broken} {
		if err := os.Chmod(f, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range [][2]string{{"tools.opencode.path", old}, {"tools.qwen-code.path", broken}, {"roles.developer", `{"tool":"mock"}`}} {
		if r := runCLI(t, dir, "", "settings", "set", kv[0], kv[1]); r.code != 0 {
			t.Fatalf("settings set %s: %+v", kv[0], r)
		}
	}
	r := runCLI(t, dir, "", "doctor", "--json")
	var hs []struct {
		Tool      string `json:"tool"`
		Installed bool   `json:"installed"`
		Version   string `json:"version"`
		Error     string `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &hs); err != nil {
		t.Fatalf("doctor --json: %v\n%s\n%s", err, r.stdout, r.stderr)
	}
	got := map[string]string{}
	for _, h := range hs {
		got[h.Tool] = h.Error
	}
	if want := "opencode 1.2.27 is too old: Boof Runner needs 1.18 or later (tested with 1.18.33)"; got["opencode"] != want {
		t.Errorf("opencode: %q, want %q", got["opencode"], want)
	}
	if e := got["qwen-code"]; !strings.Contains(e, "qwen --version") || !strings.Contains(e, "bad option") {
		t.Errorf("qwen-code: %q", e)
	}
	text := runCLI(t, dir, "", "doctor")
	if !strings.Contains(text.stdout, "opencode 1.2.27 is too old") || !strings.Contains(text.stdout, "qwen-code") {
		t.Fatalf("doctor:\n%s\n%s", text.stdout, text.stderr)
	}
}
