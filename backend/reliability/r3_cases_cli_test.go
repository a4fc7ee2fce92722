//go:build linux && reliability

package reliability

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// The R3 classes of the command line: usage, task fields, ids, status
// rules, waits for input, import and export.

func usageCases() []biCase {
	return []biCase{
		{name: "unknown command", short: true, args: biArgs("frobnicate"), code: 2, msg: `unknown command "frobnicate"`},
		{name: "unknown flag (cause before usage)", short: true, args: biArgs("add", "--bogus", "x"), code: 2, msg: "flag provided but not defined: -bogus"},
		{name: "flag without its value", noDir: true, args: func(e *biEnv) []string { return []string{"add", "--data-dir", e.dir, "p", "--priority"} },
			code: 2, msg: "flag needs an argument: -priority"},
		{name: "add without a prompt", args: biArgs("add"), code: 2, msg: "expected one PROMPT argument"},
		{name: "add with two prompts", args: biArgs("add", "a", "b"), code: 2, msg: "expected one PROMPT argument"},
		{name: "runner --once --until-idle", args: biArgs("runner", "--once", "--until-idle"), code: 2, msg: "exclude each other"},
		{name: "settings without an action", args: biArgs("settings"), code: 2, msg: "expected get [KEY] or set KEY VALUE"},
		{name: "settings with an unknown action", args: biArgs("settings", "frob"), code: 2, msg: `unknown settings action "frob"`},
		{name: "global --data-dir without its value", noDir: true, args: biArgs("--data-dir"), code: 2, msg: "flag needs an argument"},
		{name: "list with a stray argument", args: biArgs("list", "extra"), code: 2, msg: `unexpected argument "extra"`},
		{name: "show without an id", args: biArgs("show"), code: 2, msg: "expected one task ID"},
		{name: "accept with an unknown strategy", args: func(e *biEnv) []string { return []string{"accept", e.done, "--strategy", "octopus"} }, code: 2, msg: "octopus"},
		{name: "global flags before the command", short: true, noDir: true,
			args: func(e *biEnv) []string { return []string{"--data-dir", e.dir, "list"} }, code: 0, msg: "baseline pending work"},
	}
}

// biRefused is a task input refused with msg: exit 1, nothing changed.
func biRefused(name, msg string, short bool, args ...string) biCase {
	return biCase{name: name, short: short, args: biArgs(args...), code: 1, msg: msg}
}

func taskInputCases() []biCase {
	long := strings.Repeat("t", 201)
	return []biCase{
		biRefused("empty prompt", "Prompt is empty.", true, "add", ""),
		biRefused("blank prompt", "Prompt is empty.", false, "add", "  \n\t "),
		biRefused("priority not a number", `priority must be an integer, got "high"`, false, "add", "--priority", "high", "p"),
		biRefused("priority out of range", "Priority 2000000 is outside", false, "add", "--priority", "2000000", "p"),
		biRefused("runs zero", "Runs must be at least 1", false, "add", "--runs", "0", "p"),
		biRefused("runs too many", "Runs must be between 1 and 100", false, "add", "--runs", "101", "p"),
		biRefused("title too long", "Title is longer than 200 bytes", false, "add", "--title", long, "p"),
		biRefused("title with a line break", "Title contains the control character U+000A", false, "add", "--title", "a\nb", "p"),
		biRefused("title with an OSC escape", "Title contains the control character U+001B", true, "add", "--title", "\x1b]0;owned\x07", "p"),
		biRefused("title clearing the screen", "Title contains the control character U+001B", false, "add", "--title", "\x1b[2J\x1b[Hgone", "p"),
		biRefused("title with invalid UTF-8", "Title is not valid UTF-8 text", true, "add", "--title", "caf\xe9", "p"),
		biRefused("title with a C1 control", "Title contains the control character U+009B", false, "add", "--title", "a\u009b31mred", "p"),
		biRefused("title with a direction override", "Title contains the control character U+202E", false, "add", "--title", "abc\u202edef", "p"),
		biRefused("label with a comma", `Label "a,b" contains a comma`, false, "add", "--label", "a,b", "p"),
		biRefused("label with an escape", `contains the control character U+001B`, false, "add", "--label", "\x1b[31mred", "p"),
		biRefused("label with invalid UTF-8", `Label "bad\xff" is not valid UTF-8 text`, true, "add", "--label", "bad\xff", "p"),
		biRefused("label too long", "is longer than 64 bytes", false, "add", "--label", strings.Repeat("l", 65), "p"),
		biRefused("base starting with a dash", `Base ref "-rf" is not a valid ref name`, false, "add", "--base", "-rf", "p"),
		biRefused("base with a space", `Base ref "a b" is not a valid ref name`, false, "add", "--base", "a b", "p"),
		biRefused("base with an escape", `is not a valid ref name`, false, "add", "--base", "main\x1b", "p"),
		{name: "repo that is a file", short: true, args: func(e *biEnv) []string {
			f := filepath.Join(e.tmp, "notes.txt")
			e.write(f, "x")
			return []string{"add", "--repo", f, "p"}
		}, code: 1, msg: "is a file, not a folder."},
		{name: "repo that does not exist", args: func(e *biEnv) []string { return []string{"add", "--repo", filepath.Join(e.tmp, "gone"), "p"} },
			code: 1, msg: "does not exist."},
		{name: "add without a working directory", short: true, args: biArgs("add", "p"), code: 1, msg: "the task has no folder to run in"},
		{name: "base ref that names no commit, at add", setup: func(e *biEnv) { e.withRepo(nil) }, args: biArgs("add", "--base", "no-such-branch", "p"),
			code: 1, msg: `The base ref "no-such-branch" is not a branch or commit in`},
		{name: "prompt with a NUL byte", args: biArgs("add", "-"), call: biCall{stdin: []byte("a\x00b")}, code: 1, msg: "Prompt contains a NUL byte."},
		{name: "prompt over 16 MiB", args: biArgs("add", "-"), call: biCall{stdin: bytes.Repeat([]byte("x"), 16<<20+1)}, code: 1, msg: "larger than the limit of 16 MiB"},
		biRefused("unknown status filter", `unknown status "running" (the statuses are draft, pending`, false, "list", "--status", "running"),
		{name: "search longer than a LIKE pattern", args: biArgs("list", "--search", strings.Repeat("ab", 30000)), code: 0},
		{name: "data dir under /proc", noDir: true, args: biArgs("list", "--data-dir", "/proc/boof-runner-r3"), code: 1, msg: "/proc/boof-runner-r3"},
		{name: "data dir is a file", noDir: true, args: func(e *biEnv) []string {
			f := filepath.Join(e.tmp, "file")
			e.write(f, "x")
			return []string{"list", "--data-dir", f}
		}, code: 1, msg: "is a file, not a folder."},
	}
}

