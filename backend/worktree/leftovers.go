package worktree

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Leftovers is the result of saving a worktree's uncommitted work.
type Leftovers struct {
	// Branch and SHA name the side branch commit; both are empty when there
	// was nothing to save.
	Branch, SHA string
	// Parent is the worktree HEAD the leftovers commit sits on.
	Parent string
	// Nested lists nested git repositories found among the untracked files
	// and checked-out submodules (relative, ending in "/"); their own
	// uncommitted contents are not saved, only their HEAD as a gitlink.
	Nested []string
	// Skipped lists those of Nested that have no commit and were left out
	// entirely; the others are recorded as gitlinks.
	Skipped []string
}

// SaveLeftovers commits everything uncommitted in the worktree (tracked
// changes, untracked files, scratch directories; ignored files excepted)
// onto the side branch boof-runner/<id>--leftovers, whose parent is the
// worktree's HEAD. It uses a temporary index kept in the worktree's own
// git directory (a save cut short by a crash leaves nothing behind once
// the worktree is removed), so the task branch, the worktree's index and
// its files stay untouched. Nothing to save gives an empty Branch. Saving
// the same work again (a clean-up finished after a crash) reuses the
// existing commit. The side branch never moves off a commit nothing else
// keeps: an earlier leftovers commit that the new one does not contain is
// first kept at refs/boof-runner/leftovers/<id>/<n>. The log records the
// side branch name and sha. Errors are wrapped gitx or file-system errors;
// a side branch moved meanwhile gives gitx.ErrRefMoved.
func (m *Manager) SaveLeftovers(ctx context.Context, wt Worktree, log Logf) (Leftovers, error) {
	if !wt.Isolated {
		return Leftovers{}, nil
	}
	st, err := m.worktreeState(ctx, wt.Dir)
	if err != nil {
		return Leftovers{}, fmt.Errorf("save leftovers: %w", err)
	}
	head := st.head
	index := filepath.Join(filepath.Dir(st.index), "boof-leftovers.index")
	clear := func() {
		_ = os.Remove(index)
		_ = os.Remove(index + ".lock")
	}
	clear() // what a save killed earlier left
	defer clear()
	env := []string{"GIT_INDEX_FILE=" + index}
	if err := m.seedIndex(ctx, wt.Dir, st.index, index, env); err != nil {
		return Leftovers{}, fmt.Errorf("save leftovers: %w", err)
	}

	res := Leftovers{Parent: head}
	if res.Skipped, err = m.addAll(ctx, wt.Dir, env); err != nil {
		return res, fmt.Errorf("save leftovers: add: %w", err)
	}
	if res.Nested, err = m.checkedOutGitlinks(ctx, wt.Dir, env); err != nil {
		return res, fmt.Errorf("save leftovers: %w", err)
	}
	res.Nested = append(res.Nested, res.Skipped...)
	slices.Sort(res.Nested)
	tree, err := m.git.WriteTree(ctx, wt.Dir, env)
	if err != nil {
		return res, fmt.Errorf("save leftovers: %w", err)
	}
	if st.headTree == tree {
		log(task.LevelInfo, "no leftovers to save in %s", wt.Dir)
		return res, nil
	}
	branch := LeftoversBranchName(wt.TaskID)
	prev, hasPrev, err := m.branchSHA(ctx, wt.Repo, st.commonDir, branch)
	if err != nil {
		return res, fmt.Errorf("save leftovers: %w", err)
	}
	var prevParents []string
	if hasPrev {
		prevTree, parents, err := m.git.CommitHead(ctx, wt.Dir, st.commonDir, prev)
		if err == nil && prevTree == tree && len(parents) == 1 && parents[0] == head {
			res.Branch, res.SHA = branch, prev
			log(task.LevelInfo, "leftovers already saved on %s at %s", branch, prev)
			return res, nil
		}
		prevParents = parents
	}
	msg := fmt.Sprintf("Leftovers of task %s\n\nUncommitted work found in the task worktree when the task ended,\nsaved by Boof Runner on top of %s.\n", wt.TaskID, head)
	commit, err := m.git.CommitTree(ctx, wt.Dir, gitx.Commit{Tree: tree, Parents: []string{head}, Message: msg, Env: m.identityEnv()})
	if err != nil {
		return res, fmt.Errorf("save leftovers: %w", err)
	}
	// The side branch moves and, unless the new commit contains it, the
	// earlier one is kept at refs/boof-runner/leftovers/<id>/<n>: both in
	// one ref transaction, under the repository's lock.
	unlock, err := m.git.LockCommonDir(ctx, st.commonDir)
	if err != nil {
		return res, fmt.Errorf("save leftovers: %w", err)
	}
	defer unlock()
	updates := []gitx.RefUpdate{{Ref: "refs/heads/" + branch, New: commit, Old: prev}}
	keep := ""
	if hasPrev {
		// An earlier save on the same HEAD is a sibling of this one, never
		// in it: no need to ask git.
		sibling := len(prevParents) == 1 && prevParents[0] == head
		if keep, err = m.archiveRef(ctx, wt, st.commonDir, prev, commit, sibling); err != nil {
			return res, fmt.Errorf("save leftovers: %w", err)
		}
		if keep != "" {
			updates = append(updates, gitx.RefUpdate{Ref: keep, New: prev})
		}
	}
	if err := m.git.UpdateRefs(ctx, wt.Repo, "boof-runner: save leftovers", updates); err != nil {
		return res, fmt.Errorf("save leftovers: %w", err)
	}
	if keep != "" {
		log(task.LevelInfo, "earlier leftovers %s kept at %s", prev, keep)
	}
	res.Branch, res.SHA = branch, commit
	log(task.LevelInfo, "leftovers saved on %s at %s", branch, commit)
	return res, nil
}

