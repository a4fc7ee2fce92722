package review

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Resolution is what Reconcile did with one move a crash cut short.
type Resolution struct {
	Move Move `json:"move"`
	// Completed is true when the move now stands (ref, checkout and record
	// agree on it), false when it was rolled back (nothing of it remains).
	Completed bool `json:"completed"`
	// Detail says why, for the task's log.
	Detail string `json:"detail"`
}

// String is the line logged for the task.
func (r Resolution) String() string {
	verb := "rolled back"
	if r.Completed {
		verb = "completed"
	}
	what := "accept"
	if r.Move.Op == OpUndo {
		what = "undo of the accept"
	}
	return fmt.Sprintf("Reconciled the interrupted %s into %s (%s → %s): %s; %s",
		what, strings.TrimPrefix(r.Move.Ref, "refs/heads/"), short(r.Move.Old), short(r.Move.New), verb, r.Detail)
}

// killGrace is the SIGTERM→SIGKILL grace for git commands a crashed accept
// left running.
const killGrace = 2 * time.Second

// Reconcile completes or rolls back every move left in the journal by a
// process that died during an accept or an undo, so that the target ref,
// its checkout and the task's status agree and undo works: a move whose
// ref moved is completed (its checkout brought along, with files a killed
// checkout update half wrote restored first, and the accept or undo
// recorded with rec when it was not yet); a move whose ref had not moved,
// or that cannot complete without overwriting a change made since, is
// rolled back (the ref put back with a compare-and-swap; changes made
// since are kept). Git commands the dead accept left running are ended
// first. Call it at start-up; MoveRef (every accept and undo) calls it for
// its repository. rec may be nil (then nothing is recorded). It returns
// what it did and the first error met, having tried every move.
func (s *Service) Reconcile(ctx context.Context, rec Recorder) ([]Resolution, error) {
	if s.journal == nil {
		return nil, ErrNoJournal
	}
	unlock, err := s.journal.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	moves, err := s.journal.Pending()
	if err != nil {
		return nil, err
	}
	s.clearWork(ctx)
	if len(moves) == 0 {
		return nil, nil
	}
	s.endOrphans()
	var out []Resolution
	var first error
	for _, mv := range moves {
		r, err := s.resolveLocked(ctx, mv, rec)
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		out = append(out, r)
	}
	return out, first
}

