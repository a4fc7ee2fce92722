//go:build slow

package runner_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// smallDisk mounts an 8 MiB tmpfs for the test, or skips the test where
// this process may not mount.
func smallDisk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fill writes a file until the disk is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil && !errors.Is(err, syscall.ENOSPC) {
		t.Fatal(err)
	}
	if f == nil {
		return
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// TestDiskFullMidRunFailsClearly: the data root's disk fills up while a
// task runs. The runner frees its disk reserve, records the task as failed
// saying the disk filled up and what is kept (never leaves it ongoing),
// stops and exits 1 with that sentence; once space is back the reserve is
// written again and a retry goes on from the step that was cut short (the
// planner does not run again) and finishes the task, its run counted once.
func TestDiskFullMidRunFailsClearly(t *testing.T) {
	disk := smallDisk(t)
	base := newRoot(t, nil)
	r := &root{t: t, dir: filepath.Join(disk, "data"), repo: base.repo}
	os.MkdirAll(r.dir, 0o700)
	settingsJSON, _ := os.ReadFile(dataroot.Paths{Root: base.dir}.Settings())
	os.WriteFile(dataroot.Paths{Root: r.dir}.Settings(), settingsJSON, 0o600)
	st, err := store.Open(context.Background(), dataroot.Paths{Root: r.dir}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r.st = st
	tk := r.add("Fill the disk.\n[[mock-delay planner=200 refinement=200 developer=200 reviewer=200]]", 1)
	done := make(chan result, 1)
	go func() { done <- r.cli(context.Background(), "runner", "--once") }()
	waitExec(t, r, tk.ID, task.RoleRefinement)
	filler := filepath.Join(disk, "filler")
	fill(t, filler)
	res := <-done
	want := "boof-runner: The disk filled up while task " + tk.ID + " ran, so its outcome could not be saved; it was recorded as failed and the runner stopped: free some space or repair the database, then retry the task.\n"
	if res.code != 1 || !strings.HasSuffix(res.stderr, want) {
		t.Fatalf("exit %d stderr:\n%s\nwant the last line %q", res.code, res.stderr, want)
	}
	got := r.get(tk.ID)
	if got.Status != task.StatusFailed || !strings.HasPrefix(got.Error, "the disk filled up while this task ran") {
		t.Fatalf("task %s %q", got.Status, got.Error)
	}
	failedWith := got.Error
	if _, err := os.Stat(r.worktreeDir(tk.ID)); err != nil {
		t.Fatalf("the worktree is gone: %v", err)
	}
	if _, err := os.Stat(dataroot.Paths{Root: r.dir}.DiskReserve()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the reserve was not used: %v", err)
	}
	os.Remove(filler)
	if _, err := r.st.Retry(context.Background(), tk.ID); err != nil {
		t.Fatal(err)
	}
	if res := r.cli(context.Background(), "runner", "--once"); res.code != 0 {
		t.Fatalf("retry: %+v", res)
	}
	if got := r.get(tk.ID); got.Status != task.StatusDone || got.CompletedRuns != 1 {
		t.Fatalf("after retry %s %q, %d runs", got.Status, got.Error, got.CompletedRuns)
	}
	xs, _ := r.st.Executions(context.Background(), tk.ID)
	planners := 0
	for _, x := range xs {
		if x.Role == task.RolePlanner {
			planners++
		}
	}
	if planners != 1 {
		t.Fatalf("the planner ran %d times: the retry did not go on from the step cut short\n%s", planners, r.logText(tk.ID))
	}
	kept := "its branch boof-runner/" + tk.ID + " and its worktree " + r.worktreeDir(tk.ID) + " are kept"
	if !strings.Contains(failedWith, kept) {
		t.Fatalf("the error did not say %q: %q", kept, failedWith)
	}
	if fi, err := os.Stat(dataroot.Paths{Root: r.dir}.DiskReserve()); err != nil || fi.Size() != 1<<20 {
		t.Fatalf("reserve not written again: %v", err)
	}
}

// pausedAt starts a runner (--once) that waits at the failpoint point
// until the returned function is called.
func (r *root) pausedAt(point string) (cmd *exec.Cmd, out *bytes.Buffer, resume func()) {
	r.t.Helper()
	pause := filepath.Join(r.t.TempDir(), "pause")
	cmd, out = r.spawnEnv([]string{failpoint.EnvVar + "=" + point + "=pause:" + pause}, "--once")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(pause); err == nil {
			break
		}
		if cmd.ProcessState != nil || time.Now().After(deadline) {
			r.t.Fatalf("the runner never reached %s:\n%s", point, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cmd, out, func() { os.Remove(pause) }
}

// emptyLog moves every commit of the database's write-ahead log into the
// database file and truncates the log, so that the next write must find
// new room on the disk.
func emptyLog(t *testing.T, dbPath string) {
	t.Helper()
	db, err := sql.Open("sqlite3", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var busy, pages, moved int
	if err := db.QueryRow("PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &pages, &moved); err != nil || busy != 0 {
		t.Fatalf("checkpoint: busy %d, %v", busy, err)
	}
	if fi, err := os.Stat(dbPath + "-wal"); err != nil || fi.Size() != 0 {
		t.Fatalf("the log was not emptied: %v", err)
	}
}

// TestDiskFullAtTheVerdictRecordsTheDecidedOutcome: the data root's disk
// fills up once the reviewer's verdict is decided (durable, the run
// counted) and before the task's status is written. The runner frees its
// reserve and records the decided outcome — the task is done with 1 of 1
// runs, never failed with its run counted (which made a retry "Run 2 of
// 1", a second developer commit) — says so, and exits 1; a later start
// finds nothing to do again.
func TestDiskFullAtTheVerdictRecordsTheDecidedOutcome(t *testing.T) {
	disk := smallDisk(t)
	base := newRoot(t, nil)
	r := &root{t: t, dir: filepath.Join(disk, "data"), repo: base.repo}
	os.MkdirAll(r.dir, 0o700)
	settingsJSON, _ := os.ReadFile(dataroot.Paths{Root: base.dir}.Settings())
	os.WriteFile(dataroot.Paths{Root: r.dir}.Settings(), settingsJSON, 0o600)
	st, err := store.Open(context.Background(), dataroot.Paths{Root: r.dir}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r.st = st
	tk := r.add("Approve me.", 1)
	cmd, out, resume := r.pausedAt(pipeline.FailDecided)
	emptyLog(t, dataroot.Paths{Root: r.dir}.Database())
	filler := filepath.Join(disk, "filler")
	fill(t, filler)
	resume()
	cmd.Wait()
	got := r.get(tk.ID)
	if got.Status != task.StatusDone || got.CompletedRuns != 1 || got.HeadSHA == "" {
		t.Fatalf("task %s %q, %d of %d runs, head %q", got.Status, got.Error, got.CompletedRuns, got.Runs, got.HeadSHA)
	}
	want := "boof-runner: The disk filled up while task " + tk.ID + " ran; its outcome (done) was recorded on a second try, in the room the runner keeps for this, and the runner stopped: free some space, then start it again.\n"
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.HasSuffix(out.String(), want) {
		t.Fatalf("exit %d, output:\n%s\nwant the last line %q", code, out, want)
	}
	if _, ok, err := r.st.DecidedOutcome(context.Background(), tk.ID); ok || err != nil {
		t.Fatalf("the decided outcome is still there: %v", err)
	}
	if _, err := os.Stat(r.worktreeDir(tk.ID)); !os.IsNotExist(err) {
		t.Fatalf("worktree not removed: %v", err)
	}
	if left := gitRun(t, r.repo, "rev-parse", "refs/heads/"+worktree.LeftoversBranchName(tk.ID)); left == "" {
		t.Fatal("no leftovers saved")
	}
	os.Remove(filler)
	if res := r.cli(context.Background(), "runner", "--until-idle"); res.code != 0 {
		t.Fatalf("restart: %+v", res)
	}
	if got := r.get(tk.ID); got.Status != task.StatusDone || got.CompletedRuns != 1 {
		t.Fatalf("after the restart: %s, %d runs", got.Status, got.CompletedRuns)
	}
	if log := r.logText(tk.ID); strings.Contains(log, "Run 2 of 1") || !strings.Contains(log, "The outcome done could not be recorded when the run ended; recording it again") {
		t.Fatalf("log:\n%s", log)
	}
}

// leftCleanup runs a task whose run ends while its repository's disk is
// full: the task is done, its worktree kept with its leftovers unsaved. It
// returns the task, its log then, and the filler to remove for room.
func leftCleanup(t *testing.T) (r *root, tk task.Task, firstLog, filler string) {
	disk := smallDisk(t)
	repo := filepath.Join(disk, "repo")
	r = newRoot(t, map[string]any{"workingDirectory": repo})
	r.repo = repo
	os.MkdirAll(repo, 0o755)
	gitRun(t, repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "README.md"), []byte("repo\n"), 0o644)
	gitRun(t, repo, "add", "README.md")
	gitRun(t, repo, "-c", "user.name=T", "-c", "user.email=t@t", "commit", "-q", "-m", "init")
	tk = r.add("Leave leftovers.", 1)
	cmd, out, resume := r.pausedAt(pipeline.FailDecided)
	filler = filepath.Join(disk, "filler")
	fill(t, filler)
	resume()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("runner: %v\n%s", err, out)
	}
	got := r.get(tk.ID)
	if got.Status != task.StatusDone || got.CompletedRuns != 1 {
		t.Fatalf("task %s %q, %d runs", got.Status, got.Error, got.CompletedRuns)
	}
	if _, err := os.Stat(r.worktreeDir(tk.ID)); err != nil {
		t.Fatalf("the worktree whose leftovers were not saved is gone: %v", err)
	}
	if err := exec.Command("git", "-C", repo, "rev-parse", "--verify", "-q", leftoversRef(tk.ID)).Run(); err == nil {
		t.Fatal("leftovers saved on a full disk?")
	}
	return r, tk, r.logText(tk.ID), filler
}

func leftoversRef(id string) string { return "refs/heads/" + worktree.LeftoversBranchName(id) }

// cleanedUp checks that the task's leftovers were saved on their branch
// and its worktree removed, and what its logs say.
func cleanedUp(t *testing.T, r *root, tk task.Task, firstLog string) {
	t.Helper()
	if _, err := os.Stat(r.worktreeDir(tk.ID)); !os.IsNotExist(err) {
		t.Fatalf("worktree not removed: %v", err)
	}
	if files := gitRun(t, r.repo, "ls-tree", "-r", "--name-only", leftoversRef(tk.ID)); !strings.Contains(files, ".scratch.txt") {
		t.Fatalf("the leftovers branch holds %q, not the developer's scratch file", files)
	}
	if !strings.Contains(firstLog, "leftovers not saved") || !strings.Contains(firstLog, "the runner tries it again at its next start") {
		t.Fatalf("log at the end of the run:\n%s", firstLog)
	}
	if log := r.logText(tk.ID); !strings.Contains(log, "Tried again the worktree clean-up left at the end of the run") {
		t.Fatalf("log:\n%s", log)
	}
	if got := r.get(tk.ID); got.Status != task.StatusDone || got.CompletedRuns != 1 {
		t.Fatalf("after the clean-up: %s, %d runs", got.Status, got.CompletedRuns)
	}
}

// TestRepoDiskFullAtTheEndSavesTheLeftoversLater: the repository's disk
// fills up at the end of a run, so the done task's leftovers cannot be
// saved and its worktree stays. The task is done all the same, its log
// says the clean-up is tried again; the next start, with room again, saves
// the leftovers on their branch and removes the worktree.
func TestRepoDiskFullAtTheEndSavesTheLeftoversLater(t *testing.T) {
	r, tk, firstLog, filler := leftCleanup(t)
	os.Remove(filler)
	res := r.cli(context.Background(), "runner", "--until-idle")
	if res.code != 0 {
		t.Fatalf("restart: %+v", res)
	}
	cleanedUp(t, r, tk, firstLog)
	if !strings.Contains(res.stdout, "boof-runner runner: finished the worktree clean-up left by 1 earlier run(s)") {
		t.Fatalf("restart: %+v", res)
	}
}

// TestLeftCleanupIsTriedAfterTheNextTask: a runner started while the
// repository's disk is still full cannot finish the clean-up a run left;
// once there is room, the next task it finishes makes it try again, and
// the clean-up is done without a restart.
func TestLeftCleanupIsTriedAfterTheNextTask(t *testing.T) {
	r, tk, firstLog, filler := leftCleanup(t)
	cmd := exec.Command(os.Args[0], "runner", "--data-dir", r.dir)
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	waitFor(t, "the clean-up tried at the start", func() bool {
		return strings.Contains(out.String(), "the worktree clean-up left still cannot finish")
	})
	os.Remove(filler)
	if _, err := os.Stat(r.worktreeDir(tk.ID)); err != nil {
		t.Fatalf("the worktree went before the next task: %v", err)
	}
	if res := r.cli(context.Background(), "add", "Next."); res.code != 0 {
		t.Fatalf("add: %+v", res)
	}
	waitFor(t, "the clean-up after the next task", func() bool {
		return strings.Contains(out.String(), "boof-runner runner: finished the worktree clean-up left by 1 earlier run(s)")
	})
	_ = cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	cleanedUp(t, r, tk, firstLog)
}

// lockedBuffer is an output buffer a test may read while a process writes
// it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
