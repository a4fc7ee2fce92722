package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/tmpdir"
)

// StrayRefPrefix starts the refs holding what a read-only step changed:
// refs/boof-runner/<task id>/stray/<step name>.
const StrayRefPrefix = "refs/boof-runner/"

// StrayRef names the side ref of a read-only step's changes.
func StrayRef(taskID, name string) string { return StrayRefPrefix + taskID + "/stray/" + name }

// Snapshot is a worktree's state before a read-only step: where HEAD
// points, the tree of its index, and the tree of its files (tracked and
// untracked; ignored files are not part of it, so caches and build output
// may change freely).
type Snapshot struct {
	// HeadRef is HEAD's symbolic ref ("" when detached); Head its commit.
	HeadRef, Head string
	// Index is the tree of the index ("" when it has conflicts).
	Index string
	// Files is the tree of the working files.
	Files string
	// Clean says the worktree matched HEAD (nothing staged, changed or
	// untracked); Index and Files are then left empty: both are HEAD's
	// tree, read only when the step changed something.
	Clean bool
	// Probe identifies git status's records and the listed files' stat
	// data ("" when clean or when stat data cannot prove them unchanged).
	Probe string
	// kept, when set, holds the records and listed files of a worktree
	// with uncommitted work whose trees (Index, Files) were not written:
	// see keep.
	kept *kept
}

// Stray is what a read-only step changed, as Restore found and handled it.
// Files is empty when it changed nothing.
type Stray struct {
	// Files are the paths added, changed or deleted.
	Files []string
	// HeadMoved is true when HEAD or its branch moved.
	HeadMoved bool
	// Ref and SHA name the side ref holding the changed state: a commit of
	// the files as the step left them, whose first parent is the state
	// before the step (and second, when HEAD moved, the commit HEAD was
	// left at, so nothing the step committed is lost).
	Ref, SHA string
	// Unreverted are the paths that could not be put back; Problem says why.
	Unreverted []string
	Problem    string
}

// Snapshot records wt's state for Restore. Errors are wrapped git errors.
func (m *Manager) Snapshot(ctx context.Context, wt Worktree) (Snapshot, error) {
	if !wt.Isolated {
		return Snapshot{}, nil
	}
	s, err := m.state(ctx, wt.Dir, true)
	if err != nil {
		return Snapshot{}, fmt.Errorf("snapshot: %w", err)
	}
	return s, nil
}

// Restore compares wt with snap. When a step changed it, Restore first
// saves the changed state on StrayRef(task, name), then reverts the files,
// the index and HEAD to snap, and reports what it found. A path it cannot
// put back (a file made immutable) is listed in Unreverted, the rest is
// reverted all the same. The error is for failures to look or to save,
// in which case nothing was reverted.
func (m *Manager) Restore(ctx context.Context, wt Worktree, snap Snapshot, name string) (Stray, error) {
	if !wt.Isolated || (snap.Files == "" && !snap.Clean && snap.kept == nil) {
		return Stray{}, nil
	}
	p, err := m.probe(ctx, wt.Dir)
	if err != nil {
		return Stray{}, fmt.Errorf("check read-only step: %w", err)
	}
	if snap.unchanged(p) {
		return Stray{}, nil
	}
	if snap.Clean || snap.kept != nil {
		head, err := m.headTree(ctx, wt.Dir, snap.Head)
		if err != nil {
			return Stray{}, fmt.Errorf("check read-only step: %w", err)
		}
		snap.Files, snap.Index, snap.Clean = head, head, false
		if k := snap.kept; k != nil {
			if snap.Files, err = m.keptTree(ctx, wt.Dir, head, k); err != nil {
				return Stray{}, fmt.Errorf("check read-only step: %w", err)
			}
			snap.kept = nil
		}
	}
	now, err := m.trees(ctx, wt.Dir, p)
	if err != nil {
		return Stray{}, fmt.Errorf("check read-only step: %w", err)
	}
	var st Stray
	st.HeadMoved = now.Head != snap.Head || now.HeadRef != snap.HeadRef
	if snap.HeadRef != "" && now.HeadRef != snap.HeadRef {
		if branchSHA, ok, _ := m.git.RefSHA(ctx, wt.Dir, snap.HeadRef); ok && branchSHA != snap.Head {
			st.HeadMoved = true
		}
	}
	if now.Files == snap.Files && now.Index == snap.Index && !st.HeadMoved {
		return Stray{}, nil
	}
	if st.Files, err = m.changedPaths(ctx, wt.Dir, snap.Files, now.Files); err != nil {
		return Stray{}, fmt.Errorf("check read-only step: %w", err)
	}
	if err := m.saveStray(ctx, wt, snap, now, name, &st); err != nil {
		return Stray{}, err
	}
	m.revert(ctx, wt, snap, now, &st)
	after, err := m.state(ctx, wt.Dir, false)
	if err != nil {
		st.Problem = joinProblem(st.Problem, err.Error())
		return st, nil
	}
	if after.Files != snap.Files {
		st.Unreverted, _ = m.changedPaths(ctx, wt.Dir, snap.Files, after.Files)
		if len(st.Unreverted) == 0 {
			st.Unreverted = []string{"(files)"}
		}
	}
	if after.Head != snap.Head || after.HeadRef != snap.HeadRef {
		st.Unreverted = append(st.Unreverted, "HEAD")
	}
	if len(st.Unreverted) > 0 && st.Problem == "" {
		st.Problem = "the files could not be restored"
	}
	return st, nil
}

