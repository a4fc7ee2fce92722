package qwen

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/boof-runner/boof-runner/backend/filelock"
)

// Errors of a session's home; Start wraps them.
var (
	// ErrBadSession means a resume session id is not one this adapter made.
	ErrBadSession = errors.New("invalid session id")
	// ErrSessionGone means the home of the session to resume is missing.
	ErrSessionGone = errors.New("session not found")
	// ErrSessionBusy means another run uses the session right now.
	ErrSessionBusy = errors.New("session is in use by another run")
)

// sessionRe accepts the session ids qwen takes with --session-id: UUIDs.
var sessionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
})

// settingsJSON is the settings.json of every session home: no usage
// statistics, telemetry, update checks or background memory extraction (an
// extra model call per turn that writes memory files), and chat recording
// on so the session can be resumed.
var settingsJSON = []byte(`{
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false },
  "general": { "enableAutoUpdate": false, "chatRecording": true },
  "memory": { "enableManagedAutoMemory": false, "enableManagedAutoDream": false }
}
`)

// home is the QWEN_HOME of one session, locked for one run.
type home struct {
	dir  string
	lock *os.File
}

// homesDir is where the session homes live for a process with env.
func (t *Tool) homesDir(env []string) (string, error) {
	if t.opts.HomesDir != "" {
		return t.opts.HomesDir, nil
	}
	if x := t.cli().Lookup(env, "XDG_STATE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "boof-runner", Name), nil
	}
	if h := t.cli().Lookup(env, "HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "boof-runner", Name), nil
	}
	return "", errors.New("qwen: no home directory for the session files: set HOME or XDG_STATE_HOME")
}

// openHome returns the locked home of session in base: created for a new
// session, which must not exist yet, or the existing one of a session to
// resume. It returns ErrBadSession, ErrSessionGone or ErrSessionBusy
// (wrapped) when the session cannot be used.
func openHome(base, session string, resume bool) (*home, error) {
	if !sessionRe().MatchString(session) {
		return nil, fmt.Errorf("%w: %q", ErrBadSession, session)
	}
	dir := filepath.Join(base, session)
	if resume {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("qwen session %s: %w (its home %s is gone)", session, ErrSessionGone, dir)
		}
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("qwen session home: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, ".boof-run.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("qwen session home: %w", err)
	}
	if err := filelock.TryLock(f); err != nil {
		f.Close()
		if errors.Is(err, filelock.ErrLocked) {
			return nil, fmt.Errorf("qwen session %s: %w", session, ErrSessionBusy)
		}
		return nil, fmt.Errorf("qwen session lock: %w", err)
	}
	h := &home{dir: dir, lock: f}
	// Written at every run, so a changed default reaches old sessions too.
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), settingsJSON, 0o600); err != nil {
		h.close()
		return nil, fmt.Errorf("qwen session settings: %w", err)
	}
	return h, nil
}

// close releases the run's hold on the home.
func (h *home) close() {
	_ = filelock.Unlock(h.lock)
	h.lock.Close()
}

// newSessionID returns a random (version 4) UUID.
func newSessionID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("qwen session id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}
