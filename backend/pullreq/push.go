package pullreq

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// PushOptions choose where a push goes; "" keeps what the task was pushed
// to before, else settings (forge.remote, forge.branch), else the default.
type PushOptions struct {
	// Remote is a remote's name.
	Remote string `json:"remote"`
	// Branch is the branch name on the remote.
	Branch string `json:"branch"`
}

// Pushed is what a push did.
type Pushed struct {
	Record Record `json:"record"`
	// Kind is "new", "fast-forward", "forced" or "up-to-date" (nothing was
	// sent: the remote had the commit already).
	Kind string `json:"kind"`
}

// Failpoints of a push: FailBeforePush once the task's branch and the
// target are known, FailPushed once the remote took the commit and before
// the record says so.
const (
	FailBeforePush = "pullreq:before-push"
	FailPushed     = "pullreq:pushed"
)

// Push pushes the task branch (boof-runner/<id>) to its remote under the
// branch name of o, settings or the task's earlier push, with
// --force-with-lease on what the remote reports now: a branch that holds
// commits that are not the task's is refused (*ForeignCommitsError), and
// one someone pushes to meanwhile too (*gitx.PushRejectedError). What is
// recorded is what the remote reported, so a push cut short (Ctrl-C, a
// lost connection) leaves a state the next one understands: a commit the
// remote has already is never sent twice. Errors: the store's, a
// *store.StatusError for a running task, *NoBranchError, *NoRemoteError,
// *PushedElsewhereError, *MergedError, gitx's (ErrAuthRequired ...),
// *forge.UnreachableError for the timeout.
func (s *Service) Push(ctx context.Context, taskID string, o PushOptions) (Pushed, error) {
	t, err := s.task(ctx, taskID)
	if err != nil {
		return Pushed{}, err
	}
	if t.Status == task.StatusOngoing {
		return Pushed{}, &store.StatusError{Op: "push", TaskID: t.ID, Status: t.Status,
			Allowed: []task.Status{task.StatusDone, task.StatusAccepted, task.StatusRejected, task.StatusFailed, task.StatusStopped}}
	}
	local := "refs/heads/" + review.TaskBranch(t.ID)
	sha, ok, err := s.d.Git.RefSHA(ctx, t.Repo, local)
	if err != nil {
		return Pushed{}, err
	}
	if !ok {
		return Pushed{}, &NoBranchError{TaskID: t.ID, Branch: review.TaskBranch(t.ID)}
	}
	rec, err := s.d.Store.PullRequest(ctx, t.ID)
	had := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Pushed{}, err
	}
	if had && rec.State == "merged" {
		return Pushed{}, &MergedError{Number: rec.Number, URL: rec.URL}
	}
	rec, err = s.target(ctx, t, rec, had, o)
	if err != nil {
		return Pushed{}, err
	}
	failpoint.Hit(FailBeforePush)
	kind, err := s.pushLeased(ctx, t, &rec, sha)
	if err != nil {
		return Pushed{}, err
	}
	failpoint.Hit(FailPushed)
	rec.TaskID = t.ID
	// The remote has it now: the record is written whatever ended ctx
	// since (a SIGINT, SIGTERM or SIGHUP), so it agrees with the remote.
	if err := s.d.Store.SavePullRequest(context.WithoutCancel(ctx), rec); err != nil {
		return Pushed{}, err
	}
	if kind != "up-to-date" && rec.Open() {
		s.note(ctx, rec, fmt.Sprintf("Boof Runner pushed %s to `%s`.", short(sha), rec.Head))
	}
	return Pushed{Record: rec, Kind: kind}, nil
}

// target fills in where the push goes: remote, branch, base, and the
// forge project of the remote's URL ("" forge: a remote on no known forge).
func (s *Service) target(ctx context.Context, t task.Task, rec Record, had bool, o PushOptions) (Record, error) {
	fs := s.forgeSettings()
	remote, branch := o.Remote, o.Branch
	if had && rec.Open() && (remote != "" && remote != rec.Remote || branch != "" && branch != rec.Head) {
		return rec, &PushedElsewhereError{Remote: rec.Remote, Branch: rec.Head, Number: rec.Number}
	}
	if remote == "" && had {
		remote = rec.Remote
	}
	if branch == "" && had {
		branch = rec.Head
	}
	if remote == "" {
		remote = fs.Remote
	}
	target, err := s.d.Review.DefaultTarget(ctx, t.Repo, t.Base)
	if err != nil && !errors.Is(err, review.ErrNoTarget) {
		return rec, err
	}
	r, err := s.remote(ctx, t.Repo, remote, target)
	if err != nil {
		return rec, err
	}
	if branch == "" {
		branch = fs.BranchName(t.ID, Slug(t))
	}
	if had && rec.Number > 0 && rec.Open() {
		s.followRename(ctx, &rec)
		branch = rec.Head
	}
	rec.Remote, rec.Head = r.Name, branch
	if rec.Base == "" {
		rec.Base = target
	}
	rec.Forge, rec.Host, rec.Project = "", "", ""
	if p, err := forge.ParseRemote(r.Push(), s.hosts()); err == nil {
		rec.Forge, rec.Host, rec.Project = string(p.Kind), p.Host, p.Path
	}
	return rec, nil
}

