//go:build unix

package forge_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/forge"
)

var ghProject = forge.Project{Kind: forge.GitHub, Host: "github.com", Path: "o/r", TokenEnv: "GITHUB_TOKEN"}

// Without a Secret Service a token goes to the token file, mode 0600;
// the environment wins over it; Remove forgets it.
func TestTokensFileFallback(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "forge-tokens.json")
	env := map[string]string{}
	tk := forge.Tokens{Getenv: func(k string) string { return env[k] }, File: file,
		Keyring: &forge.Keyring{Address: "unix:path=" + filepath.Join(t.TempDir(), "no-bus")}}
	var nt *forge.NoTokenError
	if _, _, err := tk.Lookup(ctx, ghProject); !errors.As(err, &nt) || nt.Env != "GITHUB_TOKEN" {
		t.Fatalf("no token: %v", err)
	}
	src, err := tk.Store(ctx, "GitHub.com", "ghp_fromfile")
	if err != nil || src.Kind != "file" || src.Name != file {
		t.Fatalf("store: %+v %v", src, err)
	}
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode: %v %v", fi.Mode(), err)
	}
	if tok, src, err := tk.Lookup(ctx, ghProject); err != nil || tok != "ghp_fromfile" || src.Kind != "file" {
		t.Fatalf("lookup from the file: %q %+v %v", tok, src, err)
	}
	env["GITHUB_TOKEN"] = "ghp_fromenv"
	if tok, src, err := tk.Lookup(ctx, ghProject); err != nil || tok != "ghp_fromenv" || src.String() != "GITHUB_TOKEN" {
		t.Fatalf("lookup from the environment: %q %+v %v", tok, src, err)
	}
	delete(env, "GITHUB_TOKEN")
	if removed, err := tk.Remove(ctx, "github.com"); err != nil || !removed {
		t.Fatalf("remove: %v %v", removed, err)
	}
	if removed, err := tk.Remove(ctx, "github.com"); err != nil || removed {
		t.Fatalf("remove again: %v %v, want nothing removed", removed, err)
	}
	if _, _, err := tk.Lookup(ctx, ghProject); !errors.As(err, &nt) {
		t.Fatalf("after remove: %v", err)
	}
	for _, bad := range []string{"two words", "ghp_\x00abc", "ghp_\x1b[31m", "ghp_é", strings.Repeat("a", 5000)} {
		if _, err := tk.Store(ctx, "github.com", bad); !errors.Is(err, forge.ErrBadToken) {
			t.Fatalf("token %q: %v, want ErrBadToken", bad, err)
		}
	}
	var bh *forge.BadHostError
	for _, host := range []string{"", "ho\x1b[2Jst", "https://github.com/x", "../../etc", strings.Repeat("a", 300)} {
		if _, err := tk.Store(ctx, host, "ghp_ok"); !errors.As(err, &bh) {
			t.Fatalf("host %q: %v, want a BadHostError", host, err)
		}
	}
}

// With a Secret Service (a real gnome-keyring-daemon on a bus of the
// test's own) the token is stored there, not in the file, and read back.
func TestTokensKeyring(t *testing.T) {
	addr := secretService(t)
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "forge-tokens.json")
	tk := forge.Tokens{Getenv: func(string) string { return "" }, File: file, Keyring: &forge.Keyring{Address: addr}}
	src, err := tk.Store(ctx, "github.com", "ghp_inthekeyring")
	if err != nil || src.Kind != "keyring" {
		t.Fatalf("store: %+v %v", src, err)
	}
	if b, err := os.ReadFile(file); err == nil && strings.Contains(string(b), "ghp_") {
		t.Fatalf("the token is in the file too: %s", b)
	}
	if tok, src, err := tk.Lookup(ctx, ghProject); err != nil || tok != "ghp_inthekeyring" || src.Kind != "keyring" {
		t.Fatalf("lookup: %q %+v %v", tok, src, err)
	}
	if _, err := tk.Store(ctx, "github.com", "ghp_replaced"); err != nil {
		t.Fatal(err)
	}
	if tok, _, _ := tk.Lookup(ctx, ghProject); tok != "ghp_replaced" {
		t.Fatalf("after replace: %q", tok)
	}
	if removed, err := tk.Remove(ctx, "github.com"); err != nil || !removed {
		t.Fatalf("remove: %v %v", removed, err)
	}
	var nt *forge.NoTokenError
	if _, _, err := tk.Lookup(ctx, ghProject); !errors.As(err, &nt) {
		t.Fatalf("after remove: %v", err)
	}
	// A token file written earlier (when no keyring ran) is read too.
	os.WriteFile(file, mustJSON(t, map[string]any{"tokens": map[string]string{"github.com": "ghp_old"}}), 0o600)
	if tok, src, err := tk.Lookup(ctx, ghProject); err != nil || tok != "ghp_old" || src.Kind != "file" {
		t.Fatalf("file beside the keyring: %q %+v %v", tok, src, err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// secretService starts a private session bus and GNOME Keyring's secrets
// component on it (its login keyring unlocked with a password on stdin),
// both ended with the test, and returns the bus address.
func secretService(t *testing.T) string {
	t.Helper()
	daemon, err := exec.LookPath("gnome-keyring-daemon")
	if err != nil {
		t.Skip("gnome-keyring-daemon is not installed (scripts/deps-apt.sh installs it)")
	}
	home := t.TempDir()
	bus := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address")
	out, _ := bus.StdoutPipe()
	bus.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := bus.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-bus.Process.Pid, syscall.SIGTERM); _ = bus.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimSpace(line)
	kr := exec.Command(daemon, "--foreground", "--unlock", "--components=secrets")
	kr.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+addr, "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_RUNTIME_DIR="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"))
	kr.Stdin = strings.NewReader("test-password")
	kr.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := kr.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-kr.Process.Pid, syscall.SIGTERM); _ = kr.Wait() })
	k := forge.Keyring{Address: addr}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := k.Get(context.Background(), "probe"); err == nil {
			return addr
		} else if time.Now().After(deadline) {
			t.Fatalf("the Secret Service did not start: %v", err)
		}
	}
}
