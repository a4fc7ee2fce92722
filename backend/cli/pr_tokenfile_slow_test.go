//go:build slow && linux

package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/failpoint"
)

// tokensIn reads a token file as pr login writes it.
func tokensIn(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Tokens map[string]string }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("the token file is not JSON: %v\n%s", err, b)
	}
	return f.Tokens
}

// tempsBeside lists the temporary files a write left beside path.
func tempsBeside(path string) []string {
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*"))
	return left
}

// pr login and the token file (the 0600 fallback when no keyring answers)
// attacked from outside, each once only checked by hand: the file a
// symbolic link (to a dotfiles file: written there, the link kept; to
// /etc/passwd: refused, nothing written), on a full disk (refused in one
// line, the token stored before kept, no temporary file left), and
// SIGTERM, SIGINT and SIGHUP while it is written (paused between the new
// file's last byte and its rename): the file holds the old tokens or the
// new ones, and a second pr login stores the token.
func TestTokenFileFromOutside(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "no-bus"))
	data := filepath.Join(t.TempDir(), "data")
	tokens := filepath.Join(data, "forge-tokens.json")
	ok(t, runCLI(t, data, "ghp_first\n", "pr", "login", "github.com"), "stored the token of github.com")

	t.Run("link to a dotfile", func(t *testing.T) {
		dot := filepath.Join(t.TempDir(), "tokens.json")
		os.Rename(tokens, dot)
		os.Symlink(dot, tokens)
		ok(t, runCLI(t, data, "glpat_x\n", "pr", "login", "gitlab.com"), "stored the token of gitlab.com")
		if fi, err := os.Lstat(tokens); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the link was replaced: %v %v", fi, err)
		}
		if got := tokensIn(t, dot); got["gitlab.com"] != "glpat_x" || got["github.com"] != "ghp_first" {
			t.Fatalf("the dotfile holds %v", got)
		}
		if fi, _ := os.Stat(dot); fi.Mode().Perm() != 0o600 {
			t.Fatalf("the dotfile's mode is %v", fi.Mode())
		}
		os.Remove(tokens)
		os.Rename(dot, tokens)
	})

	t.Run("link to /etc/passwd", func(t *testing.T) {
		aside := tokens + ".aside"
		os.Rename(tokens, aside)
		defer os.Rename(aside, tokens)
		before, _ := os.ReadFile("/etc/passwd")
		os.Symlink("/etc/passwd", tokens)
		fails(t, runCLI(t, data, "ghp_x\n", "pr", "login", "github.com"), 1, "is not the JSON Boof Runner writes")
		fails(t, runCLI(t, data, "", "pr", "logout", "github.com"), 1, "is not the JSON Boof Runner writes")
		if after, _ := os.ReadFile("/etc/passwd"); string(after) != string(before) {
			t.Fatal("/etc/passwd changed")
		}
		if fi, err := os.Lstat(tokens); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the link was replaced: %v %v", fi, err)
		}
		os.Remove(tokens)
	})

	t.Run("full disk", func(t *testing.T) {
		disk := smallDisk(t)
		on := filepath.Join(disk, "tokens.json")
		os.Rename(tokens, on) // across file systems: copy it
		if b, err := os.ReadFile(tokens); err == nil {
			os.WriteFile(on, b, 0o600)
		}
		before, _ := os.ReadFile(on)
		os.Remove(tokens)
		os.Symlink(on, tokens)
		defer func() { os.Remove(tokens); os.WriteFile(tokens, before, 0o600) }()
		fillDisk(t, disk)
		r := runCLI(t, data, "ghp_"+strings.Repeat("z", 2000)+"\n", "pr", "login", "github.com")
		fails(t, r, 1, "The disk is full, so nothing was saved")
		if after, _ := os.ReadFile(on); string(after) != string(before) {
			t.Fatalf("the token file changed on a full disk:\n%s", after)
		}
		if left := tempsBeside(on); len(left) > 0 {
			t.Fatalf("temporary files left: %v", left)
		}
	})

	for i, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String()+" while written", func(t *testing.T) {
			old := tokensIn(t, tokens)
			pause := filepath.Join(t.TempDir(), "paused")
			cmd := exec.Command(binary, "pr", "login", "github.com", "--data-dir", data)
			cmd.Env = append(os.Environ(), "BOOF_RUNNER_HOME=", failpoint.EnvVar+"="+atomicfile.FailBeforeRename+"forge-tokens.json=pause:"+pause)
			cmd.Stdin = strings.NewReader(fmt.Sprintf("ghp_new%d\n", i))
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			signalWhilePaused(t, cmd, pause, sig)
			got := tokensIn(t, tokens)
			if got["github.com"] != old["github.com"] && got["github.com"] != fmt.Sprintf("ghp_new%d", i) {
				t.Fatalf("after %v the token file holds %v (was %v); output: %s", sig, got, old, out.String())
			}
			if left := tempsBeside(tokens); len(left) > 0 {
				t.Fatalf("after %v a temporary copy of the tokens was left: %v; output: %s", sig, left, out.String())
			}
			ok(t, runCLI(t, data, fmt.Sprintf("ghp_again%d\n", i), "pr", "login", "github.com"), "stored the token of github.com")
			if got := tokensIn(t, tokens); got["github.com"] != fmt.Sprintf("ghp_again%d", i) {
				t.Fatalf("the second login stored %v", got)
			}
		})
	}
}
