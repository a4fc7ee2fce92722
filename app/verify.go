package app

import (
	"context"
	"errors"
	"os"
	"sort"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/verify"
)

// VerifyService is the per-repository verify command as the Settings
// screen edits it (the CLI's `verify get|set|unset --repo`): keyed by the
// repository's top-level path, with the commands the repository's files
// suggest when none is set. A suggestion is only shown; nothing runs it
// until the user sets it.
type VerifyService struct {
	git     *gitx.Git
	store   *store.Store
	emit    Emitter
	ctx     func() context.Context
	workDir func() string
}

// NewVerifyService builds the service; workDir is the settings' working
// directory (listed first by Repos), may be nil.
func NewVerifyService(g *gitx.Git, st *store.Store, emit Emitter, ctx func() context.Context, workDir func() string) *VerifyService {
	if workDir == nil {
		workDir = func() string { return "" }
	}
	return &VerifyService{git: g, store: st, emit: emit, ctx: ctx, workDir: workDir}
}

// RepoVerifyView is one repository's verify command.
type RepoVerifyView struct {
	// Path is the repository's top-level folder.
	Path string `json:"path"`
	// Command is its own verify command, "" when none is set (the global
	// verify.command then applies).
	Command string `json:"command"`
	// Exists is false when the folder is no longer there.
	Exists bool `json:"exists"`
	// Suggestions are what the repository's files point to when no
	// command is set (go.mod → go test ./...); shown, never applied.
	Suggestions []verify.Suggestion `json:"suggestions"`
}

// top resolves any folder of a repository to its top level.
func (s *VerifyService) top(ctx context.Context, repo string) (string, error) {
	if repo == "" {
		return "", userError(&usererr.Edge{Kind: usererr.NoRepoChosen})
	}
	top, err := s.git.TopLevel(ctx, repo)
	if err != nil {
		return "", userError(err)
	}
	return top, nil
}

// view reads path's command, or its suggestions when it has none.
func (s *VerifyService) view(ctx context.Context, path string) (RepoVerifyView, error) {
	v := RepoVerifyView{Path: path, Suggestions: []verify.Suggestion{}}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		v.Exists = true
	}
	rv, err := s.store.GetRepoVerify(ctx, path)
	switch {
	case err == nil:
		v.Command = rv.Command
	case !errors.Is(err, store.ErrNotFound):
		return v, userError(err)
	case v.Exists:
		if sg := verify.Suggest(path); sg != nil {
			v.Suggestions = sg
		}
	}
	return v, nil
}

// Get returns the verify command of the repository holding repo (any of
// its folders), with suggestions when none is set.
func (s *VerifyService) Get(repo string) (RepoVerifyView, error) {
	ctx := s.ctx()
	top, err := s.top(ctx, repo)
	if err != nil {
		return RepoVerifyView{}, err
	}
	return s.view(ctx, top)
}

// Set stores the verify command of the repository holding repo. A bad
// command (empty, multi-line, too long) is refused and nothing changes.
func (s *VerifyService) Set(repo, command string) (RepoVerifyView, error) {
	ctx := s.ctx()
	top, err := s.top(ctx, repo)
	if err != nil {
		return RepoVerifyView{}, err
	}
	if _, err := s.store.SetRepoVerify(ctx, top, command); err != nil {
		return RepoVerifyView{}, userError(err)
	}
	s.emit.Emit(EventSettingsChanged)
	return s.view(ctx, top)
}

// Unset removes the repository's verify command (the global one applies
// again). A path that no longer exists is removed as stored.
func (s *VerifyService) Unset(repo string) (RepoVerifyView, error) {
	ctx := s.ctx()
	top, err := s.top(ctx, repo)
	if err != nil {
		if _, gerr := s.store.GetRepoVerify(ctx, repo); gerr != nil {
			return RepoVerifyView{}, err
		}
		top = repo // a repository that is gone: remove its row as stored
	}
	if err := s.store.DeleteRepoVerify(ctx, top); err != nil {
		return RepoVerifyView{}, userError(err)
	}
	s.emit.Emit(EventSettingsChanged)
	return s.view(ctx, top)
}

// Repos lists the repositories the user works with: the working
// directory's first, then every repository with a stored command or a
// task, by path; each with its command or its suggestions.
func (s *VerifyService) Repos() ([]RepoVerifyView, error) {
	ctx := s.ctx()
	seen := map[string]bool{}
	var first string
	if wd := s.workDir(); wd != "" {
		if top, err := s.git.TopLevel(ctx, wd); err == nil {
			first, seen[top] = top, true
		}
	}
	var rest []string
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			rest = append(rest, p)
		}
	}
	stored, err := s.store.RepoVerifies(ctx)
	if err != nil {
		return nil, userError(err)
	}
	for _, r := range stored {
		add(r.Path)
	}
	ts, err := s.store.ListTasks(ctx, store.Filter{})
	if err != nil {
		return nil, userError(err)
	}
	repos := map[string]bool{}
	for _, t := range ts {
		repos[t.Repo] = true
	}
	for r := range repos {
		if r == "" {
			continue
		}
		if top, err := s.git.TopLevel(ctx, r); err == nil {
			add(top)
		}
	}
	sort.Strings(rest)
	out := []RepoVerifyView{}
	if first != "" {
		rest = append([]string{first}, rest...)
	}
	for _, p := range rest {
		v, err := s.view(ctx, p)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
