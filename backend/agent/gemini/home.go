package gemini

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/filelock"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// A gemini step never runs with the user's ~/.gemini: gemini writes its
// sessions, history and project list there, and two processes sharing one
// corrupted a session file. Each worktree gets a config directory of its
// own in the data root, <StateDir>/homes/<hash of the worktree path>,
// handed to gemini as GEMINI_CLI_HOME (gemini's own variable for the
// directory holding .gemini/). It holds:
//
//   - .gemini/settings.json, ours: the auth type (security.auth.selectedType,
//     without which gemini -p exits 41), usage statistics off, no update
//     checks. The user's own settings (MCP servers and their secrets) are
//     not copied.
//   - .gemini/GEMINI.md, the step's role system prompt: gemini appends its
//     global memory file to its own system prompt, so this is how the role
//     instructions reach it (gemini has no --append-system-prompt).
//   - links to the user's login files (oauth_creds.json and the like) in
//     the user's gemini directory, when there are any: the login reaches
//     the step without a copy of the secret in the data root.
//   - gemini's own files: .gemini/tmp/<project>/chats/ (the sessions
//     --resume reads), history, projects.json.
//
// A step holds the directory's lock while it runs; a second step in the
// same worktree at the same time gets errHomeBusy instead of sharing it.

// loginFiles are the files of the user's gemini directory a login lives
// in: the OAuth tokens (plain and encrypted storage) and the account.
var loginFiles = []string{"oauth_creds.json", "gemini-credentials.json", "google_accounts.json"}

// The auth types of gemini's security.auth.selectedType.
const (
	authAPIKey = "gemini-api-key"
	authOAuth  = "oauth-personal"
	authVertex = "vertex-ai"
)

// errHomeBusy means another gemini step holds the worktree's config directory.
var errHomeBusy = errors.New("another gemini step is running in this worktree")

// home is one step's config directory (GEMINI_CLI_HOME).
type home struct {
	dir  string
	lock *os.File // held while the step runs; nil for a temporary home
	temp bool     // removed by close (health checks)
}

// homeConfig is what a step writes into its config directory.
type homeConfig struct {
	// system is the role system prompt, "" for none.
	system string
	// maxAttempts caps gemini's own retries of a model request (0 =
	// gemini's default, 10).
	maxAttempts int
}

// homeKey names a worktree's config directory: a hash of its path.
func homeKey(workdir string) string {
	sum := sha256.Sum256([]byte(workdir))
	return hex.EncodeToString(sum[:8])
}

// openHome locks and prepares the config directory of workdir (a
// temporary one when temp is set), for the environment env. It returns
// errHomeBusy (wrapped) when another step holds it.
func (t *Tool) openHome(workdir string, env []string, cfg homeConfig, temp bool) (*home, error) {
	h := &home{temp: temp}
	if temp {
		dir, err := os.MkdirTemp("", "boof-gemini-home-")
		if err != nil {
			return nil, fmt.Errorf("gemini config dir: %w", err)
		}
		h.dir = dir
	} else {
		h.dir = filepath.Join(t.opts.StateDir, "homes", homeKey(workdir))
		if err := os.MkdirAll(h.dir, 0o700); err != nil {
			return nil, fmt.Errorf("gemini config dir: %w", err)
		}
		lock, err := os.OpenFile(filepath.Join(h.dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return nil, fmt.Errorf("gemini config dir lock: %w", err)
		}
		if err := filelock.TryLock(lock); err != nil {
			lock.Close()
			if errors.Is(err, filelock.ErrLocked) {
				return nil, fmt.Errorf("gemini config dir %s: %w", h.dir, errHomeBusy)
			}
			return nil, fmt.Errorf("gemini config dir lock: %w", err)
		}
		h.lock = lock
	}
	if err := t.fillHome(h.dir, env, cfg); err != nil {
		h.close()
		return nil, err
	}
	return h, nil
}

// fillHome writes settings.json and GEMINI.md and links the login files.
func (t *Tool) fillHome(dir string, env []string, cfg homeConfig) error {
	g := filepath.Join(dir, ".gemini")
	if err := os.MkdirAll(g, 0o700); err != nil {
		return fmt.Errorf("gemini config dir: %w", err)
	}
	user := t.userGeminiDir(env)
	general := map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false}
	if cfg.maxAttempts > 0 {
		general["maxAttempts"] = cfg.maxAttempts
	}
	settings := map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": authType(env, user)}},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"general":  general,
	}
	b, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return fmt.Errorf("gemini settings: %w", err)
	}
	if err := writeFile(filepath.Join(g, "settings.json"), b); err != nil {
		return fmt.Errorf("gemini settings: %w", err)
	}
	memory := filepath.Join(g, "GEMINI.md")
	if cfg.system == "" {
		if err := os.Remove(memory); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("gemini system prompt: %w", err)
		}
	} else if err := writeFile(memory, []byte(cfg.system)); err != nil {
		return fmt.Errorf("gemini system prompt: %w", err)
	}
	return linkLogin(user, g)
}

