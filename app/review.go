package app

import (
	"context"
	"errors"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// patchInlineLimit is the largest patch FilePatch returns without "show anyway".
const patchInlineLimit = 512 << 10

// ReviewService is the diff review of a task and the decision on it.
type ReviewService struct {
	git   *gitx.Git
	store *store.Store
	diff  *worktree.Manager
	rev   *review.Service
	emit  Emitter
	ctx   func() context.Context
	// wake tells the runner a fix run was queued (WithWake).
	wake func()
	// lists keeps the file lists of the last diffs read; patches the
	// patches of the last files read.
	lists   recent[[]worktree.FileChange]
	patches recent[string]
}

// NewReviewService builds the service.
func NewReviewService(g *gitx.Git, s *store.Store, diff *worktree.Manager, rev *review.Service, emit Emitter, ctx func() context.Context, opts ...Option) *ReviewService {
	o := applyOptions(opts)
	return &ReviewService{git: g, store: s, diff: diff, rev: rev, emit: emit, ctx: ctx, wake: o.wake,
		lists: recent[[]worktree.FileChange]{max: maxFileLists}, patches: recent[string]{max: maxPatches}}
}

// DiffFile is one changed file of a task.
type DiffFile struct {
	Path      string `json:"path"`
	OldPath   string `json:"old_path,omitempty"`
	Change    string `json:"change"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Binary    bool   `json:"binary"`
	// Similarity is a rename's or copy's score in percent.
	Similarity int `json:"similarity,omitempty"`
	// OldMode and NewMode are the file's git modes ("100644", "100755",
	// "120000" for a link; "000000" when absent); ModeChanged is set when
	// an existing file's mode changed (e.g. it became executable).
	OldMode     string `json:"old_mode"`
	NewMode     string `json:"new_mode"`
	ModeChanged bool   `json:"mode_changed"`
	// Hash names the file's content at the end of the change: a viewed
	// mark (SaveDraft) holds it, and the mark is dropped once it differs.
	Hash string `json:"hash"`
	// Language is the highlight.js language its path suggests ("" none).
	Language string `json:"language"`
}

// diffFile is the view of one file change.
func diffFile(f worktree.FileChange) DiffFile {
	return DiffFile{Path: f.Path, OldPath: f.OldPath, Change: changeName(f.Status), Additions: f.Added, Deletions: f.Removed,
		Binary: f.Binary, Similarity: f.Similarity, OldMode: f.OldMode, NewMode: f.NewMode, ModeChanged: f.ModeChanged,
		Hash: f.ContentHash(), Language: worktree.Language(f.Path)}
}

// DiffSummary is a task's file list: branch head against its base.
type DiffSummary struct {
	TaskID string     `json:"task_id"`
	Base   string     `json:"base"`
	Head   string     `json:"head"`
	Files  []DiffFile `json:"files"`
}

// FilePatch is one file's unified patch.
type FilePatch struct {
	Path     string `json:"path"`
	Patch    string `json:"patch"`
	Binary   bool   `json:"binary"`
	TooLarge bool   `json:"too_large"`
	Bytes    int    `json:"bytes"`
}

// changeNames maps the diff model's statuses to the UI's four kinds.
func changeName(s worktree.Status) string {
	switch s {
	case worktree.Added, worktree.Deleted, worktree.Renamed:
		return string(s)
	}
	if string(s) == "copied" {
		return "added"
	}
	return "modified"
}

// files loads the task and its changed files (task branch against its base,
// or the leftovers branch against the task branch).
func (r *ReviewService) files(ctx context.Context, taskID string, leftovers bool) (task.Task, DiffSummary, []worktree.FileChange, error) {
	t, err := r.store.GetTask(ctx, taskID)
	if err != nil {
		return t, DiffSummary{}, nil, userError(err)
	}
	base, head, err := r.rev.DiffRange(ctx, t, leftovers)
	if err != nil {
		return t, DiffSummary{}, nil, userError(err)
	}
	if sha, err := r.git.ResolveCommit(ctx, t.Repo, head); err == nil {
		head = sha // show the commit, not the ref name, and list it
	}
	if sha, err := r.git.ResolveCommit(ctx, t.Repo, base); err == nil {
		base = sha // the task branch's commit, for the leftovers
	}
	fcs, err := r.listFiles(ctx, t.Repo, base, head)
	if err != nil {
		return t, DiffSummary{}, nil, userError(err)
	}
	sum := DiffSummary{TaskID: taskID, Base: base, Head: head, Files: make([]DiffFile, 0, len(fcs))}
	for _, f := range fcs {
		sum.Files = append(sum.Files, diffFile(f))
	}
	return t, sum, fcs, nil
}

// Summary lists the task branch's changed files against its base.
func (r *ReviewService) Summary(taskID string) (DiffSummary, error) {
	_, sum, _, err := r.files(r.ctx(), taskID, false)
	return sum, err
}

// LeftoversSummary lists what the leftovers branch adds on top of the task branch.
func (r *ReviewService) LeftoversSummary(taskID string) (DiffSummary, error) {
	_, sum, _, err := r.files(r.ctx(), taskID, true)
	return sum, err
}

// FilePatch returns one file's patch; a patch over the inline limit comes
// back too_large (with its size) unless force.
func (r *ReviewService) FilePatch(taskID, path string, force bool) (FilePatch, error) {
	return r.FilePatchWith(taskID, path, PatchRequest{Force: force})
}

// LeftoversFilePatch is FilePatch on the leftovers branch.
func (r *ReviewService) LeftoversFilePatch(taskID, path string, force bool) (FilePatch, error) {
	return r.FilePatchWith(taskID, path, PatchRequest{Force: force, Leftovers: true})
}

// PatchRequest says which patch of a file FilePatchWith returns.
type PatchRequest struct {
	// Force returns a patch over the inline limit in full ("show anyway").
	Force bool `json:"force"`
	// IgnoreWhitespace hides whitespace-only changes (git diff -w).
	IgnoreWhitespace bool `json:"ignore_whitespace"`
	// Leftovers takes the file from the leftovers branch.
	Leftovers bool `json:"leftovers"`
}

// FilePatchWith returns one file's patch with options.
func (r *ReviewService) FilePatchWith(taskID, path string, o PatchRequest) (FilePatch, error) {
	ctx := r.ctx()
	force := o.Force
	t, sum, fcs, err := r.files(ctx, taskID, o.Leftovers)
	if err != nil {
		return FilePatch{}, err
	}
	for _, f := range fcs {
		if f.Path != path && f.OldPath != path {
			continue
		}
		if f.Binary {
			return FilePatch{Path: f.Path, Binary: true}, nil
		}
		p, err := r.diff.ChangePatchWith(ctx, t.Repo, sum.Base, sum.Head, f, worktree.PatchOptions{IgnoreWhitespace: o.IgnoreWhitespace})
		if err != nil {
			return FilePatch{}, userError(err)
		}
		out := FilePatch{Path: f.Path, Bytes: len(p)}
		if len(p) > patchInlineLimit && !force {
			out.TooLarge = true
			return out, nil
		}
		out.Patch = strings.ToValidUTF8(p, "\uFFFD")
		return out, nil
	}
	return FilePatch{}, userError(&usererr.Edge{Kind: usererr.NotChanged, Path: path})
}

// Commits lists the task branch's commits (or the leftovers commit).
func (r *ReviewService) Commits(taskID string, leftovers bool) ([]review.CommitInfo, error) {
	ctx := r.ctx()
	t, err := r.store.GetTask(ctx, taskID)
	if err != nil {
		return nil, userError(err)
	}
	base, _, err := r.rev.DiffRange(ctx, t, false)
	if err != nil {
		return nil, userError(err)
	}
	cs, err := r.rev.TaskCommits(ctx, t.Repo, taskID, base, leftovers)
	if err != nil {
		return nil, userError(err)
	}
	if cs == nil {
		cs = []review.CommitInfo{}
	}
	return cs, nil
}

// AcceptInput is the accept dialog.
type AcceptInput struct {
	Target   string `json:"target"`
	Strategy string `json:"strategy"`
	// Message is the merge or squash commit's message; blank takes the
	// default AcceptMessage returns.
	Message          string `json:"message"`
	IncludeLeftovers bool   `json:"include_leftovers"`
	// ExpectTarget is the target commit the dry run showed.
	ExpectTarget string `json:"expect_target"`
	// Only, when set, accepts just these files and hunks of the task's
	// diff (numbered as the Review screen numbers them) as one squash
	// commit; ExpectHead is the task branch commit that diff was of.
	Only       []review.Selection `json:"only"`
	ExpectHead string             `json:"expect_head"`
}

func (r *ReviewService) request(ctx context.Context, taskID string, in AcceptInput) (review.Request, error) {
	t, err := r.store.GetTask(ctx, taskID)
	if err != nil {
		return review.Request{}, userError(err)
	}
	st, err := review.ParseStrategy(in.Strategy)
	if err != nil {
		return review.Request{}, userError(err)
	}
	target := in.Target
	if target == "" {
		if target, err = r.rev.DefaultTarget(ctx, t.Repo, t.Base); err != nil {
			return review.Request{}, userError(err)
		}
	}
	unverified, err := r.store.UnverifiedReason(ctx, taskID)
	if err != nil {
		return review.Request{}, userError(err)
	}
	msg := in.Message
	if strings.TrimSpace(msg) == "" { // the dialog's placeholder: AcceptMessage
		if msg, err = review.TaskMessage(ctx, r.store, st, t); err != nil {
			return review.Request{}, userError(err)
		}
	}
	req := review.Request{Repo: t.Repo, TaskID: taskID, Status: t.Status, Target: target, Strategy: st,
		Message: msg, IncludeLeftovers: in.IncludeLeftovers, ExpectTarget: in.ExpectTarget,
		Only: in.Only, ExpectHead: in.ExpectHead, Unverified: unverified}
	if len(in.Only) > 0 {
		if req.Base, _, err = r.rev.DiffRange(ctx, t, false); err != nil {
			return review.Request{}, userError(err)
		}
	}
	return req, nil
}

// AcceptMessage returns the commit message an accept of the task with
// strategy makes when the dialog's message is left empty (its
// placeholder): the task's title, then its reviewer's summary — the same
// message as the CLI's accept and the merge queue's. A rebase keeps the
// task's own messages: "".
func (r *ReviewService) AcceptMessage(taskID, strategy string) (string, error) {
	ctx := r.ctx()
	t, err := r.store.GetTask(ctx, taskID)
	if err != nil {
		return "", userError(err)
	}
	st, err := review.ParseStrategy(strategy)
	if err != nil {
		return "", userError(err)
	}
	msg, err := review.TaskMessage(ctx, r.store, st, t)
	return msg, userError(err)
}

// PlanAccept is the dry run: what an accept would do, conflicts and dirty
// files included. It never changes anything.
func (r *ReviewService) PlanAccept(taskID string, in AcceptInput) (review.Plan, error) {
	ctx := r.ctx()
	req, err := r.request(ctx, taskID, in)
	if err != nil {
		return review.Plan{}, err
	}
	plan, err := r.rev.Plan(ctx, req)
	var ce *review.ConflictError
	var de *review.DirtyError
	if errors.As(err, &ce) || errors.As(err, &de) {
		return plan, nil // the plan lists them; the dialog shows them
	}
	return plan, userError(err)
}

// Accept brings the task's work into the target branch.
func (r *ReviewService) Accept(taskID string, in AcceptInput) (review.AcceptRecord, error) {
	ctx := r.ctx()
	req, err := r.request(ctx, taskID, in)
	if err != nil {
		return review.AcceptRecord{}, err
	}
	rec, err := r.rev.Accept(ctx, req, review.StoreRecorder{Store: r.store})
	if err != nil {
		return review.AcceptRecord{}, userError(err)
	}
	r.emit.Emit(EventTasksChanged)
	return rec, nil
}

// UndoAccept moves the target back while it still points at the accept.
func (r *ReviewService) UndoAccept(taskID string) error {
	ctx := r.ctx()
	t, err := r.store.GetTask(ctx, taskID)
	if err != nil {
		return userError(err)
	}
	recorder := review.StoreRecorder{Store: r.store}
	// An accept a crash cut short is completed (or rolled back) first, so
	// that the accept to undo is the one the target holds.
	res, err := r.rev.Reconcile(ctx, recorder)
	if err != nil {
		return userError(err)
	}
	for _, x := range res {
		_ = recorder.NoteResolution(ctx, x)
	}
	last, err := recorder.LastAccept(ctx, taskID)
	if err != nil {
		return userError(err)
	}
	if err := r.rev.Undo(ctx, review.UndoRequest{Repo: t.Repo, TaskID: taskID, Status: t.Status, Record: last}, recorder); err != nil {
		return userError(err)
	}
	r.emit.Emit(EventTasksChanged)
	return nil
}

// Reject marks the task rejected; its branches are kept.
func (r *ReviewService) Reject(taskID string) error {
	ctx := r.ctx()
	t, err := r.store.GetTask(ctx, taskID)
	if err != nil {
		return userError(err)
	}
	if _, err := r.rev.Reject(ctx, review.RejectRequest{Repo: t.Repo, TaskID: taskID, Status: t.Status}, review.StoreRecorder{Store: r.store}); err != nil {
		return userError(err)
	}
	r.emit.Emit(EventTasksChanged)
	return nil
}

// RequestChanges sends the task back to its developer with the user's
// review: a fix run that starts at the developer with the general comment
// and each hunk comment in its prompt (a "## Human review" section), after
// the dropped hunks were reverted in "Drop hunk" commits. A hunk the
// diff no longer has, or a drop that no longer reverse-applies, is
// refused and nothing changes.
func (r *ReviewService) RequestChanges(taskID string, c review.ChangeRequest) (review.Queued, error) {
	ctx := r.ctx()
	t, err := r.store.GetTask(ctx, taskID)
	if err != nil {
		return review.Queued{}, userError(err)
	}
	q, err := r.rev.RequestChanges(ctx, t, c, review.StoreRecorder{Store: r.store})
	if err != nil {
		return review.Queued{}, userError(err)
	}
	r.wake() // the fix run starts now, not at the runner's next poll
	r.emit.Emit(EventTasksChanged)
	return q, nil
}

// TaskBranches lists the task's branches (task branch, leftovers) with the
// commits only they hold, for the reject dialog's "delete branches" choice.
func (r *ReviewService) TaskBranches(taskID string) ([]review.Branch, error) {
	ctx := r.ctx()
	t, err := r.store.GetTask(ctx, taskID)
	if err != nil {
		return nil, userError(err)
	}
	bs, err := r.rev.TaskBranches(ctx, t.Repo, taskID)
	if err != nil {
		return nil, userError(err)
	}
	if bs == nil {
		bs = []review.Branch{}
	}
	return bs, nil
}

// RejectDeletingBranches rejects the task and deletes its branches; confirm
// must be exactly what TaskBranches listed (a branch that moved or appeared
// since refuses the whole reject, changing nothing).
func (r *ReviewService) RejectDeletingBranches(taskID string, confirm []review.Branch) (review.RejectRecord, error) {
	ctx := r.ctx()
	t, err := r.store.GetTask(ctx, taskID)
	if err != nil {
		return review.RejectRecord{}, userError(err)
	}
	rec, err := r.rev.Reject(ctx, review.RejectRequest{Repo: t.Repo, TaskID: taskID, Status: t.Status, DeleteBranches: true, Confirm: confirm},
		review.StoreRecorder{Store: r.store})
	if err != nil {
		return review.RejectRecord{}, userError(err)
	}
	r.emit.Emit(EventTasksChanged)
	return rec, nil
}
