package mergequeue

import (
	"context"
	"testing"

	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/task"
)

// A landing writes the same default message as an accept from the window
// or the CLI: the task's title and its reviewer's summary (the queue
// dropped the summary before).
func TestLandingWritesTheTitleAndTheReviewersSummary(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	for _, st := range []string{"merge", "squash"} {
		tk := f.doneTask("Add "+st, map[string]string{st + ".txt": st + "\n"})
		report := "## Review\n\nThe " + st + " file is added.\n\nVERDICT: APPROVE\n"
		if _, err := f.st.AddSection(ctx, task.Section{TaskID: tk.ID, Kind: task.SectionReviewerReport, Role: task.RoleReviewer,
			Iteration: 1, Round: 1, Verdict: string(task.VerdictApprove), Body: report}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.q.Add(ctx, []string{tk.ID}, "main", st); err != nil {
			t.Fatal(err)
		}
		if n := f.pass(); n != 1 {
			t.Fatalf("pass handled %d entries", n)
		}
		subject := "Add " + st
		if st == "merge" {
			subject = "Merge " + review.TaskBranch(tk.ID) + ": Add " + st
		}
		want := subject + "\n\nThe " + st + " file is added.\n\nBoof-Runner-Task: " + tk.ID
		if got := sh(t, f.repo, "log", "-1", "--format=%B", "main"); got != want {
			t.Fatalf("%s landing's message:\n%s\nwant:\n%s", st, got, want)
		}
	}
}
