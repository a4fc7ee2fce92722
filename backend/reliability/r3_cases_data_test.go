//go:build linux && reliability

package reliability

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// The R3 classes of the data root: settings files and keys, the runner's
// refusals, databases that are not what they should be, and git
// repositories and hooks.

// biSettingsFile writes settings.json with content.
func biSettingsFile(content string) func(*biEnv) {
	return func(e *biEnv) { e.write(dataroot.Paths{Root: e.dir}.Settings(), content) }
}

// biSettingsAs makes settings.json something that is not a file.
func biSettingsAs(make func(path string) error) func(*biEnv) {
	return func(e *biEnv) {
		if err := make(dataroot.Paths{Root: e.dir}.Settings()); err != nil {
			e.t.Fatal(err)
		}
	}
}

func settingsCases() []biCase {
	get := biArgs("settings", "get")
	set := func(key, value string) func(*biEnv) []string {
		return biArgs("settings", "set", key, value)
	}
	return []biCase{
		{name: "settings file not JSON", short: true, setup: biSettingsFile(`{"runner": {`), args: get, code: 1, msg: "is not valid JSON (unexpected EOF)."},
		{name: "settings file a JSON list", setup: biSettingsFile(`[]`), args: get, code: 1, msg: "is not a JSON object (it holds a list)."},
		{name: "settings value of the wrong type", setup: biSettingsFile(`{"roles":{"planner":"codex"}}`), args: get, code: 1, msg: `roles.planner must be an object (got "codex")`},
		{name: "settings value out of range", setup: biSettingsFile(`{"runner":{"concurrency":0}}`), args: get, code: 1, msg: "runner.concurrency must be between 1 and 32 (got 0)"},
		{name: "settings file with trailing text", setup: biSettingsFile(`{} {}`), args: get, code: 1, msg: "has text after the JSON object"},
		{name: "settings file a link to /dev/zero", short: true, setup: biSettingsAs(func(p string) error { return os.Symlink("/dev/zero", p) }), args: get, code: 1, msg: "is a device, not a file."},
		{name: "settings file a FIFO", short: true, setup: biSettingsAs(func(p string) error { return syscall.Mkfifo(p, 0o600) }), args: get, code: 1, msg: "is a named pipe, not a file."},
		{name: "settings file a folder", setup: biSettingsAs(func(p string) error { return os.Mkdir(p, 0o700) }), args: get, code: 1, msg: "is a folder, not a file."},
		{name: "settings file of 2 MiB", setup: biSettingsFile(`{"pad":"` + strings.Repeat("x", 2<<20) + `"}`), args: get, code: 1, msg: "is larger than 1024 KiB."},
		{name: "settings file with invalid UTF-8", setup: biSettingsFile("{\"workingDirectory\": \"/src/caf\xe9\"}"), args: set("review.gate", "false"), code: 1, msg: "is not valid UTF-8 text."},
		{name: "settings file nested 100,000 deep", setup: biSettingsFile(`{"a":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`), args: get, code: 1, msg: "is not valid JSON"},
		{name: "settings set of a mistyped key", short: true, args: set("runner.concurency", "2"), code: 1, msg: "Unknown setting runner.concurency (did you mean runner.concurrency?)."},
		{name: "settings set with an empty segment", args: set("a..b", "1"), code: 1, msg: "Unknown setting a..b"},
		{name: "settings set of a word for a number", args: set("review.maxFixRounds", "lots"), code: 1, msg: `review.maxFixRounds must be a whole number (got "lots")`},
		{name: "settings set of an unknown tool", args: set("roles.developer.tool", "vim"), code: 1, msg: `roles.developer.tool must be one of`},
		{name: "settings set of a relative working directory", args: set("workingDirectory", "src/app"), code: 1, msg: "must be an absolute path"},
		{name: "settings set of an unknown tool's path", args: set("tools.vim.path", "/bin/vim"), code: 1, msg: "Unknown setting tools.vim.path"},
		{name: "settings set of a number too large", args: set("runner.concurrency", "1e400"), code: 1, msg: "runner.concurrency must be"},
		{name: "settings get of an unknown key", args: biArgs("settings", "get", "review.maxFixRound"), code: 1, msg: "(did you mean review.maxFixRounds?)"},
		{name: "settings set onto a malformed file", setup: biSettingsFile(`{oops`), args: set("review.gate", "false"), code: 1, msg: "is not valid JSON"},
		{name: "mistyped key in the settings file", short: true, setup: biSettingsFile(`{"runner":{"concurency":4}}`), args: biArgs("settings", "get", "runner"),
			code: 0, msg: "has a key runner.concurency that this version does not know; it is kept but has no effect (did you mean runner.concurrency?)"},
	}
}

