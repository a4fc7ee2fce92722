package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/userfile"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// intFlag is an integer flag checked after parsing, so a bad value is a user
// error (exit 1) with a readable message rather than a usage error. A flag
// with min set refuses values below it (an explicit --runs 0 is not taken
// for the default).
type intFlag struct {
	name, raw string
	def       int
	min       *int
}

func (f *intFlag) String() string     { return f.raw }
func (f *intFlag) Set(s string) error { f.raw = s; return nil }

func (f *intFlag) value() (int, error) {
	if f.raw == "" {
		return f.def, nil
	}
	n, err := intArg(f.name, f.raw)
	if err == nil && f.min != nil && n < *f.min {
		return 0, &usererr.Edge{Kind: usererr.BelowMin, Name: f.name, Value: strconv.Itoa(n), Min: *f.min}
	}
	return n, err
}

// intArg reads a whole number the user gave for name.
func intArg(name, raw string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(raw))
	if err != nil {
		return 0, &usererr.Edge{Kind: usererr.NotNumber, Name: name, Value: raw}
	}
	return n, nil
}

func runAdd(ctx context.Context, c *call) error {
	fs := c.newFlags()
	var n task.NewTask
	var labels, attach stringList
	one := 1
	prio := &intFlag{name: "priority"}
	runs := &intFlag{name: "runs", def: 1, min: &one}
	fs.StringVar(&n.Title, "title", "", "task title")
	fs.StringVar(&n.Base, "base", "", "branch or commit the worktree starts from")
	fs.Var(prio, "priority", "priority (higher runs first)")
	fs.Var(runs, "runs", "iterations wanted")
	fs.Var(&labels, "label", "label (repeatable)")
	fs.StringVar(&n.Repo, "repo", "", "working directory (default: settings.workingDirectory, recorded now)")
	fs.StringVar(&n.Command, "command", "", "command template whose text the task copies (see 'commands list')")
	fs.Var(&attach, "attach", "file to attach (repeatable); the agents get its path")
	fs.BoolVar(&n.Draft, "draft", false, "store as a draft instead of queueing it")
	fs.StringVar(&n.Verify, "verify", "", "this task's verify command (wins over the repository's and settings.verify.command)")
	fs.BoolVar(&n.NoVerify, "no-verify", false, "run no verify command for this task")
	at := fs.String("at", "", "not before this time (\"2026-12-02 02:00\", local or --tz)")
	every := fs.String("every", "", "recurring: a cron expression (\"0 2 * * 1-5\"); queues a fresh task at each fire")
	tz := fs.String("tz", "", "time zone of --at and --every (IANA name; --every defaults to UTC)")
	name := fs.String("name", "", "name of the schedule (--every)")
	onLimit := fs.String("on-limit", "", "on a usage limit: wait for the reset, or switch to the next installed tool of settings limits.switchOrder with a handoff (default: settings limits.onLimit)")
	fromIssue := fs.String("from-issue", "", "make the task from a GitHub or GitLab issue's URL (its title, body and labels; the pull request closes it)")
	executor := fs.String("executor", "", "where the task runs: local, or kubernetes (a Job of the cluster settings.executor names; default: settings.executor.kind)")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if pos, err = issueArgs(fs, *fromIssue, pos); err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one PROMPT argument (use - to read it from stdin), got %d", len(pos))
	}
	n.Prompt = pos[0]
	if n.Prompt == "-" {
		b, err := readAll(ctx, c.io.Stdin, task.MaxPrompt, userfile.Prompt)
		if err != nil {
			return err
		}
		n.Prompt = string(b)
	}
	if n.Priority, err = prio.value(); err != nil {
		return err
	}
	if n.Runs, err = runs.value(); err != nil {
		return err
	}
	n.Labels = labels
	if flagSet(fs, "verify") && !n.NoVerify {
		if _, err := task.CheckVerifyCommand(n.Verify); err != nil {
			return err // --verify '' is refused, not taken for no flag
		}
	}
	if flagSet(fs, "repo") {
		if n.Repo, err = absPath(n.Repo); err != nil {
			return err
		}
	}
	if n.OnLimit, err = task.ParseOnLimit(*onLimit); err != nil {
		return err
	}
	if n.Executor, err = task.ParseExecutor(*executor); err != nil {
		return err
	}
	if err := checkWhen(*at, *every, *name, *tz); err != nil {
		return err
	}
	var nb time.Time
	if *at != "" {
		if nb, err = parseAt(*at, *tz); err != nil {
			return err
		}
		n.NotBefore = &nb
	}
	if _, err := n.Normalize(); err != nil {
		return err // validate before touching the data root
	}
	if *fromIssue != "" {
		if *every != "" || len(attach) > 0 {
			return usagef("--from-issue does not go with --every or --attach")
		}
		return addFromIssue(ctx, c, n, *fromIssue)
	}
	if *every != "" {
		if len(attach) > 0 {
			return usagef("--attach does not go with --every (a schedule's template holds no files)")
		}
		return addSchedule(ctx, c, n, *every, *tz, *name)
	}
	return storeTask(ctx, c, n, attach)
}

