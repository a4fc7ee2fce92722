package opencode

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/boof-runner/boof-runner/backend/filelock"
)

// Provider is the opencode provider id of the OpenAI-compatible endpoint
// that OPENAI_BASE_URL names: a model "M" of a role runs as Provider+"/M".
const Provider = "boof"

// Errors of a step's configuration; Start wraps them.
var (
	// ErrBadModel means the model id is not usable as an opencode model.
	ErrBadModel = errors.New("invalid model id")
	// ErrBadSession means a resume session id is not an opencode session id.
	ErrBadSession = errors.New("invalid session id")
	// ErrSessionBusy means another run continues the session right now.
	ErrSessionBusy = errors.New("session is in use by another run")
)

// modelRe accepts "provider/model" ids such as "anthropic/claude-sonnet-4-5"
// or "openrouter/qwen/qwen3-coder:free", and bare model ids.
var modelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,191}$`) })

// sessionRe accepts opencode session ids ("ses_" and base62).
var sessionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ses_[A-Za-z0-9]{1,64}$`) })

// stateDir is where opencode's config home and the session locks live for
// a process with env.
func (t *Tool) stateDir(env []string) (string, error) {
	if t.opts.StateDir != "" {
		return t.opts.StateDir, nil
	}
	if x := t.cli().Lookup(env, "XDG_STATE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "boof-runner", Name), nil
	}
	if h := t.cli().Lookup(env, "HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "boof-runner", Name), nil
	}
	return "", errors.New("opencode: no directory for its config home: set HOME or XDG_STATE_HOME")
}

// userConfigHome is the user's XDG config home for env ("" when unknown).
func (t *Tool) userConfigHome(env []string) string {
	if x := t.cli().Lookup(env, "XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return x
	}
	if h := t.cli().Lookup(env, "HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".config")
	}
	return ""
}

// configHome prepares the XDG config home opencode runs with, state/config:
// opencode writes into its config directory at every start (a .gitignore,
// an npm install of its plugin package), so it gets one of its own instead
// of the user's ~/.config/opencode. Every other entry of the user's config
// home is linked in, so the programs the agent runs (git, go, gh…) read
// the user's configuration as before.
func (t *Tool) configHome(env []string, state string) (string, error) {
	dir := filepath.Join(state, "config")
	if err := os.MkdirAll(filepath.Join(dir, Name), 0o700); err != nil {
		return "", fmt.Errorf("opencode config home: %w", err)
	}
	user := t.userConfigHome(env)
	if user == "" || user == dir {
		return dir, nil
	}
	ents, err := os.ReadDir(user)
	if err != nil {
		return dir, nil // no config home of the user's: nothing to link
	}
	for _, e := range ents {
		if e.Name() == Name {
			continue
		}
		link := filepath.Join(dir, e.Name())
		target := filepath.Join(user, e.Name())
		if cur, err := os.Readlink(link); err == nil && cur == target {
			continue
		}
		_ = os.Remove(link) // a stale link; never a directory of ours (Remove fails on one that is not empty)
		if err := os.Symlink(target, link); err != nil && !errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("opencode config home: %w", err)
		}
	}
	return dir, nil
}

