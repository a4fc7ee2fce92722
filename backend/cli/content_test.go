package cli_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// mockRoot is a data root whose settings run every role with the mock in
// workDir, and a git repository there with one commit on main.
func mockRoot(t *testing.T) (data, repo string) {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	repo = filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(repo, "README.md"), "app\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "first")
	data = filepath.Join(t.TempDir(), "data")
	mock := map[string]string{"tool": "mock"}
	set := map[string]any{
		"workingDirectory": repo,
		"roles":            map[string]any{"planner": mock, "refinement": mock, "developer": mock, "observer": mock, "reviewer": mock},
	}
	b, _ := json.Marshal(set)
	writeFile(t, filepath.Join(data, "settings.json"), string(b))
	return data, repo
}

func mustCLI(t *testing.T, data, stdin string, args ...string) string {
	t.Helper()
	r := runCLI(t, data, stdin, args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// received returns the prompts the mock agent got, by role.
func received(t *testing.T, data string) map[task.Role][]string {
	t.Helper()
	rs, err := mock.ReadReceived(filepath.Join(data, "mock-state"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[task.Role][]string{}
	for _, r := range rs {
		out[r.Role] = append(out[r.Role], r.Prompt)
	}
	return out
}

// The README's CLI path end to end: a template and two attachments given at
// add reach every role's prompt, the template may change and go afterwards,
// and a task added without --repo can be diffed, accepted, un-accepted and
// rejected with its branches deleted.
func TestCLIJourneyTemplateAttachmentsAndReview(t *testing.T) {
	data, repo := mockRoot(t)
	tmplFile := filepath.Join(t.TempDir(), "tests.md")
	const tmpl = "Add a table test for every fix.\nRun `go vet` too."
	writeFile(t, tmplFile, tmpl)
	if out := mustCLI(t, data, "", "commands", "add", "tests", tmplFile); out != "tests\n" {
		t.Fatalf("commands add printed %q", out)
	}
	if r := runCLI(t, data, "", "commands", "add", "tests", tmplFile); r.code != 1 || !strings.Contains(r.stderr, `A command named "tests" already exists`) {
		t.Fatalf("duplicate add: %d %s", r.code, r.stderr)
	}
	if out := mustCLI(t, data, "", "commands", "list"); !strings.Contains(out, "tests") || !strings.Contains(out, "Add a table test for every fix.") {
		t.Fatalf("commands list: %q", out)
	}
	att := t.TempDir()
	writeFile(t, filepath.Join(att, "spec.txt"), "the spec says 42\n")
	png := "\x89PNG\r\n\x1a\n0123456789"
	writeFile(t, filepath.Join(att, "screen shot.png"), png)

	id := strings.TrimSpace(mustCLI(t, data, "", "add", "--title", "Shout", "--command", "tests",
		"--attach", filepath.Join(att, "spec.txt"), "--attach", filepath.Join(att, "screen shot.png"), "Make it shout."))
	if tk := showJSON(t, data, id); tk.Repo != repo || tk.Command != "tests" {
		t.Fatalf("added task: repo %q command %q", tk.Repo, tk.Command)
	}
	// The template changes and goes; the task keeps the text it was added with.
	writeFile(t, tmplFile, "CHANGED LATER")
	mustCLI(t, data, "", "commands", "add", "tests", tmplFile, "--replace")
	if out := mustCLI(t, data, "", "commands", "rm", "tests"); !strings.Contains(out, "keep their copy") {
		t.Fatalf("commands rm: %q", out)
	}
	if r := runCLI(t, data, "", "commands", "show", "tests"); r.code != 1 || r.stderr != "boof-runner: Command \"tests\" does not exist.\n" {
		t.Fatalf("show removed: %d %q", r.code, r.stderr)
	}

	mustCLI(t, data, "", "runner", "--until-idle")
	if st := statusOf(t, data, id); st != "done" {
		t.Fatalf("status %s\n%s", st, mustCLI(t, data, "", "log", id))
	}
	attDir := filepath.Join(data, "attachments", id)
	wantLines := []string{
		fmt.Sprintf("- screen shot.png: %s (%d bytes)", filepath.Join(attDir, "screen shot.png"), len(png)),
		fmt.Sprintf("- spec.txt: %s (17 bytes)", filepath.Join(attDir, "spec.txt")),
	}
	got := received(t, data)
	for _, role := range []task.Role{task.RolePlanner, task.RoleRefinement, task.RoleDeveloper, task.RoleObserver, task.RoleReviewer} {
		if len(got[role]) == 0 {
			t.Fatalf("the %s received no prompt", role)
		}
		for _, p := range got[role] {
			for _, want := range append([]string{"## Command\n\n" + tmpl + "\n", "## Attachments\n", "Make it shout."}, wantLines...) {
				if !strings.Contains(p, want) {
					t.Fatalf("the %s's prompt lacks %q:\n%s", role, want, p)
				}
			}
			if strings.Contains(p, "CHANGED LATER") {
				t.Fatalf("the %s got the template's later text", role)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(attDir, "screen shot.png")); err != nil || string(b) != png {
		t.Fatalf("the image is no longer the file it was: %v", err)
	}
	if out := git(t, repo, "status", "--porcelain", "--ignored"); strings.Contains(out, "spec.txt") || strings.Contains(out, "screen") {
		t.Fatalf("an attachment shows in the repository: %s", out)
	}

	// Review: the task was added without --repo.
	if out := mustCLI(t, data, "", "diff", id, "--stat"); !strings.Contains(out, "mock-"+id+".md") {
		t.Fatalf("diff --stat: %q", out)
	}
	before := git(t, repo, "rev-parse", "main")
	if out := mustCLI(t, data, "", "accept", id); !strings.Contains(out, "accepted "+id+" into main") {
		t.Fatalf("accept: %q", out)
	}
	if statusOf(t, data, id) != "accepted" || git(t, repo, "rev-parse", "main") == before {
		t.Fatal("accept did not move main")
	}
	mustCLI(t, data, "", "undo-accept", id)
	if statusOf(t, data, id) != "done" || git(t, repo, "rev-parse", "main") != before {
		t.Fatal("undo-accept did not restore main")
	}
	out := mustCLI(t, data, "", "reject", id, "--delete-branches", "--yes")
	if !strings.Contains(out, "deleted branch boof-runner/"+id) || statusOf(t, data, id) != "rejected" {
		t.Fatalf("reject: %q", out)
	}
	if refs := git(t, repo, "for-each-ref", "refs/heads/boof-runner/"); refs != "" {
		t.Fatalf("branches left: %s", refs)
	}
}

type shown struct {
	ID      string `json:"id"`
	Repo    string `json:"repo"`
	Command string `json:"command"`
	Title   string `json:"title"`
	Labels  []string
	Skip    bool
	Prio    int `json:"priority"`
	Status  string
}

func showJSON(t *testing.T, data, id string) shown {
	t.Helper()
	var s shown
	if err := json.Unmarshal([]byte(mustCLI(t, data, "", "show", id, "--json")), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// Bad input at add changes nothing: a missing attachment, a directory, an
// unknown template.
func TestAddRefusesBadContent(t *testing.T) {
	data, _ := mockRoot(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "ok.txt"), "ok")
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"--attach", filepath.Join(dir, "ok.txt"), "--attach", filepath.Join(dir, "gone.txt")},
			"boof-runner: The attachment " + filepath.Join(dir, "gone.txt") + " does not exist.\n"},
		{[]string{"--attach", dir}, "boof-runner: The attachment " + dir + " is a folder, not a file.\n"},
		{[]string{"--command", "nope"}, "boof-runner: Command \"nope\" does not exist.\n"},
		{[]string{"--attach", filepath.Join(dir, "ok.txt"), "--attach", filepath.Join(dir, "ok.txt")},
			"boof-runner: Attachment name \"ok.txt\" is given twice.\n"},
	}
	for _, c := range cases {
		r := runCLI(t, data, "", append(append([]string{"add"}, c.args...), "p")...)
		if r.code != 1 || r.stderr != c.msg || r.stdout != "" {
			t.Errorf("add %v: %d %q %q", c.args, r.code, r.stdout, r.stderr)
		}
	}
	if n := len(listJSON(t, data)); n != 0 {
		t.Fatalf("%d task(s) stored", n)
	}
	if entries, _ := os.ReadDir(filepath.Join(data, "attachments")); len(entries) != 0 {
		t.Fatalf("attachment directories left: %d", len(entries))
	}
	r := runCLI(t, data, "bad \xff text", "commands", "add", "x", "-")
	if r.code != 1 || r.stderr != "boof-runner: The command text is not valid UTF-8.\n" {
		t.Fatalf("non-UTF-8 template: %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, data, "", "commands", "add", "x", dir); r.code != 1 || r.stderr != "boof-runner: The command template file "+dir+" is a folder, not a file.\n" {
		t.Fatalf("directory as template: %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, data, "", "commands", "frob"); r.code != 2 {
		t.Fatalf("unknown subcommand: %d %q", r.code, r.stderr)
	}
}

// A task added before the working directory was recorded at add (its repo
// empty, its branch recorded) is repaired when the data root is opened, so
// its review works; so is one whose worktree still exists.
func TestOlderTasksWithoutRepoAreRepairedOnOpen(t *testing.T) {
	data, repo, id, _ := reviewSetup(t)
	ctx := context.Background()
	st, err := store.Open(ctx, dataroot.Paths{Root: data}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A second task whose worktree is still there, outside any settings.
	other, err := st.CreateTask(ctx, task.NewTask{Prompt: "second"})
	if err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, repo, "worktree", "add", "-q", "-b", "boof-runner/"+other.ID, wt, "main")
	if _, err := st.Claim(ctx, other.ID, store.ClaimInfo{Role: task.RolePlanner, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Transition(ctx, other.ID, task.StatusFailed, store.TransitionNote{WorktreePath: wt, Branch: "boof-runner/" + other.ID}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	db := dataroot.Paths{Root: data}.Database()
	sqlExec(t, db, `UPDATE tasks SET repo = ''`)

	// Without a working directory in settings only the task with a worktree can be placed.
	r := runCLI(t, data, "", "diff", id, "--stat")
	if r.code != 1 || !strings.Contains(r.stderr, "boof-runner: recorded the working directory of 1 older task(s)") ||
		!strings.Contains(r.stderr, "has no working directory recorded") {
		t.Fatalf("first open: %d %q", r.code, r.stderr)
	}
	if got := showJSON(t, data, other.ID); got.Repo != repo {
		t.Fatalf("task with a worktree: repo %q, want %q", got.Repo, repo)
	}
	mustCLI(t, data, "", "settings", "set", "workingDirectory", repo)
	r = runCLI(t, data, "", "diff", id, "--stat")
	if r.code != 0 || !strings.Contains(r.stdout, "c d.txt") || !strings.Contains(r.stderr, "recorded the working directory of 1 older task(s)") {
		t.Fatalf("after settings: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r = runCLI(t, data, "", "diff", id, "--stat"); r.code != 0 || r.stderr != "" {
		t.Fatalf("third open repaired again: %q", r.stderr)
	}
}

// sqlExec runs one statement on a data root's database, as an older
// version of the app would have left it.
func sqlExec(t *testing.T, path, q string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q); err != nil {
		t.Fatal(err)
	}
}
