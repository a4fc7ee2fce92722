//go:build unix

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
)

// within runs the binary on data root dir (standard input closed) and
// fails the test when it has not exited within 30 s: it waits on
// something it should have refused. The process is killed then.
func within(t *testing.T, dir string, args ...string) result {
	t.Helper()
	_, wait := startCLI(t, dir, nil, args...)
	return wait()
}

// TestAddRefusesWhatTheRunnerWouldRefuse: add checks a task as the runner
// would before its first step (backend/intake, shared with the window and
// import) and refuses it with one line, storing nothing: a base ref that
// names no commit, no working directory at all, settings that cannot be
// read, a working directory that is gone, a repository with no commit to
// start from or on a branch without commits, a base on a plain folder; the
// same for a schedule.
func TestAddRefusesWhatTheRunnerWouldRefuse(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	repo := useRepo(t, data)
	empty := t.TempDir()
	git(t, empty, "init", "-q", "-b", "main")
	unborn := newGitRepo(t)
	git(t, unborn, "checkout", "-q", "--orphan", "fresh")
	plain := t.TempDir()
	bare := filepath.Join(t.TempDir(), "none")
	noWorkDir := "boof-runner: Nothing was added: the task has no folder to run in; give it a repository (--repo), or set the working directory in the settings (workingDirectory)."
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown base ref", []string{"add", "--base", "no-such-branch", "p"},
			`boof-runner: The base ref "no-such-branch" is not a branch or commit in ` + repo + "."},
		{"unknown base ref of a schedule", []string{"add", "--every", "0 2 * * *", "--base", "no-such-branch", "p"},
			`boof-runner: The base ref "no-such-branch" is not a branch or commit in ` + repo + "."},
		{"repository without commits", []string{"add", "--repo", empty, "p"},
			"boof-runner: The repository has no commits yet; make a first commit so tasks have something to start from."},
		{"repository on an unborn branch", []string{"add", "--repo", unborn, "p"},
			"boof-runner: The repository " + unborn + " is on branch fresh, which has no commits yet; give the task a base branch or commit, or check out a branch that has commits."},
		{"a base in a plain folder", []string{"add", "--repo", plain, "--base", "main", "p"},
			`boof-runner: The base ref "main" is not a branch or commit in ` + plain + "."},
		{"a repository that is gone", []string{"add", "--repo", bare, "p"},
			"boof-runner: The repository folder " + bare + " does not exist."},
	}
	for _, c := range cases {
		oneLine(t, c.name, runCLI(t, data, "", c.args...), 1, c.want)
	}

	// No working directory anywhere: the task would have nowhere to run.
	none := filepath.Join(t.TempDir(), "none")
	oneLine(t, "no working directory", runCLI(t, none, "", "add", "p"), 1, noWorkDir)
	oneLine(t, "no working directory, schedule", runCLI(t, none, "", "add", "--every", "@daily", "p"), 1, noWorkDir)
	// Settings that cannot be read give no working directory either.
	broken := filepath.Join(t.TempDir(), "broken")
	writeFile(t, dataroot.Paths{Root: broken}.Settings(), `{"runner": {`)
	oneLine(t, "settings invalid", runCLI(t, broken, "", "add", "p"), 1,
		"boof-runner: The settings file "+dataroot.Paths{Root: broken}.Settings()+" is not valid JSON (unexpected EOF); so the task has no working directory and nothing was added: fix the settings, or give the task a repository (--repo).")
	gone := filepath.Join(t.TempDir(), "gone")
	moved := filepath.Join(t.TempDir(), "moved")
	mustCLI(t, moved, "", "settings", "set", "workingDirectory", gone)
	oneLine(t, "working directory gone", runCLI(t, moved, "", "add", "p"), 1,
		"boof-runner: The working directory "+gone+" of the settings does not exist.")

	for _, d := range []string{data, none, broken, moved} {
		if n := len(listJSON(t, d)); n != 0 {
			t.Fatalf("%s: %d task(s) stored by refused adds", d, n)
		}
		if n := len(schedulesJSON(t, d)); n != 0 {
			t.Fatalf("%s: %d schedule(s) stored by refused adds", d, n)
		}
	}

	// A plain folder is accepted, and add says at once that the task runs
	// without isolation (not only the runner's log, later).
	r := runCLI(t, data, "", "add", "--repo", plain, "p")
	if r.code != 0 || !idLine.MatchString(r.stdout) ||
		r.stderr != "boof-runner: warning: "+plain+": working directory is not a git repository: the task runs without worktree isolation (no task branch, no diff, no leftovers branch; agents write directly into the directory)\n" {
		t.Fatalf("plain folder: %+v", r)
	}
	if r := runCLI(t, data, "", "add", "--base", "main", "p"); r.code != 0 || r.stderr != "" {
		t.Fatalf("a known base: %+v", r)
	}
}

