package worktree

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// The provisioning marker, <root>/.meta/<id>.provisioning.json, is written
// before every `git worktree add` of a task and removed after the meta
// sidecar: while it exists, the directory is a checkout that may have
// been cut short (thousands of files missing) and is never reused. It
// holds the base, so a rebuild knows it even when no meta was written.

func markerPath(root, taskID string) string {
	return filepath.Join(root, ".meta", taskID+".provisioning.json")
}

func writeMarker(root string, m Meta) error {
	return writeJSONFile(markerPath(root, m.TaskID), m)
}

func readMarker(root, taskID string) (Meta, bool, error) {
	data, err := userfile.ReadKept(markerPath(root, taskID))
	if errors.Is(err, os.ErrNotExist) {
		return Meta{}, false, nil
	}
	if err != nil {
		return Meta{}, false, fmt.Errorf("read provisioning record: %w", err)
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		// A torn marker still says provisioning did not complete.
		return Meta{TaskID: taskID}, true, nil
	}
	return m, true, nil
}

// incomplete says why the task's registered worktree cannot be trusted as
// a finished checkout, or "" when it can: the provisioning marker is still
// there, a removal of it was cut short, git's own "initializing" lock is
// still on it, it has no index, or (without a meta sidecar) an index.lock
// was left behind.
func (m *Manager) incomplete(wt Worktree, marked, metaOK bool) string {
	dir := wt.Dir
	if marked {
		return "its provisioning record is still there"
	}
	if _, removing := readRemoval(wt.Root, wt.TaskID); removing {
		return "a removal of it was cut short"
	}
	gitDir, err := gitDirOf(dir)
	if err != nil {
		return "it has no .git link"
	}
	if b, err := userfile.ReadKept(filepath.Join(gitDir, "locked")); err == nil && strings.TrimSpace(string(b)) == "initializing" {
		return "git's lock reason is \"initializing\""
	}
	if _, err := os.Stat(filepath.Join(gitDir, "index")); err != nil {
		return "it has no index"
	}
	if _, err := os.Stat(filepath.Join(gitDir, "index.lock")); err == nil && !metaOK {
		return "a stale index.lock and no meta sidecar"
	}
	return ""
}

// gitDirOf returns the git directory of the worktree at dir: the target of
// its .git file, or dir/.git when that is a directory.
func gitDirOf(dir string) (string, error) {
	p := filepath.Join(dir, ".git")
	fi, err := os.Lstat(p)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return p, nil
	}
	b, err := userfile.ReadKept(p)
	if err != nil {
		return "", err
	}
	line := strings.TrimSpace(string(b))
	if !strings.HasPrefix(line, "gitdir: ") {
		return "", fmt.Errorf("%s is not a gitdir link", p)
	}
	g := strings.TrimPrefix(line, "gitdir: ")
	if !filepath.IsAbs(g) {
		g = filepath.Join(dir, g)
	}
	return g, nil
}

// discard removes the task's half-built worktree: the directory and git's
// registration of it, locked or not. It holds nothing but files of a
// checkout that never finished (no step ran in it), so nothing is lost.
func (m *Manager) discard(ctx context.Context, wt Worktree) error {
	_, _ = m.git.Run(ctx, wt.Repo, "worktree", "unlock", "--", wt.Dir)
	if _, err := m.git.Run(ctx, wt.Repo, "worktree", "remove", "--force", "--force", "--", wt.Dir); err == nil {
		return nil
	}
	if err := os.RemoveAll(wt.Dir); err != nil {
		return fmt.Errorf("provision: remove half-built worktree: %w", err)
	}
	if _, err := m.git.Run(ctx, wt.Repo, "worktree", "prune"); err != nil {
		return fmt.Errorf("provision: prune worktrees: %w", err)
	}
	return nil
}

// discardHalfBuilt handles a path that exists where a new checkout goes.
// When the provisioning marker says our own `worktree add` was cut short
// there and the path is empty or a checkout of this repository, it is
// discarded; anything else is left untouched with ErrUnregisteredDir.
func (m *Manager) discardHalfBuilt(ctx context.Context, wt Worktree, log Logf) error {
	unregistered := fmt.Errorf("provision %s: %w", wt.Dir, ErrUnregisteredDir)
	if _, marked, err := readMarker(wt.Root, wt.TaskID); err != nil || !marked {
		return unregistered
	}
	ours := false
	if ents, err := os.ReadDir(wt.Dir); err == nil && len(ents) == 0 {
		ours = true
	} else if gd, err := gitDirOf(wt.Dir); err == nil {
		common, cerr := m.git.CommonDir(ctx, wt.Repo)
		if _, in := within(realPath(filepath.Join(common, "worktrees")), realPath(gd)); cerr == nil && in {
			ours = true
		}
	}
	if !ours {
		return unregistered
	}
	log(task.LevelWarn, "worktree %s did not finish provisioning: removing the half-built checkout", wt.Dir)
	return m.discard(ctx, wt)
}

// clearStaleIndexLock removes the index.lock of the worktree at dir when
// no process holds it open: a git command killed with the app left it,
// and every later git command in the worktree would fail on it.
func clearStaleIndexLock(dir string, log Logf) error {
	gitDir, err := gitDirOf(dir)
	if err != nil {
		return nil
	}
	lock := filepath.Join(gitDir, "index.lock")
	if _, err := os.Lstat(lock); err != nil {
		return nil
	}
	holders, err := proc.Holders(lock)
	if err != nil || len(holders) > 0 {
		return nil
	}
	if err := os.Remove(lock); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove stale index.lock: %w", err)
	}
	log(task.LevelInfo, "removed a stale %s left by a git command that was killed", lock)
	return nil
}

// The removal marker, <root>/.meta/<id>.removing.json, is written after
// the leftovers are saved and before the directory is removed, and dropped
// once it is gone: a clean-up finished after a crash then knows that the
// directory may be half deleted and that its leftovers are already saved,
// and never records missing files as deletions.
type removal struct {
	LeftoversBranch string `json:"leftoversBranch,omitempty"`
	LeftoversSHA    string `json:"leftoversSha,omitempty"`
}

func removalPath(root, taskID string) string {
	return filepath.Join(root, ".meta", taskID+".removing.json")
}

func writeRemoval(root, taskID string, r removal) error {
	return writeJSONFile(removalPath(root, taskID), r)
}

func readRemoval(root, taskID string) (removal, bool) {
	data, err := userfile.ReadKept(removalPath(root, taskID))
	if err != nil {
		return removal{}, false
	}
	var r removal
	_ = json.Unmarshal(data, &r) // a torn marker still says a removal began
	return r, true
}

// lockedByUser reports whether the worktree at dir carries a lock other
// than git's own "initializing" one.
func lockedByUser(dir string) bool {
	gitDir, err := gitDirOf(dir)
	if err != nil {
		return false
	}
	b, err := userfile.ReadKept(filepath.Join(gitDir, "locked"))
	return err == nil && strings.TrimSpace(string(b)) != "initializing"
}