// saveStray commits the changed state on the stray ref.
func (m *Manager) saveStray(ctx context.Context, wt Worktree, snap, now Snapshot, name string, st *Stray) error {
	env := m.identityEnv()
	before, err := m.git.CommitTree(ctx, wt.Dir, gitx.Commit{Tree: snap.Files, Parents: []string{snap.Head}, Env: env,
		Message: fmt.Sprintf("State before %s of task %s\n\nThe worktree as the read-only step found it.\n", name, wt.TaskID)})
	if err != nil {
		return fmt.Errorf("save stray changes: %w", err)
	}
	parents := []string{before}
	if now.Head != snap.Head && now.Head != "" {
		parents = append(parents, now.Head)
	}
	msg := fmt.Sprintf("Changes made by %s of task %s (read-only), reverted\n\nBoof Runner saved what the step changed in the worktree, then put\nthe worktree back as it was before the step. Changed:\n\n  %s\n",
		name, wt.TaskID, strings.Join(st.Files, "\n  "))
	sha, err := m.git.CommitTree(ctx, wt.Dir, gitx.Commit{Tree: now.Files, Parents: parents, Env: env, Message: msg})
	if err != nil {
		return fmt.Errorf("save stray changes: %w", err)
	}
	ref := StrayRef(wt.TaskID, name)
	old, _, err := m.git.RefSHA(ctx, wt.Dir, ref)
	if err != nil {
		return fmt.Errorf("save stray changes: %w", err)
	}
	if err := m.git.UpdateRef(ctx, wt.Dir, ref, sha, old, "boof-runner: stray changes of "+name); err != nil {
		return fmt.Errorf("save stray changes: %w", err)
	}
	st.Ref, st.SHA = ref, sha
	return nil
}

// revert puts HEAD, the files and the index back as snap recorded them.
// Problems are collected in st.Problem; Restore then checks the result.
func (m *Manager) revert(ctx context.Context, wt Worktree, snap, now Snapshot, st *Stray) {
	fail := func(what string, err error) { st.Problem = joinProblem(st.Problem, what+": "+err.Error()) }
	if st.HeadMoved {
		if snap.HeadRef != "" {
			if cur, ok, err := m.git.RefSHA(ctx, wt.Dir, snap.HeadRef); err == nil && ok && cur != snap.Head {
				if err := m.git.UpdateRef(ctx, wt.Dir, snap.HeadRef, snap.Head, cur, "boof-runner: revert a read-only step"); err != nil {
					fail("reset "+snap.HeadRef, err)
				}
			}
			if err := m.git.SetHead(ctx, wt.Dir, snap.HeadRef, ""); err != nil {
				fail("reset HEAD", err)
			}
		} else if err := m.git.DetachHead(ctx, wt.Dir, snap.Head, ""); err != nil {
			fail("reset HEAD", err)
		}
	}
	// Files: remove what the step added, then write back what it changed
	// or deleted, from the snapshot's tree through a temporary index.
	inBefore, err := m.treePaths(ctx, wt.Dir, snap.Files, st.Files)
	if err != nil {
		fail("read the snapshot", err)
		return
	}
	var restore []string
	for _, p := range st.Files {
		if inBefore[p] {
			restore = append(restore, p)
			continue
		}
		if err := os.Remove(filepath.Join(wt.Dir, p)); err != nil && !errors.Is(err, os.ErrNotExist) {
			fail("remove "+p, err)
			continue
		}
		removeEmptyDirs(wt.Dir, filepath.Dir(p))
	}
	if len(restore) > 0 {
		tmp, err := tmpdir.Make("boof-guard-")
		if err != nil {
			fail("restore", err)
			return
		}
		defer os.RemoveAll(tmp)
		env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
		if _, err := m.git.RunEnv(ctx, wt.Dir, env, "read-tree", snap.Files); err != nil {
			fail("restore", err)
			return
		}
		args := append([]string{"checkout-index", "-f", "-q", "--"}, restore...)
		if _, err := m.git.RunEnv(ctx, wt.Dir, env, args...); err != nil {
			fail("restore", err)
		}
	}
	if snap.Index != "" && now.Index != snap.Index {
		if _, err := m.git.Run(ctx, wt.Dir, "read-tree", snap.Index); err != nil {
			fail("restore the index", err)
		}
	}
	// Refresh the index's stat data for the files written back.
	_, _ = m.git.Run(ctx, wt.Dir, "update-index", "-q", "--refresh")
}

