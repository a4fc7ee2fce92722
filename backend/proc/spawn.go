package proc

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Start spawns s.Path in a new PTY (raw mode, window s.Cols x s.Rows) in
// its own session and process group and returns its handle. Canceling ctx
// later stops the child with ReasonCanceled.
//
// Start returns an error wrapping ErrInvalidSpec for a bad spec (missing
// Dir or Path, unknown Stdin mode, negative limits), ErrRunnerClosed after
// Shutdown, ctx.Err() when ctx is already done, and the underlying error
// when the executable cannot be found or started or the transcript cannot
// be opened. On error nothing is left running.
func (r *Runner) Start(ctx context.Context, s Spec) (*Handle, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("start: %w", ErrRunnerClosed)
	}
	env, path, err := r.prepare(&s)
	if err != nil {
		return nil, err
	}
	var transcript *os.File
	created := false
	if s.TranscriptPath != "" {
		if err := os.MkdirAll(filepath.Dir(s.TranscriptPath), 0o700); err != nil {
			return nil, fmt.Errorf("start: transcript dir: %w", err)
		}
		_, statErr := os.Lstat(s.TranscriptPath)
		created = errors.Is(statErr, fs.ErrNotExist)
		transcript, err = os.OpenFile(s.TranscriptPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("start: transcript: %w", err)
		}
	}
	h, err := r.spawn(s, path, env, transcript)
	if err != nil {
		if transcript != nil {
			transcript.Close()
			if created {
				os.Remove(s.TranscriptPath)
			}
		}
		return nil, err
	}
	go h.supervise(ctx)
	return h, nil
}

// prepare validates s, fills its defaults and returns the child's
// environment and resolved executable path.
func (r *Runner) prepare(s *Spec) ([]string, string, error) {
	switch {
	case s.Path == "":
		return nil, "", fmt.Errorf("start: %w: empty path", ErrInvalidSpec)
	case s.Dir == "":
		return nil, "", fmt.Errorf("start: %w: empty dir", ErrInvalidSpec)
	case s.Stdin < StdinNull || s.Stdin > StdinPTY:
		return nil, "", fmt.Errorf("start: %w: stdin mode %d", ErrInvalidSpec, int(s.Stdin))
	case s.IdleTimeout < 0 || s.MaxRuntime < 0 || s.OutputLimit < 0 || s.Grace < 0:
		return nil, "", fmt.Errorf("start: %w: negative limit", ErrInvalidSpec)
	}
	for _, kv := range s.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" || strings.IndexByte(kv, 0) >= 0 {
			return nil, "", fmt.Errorf("start: %w: env entry %q", ErrInvalidSpec, kv)
		}
	}
	if st, err := os.Stat(s.Dir); err != nil {
		return nil, "", fmt.Errorf("start: dir: %w", err)
	} else if !st.IsDir() {
		return nil, "", fmt.Errorf("start: %w: %s is not a directory", ErrInvalidSpec, s.Dir)
	}
	if s.Cols == 0 {
		s.Cols = DefaultCols
	}
	if s.Rows == 0 {
		s.Rows = DefaultRows
	}
	if s.Grace == 0 {
		s.Grace = DefaultGrace
	}
	env := mergeEnv(s.Env, r.opts.BaseEnv)
	path, err := lookPath(s.Path, s.Dir, envValue(env, "PATH"))
	if err != nil {
		return nil, "", fmt.Errorf("start: %w", err)
	}
	return env, path, nil
}

// mergeEnv returns explicit (the last entry of a repeated key wins, at
// the position of its first) plus the base entries whose keys explicit
// does not set. A caller-supplied TagEnv is dropped: Start sets its own.
func mergeEnv(explicit, base []string) []string {
	idx := make(map[string]int, len(explicit)+len(base))
	out := make([]string, 0, len(explicit)+len(base)+1)
	add := func(kv string, override bool) {
		k, _, _ := strings.Cut(kv, "=")
		if k == TagEnv {
			return
		}
		if i, ok := idx[k]; ok {
			if override {
				out[i] = kv
			}
			return
		}
		idx[k] = len(out)
		out = append(out, kv)
	}
	for _, kv := range explicit {
		add(kv, true)
	}
	for _, kv := range base {
		add(kv, false)
	}
	return out
}

func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, _ := strings.Cut(env[i], "="); k == key {
			return v
		}
	}
	return ""
}
