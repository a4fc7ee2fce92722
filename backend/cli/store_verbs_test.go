package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// storeAt opens the data root's database directly to drive a task into a
// state the CLI cannot reach by itself (ongoing, failed, actions).
func storeAt(t *testing.T, dir string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), dataroot.Paths{Root: dir}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// addTask adds a task through the CLI and returns its id; without --repo,
// a data root whose settings name no working directory gets one first
// (ensureRepo).
func addTask(t *testing.T, dir string, args ...string) string {
	t.Helper()
	if !slices.Contains(args, "--repo") {
		ensureRepo(t, dir)
	}
	r := runCLI(t, dir, "", append([]string{"add"}, args...)...)
	if r.code != 0 {
		t.Fatalf("add: %d %s", r.code, r.stderr)
	}
	return strings.TrimSpace(r.stdout)
}

func taskStatus(t *testing.T, s *store.Store, id string) task.Status {
	t.Helper()
	got, err := s.GetTask(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return got.Status
}

func TestRetryArchiveUnarchiveDelete(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	id := addTask(t, dir, "fix the build")
	s := storeAt(t, dir)
	ctx := context.Background()
	if _, err := s.Claim(ctx, id, store.ClaimInfo{Role: task.RolePlanner}); err != nil {
		t.Fatal(err)
	}
	for _, verb := range []string{"delete", "retry", "archive"} {
		r := runCLI(t, dir, "", verb, id)
		if r.code != 1 || r.stderr != "boof-runner: This task is ongoing: stop it before you "+verb+" it.\n" {
			t.Fatalf("%s ongoing: code %d stderr %q", verb, r.code, r.stderr)
		}
		if st := taskStatus(t, s, id); st != task.StatusOngoing {
			t.Fatalf("%s changed status to %s", verb, st)
		}
	}
	if _, err := s.Transition(ctx, id, task.StatusFailed, store.TransitionNote{Error: "boom"}); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, dir, "", "archive", id); r.code != 0 || r.stdout != id+" archived\n" {
		t.Fatalf("archive: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, dir, "", "unarchive", id); r.code != 0 || r.stdout != id+" failed\n" {
		t.Fatalf("unarchive: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, dir, "", "retry", id); r.code != 0 || r.stdout != id+" pending\n" {
		t.Fatalf("retry: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, dir, "", "delete", id); r.code != 0 {
		t.Fatalf("delete: %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, dir, "", "show", id); r.code != 1 || r.stderr != `boof-runner: Task "`+id+`" does not exist.`+"\n" {
		t.Fatalf("show deleted: %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, dir, "", "retry"); r.code != 2 {
		t.Fatalf("retry without id: %d", r.code)
	}
}

func TestAnswerFromStdin(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	id := addTask(t, dir, "build a thing")
	s := storeAt(t, dir)
	ctx := context.Background()
	if r := runCLI(t, dir, "", "answer", id, "too early"); r.code != 1 || r.stderr != "boof-runner: This task is pending and has no questions to answer.\n" {
		t.Fatalf("answer pending: %d %q", r.code, r.stderr)
	}
	if _, err := s.Claim(ctx, id, store.ClaimInfo{Role: task.RolePlanner}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetQuestions(ctx, id, []string{"Which colour?"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Transition(ctx, id, task.StatusActions, store.TransitionNote{}); err != nil {
		t.Fatal(err)
	}
	show := runCLI(t, dir, "", "show", id)
	if show.code != 0 || !strings.Contains(show.stdout, "1. Which colour?") {
		t.Fatalf("show parked: %q", show.stdout)
	}
	r := runCLI(t, dir, "Blue,\nwith stripes.\n", "answer", id, "-")
	if r.code != 0 || r.stdout != id+" pending\n" {
		t.Fatalf("answer: %d %q %q", r.code, r.stdout, r.stderr)
	}
	secs, _ := s.Sections(ctx, id)
	if last := secs[len(secs)-1]; last.Kind != task.SectionAnswers || last.Body != "Blue,\nwith stripes.\n" {
		t.Fatalf("answers section = %+v", last)
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	id := addTask(t, dir, "--title", "Port it", "--label", "x", "--priority", "4", "port the module\n\n## with a heading\n")
	file := filepath.Join(t.TempDir(), "task.md")
	if r := runCLI(t, dir, "", "export", id, "-o", file); r.code != 0 {
		t.Fatalf("export: %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, dir, "", "export", id, "-o", file); r.code != 1 || !strings.Contains(r.stderr, "exists") {
		t.Fatalf("export over existing file: %d %q", r.code, r.stderr)
	}
	other := filepath.Join(t.TempDir(), "other")
	r := runCLI(t, other, "", "import", file)
	if r.code != 0 || !idLine.MatchString(r.stdout) {
		t.Fatalf("import: %d %q %q", r.code, r.stdout, r.stderr)
	}
	newID := strings.TrimSpace(r.stdout)
	a := runCLI(t, dir, "", "export", id)
	b := runCLI(t, other, "", "export", newID)
	strip := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if k, _, _ := strings.Cut(l, ":"); k == "id" || k == "origin_id" || strings.HasSuffix(k, "_at") {
				continue
			}
			keep = append(keep, l)
		}
		return strings.Join(keep, "\n")
	}
	if a.code != 0 || b.code != 0 || strip(a.stdout) != strip(b.stdout) {
		t.Fatalf("round trip differs:\n%s\n---\n%s", a.stdout, b.stdout)
	}
	if !strings.Contains(a.stdout, "## with a heading") || !strings.Contains(a.stdout, "priority: 4") {
		t.Fatalf("export = %s", a.stdout)
	}
}

func TestImportBadFilesChangeNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	addTask(t, dir, "existing")
	good := "---\nstatus: pending\n---\n## Prompt\n~~~\np\n~~~\n"
	cases := map[string]string{
		"unknown status":    strings.Replace(good, "pending", "runnin", 1),
		"bad yaml":          strings.Replace(good, "status: pending", "status: pending\nowner: [me", 1),
		"priority overflow": strings.Replace(good, "status: pending", "status: pending\npriority: 2000000", 1),
		"label newline":     strings.Replace(good, "status: pending", "status: pending\nlabels: [\"a\\nb\"]", 1),
		"not UTF-8":         strings.Replace(good, "status: pending", "status: pending\ntitle: \"caf\xe9\"", 1),
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "bad.md")
			if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
			r := runCLI(t, dir, "", "import", file)
			if r.code != 1 || r.stderr == "" || r.stdout != "" {
				t.Fatalf("import: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
			}
			if n := len(listJSON(t, dir)); n != 1 {
				t.Fatalf("%d tasks after a refused import", n)
			}
		})
	}
	r := runCLI(t, dir, good, "import", "-")
	if r.code != 0 || len(listJSON(t, dir)) != 2 {
		t.Fatalf("import from stdin: %d %q", r.code, r.stderr)
	}
	// Unknown keys are kept and said; an ongoing task comes in stopped.
	kept := filepath.Join(t.TempDir(), "kept.md")
	if err := os.WriteFile(kept, []byte(strings.Replace(good, "status: pending", "status: ongoing\nowner: \"me\"", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, dir, "", "import", kept)
	if r.code != 0 || !idLine.MatchString(r.stdout) || r.stderr != "boof-runner: note: unknown key \"owner\" kept\n"+
		"boof-runner: note: status ongoing imported as stopped (the run it was in is gone)\n" {
		t.Fatalf("import with notes: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if st := statusOf(t, dir, strings.TrimSpace(r.stdout)); st != "stopped" {
		t.Fatalf("ongoing imported as %s", st)
	}
}
