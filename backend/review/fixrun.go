package review

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/tmpdir"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Sources of a fix run (FixRun.Source), recorded in the task's history.
const (
	SourceReview    = "review"
	SourceConflicts = "conflicts"
	SourceQueue     = "merge-queue"
)

// FixRun is a fix run to queue: the task goes back to the queue, and its
// next run starts at the developer (no re-planning) with Body — a
// rendered "## Human review" section — in the prompt of every role of the
// run, after Drops were reverted in "Drop hunk" commits.
type FixRun struct {
	TaskID string
	// Body is the section, verbatim (RenderHumanReview,
	// RenderResolveConflicts, or a sender's own text under the heading).
	Body string
	// Request is the structured review behind Body, kept in the history
	// (zero for a sender with no review).
	Request ChangeRequest
	// Drops are the hunks to revert before the developer runs.
	Drops []task.HunkDrop
	// Source says who sends the task back: SourceReview, SourceConflicts,
	// or another sender's name (the merge queue's "verify").
	Source string
}

// Queued is what queuing a fix run recorded.
type Queued struct {
	// Request is the change request's id; Fix the fix run's number on the
	// task ("Fix run 1 for your review").
	Request int64 `json:"request"`
	Fix     int   `json:"fix"`
	// Body is the "## Human review" section the fix run's roles read.
	Body string `json:"body"`
}

// ChangeRecorder queues fix runs (StoreRecorder): in one transaction the
// task's human_review section, the change request, the next run (from
// the developer, addressing it), the move to pending and a
// changes_requested event.
type ChangeRecorder interface {
	QueueFix(ctx context.Context, f FixRun) (Queued, error)
}

// SendBack is the one path by which anything sends a finished task back
// to its developer — the user's review (Service.RequestChanges), an accept
// that conflicts (ResolveWithAgent), the merge queue's failed verification:
// it queues a fix run whose roles read body (a "## Human review" section)
// verbatim. status is the task's current status; a task that has not
// finished or may not return to pending is refused before anything is
// recorded. Errors: *task.TransitionError, ErrEmptyReview for an empty
// body, or the recorder's error wrapped.
func SendBack(ctx context.Context, taskID string, status task.Status, body, source string, rec ChangeRecorder) (Queued, error) {
	return queueFix(ctx, status, FixRun{TaskID: taskID, Body: body, Source: source}, rec)
}

func queueFix(ctx context.Context, status task.Status, f FixRun, rec ChangeRecorder) (Queued, error) {
	if err := checkSendBack(status); err != nil {
		return Queued{}, err
	}
	if strings.TrimSpace(f.Body) == "" {
		return Queued{}, ErrEmptyReview
	}
	q, err := rec.QueueFix(ctx, f)
	if err != nil {
		return Queued{}, fmt.Errorf("queue fix run: %w", err)
	}
	return q, nil
}

// checkSendBack refuses a task that has not finished (it has no finished
// work to review) or whose status may not return to pending.
func checkSendBack(status task.Status) error {
	if !status.Terminal() {
		return &task.TransitionError{From: status, To: task.StatusPending}
	}
	return task.CheckTransition(status, task.StatusPending)
}

// RequestChanges sends the task back to its developer with the user's
// review: c is checked, every hunk it names is located in the task's diff
// against its base (ResolveReview), the dropped hunks are checked to
// reverse-apply on the task branch, and a fix run is queued through rec
// with the rendered "## Human review" section. Nothing is recorded when
// anything is refused. Errors: *task.TransitionError, ErrEmptyReview,
// ErrBadReview (wrapped), *StaleHunkError (a hunk the diff no longer
// has), *worktree.DropError (a drop that does not reverse-apply), the
// errors of DiffRange, or the recorder's error wrapped.
func (s *Service) RequestChanges(ctx context.Context, t task.Task, c ChangeRequest, rec ChangeRecorder) (Queued, error) {
	if err := checkSendBack(t.Status); err != nil {
		return Queued{}, err
	}
	c, err := c.Check()
	if err != nil {
		return Queued{}, err
	}
	c, drops, err := s.ResolveReview(ctx, t, c)
	if err != nil {
		return Queued{}, err
	}
	return queueFix(ctx, t.Status, FixRun{TaskID: t.ID, Body: RenderHumanReview(c), Request: c, Drops: drops, Source: SourceReview}, rec)
}