// userConfigFile is the user's own opencode config file, whose providers
// and settings a step keeps (see ownConfigs): the first of opencode.jsonc,
// opencode.json and config.json in the user's config home. "" when there
// is none.
func (t *Tool) userConfigFile(env []string) string {
	user := t.userConfigHome(env)
	if user == "" {
		return ""
	}
	for _, n := range []string{"opencode.jsonc", "opencode.json", "config.json"} {
		p := filepath.Join(user, Name, n)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// configParams are the inputs of configContent.
type configParams struct {
	// user is the user's own config, laid under the step's (nil = none).
	user map[string]any
	// endpoint declares the provider of OPENAI_BASE_URL with models.
	endpoint bool
	models   []string
	// instructions is the file holding the role's system prompt ("" = none).
	instructions string
	readOnly     bool
}

// configContent is the config opencode takes from OPENCODE_CONFIG_CONTENT:
// the user's own config with the step's laid over it: no update checks,
// sharing or worktree snapshots
// (the pipeline keeps the work on its branch), the role's system prompt as
// an instructions file, edits denied to a read-only role (its shell still
// runs tests; what it changes the pipeline reverts), and the endpoint's
// provider, whose URL and key opencode reads from the environment
// ({env:…}), so no key is ever written down.
func configContent(p configParams) ([]byte, error) {
	c := map[string]any{
		"$schema":    "https://opencode.ai/config.json",
		"autoupdate": false,
		"share":      "disabled",
		"snapshot":   false,
	}
	if p.instructions != "" {
		c["instructions"] = []string{p.instructions}
	}
	if p.readOnly {
		c["permission"] = map[string]any{"edit": "deny"}
	}
	if p.endpoint {
		models := map[string]any{}
		for _, m := range p.models {
			models[m] = map[string]any{"name": m}
		}
		c["provider"] = map[string]any{Provider: map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "Boof Runner endpoint (OPENAI_BASE_URL)",
			"options": map[string]any{"baseURL": "{env:OPENAI_BASE_URL}", "apiKey": "{env:OPENAI_API_KEY}"},
			"models":  models,
		}}
	}
	if p.user != nil {
		c = merge(p.user, c)
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("opencode config: %w", err)
	}
	return b, nil
}

// resolveModel returns the -m value for model ("" = opencode's own
// default) and the endpoint models to declare. A "provider/model" id is
// passed as it is; a bare id runs on the endpoint of OPENAI_BASE_URL, and
// without a model the endpoint's OPENAI_MODEL does. It returns ErrBadModel
// (wrapped) for an id opencode cannot take.
func resolveModel(model string, endpoint bool, envModel string, configured []string) (string, []string, error) {
	var declare []string
	add := func(id string) {
		id = strings.TrimPrefix(strings.TrimSpace(id), Provider+"/")
		if id != "" && modelRe().MatchString(id) && !strings.Contains(id, " ") {
			for _, d := range declare {
				if d == id {
					return
				}
			}
			declare = append(declare, id)
		}
	}
	if model != "" && !modelRe().MatchString(model) {
		return "", nil, fmt.Errorf("%w: %q", ErrBadModel, model)
	}
	arg := model
	switch {
	case model == "" && endpoint && envModel != "":
		arg = Provider + "/" + envModel
	case model != "" && !strings.Contains(model, "/"):
		if !endpoint {
			return "", nil, fmt.Errorf("%w: %q: opencode models are PROVIDER/MODEL (anthropic/claude-sonnet-4-5), "+
				"or set OPENAI_BASE_URL in tools.opencode.env to run MODEL on an OpenAI-compatible endpoint", ErrBadModel, model)
		}
		arg = Provider + "/" + model
	}
	if endpoint {
		if strings.HasPrefix(arg, Provider+"/") {
			add(arg)
		}
		add(envModel)
		for _, m := range configured {
			if !strings.Contains(strings.TrimPrefix(m, Provider+"/"), "/") || strings.HasPrefix(m, Provider+"/") {
				add(m)
			}
		}
	}
	return arg, declare, nil
}

// lockSession holds a resumed session for one run, so two runs never
// continue one session at once. It returns ErrBadSession or ErrSessionBusy
// (wrapped), and the release.
func lockSession(state, session string) (func(), error) {
	if !sessionRe().MatchString(session) {
		return nil, fmt.Errorf("%w: %q", ErrBadSession, session)
	}
	dir := filepath.Join(state, "locks")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("opencode session lock: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, session+".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opencode session lock: %w", err)
	}
	if err := filelock.TryLock(f); err != nil {
		f.Close()
		if errors.Is(err, filelock.ErrLocked) {
			return nil, fmt.Errorf("opencode session %s: %w", session, ErrSessionBusy)
		}
		return nil, fmt.Errorf("opencode session lock: %w", err)
	}
	return func() {
		_ = filelock.Unlock(f)
		f.Close()
	}, nil
}
