package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// What the user gave the task — the command template's text, copied at add,
// and the attached files — reaches every role's prompt, even after the
// template was edited and deleted.
func TestTemplateAndAttachmentsReachEveryRole(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) { s.Roles.Observer = &settings.ToolRef{Tool: "mock"} })
	ctx := context.Background()
	const tmpl = "Always add a table test.\n\n## Not a heading of ours\nKeep `gofmt` clean."
	if _, err := e.st.SaveCommand(ctx, "tests", tmpl); err != nil {
		t.Fatal(err)
	}
	png := []byte("\x89PNG\r\n\x1a\nfake image bytes")
	tk, atts, err := e.st.CreateTaskWithFiles(ctx, task.NewTask{Prompt: "Fix the parser.", Command: "tests", Runs: 1},
		[]store.NewFile{{Name: "spec notes.txt", Data: strings.NewReader("the spec\n")}, {Name: "screen.png", Data: strings.NewReader(string(png))}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.SaveCommand(ctx, "tests", "EDITED LATER"); err != nil {
		t.Fatal(err)
	}
	if err := e.st.DeleteCommand(ctx, "tests"); err != nil {
		t.Fatal(err)
	}
	res := e.claimRun(ctx, tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	byName := map[string]store.Attachment{}
	for _, a := range atts {
		byName[a.Name] = a
	}
	wantLines := []string{
		fmt.Sprintf("- screen.png: %s (%d bytes)", byName["screen.png"].Path, len(png)),
		fmt.Sprintf("- spec notes.txt: %s (9 bytes)", byName["spec notes.txt"].Path),
	}
	for _, role := range []task.Role{task.RolePlanner, task.RoleRefinement, task.RoleDeveloper, task.RoleObserver, task.RoleReviewer} {
		ps := e.rec.prompts(role)
		if len(ps) == 0 {
			t.Fatalf("%s got no prompt", role)
		}
		for _, p := range ps {
			mustContain(t, p, HeadingCommand+"\n\n"+tmpl+"\n", HeadingAttachments+"\n", wantLines[0], wantLines[1])
			if strings.Contains(p, "EDITED LATER") {
				t.Fatalf("%s got the template's later text", role)
			}
		}
	}
	for _, a := range atts {
		if strings.HasPrefix(a.Path, e.repo) {
			t.Fatalf("attachment %s lies inside the repository", a.Path)
		}
	}
	e.rec.mu.Lock()
	for _, q := range e.rec.reqs {
		if len(q.ReadDirs) != 1 || !strings.HasPrefix(byName["screen.png"].Path, q.ReadDirs[0]+"/") {
			t.Errorf("%s request read dirs %q", q.Role, q.ReadDirs)
		}
	}
	e.rec.mu.Unlock()
	// The files are still files, unchanged.
	if b, err := os.ReadFile(byName["screen.png"].Path); err != nil || string(b) != string(png) {
		t.Fatalf("image file after the run: %v %q", err, b)
	}
}

// An attachment whose file is gone fails the run before any agent starts,
// with a message that names it.
func TestMissingAttachmentFailsBeforeAnyStep(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	tk, atts, err := e.st.CreateTaskWithFiles(ctx, task.NewTask{Prompt: "Use the spec.", Runs: 1},
		[]store.NewFile{{Name: "spec.txt", Data: strings.NewReader("spec")}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(atts[0].Path); err != nil {
		t.Fatal(err)
	}
	res := e.claimRun(ctx, tk.ID)
	want := fmt.Sprintf("attachment \"spec.txt\" is missing at %s: attach it again or remove it from the task", atts[0].Path)
	if res.Status != task.StatusFailed || res.Message != want {
		t.Fatalf("status %s %q, want failed %q", res.Status, res.Message, want)
	}
	if got := e.get(tk.ID); got.Error != want {
		t.Fatalf("recorded error %q", got.Error)
	}
	e.rec.mu.Lock()
	n := len(e.rec.reqs)
	e.rec.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d agent step(s) started", n)
	}
}

// A task with no working directory of its own runs in settings' working
// directory, "~/" expanded.
func TestWorkingDirectoryFromSettingsWithTilde(t *testing.T) {
	e := newEnv(t, nil)
	t.Setenv("HOME", filepath.Dir(e.repo))
	e.set.WorkingDirectory = "~/" + filepath.Base(e.repo)
	tk := e.addTask("Anything.", 1)
	if res := e.claimRun(context.Background(), tk.ID); res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	if got := e.get(tk.ID); got.WorktreePath == "" || !strings.HasPrefix(got.WorktreePath, e.repo+"/") {
		t.Fatalf("worktree %q is not under %s", got.WorktreePath, e.repo)
	}
}

// A working directory that is not a git repository runs without isolation:
// the mock writes its file there, makes no commit, and the task is done
// with the warning in its log.
func TestUnisolatedRunWithMock(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) { s.Roles.Observer = &settings.ToolRef{Tool: "mock"} })
	plain := filepath.Join(t.TempDir(), "plain")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	e.set.WorkingDirectory = plain
	tk := e.addTask("Write the notes.", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	if b, err := os.ReadFile(filepath.Join(plain, "mock-plain.md")); err != nil || !strings.Contains(string(b), "Developer run 1.") {
		t.Fatalf("work file: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(plain, ".git")); !os.IsNotExist(err) {
		t.Fatalf("a repository appeared: %v", err)
	}
	mustContain(t, e.logText(tk.ID), "not a git repository")
	if got := e.get(tk.ID); got.Branch != "" || got.WorktreePath != "" {
		t.Fatalf("unisolated task recorded git state: %+v", got)
	}
}
