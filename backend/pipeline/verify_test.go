package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
)

// checkScript passes once the mock developer has run twice on the task
// (its file then holds "Developer run 2."), and fails before with a
// marker line; it also litters the worktree, which the gate puts back.
const checkScript = `#!/bin/sh
echo "made by verify" > verify-litter.txt
echo "clobbered" >> README.md
if grep -q 'Developer run 2' mock-*.md 2>/dev/null; then echo "check: all good"; exit 0; fi
echo "FAIL: the work needs a second developer run"
exit 1
`

// withCheck commits check.sh (the verify command) into the env's repo.
func (e *env) withCheck(body string) {
	e.t.Helper()
	path := filepath.Join(e.repo, "check.sh")
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		e.t.Fatal(err)
	}
	gitRun(e.t, e.repo, "add", "check.sh")
	gitRun(e.t, e.repo, "-c", "user.name=T", "-c", "user.email=t@t", "commit", "-q", "-m", "check")
}

func (e *env) verifyRuns(id string) []task.VerifyRun {
	e.t.Helper()
	evs, err := e.st.Events(context.Background(), id, time.Time{})
	if err != nil {
		e.t.Fatal(err)
	}
	var out []task.VerifyRun
	for _, ev := range evs {
		if v, ok := ev.Data.(task.VerifyRun); ok {
			out = append(out, v)
		}
	}
	return out
}

func TestVerifyGateFailsThenPassesAfterAFixRound(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) { s.Verify.Command = "./check.sh" })
	e.withCheck(checkScript)
	tk := e.addTask("Verified work.", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	if got := e.verdicts(tk.ID, task.SectionVerification); got != "failed,passed" {
		t.Fatalf("verification sections %q", got)
	}
	secs := e.sections(tk.ID, task.SectionVerification)
	mustContain(t, secs[0].Body, "Command: `./check.sh` (from settings)", "Exit status: 1", "FAIL: the work needs a second developer run", "Restored")
	if secs[0].Step != "verify-1" || secs[1].Step != "verify-2" || secs[0].Role != task.RoleVerify {
		t.Fatalf("sections %+v", secs)
	}
	devs := e.rec.prompts(task.RoleDeveloper)
	if len(devs) != 2 {
		t.Fatalf("%d developer prompts", len(devs))
	}
	if strings.Contains(devs[0], HeadingFindings) {
		t.Fatal("first developer prompt has findings")
	}
	mustContain(t, devs[1], HeadingFindings, "The verify command `./check.sh` must pass", "failed (exit 1",
		"FAIL: the work needs a second developer run", "Make the verify command pass")
	revs := e.rec.prompts(task.RoleReviewer)
	if len(revs) != 1 {
		t.Fatalf("%d reviewer prompts", len(revs))
	}
	mustContain(t, revs[0], HeadingVerification, "`./check.sh` passed (exit 0")
	runs := e.verifyRuns(tk.ID)
	if len(runs) != 2 || runs[0].Outcome != task.VerifyFailed || runs[1].Outcome != task.VerifyPassed ||
		runs[0].ExitCode != 1 || runs[0].Source != task.VerifyFromSettings || runs[0].Execution == 0 || runs[1].Restored == 0 {
		t.Fatalf("verification events %+v", runs)
	}
	var verifyExecs []task.Execution
	for _, x := range e.executions(tk.ID) {
		if x.Role == task.RoleVerify {
			verifyExecs = append(verifyExecs, x)
		}
	}
	if len(verifyExecs) != 2 || verifyExecs[0].Outcome != task.OutcomeFailed || verifyExecs[1].Outcome != task.OutcomeSucceeded ||
		verifyExecs[0].Tool != VerifyTool || verifyExecs[0].Round != 1 || verifyExecs[1].Round != 2 {
		t.Fatalf("verify executions %+v", verifyExecs)
	}
	if b, err := os.ReadFile(verifyExecs[0].TranscriptPath); err != nil || !strings.Contains(string(b), "FAIL: the work needs") {
		t.Fatalf("transcript: %v %q", err, b)
	}
	// The task's branch holds the developer's work, never what verify left.
	got := e.get(tk.ID)
	files := gitRun(t, e.repo, "ls-tree", "-r", "--name-only", got.Branch)
	if strings.Contains(files, "verify-litter.txt") {
		t.Fatalf("verify's litter reached the branch:\n%s", files)
	}
	if readme := gitRun(t, e.repo, "show", got.Branch+":README.md"); strings.Contains(readme, "clobbered") {
		t.Fatalf("verify's edit reached the branch: %q", readme)
	}
	mustContain(t, e.logText(tk.ID), "Verification failed: developer fix round 1", "Verification: `./check.sh` passed")
}

