package mergequeue

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/verify"
)

// helperEnv makes the re-run test binary run one queue pass on the
// fixture named by the other variables (and die at a failpoint).
const helperEnv = "BOOF_MERGEQUEUE_TEST_HELPER"

var procs *proc.Runner

func TestMain(m *testing.M) {
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	procs = proc.NewRunner(proc.RunnerOptions{})
	if os.Getenv(helperEnv) != "" {
		os.Exit(helperMain())
	}
	code := m.Run()
	procs.Shutdown(time.Second)
	os.Exit(code)
}

// checkScript is the verify command: red while a RED file exists.
const checkScript = "#!/bin/sh\nif [ -e RED ]; then echo 'FAIL: the RED marker is there'; exit 1; fi\necho 'check: green'\n"

// fixture is a repository on main (checked out, clean, with check.sh), a
// store and a queue over them.
type fixture struct {
	t       testing.TB
	repo    string
	db      string
	journal string
	work    string
	st      *store.Store
	q       *Queue
	set     settings.Settings
}

func sh(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %q: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t testing.TB, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, repo: filepath.Join(root, "repo"), db: filepath.Join(root, "db.sqlite"),
		journal: filepath.Join(root, "journal"), work: filepath.Join(root, "queue-work")}
	if err := os.MkdirAll(f.repo, 0o755); err != nil {
		t.Fatal(err)
	}
	sh(t, f.repo, "init", "-q", "-b", "main")
	sh(t, f.repo, "config", "user.name", "T")
	sh(t, f.repo, "config", "user.email", "t@t")
	write(t, filepath.Join(f.repo, "README.md"), "one\ntwo\nthree\n")
	write(t, filepath.Join(f.repo, "check.sh"), checkScript)
	sh(t, f.repo, "add", "-A")
	sh(t, f.repo, "commit", "-qm", "init")
	f.set = settings.Defaults(settings.Catalog{Names: []string{"mock"}})
	f.set.WorkingDirectory = f.repo
	f.set.Verify.Command = "./check.sh"
	f.set.Stop.GraceMs = 200
	f.open()
	return f
}

// open (re)opens the store and builds a fresh queue, as a restart does.
func (f *fixture) open() {
	f.t.Helper()
	if f.st != nil {
		f.st.Close()
	}
	st, err := store.Open(context.Background(), f.db, store.Options{})
	if err != nil {
		f.t.Fatal(err)
	}
	f.st = st
	f.t.Cleanup(func() { st.Close() })
	f.q = newQueue(st, f.journal, f.work, func() settings.Settings { return f.set })
}

func newQueue(st *store.Store, journal, work string, set func() settings.Settings) *Queue {
	g := gitx.New()
	return &Queue{Store: st, Git: g, Settings: set, WorkDir: work,
		Review: review.New(g, time.Now, review.WithJournal(review.NewJournal(journal, ""))),
		Verify: &verify.Runner{Procs: procs, Git: g}}
}

// doneTask makes a finished task whose branch commits files on top of
// main as it is now.
func (f *fixture) doneTask(title string, files map[string]string) task.Task {
	f.t.Helper()
	ctx := context.Background()
	tk, err := f.st.CreateTask(ctx, task.NewTask{Title: title, Prompt: title, Repo: f.repo})
	if err != nil {
		f.t.Fatal(err)
	}
	wt := filepath.Join(f.t.TempDir(), tk.ID)
	sh(f.t, f.repo, "worktree", "add", "-q", "-b", review.TaskBranch(tk.ID), wt, "main")
	for name, body := range files {
		write(f.t, filepath.Join(wt, name), body)
	}
	sh(f.t, wt, "add", "-A")
	sh(f.t, wt, "commit", "-qm", title)
	sh(f.t, f.repo, "worktree", "remove", "--force", wt)
	f.finish(tk.ID)
	return f.get(tk.ID)
}

// finish takes a pending task through a claim to done.
func (f *fixture) finish(id string) {
	f.t.Helper()
	ctx := context.Background()
	if _, err := f.st.Claim(ctx, id, store.ClaimInfo{Role: task.RoleDeveloper, Tool: "mock"}); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.st.Transition(ctx, id, task.StatusDone, store.TransitionNote{Branch: review.TaskBranch(id)}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) get(id string) task.Task {
	f.t.Helper()
	tk, err := f.st.GetTask(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	return tk
}

func (f *fixture) add(ids ...string) []task.QueueEntry {
	f.t.Helper()
	es, err := f.q.Add(context.Background(), ids, "", "")
	if err != nil {
		f.t.Fatal(err)
	}
	return es
}

func (f *fixture) pass() int {
	f.t.Helper()
	n, err := f.q.Pass(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	return n
}

func (f *fixture) entry(taskID string) task.QueueEntry {
	f.t.Helper()
	es, err := f.st.QueueEntries(context.Background(), true)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, e := range es {
		if e.TaskID == taskID {
			return e
		}
	}
	f.t.Fatalf("no entry for %s", taskID)
	return task.QueueEntry{}
}

// subjects is main's first-parent history, newest first, one subject a line.
func (f *fixture) subjects() string {
	return sh(f.t, f.repo, "log", "--first-parent", "--format=%s", "main")
}

// helperMain runs one pass over the fixture in the environment (the
// failpoint kills it on the way).
func helperMain() int {
	st, err := store.Open(context.Background(), os.Getenv("MQ_DB"), store.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	set := settings.Defaults(settings.Catalog{Names: []string{"mock"}})
	set.Verify.Command = "./check.sh"
	if c := os.Getenv("MQ_VERIFY"); c != "" {
		set.Verify.Command = c
	}
	q := newQueue(st, os.Getenv("MQ_JOURNAL"), os.Getenv("MQ_WORK"), func() settings.Settings { return set })
	q.Scope = os.Getenv("MQ_SCOPE")
	if _, err := q.Pass(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 4
	}
	return 0
}