// biPendingKept checks the baseline's pending task did not run.
func biPendingKept(e *biEnv, _ biResult) []string {
	if st, errText := e.taskRow(e.pending); st != "pending" || errText != "" {
		return []string{"silent: the pending task is now " + st + " (" + errText + ")"}
	}
	return nil
}

func runnerCases() []biCase {
	once := biArgs("runner", "--once")
	repo := func(content string) func(*biEnv) {
		return func(e *biEnv) {
			e.withRepo(nil)
			biSettingsFile(content)(e)
		}
	}
	return []biCase{
		{name: "runner with a settings file that is not JSON", short: true, setup: repo(`{"workingDirectory": `), args: once, code: 1,
			msg: "is not valid JSON (unexpected EOF); the runner started no task: fix the file, or save the settings from the app."},
		{name: "runner with an invalid setting", setup: repo(`{"runner":{"concurrency":0}}`), args: once, code: 1, msg: "the runner started no task"},
		{name: "runner with a settings FIFO", setup: func(e *biEnv) {
			e.withRepo(nil)
			p := dataroot.Paths{Root: e.dir}.Settings()
			os.Remove(p)
			syscall.Mkfifo(p, 0o600)
		}, args: once, code: 1, msg: "is a named pipe, not a file; the runner started no task"},
		{name: "runner while another holds the lock", setup: func(e *biEnv) {
			e.withRepo(nil)
			l, err := runner.AcquireLock(dataroot.Paths{Root: e.dir}.RunnerLock())
			if err != nil {
				e.t.Fatal(err)
			}
			e.t.Cleanup(func() { l.Release() })
		}, args: once, code: 1, msg: "is already running the queue of this data root"},
		{name: "runner on a damaged database", short: true, setup: func(e *biEnv) {
			e.withRepo(nil)
			e.damage("log_lines", 0)
		}, args: once, code: 1, msg: "is damaged ("},
		{name: "runner whose claim fails", short: true, setup: func(e *biEnv) {
			e.withRepo(nil)
			e.sql(`CREATE TRIGGER refuse BEFORE INSERT ON executions BEGIN SELECT RAISE(ABORT, 'no room for executions'); END`)
		}, args: once, code: 1, msg: "could not claim task", changes: true, check: biPendingKept},
	}
}

// biDBAs replaces the database file.
func biDBAs(make func(e *biEnv, path string)) func(*biEnv) {
	return func(e *biEnv) {
		p := dataroot.Paths{Root: e.dir}.Database()
		os.Remove(p)
		os.Remove(p + "-wal")
		os.Remove(p + "-shm")
		make(e, p)
	}
}

func databaseCases() []biCase {
	list := biArgs("list")
	return []biCase{
		{name: "database that is a text file", setup: biDBAs(func(e *biEnv, p string) { e.write(p, "my notes\n") }), args: biArgs("add", "p"), code: 1, msg: "is not a Boof Runner database; it was left as it was."},
		{name: "database that is a folder", setup: biDBAs(func(e *biEnv, p string) { os.Mkdir(p, 0o700) }), args: list, code: 1, msg: "is a folder, not a database file"},
		{name: "database that is a FIFO", short: true, setup: biDBAs(func(e *biEnv, p string) { syscall.Mkfifo(p, 0o600) }), args: list, code: 1, msg: "is a named pipe, not a database file"},
		{name: "database of a newer version", setup: func(e *biEnv) { e.sql("PRAGMA user_version = 99") }, args: list, code: 1, msg: "was written by a newer version of Boof Runner"},
		{name: "database with user_version -5", short: true, setup: func(e *biEnv) { e.sql("PRAGMA user_version = -5") }, args: biArgs("add", "p"), code: 1, msg: "has an invalid schema version (-5)"},
		{name: "database whose upgrade fails", setup: biDBAs(func(e *biEnv, p string) { e.sql("CREATE TABLE tasks (x INTEGER)") }), args: list, code: 1,
			msg: "could not be upgraded for this version of Boof Runner (0001_tasks.sql: table tasks already exists)"},
		{name: "database with a damaged task table", short: true, setup: func(e *biEnv) { e.damage("tasks", 8) },
			args: func(e *biEnv) []string { return []string{"add", "--repo", e.tmp, "p"} }, code: 1, msg: "is damaged",
			check: func(e *biEnv, _ biResult) []string {
				if n := e.taskCount(); n > 5 {
					return []string{"silent: add wrote a row on a damaged table"}
				}
				return nil
			}},
		{name: "database of zero bytes", setup: biDBAs(func(e *biEnv, p string) { e.write(p, "") }),
			args: func(e *biEnv) []string { return []string{"add", "--repo", e.tmp, "p"} }, code: 0, changes: true},
	}
}

