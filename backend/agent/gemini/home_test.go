package gemini

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// snapshot is every file under dir with its mode, modification time and
// content hash: equal snapshots mean nothing there changed.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		sum := ""
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum = fmt.Sprintf("%x", sha256.Sum256(data))
		}
		fmt.Fprintf(&b, "%s %s %d %s\n", p, info.Mode(), info.ModTime().UnixNano(), sum)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// userGemini makes a user's ~/.gemini with a Google login, settings that
// choose it and an MCP server holding a secret; it returns the home.
func userGemini(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	g := filepath.Join(home, ".gemini")
	if err := os.MkdirAll(g, 0o700); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"settings.json":    `{"security":{"auth":{"selectedType":"oauth-personal"}},"mcpServers":{"x":{"env":{"TOKEN":"mcp-secret-value"}}}}`,
		"oauth_creds.json": `{"access_token":"oauth-secret-value","refresh_token":"oauth-refresh-value"}`,
		"GEMINI.md":        "the user's own memory",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(g, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// settingsOf reads a config directory's settings.json.
func settingsOf(t *testing.T, home string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, ".gemini", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func selectedType(m map[string]any) string {
	return m["security"].(map[string]any)["auth"].(map[string]any)["selectedType"].(string)
}

// A user logged in with Google: the step's config directory selects that
// login and links its token file, so the login reaches gemini, while the
// user's ~/.gemini is left exactly as it was and no secret of it (token,
// MCP server env) is written into the data root.
func TestConfigDirUsesTheUsersLoginWithoutCopyingIt(t *testing.T) {
	userHome := userGemini(t)
	before := snapshot(t, userHome)
	tool, rec := fakeCLI(t, "success", "0", map[string]string{"HOME": userHome})
	res, _ := runFake(t, tool, agent.Request{Prompt: "go", SystemPrompt: "You review."})
	if res.Failed() {
		t.Fatalf("result %+v", res)
	}
	home := readEnv(t, rec)["GEMINI_CLI_HOME"]
	set := settingsOf(t, home)
	if selectedType(set) != authOAuth || set["privacy"].(map[string]any)["usageStatisticsEnabled"] != false {
		t.Errorf("settings %v", set)
	}
	link, err := os.Readlink(filepath.Join(home, ".gemini", "oauth_creds.json"))
	if err != nil || link != filepath.Join(userHome, ".gemini", "oauth_creds.json") {
		t.Errorf("login link %q %v", link, err)
	}
	if after := snapshot(t, userHome); after != before {
		t.Errorf("the user's ~/.gemini changed:\n%s\nwas\n%s", after, before)
	}
	err = filepath.WalkDir(tool.opts.StateDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, secret := range []string{"oauth-secret-value", "oauth-refresh-value", "mcp-secret-value"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s holds the user's secret %q", p, secret)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An API key in the environment wins over the user's settings; without
// any login the API key is chosen (gemini then names the missing key);
// a login file the user removed is unlinked; a step without a system
// prompt leaves no GEMINI.md behind.
func TestConfigDirAuthChoice(t *testing.T) {
	userHome := userGemini(t)
	tool := New(Options{StateDir: t.TempDir(), Getenv: func(k string) string {
		if k == "HOME" {
			return userHome
		}
		return ""
	}})
	dir := t.TempDir()
	open := func(env []string, system string) string {
		t.Helper()
		h, err := tool.openHome(dir, env, homeConfig{system: system}, false)
		if err != nil {
			t.Fatal(err)
		}
		h.close()
		return h.dir
	}
	home := open([]string{"GEMINI_API_KEY=k"}, "sys")
	if got := selectedType(settingsOf(t, home)); got != authAPIKey {
		t.Errorf("with a key: %s", got)
	}
	if got := selectedType(settingsOf(t, open([]string{"GOOGLE_GENAI_USE_VERTEXAI=true"}, ""))); got != authVertex {
		t.Errorf("vertex: %s", got)
	}
	if _, err := os.Stat(filepath.Join(home, ".gemini", "GEMINI.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("GEMINI.md left without a system prompt: %v", err)
	}
	if err := os.Remove(filepath.Join(userHome, ".gemini", "oauth_creds.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(userHome, ".gemini", "settings.json")); err != nil {
		t.Fatal(err)
	}
	if got := selectedType(settingsOf(t, open(nil, ""))); got != authAPIKey {
		t.Errorf("no login: %s", got)
	}
	if _, err := os.Lstat(filepath.Join(home, ".gemini", "oauth_creds.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the removed login is still linked: %v", err)
	}
}

// Two steps never share a config directory: while one runs in a
// worktree, a second one there is refused with a clear error (and leaves
// the first's directory alone); once the first ends the second may run.
func TestConfigDirIsOneStepAtATime(t *testing.T) {
	tool, _ := fakeCLI(t, "success", "0", nil)
	hang := filepath.Join(t.TempDir(), "hang.sh")
	if err := os.WriteFile(hang, []byte("#!/bin/sh\nsleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	slow := New(tool.opts)
	slow.opts.Path = hang
	dir := t.TempDir()
	first, err := slow.Start(context.Background(), agent.Request{Prompt: "go", Dir: dir, Grace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tool.Start(context.Background(), agent.Request{Prompt: "go", Dir: dir})
	if !errors.Is(err, errHomeBusy) || !strings.Contains(err.Error(), "another gemini step is running in this worktree") {
		t.Fatalf("second start: %v", err)
	}
	first.Stop(proc.ReasonStopped)
	if _, err := first.Wait(); err != nil {
		t.Fatal(err)
	}
	if res, _ := runFake(t, tool, agent.Request{Prompt: "go", Dir: dir}); res.Failed() {
		t.Fatalf("after the first ended: %+v", res)
	}
}