// ArchivedLeftoversPrefix starts the refs that keep earlier leftovers
// commits of a task: refs/boof-runner/leftovers/<id>/<n>.
const ArchivedLeftoversPrefix = "refs/boof-runner/leftovers/"

// archiveRef returns the next refs/boof-runner/leftovers/<id>/<n> to keep
// the side branch's current commit prev at before the branch moves to
// next; "" when next already contains it (which a sibling of next never
// does) or it is kept there already. The caller holds the lock.
func (m *Manager) archiveRef(ctx context.Context, wt Worktree, common, prev, next string, sibling bool) (string, error) {
	if !sibling {
		if _, err := m.git.Run(ctx, wt.Repo, "merge-base", "--is-ancestor", prev, next); err == nil {
			return "", nil
		}
	}
	prefix := ArchivedLeftoversPrefix + wt.TaskID + "/"
	kept, err := m.git.RefsUnder(ctx, wt.Repo, common, prefix)
	if err != nil {
		return "", fmt.Errorf("list earlier leftovers: %w", err)
	}
	n := 0
	for name, sha := range kept {
		if sha == prev {
			return "", nil
		}
		if k, err := strconv.Atoi(strings.TrimPrefix(name, prefix)); err == nil && k > n {
			n = k
		}
	}
	return fmt.Sprintf("%s%d", prefix, n+1), nil
}

