package mock

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/task"
)

// gitTimeout bounds each git command of the mock developer.
const gitTimeout = 30 * time.Second

// work does the role's work and returns its report body.
func work(o runOpts, runs int, step func(agent.Event)) (string, error) {
	switch o.role {
	case task.RolePlanner:
		return "## Plan\n1. Write the mock file named after the task.\n2. Commit part of the work and leave leftovers.", nil
	case task.RoleRefinement:
		return "## Refined plan\n1. Write the mock file.\n2. Commit it.\n3. Leave one tracked change and one untracked file.", nil
	case task.RolePlannerAnswer:
		return "## Answers\n- Use the defaults of the plan.", nil
	case task.RoleObserver, task.RoleReviewer:
		if !inGit(o.dir) {
			step(agent.Event{Kind: agent.EventToolCall, Tool: "read", CallID: "call-1", Text: FileName(o.dir)})
			b, err := os.ReadFile(filepath.Join(o.dir, FileName(o.dir)))
			step(agent.Event{Kind: agent.EventToolResult, CallID: "call-1", Text: string(b), IsError: err != nil})
			return "## Review\nRead the work in the directory (not a git repository).", nil
		}
		step(agent.Event{Kind: agent.EventToolCall, Tool: "git", CallID: "call-1", Text: "git status --short"})
		out, err := git(o.dir, "status", "--short")
		step(agent.Event{Kind: agent.EventToolResult, CallID: "call-1", Text: out, IsError: err != nil})
		return "## Review\nChecked the working tree.", nil
	case task.RoleDeveloper:
		return develop(o, runs, step)
	}
	return "", fmt.Errorf("unknown role %q", o.role)
}

var slugRe = regexp.MustCompile(`[^a-zA-Z0-9._-]+`)

// FileName is the file the mock developer writes in dir: named after the
// task's worktree directory.
func FileName(dir string) string {
	slug := strings.Trim(slugRe.ReplaceAllString(filepath.Base(filepath.Clean(dir)), "-"), "-.")
	if slug == "" {
		slug = "task"
	}
	return "mock-" + slug + ".md"
}

// ScratchName is the untracked leftover file the mock developer leaves.
func ScratchName(dir string) string {
	return strings.TrimSuffix(FileName(dir), ".md") + ".scratch.txt"
}

// develop writes and commits the task file, then leaves a tracked change and
// an untracked file uncommitted. Outside a git repository (a task run
// without isolation) it writes the file and makes no commit.
func develop(o runOpts, runs int, step func(agent.Event)) (string, error) {
	name := FileName(o.dir)
	path := filepath.Join(o.dir, name)
	line := fmt.Sprintf("Developer run %d.\n", runs)
	step(agent.Event{Kind: agent.EventToolCall, Tool: "write", CallID: "call-1", Text: name})
	if err := appendFile(path, line); err != nil {
		return "", err
	}
	step(agent.Event{Kind: agent.EventToolResult, CallID: "call-1", Text: "wrote " + name})
	if !inGit(o.dir) {
		step(agent.Event{Kind: agent.EventText, Text: "Not a git repository: wrote " + name + " and made no commit."})
		return fmt.Sprintf("## Changes\n- Wrote %s (not a git repository: no commit).", name), nil
	}

	step(agent.Event{Kind: agent.EventToolCall, Tool: "git", CallID: "call-2", Text: "git commit " + name})
	if _, err := git(o.dir, "add", "--", name); err != nil {
		return "", err
	}
	out, err := git(o.dir, "commit", "-q", "-m", fmt.Sprintf("mock: developer run %d", runs), "--", name)
	step(agent.Event{Kind: agent.EventToolResult, CallID: "call-2", Text: out, IsError: err != nil})
	if err != nil {
		return "", err
	}

	if n := o.script.Litter[o.role]; n > 0 {
		if err := litter(o.dir, n); err != nil {
			return "", err
		}
	}
	if err := appendFile(path, fmt.Sprintf("Uncommitted note of run %d.\n", runs)); err != nil {
		return "", err
	}
	scratch := ScratchName(o.dir)
	if err := appendFile(filepath.Join(o.dir, scratch), fmt.Sprintf("scratch of run %d\n", runs)); err != nil {
		return "", err
	}
	step(agent.Event{Kind: agent.EventText, Text: "Left a tracked change in " + name + " and the untracked " + scratch + "."})
	return fmt.Sprintf("## Changes\n- Wrote and committed %s.\n- Left an uncommitted change in %s and the untracked %s.", name, name, scratch), nil
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}

// inGit reports whether dir is inside a git work tree.
func inGit(dir string) bool {
	out, err := git(dir, "rev-parse", "--is-inside-work-tree")
	return err == nil && strings.TrimSpace(out) == "true"
}

// git runs one git command in dir as the mock's own identity, without
// hooks or signing, and returns its combined output.
func git(dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	full := append([]string{"-C", dir, "-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false",
		"-c", "user.name=Boof Mock", "-c", "user.email=mock@boof-runner.invalid"}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=Boof Mock", "GIT_AUTHOR_EMAIL=mock@boof-runner.invalid",
		"GIT_COMMITTER_NAME=Boof Mock", "GIT_COMMITTER_EMAIL=mock@boof-runner.invalid",
		"GIT_TERMINAL_PROMPT=0")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// litter writes n small files into dir/litter/ (ignored by the test
// repositories that ask for it), so removing the worktree takes a while.
func litter(dir string, n int) error {
	d := filepath.Join(dir, "litter")
	for i := 0; i < n; i++ {
		sub := filepath.Join(d, fmt.Sprintf("d%03d", i/500))
		if i%500 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return fmt.Errorf("litter: %w", err)
			}
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%05d", i)), []byte("litter\n"), 0o644); err != nil {
			return fmt.Errorf("litter: %w", err)
		}
	}
	return nil
}
