package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
)

// FailProvisioned is the failpoint between `git worktree add` and the meta
// sidecar that commits the provisioning.
const FailProvisioned = "provision:added"

// NotGitWarning is the warning recorded on a task whose working directory
// is not a git repository.
const NotGitWarning = "working directory is not a git repository: the task runs without worktree isolation " +
	"(no task branch, no diff, no leftovers branch; agents write directly into the directory)"

// Request asks for a task's worktree.
type Request struct {
	// Repo is the task's working directory.
	Repo string
	// TaskID names the branch boof-runner/<TaskID> and the directory <Root>/<TaskID>.
	TaskID string
	// Base is the optional branch or commit to start from ("" = HEAD).
	Base string
	// Root is the worktree.root setting ("" = <Repo>/.boof-runner-worktrees).
	Root string
}

// Worktree is where a task runs.
type Worktree struct {
	// Isolated is false when Repo is not a git repository; then Dir and
	// WorkDir are the working directory itself and Warning says so.
	Isolated bool `json:"isolated"`
	// Dir is the worktree's top directory.
	Dir string `json:"dir"`
	// WorkDir is where agents run: Dir plus the working directory's path
	// inside its repository.
	WorkDir string `json:"workDir"`
	// Branch is the task branch name (without refs/heads/).
	Branch string `json:"branch"`
	// BaseRef is the base as the user gave it ("HEAD" when none was given).
	BaseRef string `json:"baseRef"`
	// BaseSHA is the commit every diff of the task is taken against.
	BaseSHA string `json:"baseSha"`
	// Reused is true when an existing task branch was picked up (a retry).
	Reused bool `json:"reused"`
	// Repo is the main repository's top directory.
	Repo string `json:"repo"`
	// Root is the resolved worktree root.
	Root string `json:"root"`
	// TaskID is the task's id.
	TaskID string `json:"taskId"`
	// Warning is set when the task runs without isolation.
	Warning string `json:"warning,omitempty"`
}

// Provision gives the task its worktree: a new branch boof-runner/<id> at
// the base in <root>/<id>, or, when that branch exists (a retry), the
// existing branch in its existing or rebuilt directory, ignoring Base.
// It returns *UnknownBaseError before creating anything when Base names no
// commit, ErrUnregisteredDir (touching nothing) when a foreign directory
// occupies the path, ErrBranchInUse, ErrNoCommits, ErrBadTaskID,
// ErrBadRoot, ErrNoWorkDir, or a wrapped gitx error. A working directory
// that is not a git repository gives an unisolated Worktree with Warning.
func (m *Manager) Provision(ctx context.Context, r Request, log Logf) (Worktree, error) {
	if err := CheckTaskID(r.TaskID); err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	if r.Base != "" {
		if err := gitx.CheckRev(r.Base); err != nil {
			return Worktree{}, &UnknownBaseError{Base: r.Base, Dir: r.Repo}
		}
	}
	if abs, err := filepath.Abs(r.Repo); err == nil {
		r.Repo = abs
	}
	if fi, err := os.Stat(r.Repo); err != nil || !fi.IsDir() {
		return Worktree{}, fmt.Errorf("provision %s: %w", r.Repo, ErrNoWorkDir)
	}
	info, err := m.git.Info(ctx, r.Repo)
	if errors.Is(err, gitx.ErrNotARepo) {
		if r.Base != "" {
			return Worktree{}, &UnknownBaseError{Base: r.Base, Dir: r.Repo}
		}
		log(task.LevelWarn, "WARNING: %s", NotGitWarning)
		return Worktree{Dir: r.Repo, WorkDir: r.Repo, Repo: r.Repo, TaskID: r.TaskID, Warning: NotGitWarning}, nil
	}
	if err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	top, prefix, common := info.TopLevel, info.Prefix, info.CommonDir
	root, err := m.ResolveRoot(r.Repo, r.Root)
	if err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	root = realPath(root)
	if err := checkRootPlace(root, top, common); err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	wt := Worktree{
		Isolated: true,
		Dir:      filepath.Join(root, r.TaskID),
		Branch:   BranchName(r.TaskID),
		Repo:     top,
		Root:     root,
		TaskID:   r.TaskID,
	}
	wt.WorkDir = filepath.Join(wt.Dir, prefix)

	unlock, err := m.git.LockCommonDir(ctx, common)
	if err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	defer unlock()
	// Another process creating a worktree of this repository at the same
	// moment can make git fail reading its half-written registration; the
	// provisioning marker makes trying again safe (a branch the failed
	// attempt created is picked up and its checkout rebuilt).
	for try := 1; ; try++ {
		got, err := m.provisionLocked(ctx, wt, r, top, common, log)
		if !errors.Is(err, gitx.ErrWorktreeRace) || try == 5 {
			return got, err
		}
		log(task.LevelInfo, "another worktree of the repository was being created meanwhile; trying again")
		if serr := sleepCtx(ctx, time.Duration(try)*150*time.Millisecond); serr != nil {
			return got, err
		}
	}
}

