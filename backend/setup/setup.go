// Package setup says what a new user still lacks before a task can run —
// an agent CLI installed and signed in, a repository to work in — and what
// fixes each, for the window's first-launch screen; and it checks a
// folder the user picks as a repository.
package setup

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Kind names what is missing.
type Kind string

// What can be missing.
const (
	// NoAgentCLI: none of the agent CLIs the app runs tasks with is
	// installed (only the app's own mock tool is there).
	NoAgentCLI Kind = "no_agent_cli"
	// NotSignedIn: an installed CLI failed its check (not signed in, or
	// its smoke prompt failed).
	NotSignedIn Kind = "not_signed_in"
	// NoRepository: no working directory is set, so a task added without
	// a repository of its own has nowhere to run.
	NoRepository Kind = "no_repository"
	// RepositoryUnusable: the working directory set cannot hold a task.
	RepositoryUnusable Kind = "repository_unusable"
)

// Action is the one click that fixes a problem.
type Action string

// The fixes.
const (
	// Install: run Commands in a terminal (one CLI is enough), then
	// check again.
	Install Action = "install"
	// SignIn: run Commands in a terminal (or give the CLI an API key in
	// its settings), then test the tool again.
	SignIn Action = "sign_in"
	// ChooseRepository: pick the repository folder (the native folder
	// picker, or a recent repository).
	ChooseRepository Action = "choose_repository"
)

// Problem is one thing missing, in the user's words.
type Problem struct {
	Kind Kind `json:"kind"`
	// Tool is the tool a NotSignedIn problem is about.
	Tool string `json:"tool,omitempty"`
	// Path is the working directory a RepositoryUnusable problem is about.
	Path string `json:"path,omitempty"`
	// Message says what is missing; Fix what fixes it (one sentence each).
	Message string `json:"message"`
	Fix     string `json:"fix"`
	Action  Action `json:"action"`
	// Commands are what to run in a terminal for Install and SignIn.
	Commands []string `json:"commands,omitempty"`
}

// Tool is what Assess knows of one registered tool: its adapter's facts
// and its health check.
type Tool struct {
	Adapter agent.Adapter
	Health  agent.Health
}

// Assess lists what is missing: no agent CLI installed, each installed
// CLI whose check failed, and no usable working directory (workDirErr is
// what checking the settings' working directory returned:
// intake.ErrNoWorkDir when none is set). None: a task can run.
func Assess(tools []Tool, workDir string, workDirErr error) []Problem {
	out := []Problem{}
	var installs, names []string
	installed := 0
	for _, t := range tools {
		if t.Adapter.Bin == "" {
			continue // a tool of the app itself
		}
		name := t.Adapter.Name
		if t.Adapter.Bin != name {
			name = fmt.Sprintf("%s (%s)", name, t.Adapter.Bin)
		}
		names = append(names, name)
		if t.Adapter.Install != "" {
			installs = append(installs, t.Adapter.Install)
		}
		if !t.Health.Installed {
			continue
		}
		installed++
		if t.Health.Authenticated && t.Health.Error == "" {
			continue
		}
		out = append(out, signIn(t))
	}
	if installed == 0 && len(names) > 0 {
		out = append([]Problem{{Kind: NoAgentCLI, Action: Install, Commands: installs,
			Message: "No agent CLI is installed: tasks run through " + oneOf(names) + ".",
			Fix:     "Install one of them in a terminal, then check again."}}, out...)
	}
	switch {
	case workDirErr == nil:
	case errors.Is(workDirErr, intake.ErrNoWorkDir):
		out = append(out, Problem{Kind: NoRepository, Action: ChooseRepository,
			Message: "No repository is chosen: a task needs a git repository to work in.",
			Fix:     "Choose the repository your tasks work in; a task can also name its own."})
	default:
		msg, _ := usererr.Describe(workDirErr)
		out = append(out, Problem{Kind: RepositoryUnusable, Action: ChooseRepository, Path: workDir,
			Message: msg, Fix: "Choose another repository, or fix this one."})
	}
	return out
}

// signIn is the problem of an installed tool whose check failed.
func signIn(t Tool) Problem {
	p := Problem{Kind: NotSignedIn, Tool: t.Adapter.Name, Action: SignIn,
		Message: t.Adapter.Name + " is installed but not signed in."}
	if e := strings.TrimSpace(t.Health.Error); e != "" {
		p.Message = t.Adapter.Name + " is installed but its check failed: " + strings.TrimSuffix(usererr.Clip(strings.Join(strings.Fields(e), " ")), ".") + "."
	}
	var how []string
	if t.Adapter.SignIn != "" {
		p.Commands = []string{t.Adapter.SignIn}
		how = append(how, "run "+t.Adapter.SignIn+" in a terminal and sign in")
	}
	if t.Adapter.KeyEnv != "" {
		how = append(how, "set "+t.Adapter.KeyEnv+" in its settings (Settings, Tools)")
	}
	p.Fix = "Test it again after you fix it."
	if len(how) > 0 {
		p.Fix = strings.ToUpper(how[0][:1]) + how[0][1:]
		if len(how) > 1 {
			p.Fix += ", or " + how[1]
		}
		p.Fix += "; then test it again."
	}
	return p
}

// RepoCheck is what a folder the user chose as a repository is.
type RepoCheck struct {
	Path string `json:"path"`
	// Usable is set when a task can be added there (the checks of a new
	// task pass).
	Usable bool `json:"usable"`
	// Git is set when it is a git repository, so each task gets a branch
	// and a worktree of its own.
	Git bool `json:"git"`
	// Problem says why it is not usable, or, when it is usable but not a
	// git repository, that tasks there run without isolation; "" for a
	// usable git repository.
	Problem string `json:"problem,omitempty"`
}

// Starts checks the repository of a new task; *intake.Service
// implements it.
type Starts interface {
	CheckBase(ctx context.Context, repo, base string) error
}

// CheckRepository checks a folder as the repository of new tasks: the
// checks of a new task (an absolute path to an existing folder, a
// repository with a commit to start from), and whether it is a git
// repository.
func CheckRepository(ctx context.Context, in Starts, g *gitx.Git, path string) RepoCheck {
	c := RepoCheck{Path: path}
	if strings.TrimSpace(path) == "" {
		c.Problem, _ = usererr.Describe(&usererr.Edge{Kind: usererr.NoRepoChosen})
		return c
	}
	if err := in.CheckBase(ctx, path, ""); err != nil {
		c.Problem, _ = usererr.Describe(err)
		return c
	}
	c.Usable = true
	_, err := g.Info(ctx, path)
	c.Git = err == nil
	if !c.Git {
		c.Problem = "This folder is not a git repository: " + strings.TrimPrefix(worktree.NotGitWarning, "working directory is not a git repository: ")
	}
	return c
}

// oneOf lists names as a sentence offers a choice: "a", "a or b",
// "one of a, b or c".
func oneOf(names []string) string {
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " or " + names[1]
	}
	return "one of " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
