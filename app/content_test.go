package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Through the bound services: a template saved on the Commands screen and a
// file picked in the New task form reach every role's prompt as the agent
// received it; the editor shows the task's copy of the template after the
// template changed; a task created with no working directory of its own
// records the one it ran in at claim, so the Review screen's summary works;
// usage is reported per role.
func TestServicesJourneyTemplateAttachmentReview(t *testing.T) {
	f := startHost(t)
	cmds := NewCommandService(f.st, f.rec, context.Background)
	if _, err := cmds.Save(CommandInput{Name: "docs", Body: "Update the README for every change."}); err != nil {
		t.Fatal(err)
	}
	tasks := NewTaskService(f.st, f.rec, context.Background, TaskDeps{Wake: f.host.Runner.Wake, Intake: f.host.Intake})
	note := "design note\n"
	tk, err := tasks.Create(NewTaskInput{Prompt: "Shout the greeting.", Command: "docs",
		Attachments: []AttachmentInput{{Name: "note.md", DataBase64: base64.StdEncoding.EncodeToString([]byte(note))}}})
	if err != nil {
		t.Fatal(err)
	}
	if tk.Repo != f.repo {
		t.Fatalf("repo at add %q, want the working directory %q", tk.Repo, f.repo)
	}
	if _, err := cmds.Save(CommandInput{ID: "docs", Name: "docs", Body: "NEW TEXT"}); err != nil {
		t.Fatal(err)
	}
	done := f.waitStatus(t, tk.ID, task.StatusDone)
	if done.Repo != f.repo {
		t.Fatalf("repo %q, want %q", done.Repo, f.repo)
	}
	path := filepath.Join(f.paths.Attachments(), tk.ID, "note.md")
	got, err := mock.ReadReceived(filepath.Join(f.paths.Root, "mock-state"))
	if err != nil {
		t.Fatal(err)
	}
	roles := map[task.Role]bool{}
	for _, r := range got {
		roles[r.Role] = true
		for _, want := range []string{"## Command\n\nUpdate the README for every change.\n", fmt.Sprintf("- note.md: %s (%d bytes)", path, len(note))} {
			if !strings.Contains(r.Prompt, want) {
				t.Fatalf("the %s's prompt lacks %q:\n%s", r.Role, want, r.Prompt)
			}
		}
	}
	if len(roles) != 4 {
		t.Fatalf("prompts of %d roles received", len(roles))
	}
	d, err := tasks.Get(tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.CommandText != "Update the README for every change." || len(d.Attachments) != 1 || d.Attachments[0].Path != path {
		t.Fatalf("detail: command %q attachments %+v", d.CommandText, d.Attachments)
	}
	if len(d.UsageByRole) != 4 || d.UsageByRole[0].Key != "planner" || d.UsageByRole[3].Key != "reviewer" || d.UsageByRole[2].TokensIn == 0 {
		t.Fatalf("usage by role %+v", d.UsageByRole)
	}
	g := gitx.New()
	rs := NewReviewService(g, f.st, worktree.NewManager(g, time.Now), review.New(g, time.Now), f.rec, context.Background)
	sum, err := rs.Summary(tk.ID)
	if err != nil || len(sum.Files) == 0 || sum.Files[0].Path != mock.FileName(filepath.Join(f.repo, tk.ID)) {
		t.Fatalf("review summary %+v %v", sum, err)
	}
	settingsSvc := NewSettingsService(f.host.Settings, f.st, nil, f.rec, context.Background, nil, nil)
	today := time.Now().UTC().Format(time.DateOnly)
	u, err := settingsSvc.Usage(UsageRange{From: today, To: today})
	if err != nil || len(u.ByRole) != 4 || u.ByRole[0].Key != "planner" {
		t.Fatalf("usage by role on the dashboard %+v %v", u.ByRole, err)
	}
}

// Bad input in the form changes nothing: an unknown template, a file that
// is not base64, a second file of the same name.
func TestCreateRefusesBadContent(t *testing.T) {
	f := startHost(t)
	cases := []struct {
		in  NewTaskInput
		msg string
	}{
		{NewTaskInput{Prompt: "p", Command: "gone"}, `Command "gone" does not exist.`},
		{NewTaskInput{Prompt: "p", Attachments: []AttachmentInput{{Name: "a.txt", DataBase64: "!!"}}}, `The file "a.txt" could not be read (bad encoding).`},
		{NewTaskInput{Prompt: "p", Attachments: []AttachmentInput{{Name: "a.txt", DataBase64: "YQ=="}, {Name: "a.txt", DataBase64: "Yg=="}}},
			`Attachment name "a.txt" is given twice.`},
	}
	for _, c := range cases {
		if _, err := f.tasks.Create(c.in); err == nil || err.Error() != c.msg {
			t.Errorf("create %+v: %v, want %q", c.in, err, c.msg)
		}
	}
	if list, _ := f.tasks.List(ListFilter{}); len(list) != 0 {
		t.Fatalf("%d task(s) stored", len(list))
	}
}