// reconcileRepo reconciles the moves of the repository whose common git
// directory is common; the caller holds the journal and repository locks.
func (s *Service) reconcileRepo(ctx context.Context, common string, rec Recorder) ([]Resolution, error) {
	moves, err := s.journal.Pending()
	if err != nil {
		return nil, err
	}
	s.clearWork(ctx)
	var out []Resolution
	orphansEnded := false
	for _, mv := range moves {
		if filepath.Clean(mv.Common) != filepath.Clean(common) {
			continue
		}
		if !orphansEnded {
			s.endOrphans()
			orphansEnded = true
		}
		r, err := s.settle(ctx, mv, rec)
		if err != nil {
			return out, fmt.Errorf("an interrupted %s of task %s could not be reconciled: %w", moveReason(mv.Op), mv.TaskID, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// endOrphans ends the git commands of accepts that died: while the journal
// lock is held no live accept runs any, so every process with the data
// root's accept tag is an orphan.
func (s *Service) endOrphans() {
	if s.journal.scope == "" {
		return
	}
	_, _ = proc.KillTagged(proc.TagPrefix(s.journal.scope, proc.OwnerAccept), killGrace)
}

// resolveLocked takes the move's repository lock and resolves it.
func (s *Service) resolveLocked(ctx context.Context, mv Move, rec Recorder) (Resolution, error) {
	unlock, err := s.git.LockCommonDir(ctx, mv.Common)
	if err != nil {
		return Resolution{}, err
	}
	defer unlock()
	return s.settle(ctx, mv, rec)
}

// settle resolves mv under a critical context (see move): a ctx that has
// ended leaves the move in the journal for the next start, but once begun
// a resolution is finished whatever happens to ctx.
func (s *Service) settle(ctx context.Context, mv Move, rec Recorder) (Resolution, error) {
	if err := ctx.Err(); err != nil {
		return Resolution{Move: mv}, fmt.Errorf("reconcile %s: %w", mv.Ref, err)
	}
	ctx, cancel := s.critical(ctx, mv.TaskID, "the interrupted "+moveReason(mv.Op)+" is reconciled")
	defer cancel()
	return s.resolve(ctx, mv, rec)
}

// resolve completes or rolls back one move and drops it from the journal.
func (s *Service) resolve(ctx context.Context, mv Move, rec Recorder) (Resolution, error) {
	ctx = s.tagged(ctx, mv.TaskID, "reconcile")
	res := Resolution{Move: mv}
	if _, err := os.Stat(mv.Repo); err != nil {
		res.Detail = fmt.Sprintf("the repository %s is gone", mv.Repo)
		return res, s.journal.remove(mv.ID)
	}
	cur, exists, err := s.git.RefSHA(ctx, mv.Repo, mv.Ref)
	if err != nil {
		return res, err
	}
	recorded, err := s.recorded(ctx, mv, rec)
	if err != nil {
		return res, err
	}
	switch {
	case mv.State == stateRollback:
		res.Detail = "it had failed and was being put back"
		err = s.putBack(ctx, mv)
	case exists && cur == mv.Old:
		res.Detail = "the ref had not moved yet"
		err = s.restorePartial(ctx, mv, mv.Old, mv.New, true)
	case exists && cur == mv.New:
		res.Completed, res.Detail, err = s.complete(ctx, mv, recorded, rec)
	case exists && s.ancestor(ctx, mv.Repo, mv.New, cur):
		res.Completed, res.Detail = true, "the ref has moved on from it since; its checkout is left as it is"
		if !recorded {
			err = s.recordFunc(mv, rec)(ctx)
		}
	default:
		res.Detail = fmt.Sprintf("the ref is at %s now, which does not hold it; nothing of it remains", short(cur))
	}
	if err != nil {
		return res, err
	}
	return res, s.journal.remove(mv.ID)
}

// complete finishes a move whose ref moved: the checkout is brought along
// and the move recorded. When that cannot be done without overwriting a
// change made since, the move is rolled back instead.
func (s *Service) complete(ctx context.Context, mv Move, recorded bool, rec Recorder) (bool, string, error) {
	dir := s.liveCheckout(ctx, mv)
	if dir != "" {
		if err := s.finishCheckout(ctx, mv, dir); err != nil {
			if perr := s.putBack(ctx, mv); perr != nil {
				return false, "", fmt.Errorf("%v; and putting the ref back failed: %w", err, perr)
			}
			return false, fmt.Sprintf("its checkout %s could not follow without overwriting changes made since (%v); they are kept", dir, err), nil
		}
	}
	if recorded {
		return true, "it had been recorded; the ref and the checkout now agree", nil
	}
	if err := s.recordFunc(mv, rec)(ctx); err != nil {
		if perr := s.putBack(ctx, mv); perr != nil {
			return false, "", fmt.Errorf("record: %v; and putting the ref back failed: %w", err, perr)
		}
		return false, fmt.Sprintf("recording it failed (%v)", err), nil
	}
	return true, "the ref had moved; the checkout and the task's status now agree", nil
}

// recorded tells whether the store already holds the move's outcome (true
// without a recorder: there is nothing to record).
func (s *Service) recorded(ctx context.Context, mv Move, rec Recorder) (bool, error) {
	if rec == nil {
		return true, nil
	}
	last, err := rec.LastAccept(ctx, mv.TaskID)
	if err != nil && !errors.Is(err, ErrNoAccept) {
		return false, err
	}
	same := err == nil && last.Target == mv.Record.Target && last.OldSHA == mv.Record.OldSHA && last.NewSHA == mv.Record.NewSHA
	if mv.Op == OpUndo {
		return !same, nil
	}
	return same, nil
}

// liveCheckout returns the move's checkout when the ref is still checked
// out there, else "".
func (s *Service) liveCheckout(ctx context.Context, mv Move) string {
	if mv.Checkout == "" {
		return ""
	}
	dir, err := s.checkoutOf(ctx, mv.Repo, mv.Ref)
	if err != nil || filepath.Clean(dir) != filepath.Clean(mv.Checkout) {
		return ""
	}
	return dir
}

// putBack moves the ref back from New to Old (compare-and-swap) and its
// checkout with it; files a killed checkout update half wrote are restored
// and changes made since are kept.
func (s *Service) putBack(ctx context.Context, mv Move) error {
	if dir := s.liveCheckout(ctx, mv); dir != "" {
		s.clearStaleLock(ctx, dir)
		s.refresh(ctx, dir)
		if s.indexAt(ctx, dir, mv.New) {
			if err := s.checkClean(ctx, dir, mv.New, mv.Old); err != nil {
				return err
			}
			if err := s.moveCheckout(ctx, dir, mv.New, mv.Old); err != nil {
				return err
			}
		} else if err := s.restorePartial(ctx, mv, mv.Old, mv.New, true); err != nil {
			return err
		}
	}
	cur, _, err := s.git.RefSHA(ctx, mv.Repo, mv.Ref)
	if err != nil {
		return err
	}
	if cur != mv.New {
		return nil
	}
	if err := s.git.UpdateRef(ctx, mv.Repo, mv.Ref, mv.Old, mv.New, "boof-runner: "+moveReason(mv.Op)+" rolled back"); err != nil {
		return fmt.Errorf("put %s back: %w", mv.Ref, err)
	}
	return nil
}

// finishCheckout brings the checkout at dir from Old to New after a crash:
// nothing to do when its index is at New already; otherwise files a killed
// update half wrote are put back to Old first, then it moves as an accept
// does. A change made since that the move would overwrite returns
// *DirtyError and changes nothing more.
func (s *Service) finishCheckout(ctx context.Context, mv Move, dir string) error {
	s.clearStaleLock(ctx, dir)
	s.refresh(ctx, dir)
	if s.indexAt(ctx, dir, mv.New) {
		return nil
	}
	if !s.indexAt(ctx, dir, mv.Old) {
		return errors.New("its index holds neither side of the move (changes were staged since)")
	}
	if err := s.restorePartial(ctx, mv, mv.Old, mv.New, false); err != nil {
		return err
	}
	if files, err := s.collisions(ctx, dir, mv.Old, mv.New); err != nil {
		return err
	} else if len(files) > 0 {
		return &DirtyError{Dir: dir, Files: files}
	}
	return s.moveCheckout(ctx, dir, mv.Old, mv.New)
}

// restorePartial handles the checkout of a move whose index is at from
// while some files may already hold to's content (a checkout update killed
// half way writes files before its index): those files are put back to
// from (their content is in to's commit, so nothing is lost). A file that
// holds neither version was changed since: with keepChanged it is left as
// it is, otherwise it is listed in a *DirtyError and nothing is restored.
func (s *Service) restorePartial(ctx context.Context, mv Move, from, to string, keepChanged bool) error {
	dir := s.liveCheckout(ctx, mv)
	if dir == "" || !s.indexAt(ctx, dir, from) {
		return nil
	}
	out, err := s.git.Run(ctx, dir, "diff", "--name-status", "--no-renames", "-z", from, to, "--")
	if err != nil {
		return fmt.Errorf("check checkout %s: %w", dir, err)
	}
	var paths []string
	inFrom, inTo := map[string]bool{}, map[string]bool{}
	f := gitx.SplitNUL(out)
	for i := 0; i+1 < len(f); i += 2 {
		st, p := f[i], f[i+1]
		paths = append(paths, p)
		inFrom[p] = st != "A"
		inTo[p] = st != "D"
	}
	if len(paths) == 0 {
		return nil
	}
	top, err := s.git.TopLevel(ctx, dir)
	if err != nil {
		return err
	}
	offFrom, err := s.differ(ctx, top, "", paths, inFrom)
	if err != nil {
		return err
	}
	if len(offFrom) == 0 {
		return nil
	}
	gitDir, err := s.git.Run(ctx, top, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return err
	}
	tmpIndex := filepath.Join(strings.TrimSpace(string(gitDir)), "boof-reconcile.index")
	defer os.Remove(tmpIndex)
	if _, err := s.git.RunEnv(ctx, top, []string{"GIT_INDEX_FILE=" + tmpIndex}, "read-tree", to); err != nil {
		return fmt.Errorf("check checkout %s: %w", dir, err)
	}
	offTo, err := s.differ(ctx, top, tmpIndex, paths, inTo)
	if err != nil {
		return err
	}
	var restore, remove, changed []string
	for _, p := range paths {
		switch {
		case !offFrom[p]:
		case offTo[p]:
			changed = append(changed, p)
		case inFrom[p]:
			restore = append(restore, p)
		default:
			remove = append(remove, p)
		}
	}
	if len(changed) > 0 && !keepChanged {
		return &DirtyError{Dir: dir, Files: changed}
	}
	for _, p := range remove {
		if err := os.Remove(filepath.Join(top, filepath.FromSlash(p))); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("restore checkout %s: %w", dir, err)
		}
	}
	if len(restore) > 0 {
		args := append([]string{"--literal-pathspecs", "checkout-index", "-f", "-q", "--"}, restore...)
		if _, err := s.git.Run(ctx, top, args...); err != nil {
			return fmt.Errorf("restore checkout %s: %w", dir, err)
		}
	}
	s.refresh(ctx, dir)
	return nil
}

// differ returns which of paths differ in the worktree at top from the
// index (the checkout's own, or the file index): content differs, or the
// file exists although the index lacks it (inIndex false), or is missing.
func (s *Service) differ(ctx context.Context, top, index string, paths []string, inIndex map[string]bool) (map[string]bool, error) {
	var env []string
	if index != "" {
		env = []string{"GIT_INDEX_FILE=" + index}
	}
	args := append([]string{"--literal-pathspecs", "diff", "--name-only", "--no-renames", "-z", "--"}, paths...)
	out, err := s.git.RunEnv(ctx, top, env, args...)
	if err != nil {
		return nil, fmt.Errorf("check checkout %s: %w", top, err)
	}
	off := map[string]bool{}
	for _, p := range gitx.SplitNUL(out) {
		off[p] = true
	}
	for _, p := range paths {
		if !inIndex[p] {
			if _, err := os.Lstat(filepath.Join(top, filepath.FromSlash(p))); err == nil {
				off[p] = true
			}
		}
	}
	return off, nil
}

// indexAt reports whether the checkout's index holds exactly commit's tree.
func (s *Service) indexAt(ctx context.Context, dir, commit string) bool {
	_, err := s.git.Run(ctx, dir, "diff-index", "--cached", "--quiet", commit, "--")
	return err == nil
}

// clearStaleLock removes the checkout's index.lock when no process holds
// it: a checkout update killed with its accept left it.
func (s *Service) clearStaleLock(ctx context.Context, dir string) {
	out, err := s.git.Run(ctx, dir, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return
	}
	lock := filepath.Join(strings.TrimSpace(string(out)), "index.lock")
	if _, err := os.Lstat(lock); err != nil {
		return
	}
	if holders, err := proc.Holders(lock); err == nil && len(holders) == 0 {
		_ = os.Remove(lock)
	}
}

// ancestor reports whether a is an ancestor of (or equal to) b.
func (s *Service) ancestor(ctx context.Context, repo, a, b string) bool {
	ok, err := s.isAncestor(ctx, repo, a, b)
	return err == nil && ok
}

// clearWork removes the temporary worktrees of accepts that died, and
// their registrations; the caller holds the journal lock, so no live
// accept uses any.
func (s *Service) clearWork(ctx context.Context) {
	ents, err := os.ReadDir(s.journal.workDir())
	if err != nil {
		return
	}
	for _, e := range ents {
		d := filepath.Join(s.journal.workDir(), e.Name())
		repo, _ := userfile.ReadKept(filepath.Join(d, "repo"))
		_ = os.RemoveAll(d)
		if r := strings.TrimSpace(string(repo)); r != "" {
			_, _ = s.git.Run(ctx, r, "worktree", "prune")
		}
	}
}