// ForgeOf returns the kind of forge a remote URL is on (the known hosts
// and the settings' forge.hosts), "" for a remote on no known forge.
func (s *Service) ForgeOf(remoteURL string) forge.Kind {
	p, err := forge.ParseRemote(remoteURL, s.hosts())
	if err != nil {
		return ""
	}
	return p.Kind
}

// remote picks the remote: the one named, else the target branch's
// upstream remote, else the only remote, else origin.
func (s *Service) remote(ctx context.Context, repo, name, target string) (gitx.Remote, error) {
	rs, err := s.d.Git.Remotes(ctx, repo)
	if err != nil {
		return gitx.Remote{}, err
	}
	names := make([]string, 0, len(rs))
	for _, r := range rs {
		names = append(names, r.Name)
	}
	find := func(n string) (gitx.Remote, bool) {
		i := slices.Index(names, n)
		if i < 0 {
			return gitx.Remote{}, false
		}
		return rs[i], true
	}
	if name != "" {
		if r, ok := find(name); ok {
			return r, nil
		}
		return gitx.Remote{}, &NoRemoteError{Repo: repo, Name: name, Remotes: names}
	}
	if target != "" {
		if up, err := s.d.Git.UpstreamRemote(ctx, repo, target); err == nil && up != "" {
			if r, ok := find(up); ok {
				return r, nil
			}
		}
	}
	if len(rs) == 1 {
		return rs[0], nil
	}
	if r, ok := find("origin"); ok {
		return r, nil
	}
	return gitx.Remote{}, &NoRemoteError{Repo: repo, Remotes: names, Target: target}
}

// pushLeased pushes sha under the lease of what the remote has now and
// records what the remote reported.
func (s *Service) pushLeased(ctx context.Context, t task.Task, rec *Record, sha string) (string, error) {
	var kind string
	err := s.withTimeout(ctx, rec.Remote, func(ctx context.Context) error {
		there, exists, err := s.d.Git.RemoteBranch(ctx, t.Repo, rec.Remote, rec.Head)
		if err != nil {
			return err
		}
		lease := ""
		switch {
		case exists && there == sha:
			rec.PushedSHA, kind = sha, "up-to-date"
			return nil
		case exists:
			mine, err := s.d.Git.IsAncestor(ctx, t.Repo, there, sha)
			if err != nil {
				return err
			}
			if !mine && there != rec.PushedSHA {
				return &ForeignCommitsError{Remote: rec.Remote, Branch: rec.Head, SHA: there}
			}
			lease = there
		}
		res, err := s.d.Git.Push(ctx, t.Repo, gitx.PushSpec{Remote: rec.Remote, SHA: sha, Branch: rec.Head, Lease: lease})
		if err != nil {
			return err
		}
		rec.PushedSHA, kind = res.SHA, res.Kind
		return nil
	})
	return kind, err
}

// followRename reads the open pull request's head branch on the forge: a
// branch renamed there is where the next pushes go.
func (s *Service) followRename(ctx context.Context, rec *Record) {
	p, err := project(*rec, s.hosts())
	if err != nil {
		return
	}
	f, err := s.client(ctx, p, false)
	if err != nil {
		return
	}
	pr, err := f.Get(ctx, rec.Number, "")
	if err == nil && pr.Head != "" && pr.Head != rec.Head {
		rec.Head = pr.Head
	}
}

// note comments on the pull request; a failure only goes to its record.
func (s *Service) note(ctx context.Context, rec Record, text string) {
	p, err := project(rec, s.hosts())
	if err != nil {
		return
	}
	f, err := s.client(ctx, p, false)
	if err == nil {
		err = f.Comment(ctx, rec.Number, text+"\n\n"+Marker)
	}
	if err != nil {
		rec.Problem = "could not comment: " + err.Error()
		_ = s.d.Store.SavePullRequest(ctx, rec)
	}
}

// Slug is the task's title (or its prompt's first line) in at most six
// lower-case ASCII words joined by '-'.
func Slug(t task.Task) string {
	text := t.Title
	if strings.TrimSpace(text) == "" {
		text, _, _ = strings.Cut(strings.TrimSpace(t.Prompt), "\n")
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return r > unicode.MaxASCII || !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if len(words) > 6 {
		words = words[:6]
	}
	slug := strings.Join(words, "-")
	if len(slug) > 48 {
		slug = strings.TrimRight(slug[:48], "-")
	}
	return slug
}
