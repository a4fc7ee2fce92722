package usererr_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// fixture holds real parts that produce the errors under test.
type fixture struct {
	t     *testing.T
	ctx   context.Context
	st    *store.Store
	repo  string
	plain string
	git   *gitx.Git
	// bare is a bare repository; lastDB the last database file made.
	bare, lastDB string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "boof.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"commit", "-q", "--allow-empty", "-m", "init"}} {
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+repo)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	bare := filepath.Join(t.TempDir(), "bare.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", bare).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v\n%s", err, out)
	}
	return &fixture{t: t, ctx: ctx, st: st, repo: repo, plain: t.TempDir(), git: gitx.New(), bare: bare}
}

// db writes a SQLite file with user_version v after running ddl, and
// returns its path (also kept in lastDB).
func (f *fixture) db(v int, ddl string) string {
	f.t.Helper()
	path := filepath.Join(f.t.TempDir(), "boof.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		f.t.Fatal(err)
	}
	defer db.Close()
	if ddl != "" {
		if _, err := db.Exec(ddl); err != nil {
			f.t.Fatal(err)
		}
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
		f.t.Fatal(err)
	}
	f.lastDB = path
	return path
}

// emptyRepo is a git repository without commits.
func (f *fixture) emptyRepo() string {
	dir := f.t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		f.t.Fatalf("git init: %v\n%s", err, out)
	}
	return dir
}