func idCases() []biCase {
	return []biCase{
		biRefused("path traversal id", `Task "../../etc/passwd" does not exist.`, true, "show", "../../etc/passwd"),
		biRefused("empty id", `Task "" does not exist.`, false, "show", ""),
		biRefused("unknown id to retry", `Task "nope" does not exist.`, false, "retry", "nope"),
		biRefused("shell metacharacters in an id", `does not exist.`, false, "delete", "; rm -rf ~"),
		biRefused("escape sequence in an id", `Task "\x1b[2J" does not exist.`, false, "show", "\x1b[2J"),
		biRefused("SQL in an id", `does not exist.`, false, "archive", "x' OR '1'='1"),
	}
}

func statusCases() []biCase {
	id := func(pick func(e *biEnv) string, verb string, extra ...string) func(*biEnv) []string {
		return func(e *biEnv) []string { return append([]string{verb, pick(e)}, extra...) }
	}
	done := func(e *biEnv) string { return e.done }
	return []biCase{
		{name: "retry a done task", short: true, args: id(done, "retry"), code: 1, msg: "This task is done: only failed or stopped tasks can be retried."},
		{name: "archive an archived task", short: true, args: id(func(e *biEnv) string { return e.archived }, "archive"), code: 1, msg: "This task is already archived."},
		{name: "unarchive a done task", args: id(done, "unarchive"), code: 1, msg: "only archived tasks can be unarchived."},
		{name: "stop a done task", args: id(done, "stop"), code: 1, msg: "only ongoing tasks can be stopped."},
		{name: "inject into a done task", args: id(done, "inject", "more"), code: 1, msg: "can take injected prompts."},
		{name: "answer a pending task", args: id(func(e *biEnv) string { return e.pending }, "answer", "blue"), code: 1, msg: "has no questions to answer."},
		{name: "inject empty text", args: id(func(e *biEnv) string { return e.pending }, "inject", " "), code: 1, msg: "empty"},
		{name: "answer with empty text", args: id(func(e *biEnv) string { return e.actions }, "answer", "  "), code: 1, msg: "The answer is empty."},
		{name: "delete an ongoing task", args: id(func(e *biEnv) string { return e.ongoing }, "delete"), code: 1, msg: "This task is ongoing: stop it before you delete it."},
		{name: "archive an ongoing task", args: id(func(e *biEnv) string { return e.ongoing }, "archive"), code: 1, msg: "stop it before you archive it."},
		{name: "diff of a task without a branch", args: id(func(e *biEnv) string { return e.pending }, "diff"), code: 1},
	}
}

// biInterrupted is the line of a command ended while waiting for input.
const biInterrupted = "Interrupted while waiting for input; nothing was changed."

