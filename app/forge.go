package app

import (
	"context"
	"errors"
	"time"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/pullreq"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// EventPullRequestPrefix + a task id says that task's pull request record
// changed (a push, an open, a sync that learnt something, a close).
const EventPullRequestPrefix = "pr:changed:"

// ForgeService is a task's pushed branch and pull request (a merge
// request on GitLab) in the window: push, open, follow, pull the review's
// comments into a fix run, close; tasks made from issues; forge tokens.
// The Review screen's Push and Open pull request buttons, its pull request
// panel and the New task form's "from issue" field call it.
type ForgeService struct {
	svc   *pullreq.Service
	git   *gitx.Git
	store *store.Store
	emit  Emitter
	ctx   func() context.Context
	wake  func()
}

// NewForgeService builds the service. A task from an issue runs where
// svc's intake resolves it (the settings' working directory).
func NewForgeService(svc *pullreq.Service, g *gitx.Git, st *store.Store, emit Emitter, ctx func() context.Context, opts ...Option) *ForgeService {
	o := applyOptions(opts)
	return &ForgeService{svc: svc, git: g, store: st, emit: emit, ctx: ctx, wake: o.wake}
}

// PullRequestView is a task's pull request as the panel shows it.
type PullRequestView struct {
	TaskID string `json:"task_id"`
	// Pushed: the task's branch was pushed; the rest is empty otherwise.
	Pushed bool `json:"pushed"`
	// Remote and Branch are where it was pushed; PushedSHA what the
	// remote reported after the last push.
	Remote    string `json:"remote"`
	Branch    string `json:"branch"`
	PushedSHA string `json:"pushed_sha"`
	// Forge is "github", "gitlab" or "" (a remote on no known forge: no
	// pull request can be opened there).
	Forge   string `json:"forge"`
	Host    string `json:"host"`
	Project string `json:"project"`
	// Number is 0 until a pull request is opened.
	Number int    `json:"number"`
	URL    string `json:"url"`
	// State is "open", "draft", "merged", "closed", "gone" or "".
	State string `json:"state"`
	// Review is "approved", "changes_requested", "review_required" or "".
	Review   string      `json:"review"`
	Checks   []CheckView `json:"checks"`
	MergeSHA string      `json:"merge_sha"`
	// Problem is the last sync's failure, one sentence ("" when none).
	Problem string `json:"problem"`
	// SyncedAt is when the forge was last read (RFC 3339; "" never).
	SyncedAt string `json:"synced_at"`
	// Issue is the issue the task was made from, when it was.
	Issue *IssueView `json:"issue,omitempty"`
}

// CheckView is one CI check of the pull request's head.
type CheckView struct {
	Name string `json:"name"`
	// State is "pending", "success", "failure" or "neutral".
	State string `json:"state"`
	URL   string `json:"url"`
}

// IssueView is the issue a task was made from.
type IssueView struct {
	Number int    `json:"number"`
	URL    string `json:"url"`
	Title  string `json:"title"`
}

// RemoteView is a remote of the task's repository.
type RemoteView struct {
	Name string `json:"name"`
	// URL is where pushes go, without credentials.
	URL string `json:"url"`
	// Forge is the kind of forge the remote is on ("github", "gitlab"), ""
	// when it is on none Boof Runner knows: the window names the request
	// ("merge request" on GitLab) before one is opened.
	Forge string `json:"forge"`
}

// PushInput chooses where a push goes ("" = as before, or settings).
type PushInput struct {
	Remote string `json:"remote"`
	Branch string `json:"branch"`
}

// PushResult is what a push did.
type PushResult struct {
	PullRequest PullRequestView `json:"pull_request"`
	// Kind is "new", "fast-forward", "forced" or "up-to-date" (nothing sent).
	Kind string `json:"kind"`
}

// OpenInput is the Open pull request dialog; nil and empty take settings.
type OpenInput struct {
	Remote    string   `json:"remote"`
	Branch    string   `json:"branch"`
	Draft     *bool    `json:"draft,omitempty"`
	Labels    []string `json:"labels"`
	Reviewers []string `json:"reviewers"`
}

// OpenResult is what opening did.
type OpenResult struct {
	PullRequest PullRequestView `json:"pull_request"`
	// Existing: one was open already; no second was made.
	Existing bool `json:"existing"`
	// Problem: what failed after it was opened (labels, reviewers).
	Problem string `json:"problem"`
}

// SyncResult is what a refresh learnt.
type SyncResult struct {
	PullRequest PullRequestView `json:"pull_request"`
	// Accepted: merged, and the task moved to accepted.
	Accepted bool `json:"accepted"`
	// Renamed is the head branch's old name when the forge renamed it.
	Renamed string `json:"renamed"`
	// Pushed is the kind of the fix run's push the refresh made ("" none).
	Pushed string `json:"pushed"`
}

// FixResult is the fix run queued from the review's comments.
type FixResult struct {
	Fix      int `json:"fix"`
	Comments int `json:"comments"`
}

// IssueTaskInput is the New task form with an issue's address.
type IssueTaskInput struct {
	URL string `json:"url"`
	// Title and Labels, when set, win over the issue's.
	Title    string   `json:"title"`
	Labels   []string `json:"labels"`
	Priority int      `json:"priority"`
	Base     string   `json:"base"`
	// Repo is the repository the task runs in (an absolute path, as the
	// New task form's); "" is the settings' working directory.
	Repo string `json:"repo"`
}

// TokenResult says where a stored token went: "keyring" or "file" (with
// its path).
type TokenResult struct {
	Kind string `json:"kind"`
	Path string `json:"path"`
}

func (f *ForgeService) view(ctx context.Context, r pullreq.Record) PullRequestView {
	v := PullRequestView{TaskID: r.TaskID, Pushed: true, Remote: r.Remote, Branch: r.Head, PushedSHA: r.PushedSHA,
		Forge: r.Forge, Host: r.Host, Project: r.Project, Number: r.Number, URL: r.URL, State: r.State, Review: r.Review,
		Checks: make([]CheckView, 0, len(r.Checks)), MergeSHA: r.MergeSHA, Problem: r.Problem}
	for _, c := range r.Checks {
		v.Checks = append(v.Checks, CheckView{Name: c.Name, State: c.State, URL: c.URL})
	}
	if !r.SyncedAt.IsZero() {
		v.SyncedAt = r.SyncedAt.UTC().Format(time.RFC3339)
	}
	if l, ok, err := f.store.Issue(ctx, r.TaskID); err == nil && ok {
		v.Issue = &IssueView{Number: l.Number, URL: l.URL, Title: l.Title}
	}
	return v
}

// changed tells the UI the task and its pull request changed.
func (f *ForgeService) changed(taskID string) {
	f.emit.Emit(EventTasksChanged)
	f.emit.Emit(EventPullRequestPrefix + taskID)
}

// PullRequest returns the task's pull request as last synced; a task never
// pushed gives Pushed false (no error).
func (f *ForgeService) PullRequest(taskID string) (PullRequestView, error) {
	ctx := f.ctx()
	r, err := f.svc.Show(ctx, taskID)
	var np *pullreq.NotPushedError
	if errors.As(err, &np) {
		v := PullRequestView{TaskID: taskID, Checks: []CheckView{}}
		if l, ok, err := f.store.Issue(ctx, taskID); err == nil && ok {
			v.Issue = &IssueView{Number: l.Number, URL: l.URL, Title: l.Title}
		}
		return v, nil
	}
	if err != nil {
		return PullRequestView{}, userError(err)
	}
	return f.view(ctx, r), nil
}

// Remotes lists the remotes of the task's repository (the Push dialog).
func (f *ForgeService) Remotes(taskID string) ([]RemoteView, error) {
	ctx := f.ctx()
	t, err := f.store.GetTask(ctx, taskID)
	if err != nil {
		return nil, userError(err)
	}
	rs, err := f.git.Remotes(ctx, t.Repo)
	if err != nil {
		return nil, userError(err)
	}
	out := make([]RemoteView, 0, len(rs))
	for _, r := range rs {
		out = append(out, RemoteView{Name: r.Name, URL: forge.RedactURL(r.Push()), Forge: string(f.svc.ForgeOf(r.Push()))})
	}
	return out, nil
}

// Push pushes the task's branch (never over someone else's commits).
func (f *ForgeService) Push(taskID string, in PushInput) (PushResult, error) {
	ctx := f.ctx()
	out, err := f.svc.Push(ctx, taskID, pullreq.PushOptions{Remote: in.Remote, Branch: in.Branch})
	if err != nil {
		return PushResult{}, userError(err)
	}
	f.changed(taskID)
	return PushResult{PullRequest: f.view(ctx, out.Record), Kind: out.Kind}, nil
}

// Open pushes the task and opens its pull request (none more when one is
// open already).
func (f *ForgeService) Open(taskID string, in OpenInput) (OpenResult, error) {
	ctx := f.ctx()
	out, err := f.svc.Open(ctx, taskID, pullreq.OpenOptions{PushOptions: pullreq.PushOptions{Remote: in.Remote, Branch: in.Branch},
		Draft: in.Draft, Labels: nilIfEmpty(in.Labels), Reviewers: nilIfEmpty(in.Reviewers)})
	if err != nil {
		return OpenResult{}, userError(err)
	}
	f.changed(taskID)
	return OpenResult{PullRequest: f.view(ctx, out.Record), Existing: out.Existing, Problem: out.Problem}, nil
}

// Sync reads the task's pull request again now (Refresh).
func (f *ForgeService) Sync(taskID string) (SyncResult, error) {
	ctx := f.ctx()
	out, err := f.svc.Sync(ctx, taskID)
	if err != nil {
		return SyncResult{}, userError(err)
	}
	f.changed(taskID)
	return SyncResult{PullRequest: f.view(ctx, out.Record), Accepted: out.Accepted, Renamed: out.Renamed, Pushed: out.Pushed}, nil
}

// RequestChanges pulls the review comments not pulled before into a fix
// run; its commits go to the same pull request when it is done.
func (f *ForgeService) RequestChanges(taskID string) (FixResult, error) {
	q, err := f.svc.RequestChanges(f.ctx(), taskID)
	if err != nil {
		return FixResult{}, userError(err)
	}
	f.wake()
	f.changed(taskID)
	return FixResult{Fix: q.Fix, Comments: q.Comments}, nil
}

// Close closes the task's pull request, and with deleteBranch deletes its
// pushed branch (kept when someone pushed to it).
func (f *ForgeService) Close(taskID string, deleteBranch bool) (PullRequestView, error) {
	ctx := f.ctx()
	out, err := f.svc.Close(ctx, taskID, deleteBranch)
	if err != nil {
		return PullRequestView{}, userError(err)
	}
	f.changed(taskID)
	return f.view(ctx, out.Record), nil
}

// CreateFromIssue makes a pending task from a GitHub or GitLab issue, in
// in.Repo, else the working directory of the settings (backend/intake
// resolves and checks it before the forge is asked, as for every task).
func (f *ForgeService) CreateFromIssue(in IssueTaskInput) (task.Task, error) {
	n := task.NewTask{Title: in.Title, Labels: in.Labels, Priority: in.Priority, Base: in.Base, Repo: in.Repo, Prompt: "(the issue)"}
	if _, err := n.Normalize(); err != nil {
		return task.Task{}, userError(err)
	}
	t, err := f.svc.FromIssue(f.ctx(), in.URL, n)
	if err != nil {
		return task.Task{}, userError(err)
	}
	f.wake()
	f.emit.Emit(EventTasksChanged)
	return t, nil
}

// SetToken stores a forge host's token (the keyring, else the 0600 token
// file) and says where.
func (f *ForgeService) SetToken(host, token string) (TokenResult, error) {
	src, err := f.svc.Login(f.ctx(), host, token)
	if err != nil {
		return TokenResult{}, userError(err)
	}
	return TokenResult{Kind: src.Kind, Path: src.Name}, nil
}

// ForgetToken removes a forge host's stored token.
func (f *ForgeService) ForgetToken(host string) error {
	_, err := f.svc.Logout(f.ctx(), host)
	return userError(err)
}

// ReviewRequests counts the open pull requests waiting for the review of
// the tokens' users, as last polled (the tray's Review queue adds them).
func (f *ForgeService) ReviewRequests() (int, error) { return f.svc.ReviewRequests(), nil }

// PollPullRequests follows the open pull requests until ctx ends (the
// desktop shell runs it): each is read every forge.pollSeconds, checked
// every tick, and a change reaches the UI as tasks:changed and
// pr:changed:<id>. (A function, not a method: bound services' methods are
// the UI's.)
func PollPullRequests(ctx context.Context, svc *pullreq.Service, emit Emitter, tick time.Duration) {
	svc.Poll(ctx, tick, func(taskID string) {
		emit.Emit(EventTasksChanged)
		emit.Emit(EventPullRequestPrefix + taskID)
	})
}

func nilIfEmpty(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	return xs
}