// TestNamedPipesAreRefusedAtOnce: every file a user names — an attachment,
// a command template, a task file, an imported file's attachment — is
// looked at before it is opened: a named pipe (which would block the open
// until a writer comes) or a device is refused at once with one line.
func TestNamedPipesAreRefusedAtOnce(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	useRepo(t, data)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	taskDir := t.TempDir()
	writeFile(t, filepath.Join(taskDir, "task.md"), "---\nstatus: pending\nattachments: [\"notes.txt\"]\n---\n\n## Prompt\n\n~~~\ndo it\n~~~\n")
	if err := syscall.Mkfifo(filepath.Join(taskDir, "notes.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"add --attach FIFO", []string{"add", "--attach", fifo, "p"}, "boof-runner: The attachment " + fifo + " is a named pipe, not a regular file."},
		{"add --attach a device", []string{"add", "--attach", "/dev/zero", "p"}, "boof-runner: The attachment /dev/zero is a device, not a regular file."},
		{"commands add NAME FIFO", []string{"commands", "add", "tmpl", fifo},
			"boof-runner: The command template file " + fifo + " is a named pipe, not a regular file; to read from a pipe, give - and send the text to standard input."},
		{"import FIFO", []string{"import", fifo},
			"boof-runner: The task file " + fifo + " is a named pipe, not a regular file; to read from a pipe, give - and send the text to standard input."},
		{"import of a device", []string{"import", "/dev/zero"}, "boof-runner: The task file /dev/zero is a device, not a regular file."},
		{"import whose attachment is a FIFO", []string{"import", filepath.Join(taskDir, "task.md")},
			"boof-runner: The attachment " + filepath.Join(taskDir, "notes.txt") + " is a named pipe, not a regular file."},
	}
	for _, c := range cases {
		oneLine(t, c.name, within(t, data, c.args...), 1, c.want)
	}
	if n := len(listJSON(t, data)); n != 0 {
		t.Fatalf("%d task(s) stored", n)
	}
	if r := runCLI(t, data, "", "commands", "list"); r.stdout != "" {
		t.Fatalf("a template was stored: %q", r.stdout)
	}
}

// TestImportedAttachmentsStayInTheirFolder: an attachment an imported file
// names must resolve, links followed, inside the folder imported; one that
// leads out is refused with where it leads, and nothing is stored. What is
// attached is said.
func TestImportedAttachmentsStayInTheirFolder(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	useRepo(t, data)
	secret := filepath.Join(t.TempDir(), "secret.txt")
	writeFile(t, secret, "not for the agents\n")
	dir := t.TempDir()
	doc := filepath.Join(dir, "task.md")
	writeFile(t, doc, "---\nstatus: pending\nattachments: [\"notes.txt\", \"spec.txt\"]\n---\n\n## Prompt\n\n~~~\ndo it\n~~~\n")
	writeFile(t, filepath.Join(dir, "spec.txt"), "the spec\n")
	if err := os.Symlink(secret, filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(secret)
	oneLine(t, "link out of the folder", runCLI(t, data, "", "import", doc), 1,
		"boof-runner: The attachment "+filepath.Join(dir, "notes.txt")+" leads outside the folder "+dir+" (to "+real+"); only files inside the imported file's folder are attached.")
	if n := len(listJSON(t, data)); n != 0 {
		t.Fatalf("%d task(s) stored", n)
	}
	if entries, _ := os.ReadDir(dataroot.Paths{Root: data}.Attachments()); len(entries) != 0 {
		t.Fatalf("attachment files left: %d", len(entries))
	}

	// A link to a file inside the folder is fine; each file attached is named.
	os.Remove(filepath.Join(dir, "notes.txt"))
	if err := os.Symlink("spec.txt", filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, data, "", "import", doc)
	if r.code != 0 || !idLine.MatchString(r.stdout) ||
		!strings.Contains(r.stderr, `boof-runner: note: attached "notes.txt" (9 bytes) from `+filepath.Join(dir, "notes.txt")+"\n") ||
		!strings.Contains(r.stderr, `boof-runner: note: attached "spec.txt" (9 bytes) from `+filepath.Join(dir, "spec.txt")+"\n") {
		t.Fatalf("import: %+v", r)
	}
}

// TestExportImportExportKeepsEverythingButTheID: an import keeps the
// file's created_at and updated_at, so export → import → export differs in
// the id alone (and the origin_id line that records it), and so does
// another copy of the copy.
func TestExportImportExportKeepsEverythingButTheID(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	useRepo(t, data)
	id := addTask(t, data, "--title", "Round trip", "--label", "x", "keep my dates")
	first := mustCLI(t, data, "", "export", id)
	copyID := strings.TrimSpace(mustCLI(t, data, first, "import", "-"))
	second := mustCLI(t, data, "", "export", copyID)
	want := strings.Replace(first, "id: "+id+"\n", "id: "+copyID+"\norigin_id: \""+id+"\"\n", 1)
	if second != want {
		t.Fatalf("export after import differs in more than the id:\n%s\nwant\n%s", second, want)
	}
	againID := strings.TrimSpace(mustCLI(t, data, second, "import", "--again", "-"))
	third := mustCLI(t, data, "", "export", againID)
	if third != strings.Replace(second, "id: "+copyID+"\n", "id: "+againID+"\n", 1) {
		t.Fatalf("an import of the copy differs in more than the id:\n%s\nwant\n%s", third, second)
	}
}

// TestImportChecksLikeAdd: an imported task that will run is checked as
// add checks a task (its repository, its base, a working directory when it
// names none); a finished one is a record, but its repository must be an
// absolute path.
func TestImportChecksLikeAdd(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	repo := useRepo(t, data)
	doc := func(status, repo, base string) string {
		return "---\nstatus: " + status + "\nrepo: \"" + repo + "\"\nbase: \"" + base + "\"\n---\n\n## Prompt\n\n~~~\ndo it\n~~~\n"
	}
	cases := []struct {
		name, doc, want string
	}{
		{"relative repo", doc("pending", "src/app", ""),
			"boof-runner: The repository folder src/app is not an absolute path; give the full path of the folder."},
		{"relative repo of a finished task", doc("done", "src/app", ""),
			"boof-runner: The repository folder src/app is not an absolute path; give the full path of the folder."},
		{"unknown base", doc("pending", repo, "nope"), `boof-runner: The base ref "nope" is not a branch or commit in ` + repo + "."},
		{"repository gone", doc("draft", "/nonexistent/app", ""), "boof-runner: The repository folder /nonexistent/app does not exist."},
	}
	for _, c := range cases {
		oneLine(t, c.name, runCLI(t, data, c.doc, "import", "-"), 1, c.want)
	}
	if n := len(listJSON(t, data)); n != 0 {
		t.Fatalf("%d task(s) stored", n)
	}
	none := filepath.Join(t.TempDir(), "none")
	oneLine(t, "no working directory", runCLI(t, none, doc("pending", "", ""), "import", "-"), 1,
		"boof-runner: Nothing was added: the task has no folder to run in; give it a repository (--repo), or set the working directory in the settings (workingDirectory).")
	// A finished task's repository need not exist here; one without a
	// repository records the working directory.
	if r := runCLI(t, data, doc("done", "/elsewhere/app", ""), "import", "-"); r.code != 0 {
		t.Fatalf("finished task from elsewhere: %+v", r)
	}
	id := strings.TrimSpace(mustCLI(t, data, doc("pending", "", "main"), "import", "-"))
	if got := showJSON(t, data, id); got.Repo != repo {
		t.Fatalf("repo %q, want the working directory %q", got.Repo, repo)
	}
}