func waitCases() []biCase {
	return []biCase{
		{name: "add - waiting on stdin, SIGTERM", short: true, args: biArgs("add", "-"), call: biSignal(syscall.SIGTERM), code: 1, msg: biInterrupted},
		{name: "import - waiting on stdin, SIGINT", short: true, args: biArgs("import", "-"), call: biSignal(syscall.SIGINT), code: 1, msg: biInterrupted},
		{name: "import of a FIFO without a writer: refused before it is opened", short: true, args: func(e *biEnv) []string {
			p := filepath.Join(e.tmp, "task.md")
			syscall.Mkfifo(p, 0o600)
			return []string{"import", p}
		}, code: 1, msg: "is a named pipe, not a regular file"},
		{name: "add --attach of a FIFO: refused before it is opened", args: func(e *biEnv) []string {
			p := filepath.Join(e.tmp, "notes.txt")
			syscall.Mkfifo(p, 0o600)
			return []string{"add", "--repo", e.tmp, "--attach", p, "p"}
		}, code: 1, msg: "is a named pipe, not a regular file"},
		{name: "answer - waiting on stdin, SIGINT", args: func(e *biEnv) []string { return []string{"answer", e.actions, "-"} }, call: biSignal(syscall.SIGINT), code: 1, msg: biInterrupted},
		{name: "inject - waiting on stdin, SIGTERM", args: func(e *biEnv) []string { return []string{"inject", e.pending, "-"} }, call: biSignal(syscall.SIGTERM), code: 1, msg: biInterrupted},
		{name: "add - with a FIFO as stdin, SIGINT", args: biArgs("add", "-"), call: biCall{stdinFIFO: true, signal: syscall.SIGINT, waitRead: true, limit: 20 * time.Second}, code: 1, msg: biInterrupted},
	}
}

// biImportFile writes content as a file of the case and returns import's args.
func biImportFile(content string) func(*biEnv) []string {
	return func(e *biEnv) []string {
		p := filepath.Join(e.tmp, "task.md")
		e.write(p, content)
		return []string{"import", p}
	}
}

// biDoc is a valid export with the frontmatter line key: replaced.
func biDoc(key, value string) string {
	lines := []string{"---", "status: pending", `title: "t"`, `labels: []`, "---", "", "## Prompt", "", "~~~", "do it", "~~~", ""}
	for i, l := range lines {
		if strings.HasPrefix(l, key+":") {
			lines[i] = key + ": " + value
		}
	}
	return strings.Join(lines, "\n")
}

func importCases() []biCase {
	return []biCase{
		{name: "import of a missing file", args: func(e *biEnv) []string { return []string{"import", filepath.Join(e.tmp, "nope.md")} }, code: 1, msg: "nope.md does not exist."},
		{name: "import of a folder without task files", args: func(e *biEnv) []string { return []string{"import", e.tmp} }, code: 1, msg: "holds no task files"},
		{name: "import of /dev/zero (no end)", short: true, args: biArgs("import", "/dev/zero"), code: 1, msg: "is a device, not a regular file"},
		{name: "import with NUL bytes", args: biImportFile("---\nstatus: pending\n\x00---\n"), code: 1, msg: "NUL"},
		{name: "import of garbage", args: biImportFile("hello, this is not a task\n"), code: 1, msg: "must start with a --- frontmatter line"},
		{name: "import with an unknown status", args: biImportFile(biDoc("status", "runnin")), code: 1, msg: "runnin"},
		{name: "import with an invalid UTF-8 title", short: true, args: biImportFile(biDoc("title", "caf\xe9")), code: 1, msg: "not valid UTF-8 text"},
		{name: "import with an escape in the title", args: biImportFile(biDoc("title", `"\u001b]0;owned\u0007"`)), code: 1, msg: "control character U+001B"},
		{name: "import with a bad label", args: biImportFile(biDoc("labels", `["a,b"]`)), code: 1, msg: "contains a comma"},
		{name: "import with a relative repo", args: biImportFile("---\nstatus: pending\nrepo: \"src/app\"\n---\n## Prompt\n~~~\np\n~~~\n"),
			code: 1, msg: "is not an absolute path"},
		{name: "import with an unknown field: kept and said", args: biImportFile("---\nstatus: done\nfrob: 1\n---\n## Prompt\n~~~\np\n~~~\n"),
			code: 0, changes: true, msg: `unknown key "frob" kept`},
	}
}

