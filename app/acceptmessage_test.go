package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// reviewedTask makes a repository on main and a done task titled title
// whose branch changes files (path → content), with a reviewer report.
func reviewedTask(t *testing.T, st *store.Store, title string, files map[string]string) (task.Task, string) {
	return reviewedTaskOn(t, st, title, map[string]string{"README": "hello\n"}, files)
}

// reviewedTaskOn is reviewedTask on a main branch holding onMain.
func reviewedTaskOn(t testing.TB, st *store.Store, title string, onMain, files map[string]string) (task.Task, string) {
	t.Helper()
	ctx := context.Background()
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	for p, c := range onMain {
		os.WriteFile(filepath.Join(repo, p), []byte(c), 0o644)
	}
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "init")
	base := git(t, repo, "rev-parse", "HEAD")
	tk, err := st.CreateTask(ctx, task.NewTask{Title: title, Prompt: "do the work\nin detail", Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	git(t, repo, "checkout", "-q", "-b", "boof-runner/"+tk.ID)
	for p, c := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(repo, p)), 0o755)
		os.WriteFile(filepath.Join(repo, p), []byte(c), 0o644)
	}
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "task work")
	git(t, repo, "checkout", "-q", "main")
	if _, err := st.Claim(ctx, tk.ID, store.ClaimInfo{Runner: "test", Iteration: 1, Role: task.RoleReviewer, Round: 1, Attempt: 1, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	report := "## Review\n\nThe greeting now names the world.\nTests pass.\n\n## Findings\n\nNone.\n\nVERDICT: APPROVE\n"
	if _, err := st.AddSection(ctx, task.Section{TaskID: tk.ID, Kind: task.SectionReviewerReport, Role: task.RoleReviewer,
		Iteration: 1, Round: 1, Verdict: string(task.VerdictApprove), Body: report}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Transition(ctx, tk.ID, task.StatusDone, store.TransitionNote{Branch: "boof-runner/" + tk.ID, BaseSHA: base}); err != nil {
		t.Fatal(err)
	}
	tk, _ = st.GetTask(ctx, tk.ID)
	return tk, repo
}

func newReviewSvc(t testing.TB, st *store.Store) *ReviewService {
	t.Helper()
	g := gitx.New()
	return NewReviewService(g, st, worktree.NewManager(g, time.Now),
		review.New(g, time.Now, review.WithJournal(review.NewJournal(t.TempDir(), ""))), &RecordingEmitter{}, context.Background)
}

// The window's accept with the message left empty writes the task's title
// and the reviewer's summary (what AcceptMessage, the dialog's
// placeholder, shows), as the CLI and the merge queue do; before, it
// wrote "task <id>".
func TestAcceptFromTheWindowWritesTheDefaultMessage(t *testing.T) {
	for _, st := range []string{"squash", "merge"} {
		t.Run(st, func(t *testing.T) {
			s := newTestStore(t)
			tk, repo := reviewedTask(t, s, "Greet the world", map[string]string{"README": "hello world\n"})
			svc := newReviewSvc(t, s)
			want, err := svc.AcceptMessage(tk.ID, st)
			if err != nil {
				t.Fatal(err)
			}
			subject := "Greet the world"
			if st == "merge" {
				subject = "Merge boof-runner/" + tk.ID + ": Greet the world"
			}
			full := subject + "\n\nThe greeting now names the world.\nTests pass.\n\nBoof-Runner-Task: " + tk.ID + "\n"
			if want != full {
				t.Fatalf("AcceptMessage = %q, want %q", want, full)
			}
			if _, err := svc.Accept(tk.ID, AcceptInput{Strategy: st, Target: "main", Message: "  "}); err != nil {
				t.Fatal(err)
			}
			if got := git(t, repo, "log", "-1", "--format=%B", "main"); got != want[:len(want)-1] {
				t.Fatalf("commit message on main:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// A message the user typed is the commit's message as it is; a rebase
// keeps the task's commits (AcceptMessage is "").
func TestAcceptMessageTypedAndRebase(t *testing.T) {
	s := newTestStore(t)
	tk, repo := reviewedTask(t, s, "Greet the world", map[string]string{"README": "hello world\n"})
	svc := newReviewSvc(t, s)
	if m, err := svc.AcceptMessage(tk.ID, "rebase"); err != nil || m != "" {
		t.Fatalf("rebase message %q %v", m, err)
	}
	if _, err := svc.AcceptMessage(tk.ID, "octopus"); err == nil {
		t.Fatal("a bad strategy was accepted")
	}
	if _, err := svc.Accept(tk.ID, AcceptInput{Strategy: "squash", Target: "main", Message: "Mine\n\nmy words"}); err != nil {
		t.Fatal(err)
	}
	if got := git(t, repo, "log", "-1", "--format=%B", "main"); got != "Mine\n\nmy words" {
		t.Fatalf("typed message became %q", got)
	}
}

// The hunk-accept dialog's dry run says what it will make: one squash
// commit of the chosen changes with the default message, its files and
// line counts (Plan.Makes), though the task branch has two commits; the
// accept then makes exactly that.
func TestPlanAcceptOfHunksDescribesTheSquashCommit(t *testing.T) {
	s := newTestStore(t)
	tk, repo := reviewedTask(t, s, "Greet the world", map[string]string{"README": "hello world\n", "b.txt": "bee\n"})
	git(t, repo, "checkout", "-q", "boof-runner/"+tk.ID)
	os.WriteFile(filepath.Join(repo, "b.txt"), []byte("bee\nbuzz\n"), 0o644)
	git(t, repo, "commit", "-qam", "more work")
	git(t, repo, "checkout", "-q", "main")
	svc := newReviewSvc(t, s)
	in := AcceptInput{Strategy: "squash", Target: "main", Only: []review.Selection{{File: "README"}}}
	plan, err := svc.PlanAccept(tk.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	m := plan.Makes
	msg, _ := svc.AcceptMessage(tk.ID, "squash")
	if len(plan.Commits) != 2 || m == nil || m.Kind != review.OutcomeSquashCommit || m.Commits != 1 || !m.Subset || m.Message != msg {
		t.Fatalf("plan %+v makes %+v", plan, m)
	}
	if len(m.Files) != 1 || m.Files[0] != (review.FileStat{Path: "README", Change: "modified", Additions: 1, Deletions: 1}) || m.Additions != 1 || m.Deletions != 1 {
		t.Fatalf("files %+v", m.Files)
	}
	before := git(t, repo, "rev-parse", "main")
	in.ExpectTarget = plan.TargetSHA
	if _, err := svc.Accept(tk.ID, in); err != nil {
		t.Fatal(err)
	}
	if n := git(t, repo, "rev-list", "--count", before+"..main"); n != "1" {
		t.Fatalf("main gained %s commits", n)
	}
	if got := git(t, repo, "diff", "--numstat", before, "main"); got != "1\t1\tREADME" {
		t.Fatalf("main changed %q", got)
	}
	if got := git(t, repo, "log", "-1", "--format=%B", "main"); got+"\n" != m.Message {
		t.Fatalf("message %q, dry run said %q", got, m.Message)
	}
}

// A whole-branch dry run describes its result too: a merge commit that
// brings the task's commits, a rebase that fast-forwards.
func TestPlanAcceptDescribesMergeAndFastForward(t *testing.T) {
	s := newTestStore(t)
	tk, _ := reviewedTask(t, s, "Greet the world", map[string]string{"README": "hello world\n", "new.txt": "n\n"})
	svc := newReviewSvc(t, s)
	p, err := svc.PlanAccept(tk.ID, AcceptInput{Strategy: "merge", Target: "main"})
	if err != nil || p.Makes == nil || p.Makes.Kind != review.OutcomeMergeCommit || p.Makes.Commits != 2 || len(p.Makes.Files) != 2 ||
		p.Makes.Subject() != "Merge boof-runner/"+tk.ID+": Greet the world" || p.Makes.Subset {
		t.Fatalf("merge plan %+v %v", p.Makes, err)
	}
	p, err = svc.PlanAccept(tk.ID, AcceptInput{Strategy: "rebase", Target: "main"})
	if err != nil || p.Makes == nil || p.Makes.Kind != review.OutcomeFastForward || p.Makes.Commits != 1 || p.Makes.Message != "" || p.Makes.Additions != 2 {
		t.Fatalf("rebase plan %+v %v", p.Makes, err)
	}
}