// linkLogin links each login file of the user's gemini directory into g
// (replacing what g had under that name) and removes the names the user
// has no file for, so a login the user removed is gone here too.
func linkLogin(user, g string) error {
	for _, name := range loginFiles {
		dst := filepath.Join(g, name)
		src := ""
		if user != "" {
			if st, err := os.Stat(filepath.Join(user, name)); err == nil && st.Mode().IsRegular() {
				src = filepath.Join(user, name)
			}
		}
		if cur, err := os.Readlink(dst); err == nil && cur == src {
			continue
		}
		if err := os.Remove(dst); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("gemini login link: %w", err)
		}
		if src == "" {
			continue
		}
		if err := os.Symlink(src, dst); err != nil {
			return fmt.Errorf("gemini login link: %w", err)
		}
	}
	return nil
}

// writeFile replaces path with b atomically and durably (atomicfile), so a
// reader never sees half of it.
func writeFile(path string, b []byte) error {
	return atomicfile.WriteFile(path, b, 0o600)
}

// hasSession reports whether the directory holds a session id gemini can
// resume: its record (.gemini/tmp/<project>/chats/session-<time>-<first 8
// of the id>.jsonl) with at least one answer of the model in it. A run
// refused before any answer, by a usage limit say, leaves a record whose
// only turn gemini rolled back, and --resume of it fails ("Invalid session
// identifier", "No previous sessions found").
func (h *home) hasSession(id string) bool {
	if len(id) < 8 {
		return false
	}
	files, _ := filepath.Glob(filepath.Join(h.dir, ".gemini", "tmp", "*", "chats", "session-*-"+id[:8]+".json*"))
	for _, name := range files {
		b, err := userfile.ReadKept(name)
		if err == nil && bytes.Contains(b, []byte(`"sessionId":"`+id+`"`)) && bytes.Contains(b, []byte(`"type":"gemini"`)) {
			return true
		}
	}
	return false
}

// close releases the directory; a temporary one is removed.
func (h *home) close() {
	if h.lock != nil {
		_ = filelock.Unlock(h.lock)
		h.lock.Close()
		h.lock = nil
	}
	if h.temp {
		os.RemoveAll(h.dir)
	}
}

// env returns the variables that point gemini at the directory.
func (h *home) env() []string {
	// One process instead of two: gemini otherwise relaunches itself in
	// a child node process only to raise its heap limit.
	return []string{"GEMINI_CLI_HOME=" + h.dir, "GEMINI_CLI_NO_RELAUNCH=true"}
}

// userGeminiDir is the user's own gemini directory for env:
// $GEMINI_CLI_HOME/.gemini when set, else $HOME/.gemini; "" when neither
// is known. It is only ever read.
func (t *Tool) userGeminiDir(env []string) string {
	for _, k := range []string{"GEMINI_CLI_HOME", "HOME"} {
		v, ok := lookupEnv(env, k)
		if !ok {
			v = t.opts.Getenv(k)
		}
		if v != "" {
			return filepath.Join(v, ".gemini")
		}
	}
	return ""
}

// authType chooses security.auth.selectedType: the one the environment
// asks for (Vertex AI, Code Assist, an API key), else the user's own
// choice in their settings.json, else a Google login when the user has
// one, else the API key (gemini then says the key is missing).
func authType(env []string, user string) string {
	if v, _ := lookupEnv(env, "GOOGLE_GENAI_USE_VERTEXAI"); v == "true" {
		return authVertex
	}
	if v, _ := lookupEnv(env, "GOOGLE_GENAI_USE_GCA"); v == "true" {
		return authOAuth
	}
	if v, _ := lookupEnv(env, "GEMINI_API_KEY"); v != "" {
		return authAPIKey
	}
	if user == "" {
		return authAPIKey
	}
	if b, err := userfile.ReadKept(filepath.Join(user, "settings.json")); err == nil {
		var s struct {
			Security struct {
				Auth struct {
					SelectedType string `json:"selectedType"`
				} `json:"auth"`
			} `json:"security"`
		}
		if json.Unmarshal(b, &s) == nil && s.Security.Auth.SelectedType != "" {
			return s.Security.Auth.SelectedType
		}
	}
	for _, name := range loginFiles[:2] {
		if _, err := os.Stat(filepath.Join(user, name)); err == nil {
			return authOAuth
		}
	}
	return authAPIKey
}