func exportCases() []biCase {
	pending := func(extra ...string) func(*biEnv) []string {
		return func(e *biEnv) []string { return append([]string{"export", e.pending}, extra...) }
	}
	target := func(make func(e *biEnv) string) func(*biEnv) []string {
		return func(e *biEnv) []string { return []string{"export", e.pending, "-o", make(e), "--force"} }
	}
	return []biCase{
		biRefused("export of an unknown id", `Task "nope" does not exist.`, false, "export", "nope"),
		{name: "export over an existing file without --force", args: func(e *biEnv) []string {
			p := filepath.Join(e.tmp, "mine.md")
			e.write(p, "mine\n")
			return []string{"export", e.pending, "-o", p}
		}, code: 1, msg: "file exists (use --force to replace it)", check: biFileKept("mine.md", "mine\n")},
		{name: "export over a FIFO", short: true, args: target(func(e *biEnv) string {
			p := filepath.Join(e.tmp, "pipe.md")
			syscall.Mkfifo(p, 0o600)
			return p
		}), code: 1, msg: "it is a named pipe, not a regular file; refusing to replace it", check: biKindKept("pipe.md", os.ModeNamedPipe)},
		{name: "export over a device", args: target(func(*biEnv) string { return "/dev/null" }), code: 1, msg: "it is a device",
			check: func(*biEnv, biResult) []string {
				if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeDevice == 0 {
					return []string{"silent: /dev/null was replaced"}
				}
				return nil
			}},
		{name: "export over a symbolic link", args: target(func(e *biEnv) string {
			e.write(filepath.Join(e.tmp, "real.md"), "mine\n")
			p := filepath.Join(e.tmp, "link.md")
			os.Symlink(filepath.Join(e.tmp, "real.md"), p)
			return p
		}), code: 1, msg: "it is a symbolic link", check: func(e *biEnv, r biResult) []string {
			return append(biKindKept("link.md", os.ModeSymlink)(e, r), biFileKept("real.md", "mine\n")(e, r)...)
		}},
		{name: "export into a missing folder", args: func(e *biEnv) []string {
			return []string{"export", e.pending, "-o", filepath.Join(e.tmp, "nope", "x.md")}
		}, code: 1, msg: "does not exist"},
		{name: "export -o - is standard output", short: true, args: pending("-o", "-"), code: 0, msg: "pending work", changes: true,
			check: func(e *biEnv, r biResult) []string {
				if _, err := os.Stat(filepath.Join(e.tmp, "-")); err == nil {
					return []string{"silent: a file named - was written"}
				}
				return nil
			}},
		{name: "export then import is exact", short: true, changes: true, args: pending(), code: 0, check: biRoundTrip},
	}
}

// biFileKept checks a file of the case still holds content.
func biFileKept(name, content string) func(*biEnv, biResult) []string {
	return func(e *biEnv, _ biResult) []string {
		if b, err := os.ReadFile(filepath.Join(e.tmp, name)); err != nil || string(b) != content {
			return []string{"silent: " + name + " was replaced"}
		}
		return nil
	}
}

// biKindKept checks a file of the case is still of its kind.
func biKindKept(name string, mode os.FileMode) func(*biEnv, biResult) []string {
	return func(e *biEnv, _ biResult) []string {
		if fi, err := os.Lstat(filepath.Join(e.tmp, name)); err != nil || fi.Mode()&mode == 0 {
			return []string{"silent: " + name + " was replaced by a file"}
		}
		return nil
	}
}

// biRoundTrip imports what export printed (a task with non-ASCII text,
// fences, CRLF, invalid UTF-8 and an escape in its prompt) and compares.
func biRoundTrip(e *biEnv, _ biResult) []string {
	prompt := "Fix ~~~ fences\r\n~~~~\nbytes \xff\xfe kept\n\ttabbed \x1b[31m escape\n"
	add := biExec(e.t, e.bin, biCall{args: []string{"add", "--repo", e.tmp, "--title", "Café ✓ 日本", "--label", "ünï", "-", "--data-dir", e.dir}, stdin: []byte(prompt)})
	id := strings.TrimSpace(add.stdout)
	exp := biExec(e.t, e.bin, biCall{args: []string{"export", id, "--data-dir", e.dir}})
	imp := biExec(e.t, e.bin, biCall{args: []string{"import", "-", "--data-dir", e.dir}, stdin: []byte(exp.stdout)})
	copyID := strings.TrimSpace(imp.stdout)
	if add.code != 0 || exp.code != 0 || imp.code != 0 {
		return []string{"silent: round trip failed: " + add.stderr + exp.stderr + imp.stderr}
	}
	st := e.store()
	defer st.Close()
	a, err1 := st.GetTask(e.t.Context(), id)
	b, err2 := st.GetTask(e.t.Context(), copyID)
	if err1 != nil || err2 != nil || a.Prompt != prompt || b.Prompt != a.Prompt || b.Title != a.Title || strings.Join(b.Labels, ",") != strings.Join(a.Labels, ",") {
		return []string{"silent: export → import changed the task"}
	}
	return nil
}