func TestVerifyGateOutOfBudgetFailsTheTask(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) { s.Review.MaxFixRounds = 1 })
	e.withCheck("#!/bin/sh\necho 'FAIL: always red'\nexit 1\n")
	tk, err := e.st.CreateTask(context.Background(), task.NewTask{Prompt: "Never green.", Runs: 1, Verify: "./check.sh"})
	if err != nil {
		t.Fatal(err)
	}
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusFailed || res.Message != "verification failed: ./check.sh exited 1" {
		t.Fatalf("status %s %q", res.Status, res.Message)
	}
	if got := e.verdicts(tk.ID, task.SectionVerification); got != "failed,failed" {
		t.Fatalf("verification sections %q", got)
	}
	if n := len(e.rec.prompts(task.RoleReviewer)); n != 0 {
		t.Fatalf("the reviewer ran %d time(s) on red work", n)
	}
	if runs := e.verifyRuns(tk.ID); len(runs) != 2 || runs[1].Source != task.VerifyFromTask || !strings.Contains(runs[1].Tail, "FAIL: always red") {
		t.Fatalf("events %+v", runs)
	}
	if got := e.get(tk.ID); got.Error != "verification failed: ./check.sh exited 1" {
		t.Fatalf("task error %q", got.Error)
	}
}

// The verify budget is the reviewer's: a verify fix round leaves one
// fewer for the reviewer.
func TestVerifyFixRoundsShareTheReviewerBudget(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) { s.Review.MaxFixRounds = 1; s.Verify.Command = "./check.sh" })
	e.withCheck(checkScript)
	tk := e.addTask("Shared budget.\n[[mock-verdicts reviewer=CHANGES_REQUESTED]]", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusFailed || res.Message != "review not approved: reviewer CHANGES_REQUESTED" {
		t.Fatalf("status %s %q", res.Status, res.Message)
	}
	if got := e.verdicts(tk.ID, task.SectionReviewerReport); got != "CHANGES_REQUESTED" {
		t.Fatalf("reviewer verdicts %q: the reviewer got a fix round the verify gate had used", got)
	}
}

func TestVerifyTimesOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) {
		s.Review.MaxFixRounds = 0
		s.Verify.Command = "echo started; sleep 300"
		s.Verify.TimeoutMs = 1000
	})
	tk := e.addTask("Slow check.", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusFailed || !strings.HasPrefix(res.Message, "verification failed: echo started; sleep 300 timed out after") {
		t.Fatalf("status %s %q", res.Status, res.Message)
	}
	runs := e.verifyRuns(tk.ID)
	if len(runs) != 1 || runs[0].Outcome != task.VerifyTimedOut || !strings.Contains(runs[0].Tail, "started") {
		t.Fatalf("events %+v", runs)
	}
}

// Without a command nothing runs; --no-verify wins over the setting; a
// repository's command wins over the setting; the task's over both.
func TestVerifyCommandResolution(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) { s.Verify.Command = "from-settings" })
	ctx := context.Background()
	plain := e.addTask("plain", 1)
	skip, err := e.st.CreateTask(ctx, task.NewTask{Prompt: "skip", NoVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	own, err := e.st.CreateTask(ctx, task.NewTask{Prompt: "own", Verify: " make check "})
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(id, repo string) VerifyChoice {
		t.Helper()
		c, err := ResolveVerify(ctx, e.st, e.set, id, repo)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := resolve(plain.ID, e.repo); c != (VerifyChoice{"from-settings", task.VerifyFromSettings}) {
		t.Fatalf("plain: %+v", c)
	}
	if _, err := e.st.SetRepoVerify(ctx, e.repo, "go test ./..."); err != nil {
		t.Fatal(err)
	}
	if c := resolve(plain.ID, e.repo); c != (VerifyChoice{"go test ./...", task.VerifyFromRepo}) {
		t.Fatalf("repo: %+v", c)
	}
	if c := resolve(skip.ID, e.repo); c.Command != "" {
		t.Fatalf("skip: %+v", c)
	}
	if c := resolve(own.ID, e.repo); c != (VerifyChoice{"make check", task.VerifyFromTask}) {
		t.Fatalf("own: %+v", c)
	}
	e.set.Verify.Command = ""
	if c := resolve(plain.ID, "/elsewhere"); c.Command != "" {
		t.Fatalf("none: %+v", c)
	}
	if _, err := e.st.CreateTask(ctx, task.NewTask{Prompt: "both", Verify: "x", NoVerify: true}); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("a command with --no-verify: %v", err)
	}
}
