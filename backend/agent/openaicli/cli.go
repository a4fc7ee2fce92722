// Package openaicli is what the adapters of the agent CLIs that talk to an
// OpenAI-compatible endpoint (opencode, Qwen Code) share: the environment a
// CLI process gets, finding its executable, and the health check (version,
// oldest version, smoke prompt, reachability). Each adapter keeps only what
// differs: its flags, its stream's parser, its homes and its smoke prompt's
// setup.
package openaicli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// CLI is one OpenAI-compatible agent CLI as an adapter runs it.
type CLI struct {
	// Label starts the adapter's error texts ("opencode", "qwen").
	Label string
	// Path is the executable: a path, or a name looked up in the PATH of
	// the effective environment.
	Path string
	// Runner starts every process of the CLI (nil: none can start).
	Runner *proc.Runner
	// Env is extra environment (KEY=VALUE) for every process, from
	// settings; a request's own is added after it.
	Env []string
	// PassEnv lists the variables of the app's environment handed to the
	// CLI (the runner passes nothing else but PATH, HOME, TERM and LANG).
	PassEnv []string
	// LookupEnv reads the app's environment.
	LookupEnv func(string) (string, bool)
	// TempDir holds the health check's scratch directories.
	TempDir string
}

// Environ returns the environment of a process of the CLI: the pass-through
// variables of the app, then Env, then extra (later entries win).
func (c *CLI) Environ(extra []string) []string {
	var env []string
	for _, k := range c.PassEnv {
		if v, ok := c.LookupEnv(k); ok && v != "" {
			env = append(env, k+"="+v)
		}
	}
	env = append(env, c.Env...)
	return append(env, extra...)
}

// Lookup returns the last value of key in env, else the app's.
func (c *CLI) Lookup(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	v, _ := c.LookupEnv(key)
	return v
}

// ResolveBin finds the executable as the runner will: Path itself when it
// holds a slash, else the first executable of that name in the PATH of env.
// It returns an error matching agent.ErrNotInstalled when there is none.
func (c *CLI) ResolveBin(env []string) (string, error) {
	bin := c.Path
	if strings.Contains(bin, "/") {
		if isExecutable(bin) {
			return bin, nil
		}
		return "", fmt.Errorf("%s: %s: %w", c.Label, bin, agent.ErrNotInstalled)
	}
	for _, d := range filepath.SplitList(c.Lookup(env, "PATH")) {
		if p := filepath.Join(d, bin); d != "" && isExecutable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %q not found in PATH: %w", c.Label, bin, agent.ErrNotInstalled)
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}
