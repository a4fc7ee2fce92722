package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tooLarge is the sentence a change that would cross the limit gets.
const tooLargePrefix = "boof-runner: The settings would be "
const tooLargeSuffix = " KiB, over the limit of 1024 KiB, so nothing was saved: shorten or unset a long value, or start from the defaults with 'boof-runner settings reset'.\n"

// TestSettingsSetCannotMakeTheFileUnreadable: values set one by one are
// refused at the one that would take the file past 1 MiB (which every
// reader, the runner included, refuses), with one sentence and the file
// unchanged; every read and change goes on working.
func TestSettingsSetCannotMakeTheFileUnreadable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(dir, "settings.json")
	value := strings.Repeat("v", 100<<10) // under the 128 KiB an argument may hold
	refused := false
	for i := 1; i <= 12 && !refused; i++ {
		before, _ := os.ReadFile(path)
		r := runCLI(t, dir, "", "settings", "set", fmt.Sprintf("tools.claude-code.env.V%d", i), value)
		after, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(after) > 1<<20 {
			t.Fatalf("set %d made the file %d bytes: exit %d %s", i, len(after), r.code, r.stderr)
		}
		switch {
		case r.code == 0:
		case r.code == 1 && strings.HasPrefix(r.stderr, tooLargePrefix) && strings.HasSuffix(r.stderr, tooLargeSuffix):
			refused = true
			if !bytes.Equal(before, after) {
				t.Fatalf("the refused set %d changed the file", i)
			}
		default:
			t.Fatalf("set %d: exit %d %q", i, r.code, r.stderr)
		}
	}
	if !refused {
		t.Fatal("12 values of 100 KiB were all accepted")
	}
	if r := runCLI(t, dir, "", "settings", "get", "runner.concurrency"); r.code != 0 || r.stdout != "1\n" {
		t.Fatalf("get after the refusal: %+v", r)
	}
	if r := runCLI(t, dir, "", "settings", "set", "tools.claude-code.env.V1", "null"); r.code != 0 {
		t.Fatalf("unset after the refusal: %+v", r)
	}
}

// TestSettingsWayOutOfAnUnreadableFile: a file already past the limit (an
// older version let it grow) refuses reads but takes the change that
// brings it back under (the other keys kept); a change that leaves it too
// large is refused; `settings reset` moves any unreadable file aside,
// byte for byte, and the defaults apply.
func TestSettingsWayOutOfAnUnreadableFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(dir, "settings.json")
	env := map[string]string{}
	for i := range 15 {
		env[fmt.Sprintf("V%d", i)] = strings.Repeat("v", 100<<10)
	}
	big, err := json.MarshalIndent(map[string]any{
		"runner": map[string]any{"concurrency": 3},
		"tools":  map[string]any{"claude-code": map[string]any{"env": env}},
		"mine":   "kept",
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(big))
	if r := runCLI(t, dir, "", "settings", "get"); r.code != 1 || !strings.Contains(r.stderr, "is larger than 1024 KiB") {
		t.Fatalf("get of a 1.5 MiB file: %+v", r)
	}
	if r := runCLI(t, dir, "", "settings", "set", "tools.claude-code.env.V1", "null"); r.code != 1 || !strings.HasPrefix(r.stderr, tooLargePrefix) {
		t.Fatalf("an unset that leaves it too large: %+v", r)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, big) {
		t.Fatal("a refused change changed the file")
	}
	if r := runCLI(t, dir, "", "settings", "set", "tools.claude-code.env", "null"); r.code != 0 {
		t.Fatalf("the unset that brings it under the limit: %+v", r)
	}
	if r := runCLI(t, dir, "", "settings", "get", "runner.concurrency"); r.code != 0 || r.stdout != "3\n" {
		t.Fatalf("the other keys after the unset: %+v", r)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"mine": "kept"`) {
		t.Fatalf("the unset lost a key:\n%s", b)
	}

	for name, content := range map[string]string{"not JSON": `{"runner": `, "too large": string(big)} {
		writeFile(t, path, content)
		r := runCLI(t, dir, "", "settings", "reset")
		aside, ok := strings.CutPrefix(strings.TrimSuffix(r.stdout, ": the defaults apply\n"), "moved "+path+" to ")
		if r.code != 0 || !ok || !strings.HasPrefix(aside, path+".") || !strings.HasSuffix(aside, ".bak") {
			t.Fatalf("reset of a file %s: %+v", name, r)
		}
		if b, err := os.ReadFile(aside); err != nil || string(b) != content {
			t.Fatalf("reset of a file %s did not keep it aside: %v", name, err)
		}
		if r := runCLI(t, dir, "", "settings", "get", "runner.concurrency"); r.code != 0 || r.stdout != "1\n" {
			t.Fatalf("get after the reset of a file %s: %+v", name, r)
		}
		os.Remove(aside)
	}
	if r := runCLI(t, dir, "", "settings", "reset"); r.code != 0 || r.stdout != "there is no "+path+": the defaults apply\n" {
		t.Fatalf("reset without a file: %+v", r)
	}
}
