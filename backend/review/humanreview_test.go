package review

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

func TestChangeRequestCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   ChangeRequest
		want error
	}{
		{"empty", ChangeRequest{General: "  \n"}, ErrEmptyReview},
		{"empty comment", ChangeRequest{Comments: []Comment{{File: "a", Text: " "}}}, ErrBadReview},
		{"line without file", ChangeRequest{Comments: []Comment{{Line: 3, Text: "x"}}}, ErrBadReview},
		{"negative line", ChangeRequest{Comments: []Comment{{File: "a", Line: -1, Text: "x"}}}, ErrBadReview},
		{"drop without hunk", ChangeRequest{Drops: []Drop{{File: "a"}}}, ErrBadReview},
		{"too long", ChangeRequest{General: strings.Repeat("x", MaxCommentText+1)}, ErrBadReview},
		{"general only", ChangeRequest{General: "fine, but rename it"}, nil},
		{"drop only", ChangeRequest{Drops: []Drop{{File: "a", Hunk: "@@ -1 +1 @@\n-a\n+b"}}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.in.Check()
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
}

func TestRenderHumanReview(t *testing.T) {
	t.Parallel()
	c, err := ChangeRequest{
		General: "  Good start.  ",
		Comments: []Comment{
			{File: "src/main.go", Line: 12, Hunk: "@@ -10,3 +10,3 @@\n-old\n+new\n", Text: "use a constant\nhere"},
			{File: "weird\nname`.md", Text: "odd name"},
			{File: "docs/a.md", Hunk: "@@ -1 +1 @@\n-```\n+````\n", Text: "fences"},
		},
		Drops: []Drop{{File: "go.mod", Hunk: "@@ -3 +3 @@\n-go 1.25\n+go 1.26\n"}},
	}.Check()
	if err != nil {
		t.Fatal(err)
	}
	got := RenderHumanReview(c)
	want := "## Human review\n\n" +
		"The user reviewed the work of this task and asks for changes. They are to be made in this same worktree, keeping the rest of the work as it is.\n" +
		"\n### General comment\n\nGood start.\n" +
		"\n### Comments\n" +
		"\n1. `src/main.go`, line 12:\n   ```diff\n   @@ -10,3 +10,3 @@\n   -old\n   +new\n   ```\n   use a constant\n   here\n" +
		"\n2. \"weird\\nname`.md\":\n   odd name\n" +
		"\n3. `docs/a.md`:\n   `````diff\n   @@ -1 +1 @@\n   -```\n   +````\n   `````\n   fences\n" +
		"\n### Dropped hunks\n\nThe user dropped these hunks. Boof Runner reverted each of them before this run, in a \"Drop hunk\" commit of its own on the task branch: do not bring them back.\n" +
		"\n1. `go.mod`:\n   ```diff\n   @@ -3 +3 @@\n   -go 1.25\n   +go 1.26\n   ```\n"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if q := quoteName("a`b"); q != "``a`b``" {
		t.Fatalf("quoteName = %q", q)
	}
}

type changeRecorder struct{ body string }

func (r *changeRecorder) QueueFix(_ context.Context, f FixRun) (Queued, error) {
	r.body = f.Body
	return Queued{Request: 1, Fix: 1, Body: f.Body}, nil
}

func TestSendBack(t *testing.T) {
	t.Parallel()
	rec := &changeRecorder{}
	for _, st := range []task.Status{task.StatusOngoing, task.StatusAccepted} {
		if _, err := SendBack(context.Background(), "T1", st, HumanReviewHeading+"\n\nx\n", "verify", rec); !errors.Is(err, task.ErrIllegalTransition) {
			t.Fatalf("%s: err = %v", st, err)
		}
	}
	if _, err := SendBack(context.Background(), "T1", task.StatusDone, " \n", "verify", rec); !errors.Is(err, ErrEmptyReview) {
		t.Fatalf("err = %v", err)
	}
	if rec.body != "" {
		t.Fatal("a refused request was recorded")
	}
	body := HumanReviewHeading + "\n\nrename it\n"
	q, err := SendBack(context.Background(), "T1", task.StatusDone, body, "verify", rec)
	if err != nil || q.Body != body || rec.body != body {
		t.Fatalf("queued = %+v, recorded %q, err = %v", q, rec.body, err)
	}
}

func TestResolveWithAgent(t *testing.T) {
	t.Parallel()
	rec := &changeRecorder{}
	if _, err := ResolveWithAgent(context.Background(), "T1", task.StatusDone, "--x", nil, rec); !errors.Is(err, ErrBadBranch) {
		t.Fatalf("bad target: %v", err)
	}
	if _, err := ResolveWithAgent(context.Background(), "T1", task.StatusPending, "main", nil, rec); !errors.Is(err, task.ErrIllegalTransition) {
		t.Fatalf("pending task: %v", err)
	}
	q, err := ResolveWithAgent(context.Background(), "T1", task.StatusDone, "refs/heads/main", []string{"a.go", "odd\nname"}, rec)
	if err != nil {
		t.Fatal(err)
	}
	body := q.Body
	want := "## Human review\n\nThe user wants to accept this work into the branch `main`, but it has moved on and the two conflict. " +
		"Merge `main` into your branch in this worktree (`git merge main`), resolve every conflict keeping both sides' intent, and commit the merge. " +
		"The conflicting files:\n\n- `a.go`\n- \"odd\\nname\"\n"
	if body != want || rec.body != body {
		t.Fatalf("body:\n%s\nwant:\n%s", body, want)
	}
}
