package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyEarlier lays out the earlier version's task folders with the test
// files of backend/taskmd, plus one broken file.
func copyEarlier(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "tasks")
	for src, dst := range map[string]string{
		"done-with-rounds.md":   "done/2025-11-02-cache-thumbnails.md",
		"ongoing-crlf.md":       "ongoing/2025-12-01-flaky-login/task.md",
		"archived-questions.md": "archived/2025-09-14-old-idea.md",
	} {
		b, err := os.ReadFile(filepath.Join("..", "taskmd", "testdata", "earlier", src))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(root, dst), string(b))
	}
	writeFile(t, filepath.Join(root, "assets", "2025-09-14-old-idea", "sketch.png"), "\x89PNG sketch")
	writeFile(t, filepath.Join(root, "failed", "broken.md"), "---\nid: 2025-08-01-broken\nstatus: failed\ntitle: [oops\n---\n\n## Prompt\n\nx\n")
	return root
}

func TestImportDirOfTheEarlierVersion(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	root := copyEarlier(t)
	r := runCLI(t, data, "", "import", root)
	if r.code != 1 || r.stderr != "boof-runner: 1 of 4 file(s) were not imported; the others were.\n" {
		t.Fatalf("import DIR: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	joined := r.stdout
	for _, want := range []string{
		"imported  " + filepath.Join(root, "archived", "2025-09-14-old-idea.md") + " -> ",
		"(archived, from 2025-09-14-old-idea; earlier version)",
		`          note: attachment "notes.txt" not found next to the file: not attached`,
		"(done, from 2025-11-02-cache-thumbnails; earlier version)",
		`          note: unknown section "## Design notes the user wrote" kept`,
		"failed    " + filepath.Join(root, "failed", "broken.md") + ": Invalid task markdown: frontmatter:",
		"(stopped, from 2025-12-01-flaky-login; earlier version)",
		`          note: unknown key "assignee" kept`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("report lacks %q:\n%s", want, joined)
		}
	}
	if last := lines[len(lines)-1]; last != "3 imported, 0 duplicate, 1 failed, 0 skipped" {
		t.Fatalf("summary %q", last)
	}
	list := listJSON(t, data)
	if len(list) != 3 {
		t.Fatalf("%d tasks", len(list))
	}
	var old shown
	for _, l := range list {
		if s := showJSON(t, data, l.ID); s.Title == "Old idea: plugin roles" {
			old = s
		}
	}
	if old.Status != "archived" {
		t.Fatalf("archived task: %+v", old)
	}
	if out := mustCLI(t, data, "", "show", old.ID); !strings.Contains(out, "sketch.png") {
		t.Fatalf("the attachment found under assets is not shown:\n%s", out)
	}

	// Again: every task is refused as imported before, nothing stored.
	r = runCLI(t, data, "", "import", "--json", root)
	var rs []struct {
		Path, Outcome, Error string
		TaskID               string `json:"task_id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rs); err != nil || r.code != 1 || len(rs) != 4 {
		t.Fatalf("import --json again: %d %v\n%s", r.code, err, r.stdout)
	}
	for _, x := range rs {
		if x.Outcome != "duplicate" && !strings.HasSuffix(x.Path, "broken.md") {
			t.Errorf("second import: %+v", x)
		}
	}
	if n := len(listJSON(t, data)); n != 3 {
		t.Fatalf("%d tasks after the refused second import", n)
	}
	one := filepath.Join(root, "done", "2025-11-02-cache-thumbnails.md")
	r = runCLI(t, data, "", "import", one)
	if r.code != 1 || !strings.HasPrefix(r.stderr, `boof-runner: Task "2025-11-02-cache-thumbnails" was already imported (as `) || r.stdout != "" {
		t.Fatalf("import FILE again: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r = runCLI(t, data, "", "import", "--again", one); r.code != 0 || !idLine.MatchString(r.stdout) {
		t.Fatalf("import --again: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r = runCLI(t, data, "", "import", filepath.Join(root, "nope.md")); r.code != 1 || r.stderr != "boof-runner: The task file "+filepath.Join(root, "nope.md")+" does not exist.\n" {
		t.Fatalf("missing file: %d %q", r.code, r.stderr)
	}
	if r = runCLI(t, data, "", "import"); r.code != 2 {
		t.Fatalf("no path: %d %q", r.code, r.stderr)
	}
}