// ResolveReview locates every hunk c names in the task's diff against its
// base (by its text, as the Review screen quotes it, plain or with
// whitespace ignored) and fills in its number and "@@" header; the drops
// come back as patches of their one hunk, in the order the fix run
// reverts them (by file, the last hunk first), after a check that they
// reverse-apply together on the task branch (in a temporary index; no
// working tree is touched). Errors: *StaleHunkError, *worktree.DropError,
// DiffRange's, or wrapped gitx errors.
func (s *Service) ResolveReview(ctx context.Context, t task.Task, c ChangeRequest) (ChangeRequest, []task.HunkDrop, error) {
	var paths []string
	for _, cm := range c.Comments {
		if cm.File != "" {
			paths = append(paths, cm.File)
		}
	}
	for _, d := range c.Drops {
		paths = append(paths, d.File)
	}
	if len(paths) == 0 {
		return c, nil, nil
	}
	files, _, head, err := s.diffFiles(ctx, t, false, uniq(paths)...)
	if err != nil {
		return c, nil, err
	}
	var ws []FileHunks // the same files with whitespace ignored, read when needed
	wsFile := func(file string) (FileHunks, bool, error) {
		if ws == nil {
			if ws, err = s.whitespaceFiles(ctx, t, uniq(paths)); err != nil {
				return FileHunks{}, false, err
			}
		}
		f, ok := fileOf(ws, file)
		return f, ok, nil
	}
	locate := func(file, text string, index int, header string) (FileHunks, Hunk, error) {
		f, ok := fileOf(files, file)
		if !ok {
			return f, Hunk{}, &StaleHunkError{File: file, NotChanged: true}
		}
		if text == "" && index > 0 {
			return locateIndex(f, index, header, wsFile)
		}
		if text == "" {
			return f, Hunk{}, nil
		}
		if h, ok := f.find(text); ok {
			return f, h, nil
		}
		wf, ok, err := wsFile(file)
		if err != nil {
			return f, Hunk{}, err
		}
		if ok {
			if h, ok := wf.find(text); ok {
				return wf, h, nil
			}
		}
		header, _, _ = strings.Cut(text, "\n")
		return f, Hunk{}, &StaleHunkError{File: file, Header: header}
	}
	for i, cm := range c.Comments {
		if cm.File == "" {
			continue
		}
		_, h, err := locate(cm.File, cm.Hunk, cm.Index, cm.Header)
		if err != nil {
			return c, nil, err
		}
		c.Comments[i].Index, c.Comments[i].Header = h.Index, h.Header
		if cm.Hunk == "" && h.Index > 0 {
			c.Comments[i].Hunk = excerpt(h, cm)
		}
		if cm.Line == 0 && h.NewStart > 0 {
			c.Comments[i].Line = h.NewStart
		}
	}
	drops := make([]task.HunkDrop, 0, len(c.Drops))
	for i, d := range c.Drops {
		f, h, err := locate(d.File, d.Hunk, d.Index, d.Header)
		if err != nil {
			return c, nil, err
		}
		c.Drops[i].Index, c.Drops[i].Header = h.Index, h.Header
		if d.Hunk == "" && h.Index > 0 {
			c.Drops[i].Hunk = excerpt(h, Comment{})
		}
		drops = append(drops, task.HunkDrop{File: f.Path, Index: h.Index, Header: h.Header, Patch: f.dropPatch(h)})
	}
	SortDrops(drops)
	if err := s.checkDrops(ctx, t.Repo, head, drops); err != nil {
		return c, nil, err
	}
	return c, drops, nil
}

// SortDrops orders drops the way a fix run reverts them: by file, and in
// a file the last hunk first, so every hunk's line numbers still hold.
func SortDrops(drops []task.HunkDrop) {
	sort.SliceStable(drops, func(i, j int) bool {
		if drops[i].File != drops[j].File {
			return drops[i].File < drops[j].File
		}
		return drops[i].Index > drops[j].Index
	})
}

// whitespaceFiles reads the files' patches with whitespace ignored (the
// Review screen's "Ignore whitespace").
func (s *Service) whitespaceFiles(ctx context.Context, t task.Task, paths []string) ([]FileHunks, error) {
	base, head, err := s.DiffRange(ctx, t, false)
	if err != nil {
		return nil, err
	}
	m := worktree.NewManager(s.git, s.now)
	fcs, err := m.Files(ctx, t.Repo, base, head)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	out := []FileHunks{}
	for _, f := range fcs {
		if !want[f.Path] && !want[f.OldPath] {
			continue
		}
		p, err := m.ChangePatchWith(ctx, t.Repo, base, head, f, worktree.PatchOptions{IgnoreWhitespace: true})
		if err != nil {
			return nil, err
		}
		out = append(out, splitFile(worktree.FilePatch{FileChange: f, Patch: p}))
	}
	return out, nil
}

// checkDrops reverse-applies the drops, in order, to the tree of head in
// a temporary index; the first that does not apply gives a
// *worktree.DropError.
func (s *Service) checkDrops(ctx context.Context, repo, head string, drops []task.HunkDrop) error {
	if len(drops) == 0 {
		return nil
	}
	top, err := s.git.TopLevel(ctx, repo)
	if err != nil {
		return fmt.Errorf("check drops: %w", err)
	}
	tmp, err := tmpdir.Make("boof-drops-")
	if err != nil {
		return fmt.Errorf("check drops: %w", err)
	}
	defer os.RemoveAll(tmp)
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	if _, err := s.git.RunEnv(ctx, top, env, "read-tree", head); err != nil {
		return fmt.Errorf("check drops: %w", err)
	}
	for _, d := range drops {
		_, err := s.git.Exec(ctx, gitx.Cmd{Dir: top, Env: env, Args: []string{"apply", "--cached", "-R"}, Input: []byte(d.Patch)})
		if err != nil {
			return &worktree.DropError{File: d.File, Index: d.Index, Header: d.Header, Detail: gitDetail(err)}
		}
	}
	return nil
}

func uniq(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
