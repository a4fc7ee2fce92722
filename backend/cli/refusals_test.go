package cli_test

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/cli"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// snapshot is what a refused command must leave as it was: the database
// file and the settings file of a data root.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	p := dataroot.Paths{Root: dir}
	db, _ := os.ReadFile(p.Database())
	set, _ := os.ReadFile(p.Settings())
	return string(db) + "\x00" + string(set)
}

// TestNothingAcceptedIsSilentlyChanged: input that used to be stored
// changed, dropped or ignored is refused with one line, or kept as given;
// each field has one validation, shared by the verbs and the window.
func TestNothingAcceptedIsSilentlyChanged(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	useRepo(t, data)
	waiting := addTask(t, data, "asks")
	running := addTask(t, data, "runs")
	s := storeAt(t, data)
	ctx := context.Background()
	for _, id := range []string{waiting, running} {
		if _, err := s.Claim(ctx, id, store.ClaimInfo{Role: task.RolePlanner}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetQuestions(ctx, waiting, []string{"Which?"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Transition(ctx, waiting, task.StatusActions, store.TransitionNote{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	cases := []struct {
		name, stdin string
		args        []string
		code        int
		want        string
	}{
		{"NUL in an answer", "blue\x00green", []string{"answer", waiting, "-"}, 1, "boof-runner: The answer contains a NUL byte."},
		{"NUL in a command template", "run\x00it", []string{"commands", "add", "tmpl", "-"}, 1, "boof-runner: The command text contains a NUL byte."},
		{"control character in a model name", "", []string{"settings", "set", "roles.developer.model", "gpt\x1b[2J"}, 1,
			"boof-runner: Invalid settings: roles.developer.model contains the control character U+001B; it must be one line of plain text."},
		{"control character in a schedule name", "", []string{"add", "--every", "@daily", "--name", "nightly\x07", "p"}, 1,
			"boof-runner: Schedule name contains the control character U+0007; it must be one line of plain text."},
		{"line break in the working directory", "", []string{"settings", "set", "workingDirectory", "/src/a\nb"}, 1,
			"boof-runner: Invalid settings: workingDirectory contains the control character U+000A; it must be one line of plain text."},
		{"relative tool path", "", []string{"settings", "set", "tools.codex.path", "bin/codex"}, 1,
			`boof-runner: Invalid settings: tools.codex.path must be an absolute path, or a command name found on PATH (got "bin/codex").`},
		{"priority of a running task", "", []string{"edit", running, "--priority", "5"}, 1, "boof-runner: This task is ongoing: stop it before you edit it."},
		{"skip of a running task", "", []string{"edit", running, "--skip"}, 1, "boof-runner: This task is ongoing: stop it before you edit it."},
		{"empty --verify", "", []string{"add", "--verify", "", "p"}, 1, "boof-runner: Verify command is empty."},
		{"empty --label", "", []string{"add", "--label", "", "p"}, 1, "boof-runner: A label is empty."},
		{"empty -o", "", []string{"export", waiting, "-o", ""}, 2, "boof-runner export: -o is empty: give a file, or - for standard output"},
		{"--yes without --delete-branches", "", []string{"reject", waiting, "--yes"}, 2, "boof-runner reject: --yes confirms --delete-branches: give both, or neither"},
		{"--runs 0", "", []string{"add", "--runs", "0", "p"}, 1, "boof-runner: Runs must be at least 1, got 0."},
	}
	for _, c := range cases {
		before := snapshot(t, data)
		oneLine(t, c.name, runCLI(t, data, c.stdin, c.args...), c.code, c.want)
		if snapshot(t, data) != before {
			t.Errorf("%s: the data root changed", c.name)
		}
	}

	// An empty --data-dir is refused, not taken for the default data root.
	home := t.TempDir()
	cmd := exec.Command(binary, "list", "--data-dir", "")
	cmd.Env = append(os.Environ(), "BOOF_RUNNER_HOME="+home)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 ||
		!strings.HasPrefix(errb.String(), "boof-runner list: --data-dir is empty: give the data root's folder, or leave the flag out for the default\n") {
		t.Fatalf("--data-dir '': %v %q %q", err, out.String(), errb.String())
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Fatalf("the default data root was used: %d entries", len(entries))
	}

	// A key given twice in settings.json is refused, not one of the two
	// silently; a byte-order mark is read past.
	other := filepath.Join(t.TempDir(), "other")
	path := dataroot.Paths{Root: other}.Settings()
	writeFile(t, path, `{"runner": {"concurrency": 2, "concurrency": 3}}`)
	oneLine(t, "a key twice", runCLI(t, other, "", "settings", "get", "runner.concurrency"), 1,
		"boof-runner: The settings file "+path+" has the key runner.concurrency twice; keep one of them.")
	writeFile(t, path, "\ufeff"+`{"runner": {"concurrency": 3}}`)
	if r := runCLI(t, other, "", "settings", "get", "runner.concurrency"); r.code != 0 || strings.TrimSpace(r.stdout) != "3" {
		t.Fatalf("byte-order mark: %+v", r)
	}
}

// TestMessagesSayItPlainly: no message leaks Go's words or misleads: a
// file name keeps its case, a negative number is a value (not an unknown
// flag), a link loop and a folder are named as such, another program's
// lock on the database is said, every verb's -h is help, an unknown tool
// is not a "paused" one, a hunk, a task or a target given twice or not
// there is refused before anything moves, and echoed input is clipped.
func TestMessagesSayItPlainly(t *testing.T) {
	data, repo, id, _ := reviewSetup(t)
	dir := t.TempDir()
	notTask := filepath.Join(dir, "bin.md")
	writeFile(t, notTask, "# just notes\n")
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("x", 100_000)
	noTasks := t.TempDir()
	writeFile(t, filepath.Join(noTasks, "notes.txt"), "no task here\n")
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"not a task file", []string{"import", notTask}, 1,
			"boof-runner: The file " + notTask + " is not a task file: it must start with a --- frontmatter line."},
		{"a folder without task files", []string{"import", noTasks}, 1,
			"boof-runner: The folder " + noTasks + " holds no task files (*.md files that start with a --- frontmatter line); nothing was imported."},
		{"a file not changed", []string{"diff", id, "--file", "nonexistent.txt"}, 1, `boof-runner: The file "nonexistent.txt" is not changed in this task.`},
		{"a negative setting", []string{"settings", "set", "runner.concurrency", "-1"}, 1,
			"boof-runner: Invalid settings: runner.concurrency must be between 1 and 32 (got -1)."},
		{"a negative position", []string{"queue", "move", id, "-5"}, 2, `boof-runner queue: position "-5" is not a number from 1`},
		{"a symbolic link loop", []string{"add", "--repo", repo, "--attach", loop, "p"}, 1,
			"boof-runner: The attachment " + loop + " is a symbolic link that loops back on itself."},
		{"an unknown tool", []string{"limits", "resume", "nope"}, 1, "boof-runner: Unknown tool nope."},
		{"a hunk twice in --only", []string{"accept", id, "--only", "a.txt:1", "--only", "a.txt:1"}, 1, "boof-runner: --only a.txt:1 is given twice."},
		{"a hunk twice in --drop", []string{"request-changes", id, "--drop", "a.txt:1", "--drop", "a.txt:1"}, 1, "boof-runner: --drop a.txt:1 is given twice."},
		{"a task twice in the queue", []string{"queue", "add", id, id}, 1, "boof-runner: Nothing changed: task " + id + " is named twice."},
		{"a target that does not exist", []string{"queue", "add", id, "--target", "nosuch"}, 1,
			"boof-runner: Nothing changed: the target branch nosuch does not exist in " + repo + "."},
		{"a 100 KB id", []string{"show", huge}, 1, `boof-runner: Task "` + huge[:59] + `…(100002 bytes) does not exist.`},
	}
	for _, c := range cases {
		before := snapshot(t, data)
		oneLine(t, c.name, runCLI(t, data, "", c.args...), c.code, c.want)
		if snapshot(t, data) != before {
			t.Errorf("%s: the data root changed", c.name)
		}
	}
	if r := runCLI(t, data, "", "queue", "list"); !strings.Contains(r.stdout, "the merge queue is empty") {
		t.Fatalf("queue: %q", r.stdout)
	}

	// `--` before the command ends the global flags.
	cmd := exec.Command(binary, "--data-dir", data, "--", "list")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), id) {
		t.Fatalf("-- list: %v\n%s", err, out)
	}
	// Every verb's -h prints its help with exit 0.
	for _, verb := range cli.Commands() {
		if r := runCLI(t, data, "", verb, "-h"); r.code != 0 || !strings.HasPrefix(r.stdout, "usage: boof-runner "+verb) {
			t.Errorf("%s -h: exit %d stdout %q stderr %q", verb, r.code, r.stdout, r.stderr)
		}
	}

	// Another program holding the database's write lock is named as such,
	// not as "database is locked".
	db, err := sql.Open("sqlite3", dataroot.Paths{Root: data}.Database())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	oneLine(t, "database held by another program", runCLI(t, data, "", "add", "--repo", repo, "p"), 1,
		"boof-runner: Another program holds the database locked and did not let go in time; nothing was changed: try again when it has finished.")
	conn.ExecContext(context.Background(), "ROLLBACK")
}

// oneLine asserts a refusal: exit code, exactly want on stderr (one line),
// nothing on stdout.
func oneLine(t *testing.T, what string, r result, code int, want string) {
	t.Helper()
	if r.code != code || r.stderr != want+"\n" || r.stdout != "" {
		t.Errorf("%s: exit %d stdout %q stderr %q\nwant exit %d stderr %q", what, r.code, r.stdout, r.stderr, code, want)
	}
}