func (m *Manager) provisionLocked(ctx context.Context, wt Worktree, r Request, top, common string, log Logf) (Worktree, error) {
	branchSHA, exists, err := m.branchSHA(ctx, top, common, wt.Branch)
	if err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	if exists {
		return m.reuse(ctx, wt, r, branchSHA, common, log)
	}
	return m.create(ctx, wt, r, common, log)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (m *Manager) create(ctx context.Context, wt Worktree, r Request, common string, log Logf) (Worktree, error) {
	ref, sha, err := m.StartPoint(ctx, r.Repo, r.Base)
	var ub *UnknownBaseError
	if errors.As(err, &ub) {
		return Worktree{}, ub
	}
	if err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	wt.BaseRef, wt.BaseSHA = ref, sha
	if _, err := os.Lstat(wt.Dir); err == nil {
		if err := m.discardHalfBuilt(ctx, wt, log); err != nil {
			return Worktree{}, err
		}
	}
	if err := m.pruneStale(ctx, wt); err != nil {
		return Worktree{}, err
	}
	log(task.LevelInfo, "base %s → %s", wt.BaseRef, sha)
	if err := os.MkdirAll(wt.Root, 0o755); err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	if pat, err := ensureExcluded(wt.Root, wt.Repo, common); err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	} else if pat != "" {
		log(task.LevelInfo, "added %s to .git/info/exclude", pat)
	}
	meta := Meta{TaskID: wt.TaskID, Repo: wt.Repo, BaseRef: wt.BaseRef, BaseSHA: sha, Branch: wt.Branch, Created: m.now().UTC()}
	if err := writeMarker(wt.Root, meta); err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	if _, err := m.git.Run(ctx, wt.Repo, "worktree", "add", "--quiet", "-b", wt.Branch, "--", wt.Dir, sha); err != nil {
		// git may fail after it made the branch and the worktree (a failing
		// post-checkout hook): take them back, so nothing is left that the
		// task does not record.
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		m.undoCreate(uctx, wt, sha)
		cancel()
		return Worktree{}, fmt.Errorf("provision: add worktree: %w", err)
	}
	failpoint.Hit(FailProvisioned)
	if err := m.commitMeta(wt, meta); err != nil {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		m.undoCreate(uctx, wt, sha)
		cancel()
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	log(task.LevelInfo, "worktree %s on branch %s", wt.Dir, wt.Branch)
	return wt, nil
}

// undoCreate takes back a worktree and branch made moments ago, best effort:
// they hold no work yet. A worktree git left locked ("initializing", when
// its checkout was killed) needs a second --force; the directory did not
// exist before this provisioning, so what is left of it goes too; then the
// registration, the branch (only while it still points at sha) and the
// provisioning marker.
func (m *Manager) undoCreate(ctx context.Context, wt Worktree, sha string) {
	_, _ = m.git.Run(ctx, wt.Repo, "worktree", "remove", "--force", "--force", "--", wt.Dir)
	if _, err := os.Lstat(wt.Dir); err == nil {
		_ = os.RemoveAll(wt.Dir)
	}
	_, _ = m.git.Run(ctx, wt.Repo, "worktree", "prune")
	_ = m.git.DeleteRef(ctx, wt.Repo, "refs/heads/"+wt.Branch, sha)
	_ = os.Remove(markerPath(wt.Root, wt.TaskID))
}

func (m *Manager) reuse(ctx context.Context, wt Worktree, r Request, branchSHA, common string, log Logf) (Worktree, error) {
	wt.Reused = true
	if r.Base != "" {
		log(task.LevelInfo, "base '%s' ignored: reusing existing branch %s", r.Base, wt.Branch)
	}
	meta, ok, err := ReadMeta(wt.Root, wt.TaskID)
	if err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	marker, marked, err := readMarker(wt.Root, wt.TaskID)
	if err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	switch {
	case ok && meta.BaseSHA != "":
		wt.BaseRef, wt.BaseSHA = meta.BaseRef, meta.BaseSHA
	case marked && marker.BaseSHA != "":
		wt.BaseRef, wt.BaseSHA = marker.BaseRef, marker.BaseSHA
		log(task.LevelWarn, "the provisioning of this worktree did not complete: base taken from its provisioning record, %s", wt.BaseSHA)
	default:
		out, err := m.git.Run(ctx, wt.Repo, "merge-base", "--end-of-options", branchSHA, "HEAD")
		if err != nil {
			return Worktree{}, fmt.Errorf("provision: no meta sidecar and no merge base: %w", err)
		}
		wt.BaseRef, wt.BaseSHA = "HEAD", trimNL(out)
		log(task.LevelInfo, "meta sidecar missing: base taken as merge-base %s", wt.BaseSHA)
	}
	next := Meta{TaskID: wt.TaskID, Repo: wt.Repo, BaseRef: wt.BaseRef, BaseSHA: wt.BaseSHA, Branch: wt.Branch, Created: m.now().UTC()}
	if ok {
		next.Created = meta.Created
	}

	list, err := m.git.Worktrees(ctx, wt.Repo)
	if err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	for _, e := range list {
		if e.Branch != "refs/heads/"+wt.Branch {
			continue
		}
		_, statErr := os.Stat(e.Path)
		switch {
		case realPath(e.Path) == realPath(wt.Dir) && statErr == nil:
			if why := m.incomplete(wt, marked, ok); why != "" {
				log(task.LevelWarn, "worktree %s did not finish provisioning (%s): rebuilding it from branch %s", wt.Dir, why, wt.Branch)
				if err := m.discard(ctx, wt); err != nil {
					return Worktree{}, err
				}
				return m.rebuild(ctx, wt, next, marked, common, branchSHA, log)
			}
			if err := clearStaleIndexLock(wt.Dir, log); err != nil {
				return Worktree{}, fmt.Errorf("provision: %w", err)
			}
			log(task.LevelInfo, "reusing worktree %s on branch %s at %s", wt.Dir, wt.Branch, branchSHA)
			if ok && !marked && meta.BaseSHA == wt.BaseSHA {
				return wt, nil
			}
			return wt, m.commitMeta(wt, next)
		case statErr == nil:
			return Worktree{}, fmt.Errorf("provision: %s is checked out at %s: %w", wt.Branch, e.Path, ErrBranchInUse)
		}
		log(task.LevelInfo, "worktree directory %s is missing: rebuilding it from branch %s", e.Path, wt.Branch)
	}
	if _, err := os.Lstat(wt.Dir); err == nil {
		if err := m.discardHalfBuilt(ctx, wt, log); err != nil {
			return Worktree{}, err
		}
	}
	return m.rebuild(ctx, wt, next, marked, common, branchSHA, log)
}

// rebuild checks the existing task branch out again in a new directory,
// with the provisioning marker around the `worktree add` and the meta
// sidecar written last.
func (m *Manager) rebuild(ctx context.Context, wt Worktree, next Meta, marked bool, common, branchSHA string, log Logf) (Worktree, error) {
	if err := m.pruneStale(ctx, wt); err != nil {
		return Worktree{}, err
	}
	if err := os.MkdirAll(wt.Root, 0o755); err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	if _, err := ensureExcluded(wt.Root, wt.Repo, common); err != nil {
		return Worktree{}, fmt.Errorf("provision: %w", err)
	}
	if !marked {
		if err := writeMarker(wt.Root, next); err != nil {
			return Worktree{}, fmt.Errorf("provision: %w", err)
		}
	}
	if _, err := m.git.Run(ctx, wt.Repo, "worktree", "add", "--quiet", "--", wt.Dir, wt.Branch); err != nil {
		return Worktree{}, fmt.Errorf("provision: add worktree: %w", err)
	}
	failpoint.Hit(FailProvisioned)
	log(task.LevelInfo, "worktree %s recreated from retained branch %s at %s", wt.Dir, wt.Branch, branchSHA)
	return wt, m.commitMeta(wt, next)
}

// commitMeta writes the meta sidecar, the commit point of provisioning,
// then drops the provisioning marker.
func (m *Manager) commitMeta(wt Worktree, meta Meta) error {
	if err := writeMeta(wt.Root, meta); err != nil {
		return fmt.Errorf("provision: %w", err)
	}
	for _, p := range []string{markerPath(wt.Root, wt.TaskID), removalPath(wt.Root, wt.TaskID)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("provision: %w", err)
		}
	}
	return nil
}

// pruneStale drops git's registration of worktrees whose directory is
// gone when one of them sits at the task's path, so `worktree add` can
// reuse the path. Registrations of existing directories are never touched.
func (m *Manager) pruneStale(ctx context.Context, wt Worktree) error {
	list, err := m.git.Worktrees(ctx, wt.Repo)
	if err != nil {
		return fmt.Errorf("provision: %w", err)
	}
	for _, e := range list {
		if _, err := os.Stat(e.Path); err != nil && (realPath(e.Path) == realPath(wt.Dir) || e.Branch == "refs/heads/"+wt.Branch) {
			if _, err := m.git.Run(ctx, wt.Repo, "worktree", "prune"); err != nil {
				return fmt.Errorf("provision: prune worktrees: %w", err)
			}
			return nil
		}
	}
	return nil
}

func trimNL(b []byte) string {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return string(b)
}