// unbornRepo is a repository with a commit on main whose HEAD is on a new
// branch without commits.
func (f *fixture) unbornRepo() string {
	dir := f.t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init"}, {"checkout", "-q", "--orphan", "fresh"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			f.t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// file writes a text file and returns its path (also kept in lastDB).
func (f *fixture) file(content string) string {
	path := filepath.Join(f.t.TempDir(), "boof.db")
	os.WriteFile(path, []byte(content), 0o600)
	f.lastDB = path
	return path
}

// task creates a task and drives it to status through legal moves.
func (f *fixture) task(status task.Status) string {
	f.t.Helper()
	tk, err := f.st.CreateTask(f.ctx, task.NewTask{Prompt: "p"})
	if err != nil {
		f.t.Fatal(err)
	}
	var path []task.Status
	switch status {
	case task.StatusPending:
	case task.StatusOngoing:
		path = []task.Status{task.StatusOngoing}
	case task.StatusActions:
		path = []task.Status{task.StatusOngoing, task.StatusActions}
	case task.StatusDone, task.StatusFailed, task.StatusStopped:
		path = []task.Status{task.StatusOngoing, status}
	case task.StatusArchived:
		path = []task.Status{task.StatusOngoing, task.StatusDone, task.StatusArchived}
	default:
		f.t.Fatalf("no path to %s", status)
	}
	for _, to := range path {
		var err error
		if to == task.StatusOngoing {
			_, err = f.st.Claim(f.ctx, tk.ID, store.ClaimInfo{Role: task.RolePlanner})
		} else {
			_, err = f.st.Transition(f.ctx, tk.ID, to, store.TransitionNote{})
		}
		if err != nil {
			f.t.Fatalf("to %s: %v", to, err)
		}
	}
	return tk.ID
}

func must[T any](_ T, err error) error { return err }

func TestDescribeEveryClass(t *testing.T) {
	f := newFixture(t)
	ctx := f.ctx
	settingsAt := func(content string) *settings.File {
		p := filepath.Join(t.TempDir(), "settings.json")
		os.WriteFile(p, []byte(content), 0o600)
		return settings.NewFile(p, host.Catalog())
	}
	lockPath := filepath.Join(t.TempDir(), "runner.lock")
	lock, err := runner.AcquireLock(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	malformed := settingsAt(`{"review": {`)
	unborn := f.unbornRepo()
	settingsDir := settings.NewFile(t.TempDir(), host.Catalog())

	cases := []struct {
		name string
		err  error
		code usererr.Code
		msg  string
	}{
		{"task not found", must(f.st.GetTask(ctx, "0000000000000000")),
			usererr.NotFound, `Task "0000000000000000" does not exist.`},
		{"task not found wrapped", fmt.Errorf("load: %w", must(f.st.Retry(ctx, "nope"))),
			usererr.NotFound, `Task "nope" does not exist.`},
		{"command not found", f.st.DeleteCommand(ctx, "tests"),
			usererr.NotFound, `Command "tests" does not exist.`},
		{"attachment not found", f.st.RemoveAttachment(ctx, f.task(task.StatusPending), "spec.txt"),
			usererr.NotFound, `Attachment "spec.txt" does not exist.`},
		{"retry a done task", must(f.st.Retry(ctx, f.task(task.StatusDone))),
			usererr.WrongStatus, "This task is done: only failed or stopped tasks can be retried."},
		{"retry an ongoing task", must(f.st.Retry(ctx, f.task(task.StatusOngoing))),
			usererr.WrongStatus, "This task is ongoing: stop it before you retry it."},
		{"edit an ongoing task", must(f.st.UpdateTask(ctx, f.task(task.StatusOngoing), store.TaskEdit{Prompt: "q", Runs: 1})),
			usererr.WrongStatus, "This task is ongoing: stop it before you edit it."},
		{"delete an ongoing task", f.st.DeleteTask(ctx, f.task(task.StatusOngoing)),
			usererr.WrongStatus, "This task is ongoing: stop it before you delete it."},
		{"unarchive a failed task", must(f.st.Unarchive(ctx, f.task(task.StatusFailed))),
			usererr.WrongStatus, "This task has failed: only archived tasks can be unarchived."},
		{"answer a pending task", must(f.st.Answer(ctx, f.task(task.StatusPending), "blue")),
			usererr.WrongStatus, "This task is pending and has no questions to answer."},
		{"stop a stopped task", f.st.RequestStop(ctx, f.task(task.StatusStopped)),
			usererr.WrongStatus, "This task was stopped: only ongoing tasks can be stopped."},
		{"inject into a done task", must(f.st.Inject(ctx, f.task(task.StatusDone), "more")),
			usererr.WrongStatus, "This task is done: only ongoing, pending or waiting tasks can take injected prompts."},
		{"unknown operation", &store.StatusError{Op: "frob", Status: task.StatusDraft, Allowed: []task.Status{task.StatusPending}},
			usererr.WrongStatus, "This task is a draft: only pending tasks allow that."},
		{"claim lost", must(f.st.Claim(ctx, f.task(task.StatusDone), store.ClaimInfo{Role: task.RolePlanner})),
			usererr.WrongStatus, "This task is done and no longer waits in the queue."},
		{"archive an archived task", must(f.st.Archive(ctx, f.task(task.StatusArchived))),
			usererr.IllegalTransition, "This task is already archived."},
		{"archive an ongoing task", must(f.st.Archive(ctx, f.task(task.StatusOngoing))),
			usererr.IllegalTransition, "This task is ongoing: stop it before you archive it."},
		{"ongoing to pending", &task.TransitionError{From: task.StatusOngoing, To: task.StatusPending},
			usererr.IllegalTransition, "This task is ongoing and cannot become pending."},
		{"archive a pending task", must(f.st.Archive(ctx, f.task(task.StatusPending))),
			usererr.IllegalTransition, "This task is pending and cannot become archived."},
		{"waiting to done", must(f.st.Transition(ctx, f.task(task.StatusActions), task.StatusDone, store.TransitionNote{})),
			usererr.IllegalTransition, "This task is waiting for your answers and cannot become done."},
		{"accept conflict", fmt.Errorf("accept: %w", &review.ConflictError{Files: []string{"a.go", "b\nc.go"}}),
			usererr.Conflict, `Nothing changed: the accept would conflict in "a.go" and "b\nc.go"; re-queue the task to merge the target into its branch, or resolve it by hand.`},
		{"accept conflict, many files", &review.ConflictError{Files: []string{"1", "2", "3", "4", "5", "6", "7"}},
			usererr.Conflict, `Nothing changed: the accept would conflict in "1", "2", "3", "4", "5" and 2 more; re-queue the task to merge the target into its branch, or resolve it by hand.`},
		{"dirty checkout", &review.DirtyError{Dir: "/src/app", Files: []string{"b.txt"}},
			usererr.DirtyCheckout, `Nothing changed: the target checkout /src/app has uncommitted changes in "b.txt"; commit or stash them first.`},
		{"unverified work", fmt.Errorf("accept: %w", &review.NotVerifiedError{Reason: "verification failed: ./check.sh exited 1"}),
			usererr.WrongStatus, "Nothing changed: the work did not pass its verification gate (verification failed: ./check.sh exited 1); send it back to the developer, or fix it and run `boof-runner verify ID` again."},
		{"target moved", &review.MovedError{Ref: "refs/heads/main", Expected: strings.Repeat("a", 40), Actual: strings.Repeat("b", 40)},
			usererr.TargetMoved, "Nothing changed: branch main moved meanwhile (expected aaaaaaaaaaaa, now bbbbbbbbbbbb); try again."},
		{"move not settled", fmt.Errorf("move refs/heads/main: %w (%w: %v)", must(f.git.Run(ctx, f.repo, "update-ref", "refs/heads/main", "nope")),
			review.ErrUnsettled, errors.New("cannot lock ref 'refs/heads/main'")),
			usererr.Git, "The branch may or may not have moved (git failed and the branch could not be read back); the next accept or undo in this repository, or the next start of the runner, settles it, so check the branch before you try again."},
		{"unknown base", must(worktree.NewManager(f.git, time.Now).Provision(ctx, worktree.Request{Repo: f.repo, TaskID: "0123456789abcdef", Base: "nope"}, func(task.LogLevel, string, ...any) {})),
			usererr.UnknownBase, fmt.Sprintf(`The base ref "nope" is not a branch or commit in %s.`, f.repo)},
		{"runner locked", must(runner.AcquireLock(lockPath)),
			usererr.RunnerLocked, fmt.Sprintf("Another process (pid %d) is already running the queue of this data root; you can still add and read tasks and send stop or inject controls.", os.Getpid())},
		{"not a git repository", must(f.git.Run(ctx, f.plain, "status")),
			usererr.Git, fmt.Sprintf("The folder %s is not a git repository.", f.plain)},
		{"missing folder", must(f.git.Run(ctx, filepath.Join(f.plain, "gone"), "status")),
			usererr.Git, fmt.Sprintf("The folder %s does not exist.", filepath.Join(f.plain, "gone"))},
		{"unknown revision", must(f.git.Run(ctx, f.repo, "log", "nope")),
			usererr.Git, fmt.Sprintf("Git could not find a revision in %s (fatal: ambiguous argument 'nope': unknown revision or path not in the working tree).", f.repo)},
		{"git failure", must(f.git.Run(ctx, f.repo, "frobnicate")),
			usererr.Git, fmt.Sprintf("Git frobnicate failed in %s (git: 'frobnicate' is not a git command. See 'git --help').", f.repo)},
		{"empty prompt", must(f.st.CreateTask(ctx, task.NewTask{Prompt: "  "})),
			usererr.InvalidInput, "Prompt is empty."},
		{"empty answers", must(f.st.Answer(ctx, f.task(task.StatusActions), " ")),
			usererr.InvalidInput, "The answer is empty."},
		{"attachment too large", must(f.st.AddAttachment(ctx, f.task(task.StatusPending), "big.bin", strings.NewReader(strings.Repeat("x", 2049)), 2048)),
			usererr.InvalidInput, `Attachment "big.bin" is larger than the limit of 2 KiB.`},
		{"imported before", fmt.Errorf("import: %w", &store.DuplicateOriginError{OriginID: "2025-10-03-x", TaskID: "01abc"}),
			usererr.Duplicate, `Task "2025-10-03-x" was already imported (as 01abc); nothing changed: import it again (--again) to make a second copy.`},
		{"template gone at add", must(f.st.CreateTask(ctx, task.NewTask{Prompt: "p", Command: "gone"})),
			usererr.NotFound, `Command "gone" does not exist.`},
		{"settings, two bad keys", func() error {
			s := settings.Defaults(host.Catalog())
			s.Runner.Concurrency, s.Worktree.OnDone = 0, "trash"
			return s.Validate()
		}(),
			usererr.InvalidSettings, `Invalid settings: runner.concurrency must be between 1 and 32 (got 0); worktree.onDone must be keep-branch, keep or delete (got "trash").`},
		{"settings, wrong type", must(settingsAt(`{"roles":{"planner":"codex"}}`).Load()),
			usererr.InvalidSettings, `Invalid settings: roles.planner must be an object (got "codex").`},
		{"settings file malformed", must(malformed.Load()),
			usererr.InvalidSettings, fmt.Sprintf("The settings file %s is not valid JSON (unexpected EOF).", malformed.Path())},
		{"unknown setting, close to a known one", must(settingsAt(`{}`).Set("runner.concurency", "2")),
			usererr.InvalidSettings, "Unknown setting runner.concurency (did you mean runner.concurrency?)."},
		{"unknown setting", must(settingsAt(`{}`).Set("frobnicate.it", "2")),
			usererr.InvalidSettings, "Unknown setting frobnicate.it (run 'boof-runner settings get' to see them all)."},
		{"setting not set", must(settingsAt(`{}`).Get("roles.observer")),
			usererr.InvalidSettings, "The setting roles.observer is not set; its default applies."},
		{"settings file is a folder", must(settingsDir.Load()),
			usererr.InvalidSettings, fmt.Sprintf("The settings file %s is a folder, not a file.", settingsDir.Path())},
		{"runner not ready", &runner.NotReadyError{Err: must(malformed.Load())},
			usererr.InvalidSettings, fmt.Sprintf("The settings file %s is not valid JSON (unexpected EOF); the runner started no task: fix the file, or save the settings from the app.", malformed.Path())},
		{"bare repository", must(f.git.Info(ctx, f.bare)),
			usererr.Git, fmt.Sprintf("The folder %s is a bare git repository, which has no checkout to work in; use a checkout of it as the working directory.", f.bare)},
		{"schema version negative", must(store.Open(ctx, f.db(-5, ""), store.Options{})),
			usererr.Database, fmt.Sprintf("The database %s has an invalid schema version (-5) and was left as it was; restore it from a backup.", f.lastDB)},
		{"schema version newer", must(store.Open(ctx, f.db(99, ""), store.Options{})),
			usererr.Database, fmt.Sprintf("The database %s was written by a newer version of Boof Runner (schema 99; this version knows up to %d); upgrade Boof Runner to open it.", f.lastDB, store.LatestSchema())},
		{"migration fails", must(store.Open(ctx, f.db(0, "CREATE TABLE tasks (x)"), store.Options{})),
			usererr.Database, fmt.Sprintf("The database %s could not be upgraded for this version of Boof Runner (0001_tasks.sql: table tasks already exists) and was left as it was.", f.lastDB)},
		{"not a database", must(store.Open(ctx, f.file("notes"), store.Options{})),
			usererr.Database, fmt.Sprintf("The file %s is not a Boof Runner database; it was left as it was.", f.lastDB)},
		{"database path is a folder", must(store.Open(ctx, f.plain, store.Options{})),
			usererr.Database, fmt.Sprintf("The database path %s is a folder, not a database file; it was left as it was.", f.plain)},
		{"disk full", os.WriteFile("/dev/full", []byte("x"), 0o600),
			usererr.DiskFull, "The disk is full, so nothing was saved; free some space and try again."},
		{"outcome not recorded, disk full, recorded as failed", &runner.UnrecordedError{TaskID: "01abc", Recorded: true, Err: fmt.Errorf("record status done: %w", os.WriteFile("/dev/full", []byte("x"), 0o600))},
			usererr.DiskFull, "The disk filled up while task 01abc ran, so its outcome could not be saved; it was recorded as failed and the runner stopped: free some space or repair the database, then retry the task."},
		{"outcome not recorded, disk full, decided outcome recorded", &runner.UnrecordedError{TaskID: "01abc", Decided: task.StatusDone, Recorded: true, Err: fmt.Errorf("record status done: %w", os.WriteFile("/dev/full", []byte("x"), 0o600))},
			usererr.DiskFull, "The disk filled up while task 01abc ran; its outcome (done) was recorded on a second try, in the room the runner keeps for this, and the runner stopped: free some space, then start it again."},
		{"outcome not recorded, decided outcome recorded", &runner.UnrecordedError{TaskID: "01abc", Decided: task.StatusDone, Recorded: true, Err: errors.New("record status done: database is locked")},
			usererr.Database, "The database could not record the outcome of task 01abc (record status done: database is locked); its outcome (done) was recorded on a second try and the runner stopped: repair the database, then start it again."},
		{"outcome not recorded, decided outcome left", &runner.UnrecordedError{TaskID: "01abc", Decided: task.StatusDone, Err: errors.New("record status done: database is locked")},
			usererr.Database, "The database could not record the outcome of task 01abc (record status done: database is locked); the runner stopped and the task stays ongoing until the next start records its outcome (done)."},
		{"outcome not recorded, left ongoing", &runner.UnrecordedError{TaskID: "01abc", Err: errors.New("record status done: database is locked")},
			usererr.Database, "The database could not record the outcome of task 01abc (record status done: database is locked); the runner stopped and the task stays ongoing until the next start records it as interrupted."},
		{"repository without commits", must(worktree.NewManager(f.git, time.Now).Provision(ctx, worktree.Request{Repo: f.emptyRepo(), TaskID: "0123456789abcdef"}, func(task.LogLevel, string, ...any) {})),
			usererr.Git, "The repository has no commits yet; make a first commit so tasks have something to start from."},
		{"repository on a branch without commits", must(worktree.NewManager(f.git, time.Now).Provision(ctx, worktree.Request{Repo: unborn, TaskID: "0123456789abcdef"}, func(task.LogLevel, string, ...any) {})),
			usererr.Git, "The repository " + unborn + " is on branch fresh, which has no commits yet; give the task a base branch or commit, or check out a branch that has commits."},
		{"claim failed", fmt.Errorf("runner: %w", &runner.QueueError{Op: "claim", TaskID: "01abc", Err: fmt.Errorf("start execution: %w", errors.New("no room"))}),
			usererr.Database, "The runner could not claim task 01abc (no room); it stays pending."},
		{"anything else", errors.New("read prompt from stdin: broken pipe\nmore"),
			usererr.Other, "Read prompt from stdin: broken pipe more."},
		{"already a sentence", errors.New("The prompt is empty."),
			usererr.Other, "The prompt is empty."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.err == nil {
				t.Fatal("the operation did not fail")
			}
			msg, code := usererr.Describe(c.err)
			if msg != c.msg || code != c.code {
				t.Fatalf("Describe(%v)\n got %s %q\nwant %s %q", c.err, code, msg, c.code, c.msg)
			}
			checkSentence(t, msg)
			w := usererr.Wrap(c.err)
			if w.Error() != msg || !errors.Is(w, c.err) {
				t.Fatalf("Wrap = %v, does not keep %v", w, c.err)
			}
			if usererr.Wrap(w) != w {
				t.Fatal("Wrap of a described error describes it again")
			}
		})
	}
	if msg, code := usererr.Describe(nil); msg != "" || code != "" || usererr.Wrap(nil) != nil {
		t.Fatalf("nil: %q %q", msg, code)
	}
}

// checkSentence asserts what the user sees: one line, capitalised, ending
// with a period.
func checkSentence(t *testing.T, msg string) {
	t.Helper()
	if strings.ContainsAny(msg, "\n\r") || !unicode.IsUpper([]rune(msg)[0]) || !strings.HasSuffix(msg, ".") {
		t.Fatalf("not one capitalised sentence: %q", msg)
	}
}

func TestFieldMessage(t *testing.T) {
	k := &settings.KeyError{Key: "runner.concurrency", Reason: "must be between 1 and 32 (got 0)"}
	if got := usererr.FieldMessage(k); got != "Must be between 1 and 32 (got 0)." {
		t.Fatalf("got %q", got)
	}
}

// A message that starts with a name keeps its case; one that starts with
// a word of ours is capitalised; echoed input is clipped in one place.
func TestNamesKeepTheirCaseAndEchoesAreClipped(t *testing.T) {
	for in, want := range map[string]string{
		"bin.md: not a task file":          "bin.md: not a task file.",
		"runner.concurrency is bad":        "runner.concurrency is bad.",
		"01abc is gone":                    "01abc is gone.",
		"read prompt from stdin: the pipe": "Read prompt from stdin: the pipe.",
		"don't do that":                    "Don't do that.",
		"https://x.org/a is not an issue":  "https://x.org/a is not an issue.",
		"file:///etc/passwd is no issue":   "file:///etc/passwd is no issue.",
		"javascript:alert(1) is no issue":  "javascript:alert(1) is no issue.",
		"origin: gone":                     "Origin: gone.",
	} {
		if got, _ := usererr.Describe(errors.New(in)); got != want {
			t.Errorf("Describe(%q) = %q, want %q", in, got, want)
		}
	}
	id := strings.Repeat("x", 100_000)
	msg, _ := usererr.Describe(must(newFixture(t).st.GetTask(context.Background(), id)))
	if want := `Task "` + id[:59] + `…(100002 bytes) does not exist.`; msg != want {
		t.Fatalf("a 100 KB id: %q", msg[:min(len(msg), 200)])
	}
	words := strings.TrimSpace(strings.Repeat("word ", 2000))
	if got := usererr.Clip(words); len(got) > 2100 || !strings.HasPrefix(got, "word word") || !strings.HasSuffix(got, "word word") || !strings.Contains(got, " … ") {
		t.Fatalf("a long message of short words: %d bytes", len(got))
	}
	if s := "short enough"; usererr.Clip(s) != s {
		t.Fatal("a short message was changed")
	}
}