// biFailedWith checks the baseline's pending task failed with msg, and that
// no task branch or worktree was left in the repository.
func biFailedWith(msg string) func(*biEnv, biResult) []string {
	return func(e *biEnv, _ biResult) []string {
		var out []string
		if st, errText := e.taskRow(e.pending); st != "failed" || !strings.Contains(errText, msg) {
			out = append(out, "unclear: the task is "+st+" with error "+errText+", want failed with "+msg)
		}
		return append(out, biNoLeftovers(e)...)
	}
}

// biNoLeftovers reports task branches and worktrees the tasks do not record.
func biNoLeftovers(e *biEnv) []string {
	if e.repo == "" {
		return nil
	}
	if _, err := os.Stat(filepath.Join(e.repo, ".git")); err != nil {
		return nil
	}
	var out []string
	if b := e.git(e.repo, "branch", "--list", "boof-runner/*"); b != "" {
		out = append(out, "silent: branches left: "+b)
	}
	if n := strings.Count(e.git(e.repo, "worktree", "list", "--porcelain"), "worktree "); n != 1 {
		out = append(out, "silent: worktrees left registered")
	}
	return out
}

// biRepoAs points the settings at a working directory made by make.
func biRepoAs(make func(e *biEnv) string) func(*biEnv) {
	return func(e *biEnv) { e.settings(make(e), nil) }
}

// biHook installs a post-checkout hook in the case's repository.
func biHook(script string) func(*biEnv) {
	return func(e *biEnv) {
		e.withRepo(nil)
		p := filepath.Join(e.repo, ".git", "hooks", "post-checkout")
		e.write(p, "#!/bin/sh\n"+script+"\n")
		os.Chmod(p, 0o755)
	}
}

func repoCases() []biCase {
	once := biArgs("runner", "--once")
	return []biCase{
		{name: "working directory a bare repository", short: true, setup: biRepoAs(func(e *biEnv) string {
			p := filepath.Join(e.tmp, "bare.git")
			e.git(e.tmp, "init", "-q", "--bare", p)
			return p
		}), args: once, code: 0, changes: true, check: biFailedWith("is a bare git repository, which has no checkout to work in")},
		{name: "working directory a file", short: true, setup: biRepoAs(func(e *biEnv) string {
			p := filepath.Join(e.tmp, "file.txt")
			e.write(p, "x")
			return p
		}), args: once, code: 0, changes: true, check: biFailedWith("is a file, not a folder.")},
		{name: "working directory missing", setup: biRepoAs(func(e *biEnv) string { return filepath.Join(e.tmp, "gone") }),
			args: once, code: 0, changes: true, check: biFailedWith("does not exist.")},
		{name: "repository without commits", setup: biRepoAs(func(e *biEnv) string {
			p := filepath.Join(e.tmp, "empty")
			os.MkdirAll(p, 0o755)
			e.git(p, "init", "-q")
			return p
		}), args: once, code: 0, changes: true, check: biFailedWith("has no commits yet")},
		{name: "base that names nothing", setup: func(e *biEnv) {
			e.withRepo(nil)
			st := e.store()
			defer st.Close()
			tk, _ := st.GetTask(context.Background(), e.pending)
			if _, err := st.UpdateTask(context.Background(), e.pending, store.TaskEdit{Title: tk.Title, Prompt: tk.Prompt, Runs: 1, Base: "no-such-branch"}); err != nil {
				e.t.Fatal(err)
			}
		}, args: once, code: 0, changes: true, check: biFailedWith(`The base ref "no-such-branch" is not a branch or commit in`)},
		{name: "failing post-checkout hook", short: true, setup: biHook("echo the hook refuses >&2; exit 3"), args: once, code: 0, changes: true,
			check: biFailedWith("the hook refuses")},
		{name: "hanging post-checkout hook, SIGTERM", setup: biHook("sleep 600"), args: once,
			call: biCall{signal: syscall.SIGTERM, signalAfter: 3 * time.Second, limit: 25 * time.Second}, code: 143, changes: true,
			check: func(e *biEnv, _ biResult) []string {
				var out []string
				if st, _ := e.taskRow(e.pending); st != string(task.StatusStopped) {
					out = append(out, "silent: the task is "+st+" after the runner was stopped")
				}
				return append(out, biNoLeftovers(e)...)
			}},
		{name: "working directory not a git repository", setup: biRepoAs(func(e *biEnv) string {
			p := filepath.Join(e.tmp, "plain")
			os.MkdirAll(p, 0o755)
			return p
		}), args: once, code: 0, changes: true, msg: "working directory is not a git repository",
			check: func(e *biEnv, _ biResult) []string {
				// It runs without isolation; the mock tool itself needs git to
				// commit, so it may fail, but it must end and say why.
				if st, errText := e.taskRow(e.pending); st != "done" && (st != "failed" || errText == "") {
					return []string{"unclear: the task is " + st + " (" + errText + ")"}
				}
				return nil
			}},
	}
}