// checkWhen refuses --at, --every, --name and --tz in a combination that
// means nothing.
func checkWhen(at, every, name, tz string) error {
	switch {
	case at != "" && every != "":
		return usagef("--at and --every do not go together (a schedule fires at its cron times)")
	case name != "" && every == "":
		return usagef("--name names a schedule: use it with --every")
	case tz != "" && at == "" && every == "":
		return usagef("--tz is the time zone of --at or --every: use it with one of them")
	}
	return nil
}

// storeTask opens the --attach files and creates the task through the one
// way in (backend/intake), then prints its id and what the user should
// know: a task without isolation, its start time.
func storeTask(ctx context.Context, c *call, n task.NewTask, attach []string) error {
	files, closeFiles, err := openAttachments(attach)
	if err != nil {
		return err
	}
	defer closeFiles()
	s, paths, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	// Without --repo the task records the working directory of the
	// settings now, so review works whatever they say later.
	created, err := host.NewServices(host.Options{Paths: paths, Store: s}).Intake.Task(ctx, intake.Request{Task: n, Files: files})
	if err != nil {
		return err
	}
	t := created.Task
	fmt.Fprintln(c.io.Stdout, t.ID)
	if created.Unisolated {
		fmt.Fprintf(c.io.Stderr, "boof-runner: warning: %s: %s\n", safeLine(t.Repo), worktree.NotGitWarning)
	}
	if t.NotBefore != nil {
		if now := time.Now(); !t.NotBefore.After(now) {
			fmt.Fprintf(c.io.Stderr, "the start time %s is in the past: the task runs now\n", atText(*t.NotBefore, false))
		} else {
			fmt.Fprintf(c.io.Stderr, "queued; not started before %s\n", atText(*t.NotBefore, true))
		}
	}
	return nil
}

// openAttachments opens every --attach file before anything is stored, so
// a missing or unreadable one changes nothing; each must be a regular file
// (a named pipe or a device is refused before it is opened). Each is
// attached under its base name.
func openAttachments(paths []string) ([]store.NewFile, func(), error) {
	var files []store.NewFile
	var opened []*os.File
	closeAll := func() {
		for _, f := range opened {
			f.Close()
		}
	}
	for _, p := range paths {
		f, err := userfile.Open(p, userfile.Attachment)
		if err != nil {
			closeAll()
			return nil, func() {}, err
		}
		opened = append(opened, f)
		files = append(files, store.NewFile{Name: filepath.Base(p), Data: f})
	}
	return files, closeAll, nil
}

// issueArgs checks --from-issue against the positional arguments and
// returns them with the placeholder prompt an issue's text replaces.
func issueArgs(fs *flag.FlagSet, fromIssue string, pos []string) ([]string, error) {
	if flagSet(fs, "from-issue") && strings.TrimSpace(fromIssue) == "" {
		return nil, usagef("--from-issue needs an issue's address (like https://github.com/OWNER/REPO/issues/12)")
	}
	if fromIssue == "" {
		return pos, nil
	}
	if len(pos) != 0 {
		return nil, usagef("--from-issue takes no PROMPT: the issue is the prompt")
	}
	return []string{issuePrompt}, nil // checked with the rest, replaced by the issue's text
}
