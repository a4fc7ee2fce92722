package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// intFlag is an integer flag checked after parsing, so a bad value is a user
// error (exit 1) with a readable message rather than a usage error.
type intFlag struct {
	name, raw string
	def       int
}

func (f *intFlag) String() string     { return f.raw }
func (f *intFlag) Set(s string) error { f.raw = s; return nil }

func (f *intFlag) value() (int, error) {
	if f.raw == "" {
		return f.def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(f.raw))
	if err != nil {
		return 0, fmt.Errorf("%s must be an integer, got %q", f.name, f.raw)
	}
	return n, nil
}

func runAdd(ctx context.Context, c *call) error {
	fs := c.newFlags()
	var n task.NewTask
	var labels, attach stringList
	prio := &intFlag{name: "priority"}
	runs := &intFlag{name: "runs", def: 1}
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
	onLimit := fs.String("on-limit", "", "on a usage limit: wait for the reset, or switch to the other installed tool with a handoff (default: settings limits.onLimit)")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one PROMPT argument (use - to read it from stdin), got %d", len(pos))
	}
	n.Prompt = pos[0]
	if n.Prompt == "-" {
		b, err := readAll(ctx, c.io.Stdin, task.MaxPrompt, "the prompt on standard input")
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
	if n.Runs < 1 {
		return fmt.Errorf("runs must be at least 1, got %d", n.Runs)
	}
	n.Labels = labels
	if n.Repo != "" {
		if n.Repo, err = absPath(n.Repo); err != nil {
			return err
		}
		if err := checkRepoDir(n.Repo); err != nil {
			return err
		}
	}
	if n.OnLimit, err = task.ParseOnLimit(*onLimit); err != nil {
		return err
	}
	if *at != "" && *every != "" {
		return usagef("--at and --every do not go together (a schedule fires at its cron times)")
	}
	if *name != "" && *every == "" {
		return usagef("--name names a schedule: use it with --every")
	}
	if *tz != "" && *at == "" && *every == "" {
		return usagef("--tz is the time zone of --at or --every: use it with one of them")
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
	if *every != "" {
		if len(attach) > 0 {
			return usagef("--attach does not go with --every (a schedule's template holds no files)")
		}
		return addSchedule(ctx, c, n, *every, *tz, *name)
	}
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
	if n.Repo == "" {
		// Record where the task will run now, so review works whatever
		// settings say later.
		set, _ := host.SettingsFile(paths).Load()
		n.Repo = set.WorkDir()
	}
	t, _, err := s.CreateTaskWithFiles(ctx, n, files, 0)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.io.Stdout, t.ID)
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
// a missing or unreadable one changes nothing. Each is attached under its
// base name.
func openAttachments(paths []string) ([]store.NewFile, func(), error) {
	var files []store.NewFile
	var opened []*os.File
	closeAll := func() {
		for _, f := range opened {
			f.Close()
		}
	}
	for _, p := range paths {
		f, err := openAttachment(p)
		if err != nil {
			closeAll()
			return nil, func() {}, err
		}
		opened = append(opened, f)
		files = append(files, store.NewFile{Name: filepath.Base(p), Data: f})
	}
	return files, closeAll, nil
}

func openAttachment(p string) (*os.File, error) {
	bad := func(why string) error {
		return &task.InvalidError{Reason: fmt.Sprintf("attachment %s %s", p, why)}
	}
	f, err := os.Open(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, bad("does not exist")
	case errors.Is(err, fs.ErrPermission):
		return nil, bad("cannot be read (permission denied)")
	case err != nil:
		return nil, bad("cannot be read: " + err.Error())
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, bad("is not a regular file")
	}
	return f, nil
}

// checkRepoDir refuses a --repo that is not an existing folder, before the
// task is queued to fail later.
func checkRepoDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &task.InvalidError{Reason: "the repository folder " + dir + " does not exist"}
	case err != nil:
		return fmt.Errorf("repository folder %s: %w", dir, err)
	case !fi.IsDir():
		return &task.InvalidError{Reason: "the repository path " + dir + " is " + dataroot.FileKind(fi.Mode()) + ", not a folder"}
	}
	return nil
}