// seedIndex starts the temporary index as a copy of the worktree's own
// index, so `add -A` only rehashes what changed; without one it reads HEAD.
func (m *Manager) seedIndex(ctx context.Context, dir, real, index string, env []string) error {
	if err := copyFile(real, index); err == nil {
		return nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	_, err := m.git.RunEnv(ctx, dir, env, "read-tree", "HEAD")
	return err
}

func copyFile(src, dst string) error {
	in, err := userfile.OpenKept(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// addAll stages everything uncommitted into the temporary index (env) with
// `git add -A`. A nested repository without a commit makes git refuse the
// whole add (it has no HEAD to record as a gitlink, and the index is left
// as it was): then the untracked ones are listed, left out and returned as
// skipped, and the rest is added. The listing is paid only then.
func (m *Manager) addAll(ctx context.Context, dir string, env []string) (skipped []string, err error) {
	_, addErr := m.git.RunEnv(ctx, dir, env, "add", "-A")
	if addErr == nil {
		return nil, nil
	}
	untracked, err := m.Untracked(ctx, dir)
	if err != nil {
		return nil, errors.Join(addErr, err)
	}
	excludes := []string{"add", "-A", "--", "."}
	for _, p := range untracked {
		if !strings.HasSuffix(p, "/") {
			continue
		}
		if _, err := m.git.ResolveCommit(ctx, filepath.Join(dir, p), "HEAD"); errors.Is(err, gitx.ErrUnknownRef) {
			skipped = append(skipped, p)
			excludes = append(excludes, ":(exclude,literal)"+strings.TrimSuffix(p, "/"))
		}
	}
	if len(skipped) == 0 {
		return nil, addErr // not what made it fail
	}
	if _, err := m.git.RunEnv(ctx, dir, env, excludes...); err != nil {
		return skipped, err
	}
	return skipped, nil
}

// checkedOutGitlinks lists the gitlinks of the index (env) that have a
// repository checked out in the worktree at dir (relative, ending in "/"):
// submodules, and nested repositories `add -A` recorded by their HEAD.
func (m *Manager) checkedOutGitlinks(ctx context.Context, dir string, env []string) ([]string, error) {
	out, err := m.git.RunEnv(ctx, dir, env, "ls-files", "--stage", "-z")
	if err != nil {
		return nil, err
	}
	var subs []string
	for _, rec := range gitx.SplitNUL(out) {
		meta, path, ok := strings.Cut(rec, "\t")
		if !ok || !strings.HasPrefix(meta, "160000 ") {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, path, ".git")); err == nil {
			subs = append(subs, path+"/")
		}
	}
	return subs, nil
}

type wtState struct {
	index, commonDir, head, headTree string
}

// worktreeState reads what saving leftovers needs: the worktree's index
// file, the common git dir, HEAD and HEAD's tree — from the files when
// they can be read (stateFiles), else in one git call.
func (m *Manager) worktreeState(ctx context.Context, dir string) (wtState, error) {
	if st, ok := m.stateFiles(ctx, dir); ok {
		return st, nil
	}
	out, err := m.git.Run(ctx, dir, "rev-parse", "--path-format=absolute",
		"--git-path", "index", "--git-common-dir", "HEAD^{commit}", "HEAD^{tree}")
	if err != nil {
		return wtState{}, err
	}
	l := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(l) != 4 {
		return wtState{}, fmt.Errorf("read worktree state of %s: path with a newline", dir)
	}
	return wtState{index: l[0], commonDir: filepath.Clean(l[1]), head: l[2], headTree: l[3]}, nil
}

// stateFiles is worktreeState from the worktree's git files: its git dir
// (the .git link), the common dir it names (commondir), HEAD's branch read
// through the ref files and the tree from the object files (gitx falls
// back to git for what those cannot tell). ok is false for anything else:
// a detached or unborn HEAD, an unexpected layout.
func (m *Manager) stateFiles(ctx context.Context, dir string) (wtState, bool) {
	gd, err := gitDirOf(dir)
	if err != nil {
		return wtState{}, false
	}
	common := gd
	if b, err := userfile.ReadKept(filepath.Join(gd, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gd, c)
		}
		common = c
	} else if !errors.Is(err, os.ErrNotExist) {
		return wtState{}, false
	}
	b, err := userfile.ReadKept(filepath.Join(gd, "HEAD"))
	ref, isRef := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: ")
	if err != nil || !isRef || !strings.HasPrefix(ref, "refs/heads/") {
		return wtState{}, false
	}
	got, err := m.git.RefSHAs(ctx, dir, common, ref)
	head := got[ref]
	if err != nil || head == "" {
		return wtState{}, false
	}
	tree, err := m.git.TreeOf(ctx, dir, common, head)
	if err != nil {
		return wtState{}, false
	}
	return wtState{index: filepath.Join(gd, "index"), commonDir: filepath.Clean(common), head: head, headTree: tree}, true
}
