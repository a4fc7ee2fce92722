package cli_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// TestUserErrorsAreOneLineFromTheVocabulary runs real commands against a
// temp data root and checks the exact line on stderr (the message of
// backend/usererr, the same the desktop app shows; see app/errors_test.go),
// the exit code, and that nothing changed.
func TestUserErrorsAreOneLineFromTheVocabulary(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	done := addTask(t, dir, "finished work")
	archived := addTask(t, dir, "old work")
	s := storeAt(t, dir)
	ctx := context.Background()
	for _, id := range []string{done, archived} {
		if _, err := s.Claim(ctx, id, store.ClaimInfo{Role: task.RolePlanner}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Transition(ctx, id, task.StatusDone, store.TransitionNote{}); err != nil {
			t.Fatal(err)
		}
	}
	if r := runCLI(t, dir, "", "archive", archived); r.code != 0 {
		t.Fatalf("archive: %d %s", r.code, r.stderr)
	}
	cases := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"unknown task id", []string{"show", "0000000000000000"}, `boof-runner: Task "0000000000000000" does not exist.`},
		{"unknown task id, retry", []string{"retry", "nope"}, `boof-runner: Task "nope" does not exist.`},
		{"retry a done task", []string{"retry", done}, "boof-runner: This task is done: only failed or stopped tasks can be retried."},
		{"archive an archived task", []string{"archive", archived}, "boof-runner: This task is already archived."},
		{"unarchive a done task", []string{"unarchive", done}, "boof-runner: This task is done: only archived tasks can be unarchived."},
		{"stop a done task", []string{"stop", done}, "boof-runner: This task is done: only ongoing tasks can be stopped."},
		{"inject into a done task", []string{"inject", done, "more"}, "boof-runner: This task is done: only ongoing, pending or waiting tasks can take injected prompts."},
		{"empty prompt", []string{"add", " "}, "boof-runner: Prompt is empty."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, dir, "", c.args...)
			if r.code != 1 || r.stderr != c.stderr+"\n" || r.stdout != "" {
				t.Fatalf("exit %d stdout %q stderr %q\nwant exit 1 stderr %q", r.code, r.stdout, r.stderr, c.stderr)
			}
		})
	}
	if st := taskStatus(t, s, done); st != task.StatusDone {
		t.Fatalf("done task is now %s", st)
	}
	if st := taskStatus(t, s, archived); st != task.StatusArchived {
		t.Fatalf("archived task is now %s", st)
	}
	if n := len(listJSON(t, dir)); n != 2 {
		t.Fatalf("%d tasks listed", n)
	}
}

// TestInvalidSettingsNameEveryKey: two bad keys at once are both named, in
// the user's terms, on one line, and the file is left as it was.
func TestInvalidSettingsNameEveryKey(t *testing.T) {
	dir := t.TempDir()
	file := dataroot.Paths{Root: dir}.Settings()
	const content = `{"runner":{"concurrency":0},"worktree":{"onDone":"trash"},"roles":{"planner":"codex"}}`
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	const want = `boof-runner: Invalid settings: roles.planner must be an object (got "codex"); ` +
		`runner.concurrency must be between 1 and 32 (got 0); worktree.onDone must be keep-branch, keep or delete (got "trash").` + "\n"
	for _, args := range [][]string{{"settings", "get"}, {"settings", "set", "review.gate", "false"}} {
		r := runCLI(t, dir, "", args...)
		if r.code != 1 || r.stderr != want || r.stdout != "" {
			t.Fatalf("%v: exit %d stdout %q stderr\n%q\nwant\n%q", args, r.code, r.stdout, r.stderr, want)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != content {
		t.Fatalf("file changed: %s", b)
	}

	clean := t.TempDir()
	r := runCLI(t, clean, "", "settings", "set", "runner", `{"concurrency":99,"enabled":"yes"}`)
	const wantSet = `boof-runner: Invalid settings: runner.enabled must be true or false (got "yes"); runner.concurrency must be between 1 and 32 (got 99).` + "\n"
	if r.code != 1 || r.stderr != wantSet {
		t.Fatalf("set: exit %d stderr\n%q\nwant\n%q", r.code, r.stderr, wantSet)
	}
	if _, err := os.Stat(dataroot.Paths{Root: clean}.Settings()); !os.IsNotExist(err) {
		t.Fatalf("a refused set wrote the file: %v", err)
	}

	os.WriteFile(file, []byte(`{"runner": {`), 0o600)
	r = runCLI(t, dir, "", "settings", "get")
	if want := "boof-runner: The settings file " + file + " is not valid JSON (unexpected EOF).\n"; r.code != 1 || r.stderr != want {
		t.Fatalf("malformed: exit %d stderr %q want %q", r.code, r.stderr, want)
	}
}

// TestRunnerLockedSaysWhoHoldsIt: a second runner on a data root gets one
// line naming the holder, exit 1.
func TestRunnerLockedSaysWhoHoldsIt(t *testing.T) {
	dir := t.TempDir()
	paths := dataroot.Paths{Root: dir}
	if err := dataroot.Ensure(dir); err != nil {
		t.Fatal(err)
	}
	lock, err := runner.AcquireLock(paths.RunnerLock())
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	r := runCLI(t, dir, "", "runner", "--once")
	want := fmt.Sprintf("boof-runner: Another process (pid %d) is already running the queue of this data root; "+
		"you can still add and read tasks and send stop or inject controls.\n", os.Getpid())
	if r.code != 1 || r.stderr != want {
		t.Fatalf("exit %d stderr %q\nwant %q", r.code, r.stderr, want)
	}
}
