//go:build unix

package worktree_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// slowRepo makes a repository of n files whose checkout runs a smudge
// filter that sleeps, so a `git worktree add` can be killed half way.
func slowRepo(t *testing.T, n int) string {
	t.Helper()
	repo := newRepo(t)
	for i := 0; i < n; i++ {
		write(t, filepath.Join(repo, "big", fmt.Sprintf("f%03d.txt", i)), fmt.Sprintf("file %d\n", i))
	}
	write(t, filepath.Join(repo, ".gitattributes"), "big/*.txt filter=slow\n")
	commitAll(t, repo, "many files")
	sh(t, repo, "config", "filter.slow.smudge", "sleep 0.05; cat")
	sh(t, repo, "config", "filter.slow.clean", "cat")
	return repo
}

// killTagged SIGKILLs every process carrying tag, as a kill -9 of the
// runner followed by recovery's sweep would, without the SIGTERM that lets
// git clean up.
func killTagged(t *testing.T, tag string) int {
	t.Helper()
	ps, err := proc.FindTagged(tag)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		_ = syscall.Kill(p.PID, syscall.SIGKILL)
	}
	return len(ps)
}

func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	_ = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			n++
		}
		return nil
	})
	return n
}

// TestProvisionKilledMidCheckoutIsTakenBack: when provisioning's own git is
// killed mid-checkout while the app lives, the half-made worktree, its
// registration, the new branch and the provisioning record are taken back at
// once, so the next provisioning starts clean and complete. (When the app
// itself dies there, the next start recognises the half-built worktree and
// rebuilds it: TestProvisionWithoutMetaButMarkerIsRebuilt and reliability
// row R1.)
func TestProvisionKilledMidCheckoutIsTakenBack(t *testing.T) {
	repo := slowRepo(t, 30)
	m := newManager()
	tag := proc.StepTag("wttest", proc.OwnerRun, fmt.Sprint(time.Now().UnixNano()), "provision")
	ctx := gitx.WithCallEnv(t.Context(), proc.StepEnv+"="+tag)
	req := worktree.Request{Repo: repo, TaskID: "T1"}
	dir := filepath.Join(repo, worktree.DefaultRootName, "T1")
	errc := make(chan error, 1)
	go func() {
		_, err := m.Provision(ctx, req, tlog(t))
		errc <- err
	}()
	// Kill the git processes once the checkout has written some files.
	deadline := time.Now().Add(60 * time.Second)
	for countFiles(t, filepath.Join(dir, "big")) < 3 {
		if time.Now().After(deadline) {
			t.Fatal("checkout never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if killTagged(t, tag) == 0 {
		t.Fatal("no git process to kill")
	}
	if err := <-errc; err == nil {
		t.Fatal("provisioning succeeded although its git was killed")
	}
	if n := countFiles(t, filepath.Join(dir, "big")); n >= 30 {
		t.Fatalf("the checkout finished before the kill (%d files); the test did not interrupt it", n)
	}

	if exists(dir) || exists(filepath.Join(repo, worktree.DefaultRootName, ".meta", "T1.provisioning.json")) {
		t.Fatal("the half-made worktree or its provisioning record was left behind")
	}
	if out := sh(t, repo, "branch", "--list", "boof-runner/T1"); out != "" {
		t.Fatalf("the new branch was left behind: %q", out)
	}
	if out := sh(t, repo, "worktree", "list", "--porcelain"); strings.Contains(out, "/T1") {
		t.Fatalf("the worktree is still registered:\n%s", out)
	}

	var rec recorder
	wt, err := m.Provision(t.Context(), req, rec.log)
	if err != nil {
		t.Fatalf("second provision: %v\n%s", err, rec.String())
	}
	if n := countFiles(t, filepath.Join(wt.Dir, "big")); n != 30 {
		t.Fatalf("the new worktree has %d of 30 files", n)
	}
	if wt.BaseSHA != sh(t, repo, "rev-parse", "main") {
		t.Fatalf("base %s", wt.BaseSHA)
	}
	if st := sh(t, wt.Dir, "status", "--porcelain"); st != "" {
		t.Fatalf("rebuilt worktree is not clean:\n%s", st)
	}
	// Leftovers of the rebuilt worktree record no deletions.
	write(t, filepath.Join(wt.Dir, "new.txt"), "n\n")
	left, err := m.SaveLeftovers(t.Context(), wt, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	if diff := sh(t, repo, "diff", "--name-status", wt.BaseSHA, left.SHA); diff != "A\tnew.txt" {
		t.Fatalf("leftovers diff:\n%s", diff)
	}
	if _, ok, _ := worktree.ReadMeta(wt.Root, "T1"); !ok {
		t.Fatal("no meta sidecar after the rebuild")
	}
	if exists(filepath.Join(wt.Root, ".meta", "T1.provisioning.json")) {
		t.Fatal("provisioning record left after a completed provisioning")
	}
}

func TestProvisionWithoutMetaButMarkerIsRebuilt(t *testing.T) {
	repo := newRepo(t)
	m := newManager()
	req := worktree.Request{Repo: repo, TaskID: "T2"}
	wt, err := m.Provision(t.Context(), req, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	// The state a kill between `worktree add` and the meta sidecar leaves:
	// the checkout, git's registration, the marker, no meta. A file the
	// checkout never wrote stands for the interrupted checkout.
	marker := filepath.Join(wt.Root, ".meta", "T2.provisioning.json")
	meta := filepath.Join(wt.Root, ".meta", "T2.json")
	if err := os.Rename(meta, marker); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(wt.Dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	var rec recorder
	again, err := m.Provision(t.Context(), req, rec.log)
	if err != nil {
		t.Fatalf("%v\n%s", err, rec.String())
	}
	if !rec.has("its provisioning record is still there") || !exists(filepath.Join(again.Dir, "a.txt")) {
		t.Fatalf("not rebuilt:\n%s", rec.String())
	}
	if again.BaseSHA != wt.BaseSHA || exists(marker) || !exists(meta) {
		t.Fatalf("base %s (want %s), marker %v, meta %v", again.BaseSHA, wt.BaseSHA, exists(marker), exists(meta))
	}
}

func TestStaleIndexLockOfAFinishedWorktreeIsClearedNotRebuilt(t *testing.T) {
	repo := newRepo(t)
	m := newManager()
	req := worktree.Request{Repo: repo, TaskID: "T3"}
	wt, err := m.Provision(t.Context(), req, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	// An agent's git was killed mid-commit: its work and a stale lock stay.
	write(t, filepath.Join(wt.Dir, "work.txt"), "agent work\n")
	gitDir := sh(t, wt.Dir, "rev-parse", "--absolute-git-dir")
	write(t, filepath.Join(gitDir, "index.lock"), "")
	var rec recorder
	again, err := m.Provision(t.Context(), req, rec.log)
	if err != nil {
		t.Fatal(err)
	}
	if rec.has("rebuilding") || !rec.has("removed a stale") {
		t.Fatalf("log:\n%s", rec.String())
	}
	if b, err := os.ReadFile(filepath.Join(again.Dir, "work.txt")); err != nil || string(b) != "agent work\n" {
		t.Fatalf("the agent's work is gone: %q %v", b, err)
	}
	if _, err := shErr(again.Dir, "add", "-A"); err != nil {
		t.Fatalf("git still blocked: %v", err)
	}
}

func TestStaleIndexLockHeldByAProcessIsLeft(t *testing.T) {
	repo := newRepo(t)
	m := newManager()
	req := worktree.Request{Repo: repo, TaskID: "T4"}
	wt, err := m.Provision(t.Context(), req, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(sh(t, wt.Dir, "rev-parse", "--absolute-git-dir"), "index.lock")
	f, err := os.Create(lock)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := m.Provision(t.Context(), req, tlog(t)); err != nil {
		t.Fatal(err)
	}
	if !exists(lock) {
		t.Fatal("a lock held open by a live process was removed")
	}
}

func TestLeftoversNeverMoveOffAnUnkeptCommit(t *testing.T) {
	repo := newRepo(t)
	m := newManager()
	wt, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "T5"}, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Dir, "first.txt"), "1\n")
	first, err := m.SaveLeftovers(t.Context(), wt, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	// Saving the same work again (a clean-up finished after a crash) keeps
	// the commit.
	same, err := m.SaveLeftovers(t.Context(), wt, tlog(t))
	if err != nil || same.SHA != first.SHA {
		t.Fatalf("re-save made %s, want %s (%v)", same.SHA, first.SHA, err)
	}
	// A retry changed the work: the branch moves, the first commit is kept.
	if err := os.Remove(filepath.Join(wt.Dir, "first.txt")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Dir, "second.txt"), "2\n")
	var rec recorder
	second, err := m.SaveLeftovers(t.Context(), wt, rec.log)
	if err != nil || second.SHA == first.SHA {
		t.Fatalf("second save %s %v", second.SHA, err)
	}
	kept := sh(t, repo, "rev-parse", worktree.ArchivedLeftoversPrefix+"T5/1")
	if kept != first.SHA || !rec.has("earlier leftovers "+first.SHA+" kept at") {
		t.Fatalf("first leftovers not kept: %s\n%s", kept, rec.String())
	}
	// The task branch moved on (a fix run committed), then new work was
	// saved: the second commit, on the old HEAD, is kept too.
	write(t, filepath.Join(wt.Dir, "fix.txt"), "fix\n")
	sh(t, wt.Dir, "add", "fix.txt")
	sh(t, wt.Dir, "commit", "-qm", "fix")
	write(t, filepath.Join(wt.Dir, "third.txt"), "3\n")
	third, err := m.SaveLeftovers(t.Context(), wt, rec.log)
	if err != nil || third.SHA == second.SHA || third.Parent != sh(t, wt.Dir, "rev-parse", "HEAD") {
		t.Fatalf("third save %+v %v", third, err)
	}
	if kept := sh(t, repo, "rev-parse", worktree.ArchivedLeftoversPrefix+"T5/2"); kept != second.SHA {
		t.Fatalf("second leftovers not kept: %s\n%s", kept, rec.String())
	}
	// Every leftovers commit is reachable from a ref.
	for _, c := range []string{first.SHA, second.SHA, third.SHA} {
		if refs := sh(t, repo, "for-each-ref", "--contains", c, "--format=%(refname)"); refs == "" {
			t.Fatalf("%s is reachable from nothing", c)
		}
	}
	// The temporary index lives in the worktree's git directory and is gone.
	gitDir := sh(t, wt.Dir, "rev-parse", "--absolute-git-dir")
	if exists(filepath.Join(gitDir, "boof-leftovers.index")) {
		t.Fatal("temporary index left behind")
	}
}

func TestLeftoversSaveClearsWhatAKilledSaveLeft(t *testing.T) {
	repo := newRepo(t)
	m := newManager()
	wt, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "T6"}, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	gitDir := sh(t, wt.Dir, "rev-parse", "--absolute-git-dir")
	write(t, filepath.Join(gitDir, "boof-leftovers.index"), "torn")
	write(t, filepath.Join(gitDir, "boof-leftovers.index.lock"), "")
	write(t, filepath.Join(wt.Dir, "x.txt"), "x\n")
	left, err := m.SaveLeftovers(t.Context(), wt, tlog(t))
	if err != nil || left.SHA == "" {
		t.Fatalf("save after a killed save: %+v %v", left, err)
	}
}

func TestFinishAfterACutShortRemovalRecordsNoDeletions(t *testing.T) {
	repo := newRepo(t)
	m := newManager()
	wt, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "T7"}, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Dir, "left.txt"), "l\n")
	// A first Finish saves the leftovers and is killed as the removal runs:
	// the failpoint stands for the kill, half the files stand for the
	// removal's progress.
	left, err := m.SaveLeftovers(t.Context(), wt, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Root, ".meta", "T7.removing.json"), fmt.Sprintf(`{"leftoversBranch":%q,"leftoversSha":%q}`, left.Branch, left.SHA))
	for _, f := range []string{"a.txt", "left.txt", ".git"} {
		if err := os.Remove(filepath.Join(wt.Dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	var rec recorder
	rep, err := m.Finish(context.Background(), wt, worktree.OutcomeDone, worktree.Policy{}, rec.log)
	if err != nil || !rep.DirRemoved || rep.LeftoversSHA != left.SHA {
		t.Fatalf("report %+v %v\n%s", rep, err, rec.String())
	}
	if got := sh(t, repo, "rev-parse", "refs/heads/"+worktree.LeftoversBranchName("T7")); got != left.SHA {
		t.Fatalf("leftovers branch moved to %s (the half-deleted directory was saved)", got)
	}
	if exists(wt.Dir) || strings.Contains(sh(t, repo, "worktree", "list"), "T7") {
		t.Fatalf("worktree not fully removed:\n%s", sh(t, repo, "worktree", "list"))
	}
	if exists(filepath.Join(wt.Root, ".meta", "T7.removing.json")) {
		t.Fatal("removal marker left")
	}
}

// Managers that do not share a lock (as the runner and an accept's rebase
// in another process do not) create worktrees of one repository at once:
// git reads a registration another git is still writing and fails; every
// provisioning still succeeds.
func TestConcurrentProvisionsWithoutASharedLockAllSucceed(t *testing.T) {
	repo := newRepo(t)
	errs := make(chan error, 24)
	for i := 0; i < 24; i++ {
		go func() {
			_, err := newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: fmt.Sprintf("c%d", i)}, func(task.LogLevel, string, ...any) {})
			errs <- err
		}()
	}
	for i := 0; i < 24; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for i := 0; i < 24; i++ {
		if _, ok, _ := worktree.ReadMeta(filepath.Join(repo, worktree.DefaultRootName), fmt.Sprintf("c%d", i)); !ok {
			t.Errorf("c%d has no meta", i)
		}
	}
}
