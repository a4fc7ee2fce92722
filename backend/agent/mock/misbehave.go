package mock

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// LeakFile is the worktree file a [[mock-leak]] run prints.
const LeakFile = "mock-leak.txt"

// NoteName is the file a [[mock-write]] run writes with its edit tool.
func NoteName(role string) string { return "mock-" + role + "-note.txt" }

// StrayNames are the files a [[mock-stray]] run commits and leaves untracked.
func StrayNames(role string) (committed, untracked string) {
	return "stray-" + role + ".txt", "stray-" + role + "-untracked.txt"
}

// misbehave plays the write, stray, lock and leak markers of the role and
// returns what it adds to the report and the leaked lines.
func misbehave(o runOpts, c *counters, step func(agent.Event)) (string, []string, error) {
	role := string(o.role)
	var report strings.Builder
	if n, err := c.next("write-" + role); err != nil {
		return "", nil, err
	} else if n <= o.script.Write[o.role] {
		name := NoteName(role)
		step(agent.Event{Kind: agent.EventToolCall, Tool: "write", CallID: "call-w", Text: name})
		if o.readOnly {
			step(agent.Event{Kind: agent.EventToolResult, CallID: "call-w", IsError: true, Text: "write refused: this role is read-only"})
			report.WriteString("\n\nCould not write " + name + ": read-only.")
		} else {
			if err := appendFile(filepath.Join(o.dir, name), "A note by the "+role+".\n"); err != nil {
				return "", nil, err
			}
			step(agent.Event{Kind: agent.EventToolResult, CallID: "call-w", Text: "wrote " + name})
			report.WriteString("\n\nWrote " + name + ".")
		}
	}
	if n, err := c.next("stray-" + role); err != nil {
		return "", nil, err
	} else if n <= o.script.Stray[o.role] {
		if err := stray(o, c, step); err != nil {
			return "", nil, err
		}
		report.WriteString("\n\nTidied up a few files while reviewing.")
	}
	var leaked []string
	if n, err := c.next("leak-" + role); err != nil {
		return "", nil, err
	} else if n <= o.script.Leak[o.role] {
		b, err := os.ReadFile(filepath.Join(o.dir, LeakFile))
		if err != nil {
			return "", nil, fmt.Errorf("leak: %w", err)
		}
		text := string(b)
		step(agent.Event{Kind: agent.EventToolCall, Tool: "bash", CallID: "call-l", Text: "cat " + LeakFile})
		step(agent.Event{Kind: agent.EventToolResult, CallID: "call-l", Text: text})
		step(agent.Event{Kind: agent.EventText, Text: "The config holds:\n" + text})
		report.WriteString("\n\n## Config found\n" + text)
		for _, l := range strings.Split(text, "\n") {
			if strings.TrimSpace(l) != "" {
				leaked = append(leaked, l)
			}
		}
	}
	return report.String(), leaked, nil
}

// stray changes the worktree as a shell command would: appends to the
// first tracked file, commits a new file, leaves an untracked one (made
// immutable under [[mock-lock]]).
func stray(o runOpts, c *counters, step func(agent.Event)) error {
	role := string(o.role)
	committed, untracked := StrayNames(role)
	step(agent.Event{Kind: agent.EventToolCall, Tool: "bash", CallID: "call-s", Text: "tidy up"})
	files, err := git(o.dir, "ls-files")
	if err != nil {
		return err
	}
	if first, _, _ := strings.Cut(files, "\n"); first != "" {
		if err := appendFile(filepath.Join(o.dir, first), "edited by the "+role+"\n"); err != nil {
			return err
		}
	}
	if err := appendFile(filepath.Join(o.dir, committed), "committed by the "+role+"\n"); err != nil {
		return err
	}
	if _, err := git(o.dir, "add", "--", committed); err != nil {
		return err
	}
	if _, err := git(o.dir, "commit", "-q", "-m", "stray commit by the "+role, "--", committed); err != nil {
		return err
	}
	path := filepath.Join(o.dir, untracked)
	if err := appendFile(path, "left by the "+role+"\n"); err != nil {
		return err
	}
	if n, err := c.next("lock-" + role); err != nil {
		return err
	} else if n <= o.script.Lock[o.role] {
		// Root ignores permission bits, so the file is made immutable too.
		_ = os.Chmod(path, 0o444)
		_ = exec.Command("chattr", "+i", path).Run()
	}
	step(agent.Event{Kind: agent.EventToolResult, CallID: "call-s", Text: "done"})
	return nil
}