// state reads HEAD, the index tree and the files tree of dir. lazy leaves
// a clean worktree's trees to be read when needed (Snapshot.Clean), and
// those of a worktree with a few unstaged changes to be written from what
// it kept (keep).
func (m *Manager) state(ctx context.Context, dir string, lazy bool) (Snapshot, error) {
	p, err := m.probe(ctx, dir)
	if err != nil {
		return Snapshot{}, err
	}
	if lazy && p.ok && p.clean {
		return Snapshot{Head: p.head, HeadRef: p.headRef, Clean: true}, nil
	}
	if lazy {
		if k, ok := keep(dir, p); ok {
			return Snapshot{Head: p.head, HeadRef: p.headRef, Probe: p.digest, kept: k}, nil
		}
	}
	return m.trees(ctx, dir, p)
}

// trees makes the full record of the worktree p probed: the tree of its
// index and of its files (tracked and untracked, ignored files and nested
// repositories aside), through a temporary index.
func (m *Manager) trees(ctx context.Context, dir string, p probe) (Snapshot, error) {
	if !p.ok {
		return Snapshot{}, fmt.Errorf("HEAD of %s is not a commit", dir)
	}
	s := Snapshot{Head: p.head, HeadRef: p.headRef, Probe: p.digest}
	if p.clean {
		tree, err := m.headTree(ctx, dir, p.head)
		if err != nil {
			return Snapshot{}, err
		}
		s.Index, s.Files = tree, tree
		return s, nil
	}
	if !p.staged { // the index holds HEAD's tree
		tree, err := m.headTree(ctx, dir, p.head)
		if err != nil {
			return Snapshot{}, err
		}
		s.Index = tree
	} else if tree, err := m.git.WriteTree(ctx, dir, nil); err == nil {
		s.Index = tree
	}
	real, err := m.indexPath(ctx, dir)
	if err != nil {
		return Snapshot{}, err
	}
	tmp, err := tmpdir.Make("boof-guard-")
	if err != nil {
		return Snapshot{}, err
	}
	defer os.RemoveAll(tmp)
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	if err := m.seedIndex(ctx, dir, real, filepath.Join(tmp, "index"), env); err != nil {
		return Snapshot{}, err
	}
	args := []string{"add", "-A", "--", "."}
	for _, n := range p.nested { // a nested repository: its own state is not ours
		args = append(args, ":(exclude,literal)"+n)
	}
	if _, err := m.git.RunEnv(ctx, dir, env, args...); err != nil {
		return Snapshot{}, err
	}
	if s.Files, err = m.git.WriteTree(ctx, dir, env); err != nil {
		return Snapshot{}, err
	}
	return s, nil
}

// changedPaths lists the paths that differ between two trees.
func (m *Manager) changedPaths(ctx context.Context, dir, a, b string) ([]string, error) {
	out, err := m.git.Run(ctx, dir, "diff-tree", "-r", "--no-renames", "--name-only", "-z", a, b)
	if err != nil {
		return nil, err
	}
	return gitx.SplitNUL(out), nil
}

// treePaths reports which of paths the tree holds.
func (m *Manager) treePaths(ctx context.Context, dir, tree string, paths []string) (map[string]bool, error) {
	out, err := m.git.Run(ctx, dir, "ls-tree", "-r", "--name-only", "-z", tree)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	in := map[string]bool{}
	for _, p := range gitx.SplitNUL(out) {
		if want[p] {
			in[p] = true
		}
	}
	return in, nil
}

// removeEmptyDirs removes rel and its parents below top while they are empty.
func removeEmptyDirs(top, rel string) {
	for rel != "." && rel != "/" && rel != "" {
		if os.Remove(filepath.Join(top, rel)) != nil {
			return
		}
		rel = filepath.Dir(rel)
	}
}

func joinProblem(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
