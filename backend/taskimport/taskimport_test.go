//go:build unix

package taskimport

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func openStore(t testing.TB) *store.Store {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(dir, "boof.db"), store.Options{AttachmentsDir: filepath.Join(dir, "attachments")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// intakeFor is the import's way in over st, with a working directory (a
// git repository with one commit) in its settings, so pending and draft
// tasks without a repo of their own have a folder to run in.
func intakeFor(t testing.TB, st *store.Store) *intake.Service {
	t.Helper()
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	set := func() (settings.Settings, error) {
		s := settings.Defaults(settings.Catalog{})
		s.WorkingDirectory = repo
		return s, nil
	}
	return intake.New(intake.Options{Store: st, Settings: set})
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// earlier is a task file of the earlier version.
func earlier(id, status, title string, extra ...string) string {
	return fmt.Sprintf("---\nid: %s\ntitle: %s\nstatus: %s\npriority: 1\nlabels: [ops]\ncommand: null\nattachments: %s\nruns: 1\ncompletedRuns: 0\nbase: null\ncreatedAt: 2025-10-01T08:00:00.000Z\n---\n\n## Prompt\n\n%s, please.\n\n## Log\n\n- 2025-10-01T08:00:01.000Z Created\n",
		id, title, status, strings.Join(append([]string{"[]"}, extra...)[len(extra):], ""), title)
}

func byPath(rs []Result) map[string]Result {
	out := map[string]Result{}
	for _, r := range rs {
		out[r.Path] = r
	}
	return out
}

// A folder tree of the earlier version: one folder per status, an ongoing
// task in its own folder, attachments under assets, a broken file, a file
// that is not a task, a link to nowhere, a template folder, a file over the
// cap. Every task file is reported; the bad ones change nothing and the
// rest go on.
func TestDirImportsTheEarlierTree(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "tasks")
	write(t, filepath.Join(root, "pending", "a.md"), earlier("2025-10-01-a", "pending", "Task A"))
	write(t, filepath.Join(root, "done", "b.md"), earlier("2025-10-01-b", "pending", "Task B")) // the folder wins
	write(t, filepath.Join(root, "ongoing", "2025-10-01-c", "task.md"), earlier("2025-10-01-c", "ongoing", "Task C"))
	write(t, filepath.Join(root, "drafts", "d.md"), earlier("2025-10-01-d", "draft", "Task D", "[shot.png, gone.txt]"))
	write(t, filepath.Join(root, "assets", "2025-10-01-d", "shot.png"), "\x89PNG fake")
	write(t, filepath.Join(root, "failed", "broken.md"), "---\nstatus: [failed\n---\n## Prompt\n\nx\n")
	write(t, filepath.Join(root, "failed", "latin1.md"), "---\nid: x\nstatus: failed\n---\n## Prompt\n\ncaf\xe9\n")
	write(t, filepath.Join(root, "README.md"), "# My old queue\n")
	write(t, filepath.Join(root, "commands", "review.md"), "Review carefully.\n")
	write(t, filepath.Join(root, "done", "notes.txt"), "not markdown")
	if err := os.Symlink(filepath.Join(root, "nowhere.md"), filepath.Join(root, "done", "dangling.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pending", "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(root, "archived", "big.md")
	write(t, big, "---\nstatus: done\n---\n")
	if err := os.Truncate(big, 64<<20+1); err != nil {
		t.Fatal(err)
	}

	in := intakeFor(t, st)
	rs, err := Dir(ctx, in, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := byPath(rs)
	want := map[string]Outcome{
		"pending/a.md": Imported, "done/b.md": Imported, "ongoing/2025-10-01-c/task.md": Imported, "drafts/d.md": Imported,
		"failed/broken.md": Failed, "failed/latin1.md": Failed, "README.md": Skipped, "commands": Skipped,
		"done/dangling.md": Failed, "pending/pipe.md": Skipped, "archived/big.md": Failed,
	}
	if len(rs) != len(want) {
		t.Errorf("%d results, want %d: %+v", len(rs), len(want), rs)
	}
	for rel, outcome := range want {
		r, ok := got[filepath.Join(root, rel)]
		if !ok || r.Outcome != outcome {
			t.Errorf("%s: %+v, want %s", rel, r, outcome)
		}
	}
	statusOf := func(rel string) task.Status {
		tk, err := st.GetTask(ctx, got[filepath.Join(root, rel)].TaskID)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		return tk.Status
	}
	if s := statusOf("done/b.md"); s != task.StatusDone {
		t.Errorf("b: %s, want done from its folder", s)
	}
	if s := statusOf("ongoing/2025-10-01-c/task.md"); s != task.StatusStopped {
		t.Errorf("c: %s, want stopped", s)
	}
	if n := got[filepath.Join(root, "done/b.md")].Notes; len(n) != 1 || n[0] != "status done from its folder (the file says pending)" {
		t.Errorf("b notes %q", n)
	}
	d := got[filepath.Join(root, "drafts/d.md")]
	atts, _ := st.Attachments(ctx, d.TaskID)
	if len(atts) != 1 || atts[0].Name != "shot.png" || atts[0].Size != 9 || !strings.Contains(strings.Join(d.Notes, ";"), `attachment "gone.txt" not found`) {
		t.Errorf("d attachments %+v notes %q", atts, d.Notes)
	}
	for rel, msg := range map[string]string{
		"failed/latin1.md": "the text is not valid UTF-8",
		"archived/big.md":  "is larger than the limit of 64 MiB",
		"done/dangling.md": "does not exist",
		"failed/broken.md": "frontmatter:",
	} {
		if r := got[filepath.Join(root, rel)]; !strings.Contains(r.Error, msg) || strings.Contains(r.Error, "\n") {
			t.Errorf("%s: error %q lacks %q", rel, r.Error, msg)
		}
	}
	if list, _ := st.ListTasks(ctx, store.Filter{}); len(list) != 4 {
		t.Fatalf("%d tasks stored, want 4", len(list))
	}

	// The same tree again: every task is a duplicate and nothing is stored,
	// unless asked for.
	rs, _ = Dir(ctx, in, root, Options{})
	dups := 0
	for _, r := range rs {
		if r.Outcome == Duplicate {
			dups++
			if !strings.Contains(r.Error, "--again") || r.TaskID == "" {
				t.Errorf("duplicate %+v", r)
			}
		}
		if r.Outcome == Imported {
			t.Errorf("imported again: %+v", r)
		}
	}
	if dups != 4 {
		t.Fatalf("%d duplicates", dups)
	}
	if _, err := Dir(ctx, in, root, Options{Again: true}); err != nil {
		t.Fatal(err)
	}
	if list, _ := st.ListTasks(ctx, store.Filter{}); len(list) != 8 {
		t.Fatalf("%d tasks after --again, want 8", len(list))
	}
	if _, err := Dir(ctx, in, filepath.Join(root, "nope"), Options{}); err == nil {
		t.Fatal("a missing folder is not an error")
	}
}

// BenchmarkDir1000 imports a tree of 1,000 task files (half this app's
// export format, half the earlier version's) into a fresh store.
func BenchmarkDir1000(b *testing.B) {
	root := b.TempDir()
	for i := 0; i < 1000; i++ {
		status := []string{"pending", "done", "failed", "drafts"}[i%4]
		content := earlier(fmt.Sprintf("2025-10-01-task-%04d", i), status, fmt.Sprintf("Task %d", i))
		if i%2 == 1 {
			content = fmt.Sprintf("---\nid: %016d\ntitle: \"Task %d\"\nstatus: done\npriority: 0\nskip: false\nlabels: [\"a\"]\ncommand: \"\"\nruns: 1\ncompleted_runs: 1\nbase: \"\"\nrepo: \"\"\nquestions: []\ntools: {}\nattachments: []\nusage: {\"tokens_in\":1000,\"tokens_out\":100,\"cache_read\":0,\"cache_write\":0,\"cost_usd\":0.01}\ncreated_at: 2026-01-01T00:00:00.000Z\nupdated_at: 2026-01-01T00:00:00.000Z\n---\n\n# Task %d\n\n## Prompt\n\n~~~\nDo %d.\n~~~\n\n## Reports\n\n### Reviewer report\n\n#### iteration=1 round=1 role=reviewer verdict=APPROVE\n\n~~~\nok\nVERDICT: APPROVE\n~~~\n\n## Log\n\n~~~\n2026-01-01T00:00:00.000Z info Task done\n~~~\n", i, i, i, i)
			status = "done"
		}
		write(b, filepath.Join(root, status, fmt.Sprintf("t%04d.md", i)), content)
	}
	// The machine is shared: besides wall time, report the CPU time this
	// process spent per import (user + system), which other load does not
	// inflate.
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		st := openStore(b)
		in := intakeFor(b, st)
		before := cpuTime(b)
		b.StartTimer()
		rs, err := Dir(context.Background(), in, root, Options{})
		b.StopTimer()
		cpu += cpuTime(b) - before
		b.StartTimer()
		if err != nil || len(rs) != 1000 {
			b.Fatalf("%d results, %v", len(rs), err)
		}
		for _, r := range rs {
			if r.Outcome != Imported {
				b.Fatalf("%+v", r)
			}
		}
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime is the user and system CPU time this process has used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
