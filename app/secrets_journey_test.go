package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/secrets/secretstest"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// leakingRepo commits the corpus of credential formats to the fixture's
// repository as mock-leak.txt: what an agent finds and prints (a config,
// an env dump) when it runs `cat` on it.
func leakingRepo(t *testing.T, f *hostFixture) string {
	t.Helper()
	cur, err := f.host.Settings.Load()
	if err != nil {
		t.Fatal(err)
	}
	repo := cur.WorkingDirectory
	if err := os.WriteFile(filepath.Join(repo, mock.LeakFile), []byte(secretstest.Text()), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", mock.LeakFile)
	git(t, repo, "commit", "-q", "-m", "config")
	return repo
}

// TestSecretsNeverReachDiskOrUI is the corpus journey: agents print 26
// credential formats (a tool result, text, their reports, the planner's
// questions) through a real run of the whole queue — planner questions,
// the user's answer, developer, reviewer, export — and afterwards none of
// the secrets is anywhere under the data root (database, its WAL,
// transcripts, the export) nor in anything the UI received (live events,
// the output snapshot, the task detail, transcript pages). The repository
// file itself is the user's and keeps them.
func TestSecretsNeverReachDiskOrUI(t *testing.T) {
	f := startHost(t)
	repo := leakingRepo(t, f)
	tk, err := f.tasks.Create(NewTaskInput{Prompt: "Check the config.\n[[mock-leak planner=1 developer=1 reviewer=1]]\n[[mock-questions planner=1]]"})
	if err != nil {
		t.Fatal(err)
	}
	parked := f.waitStatus(t, tk.ID, task.StatusActions)
	if len(parked.Questions) < 3 {
		d, _ := f.tasks.Get(tk.ID)
		b, _ := json.MarshalIndent(d, "", " ")
		t.Fatalf("questions %q\n%s", parked.Questions, b)
	}
	if _, err := f.tasks.Answer(tk.ID, "Use the defaults."); err != nil {
		t.Fatal(err)
	}
	done := f.waitStatus(t, tk.ID, task.StatusDone)

	// What the UI receives.
	var ui bytes.Buffer
	add := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		ui.Write(b)
	}
	detail, err := f.tasks.Get(tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	add(detail)
	out, _ := f.run.Output(tk.ID)
	add(out)
	page, err := f.run.Transcript(tk.ID, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	add(page)
	list, _ := f.tasks.List(ListFilter{})
	add(list)
	f.rec.mu.Lock()
	add(f.rec.Payloads)
	f.rec.mu.Unlock()
	md, err := f.tasks.Export(tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	ui.WriteString(md)

	// The journey really carried the secrets: the agents printed them.
	if !strings.Contains(out.Terminal, "The config holds") || !strings.Contains(ui.String(), "[REDACTED]") {
		t.Fatalf("the agents did not print the corpus; terminal:\n%.2000s", out.Terminal)
	}
	// An export lands in the data root, as the CLI's would.
	root := filepath.Dir(f.host.Settings.Path())
	if err := os.WriteFile(filepath.Join(root, "export-"+tk.ID+".md"), []byte(md), 0o600); err != nil {
		t.Fatal(err)
	}
	var disk bytes.Buffer
	files := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			disk.Write(b)
			disk.WriteByte(0)
			files++
		}
		return nil
	})
	if !strings.Contains(disk.String(), "Check the config.") {
		t.Fatal("the data root does not hold the task (wrong directory?)")
	}
	for _, s := range secretstest.Corpus() {
		for _, sec := range s.Secrets {
			if i := strings.Index(disk.String(), sec); i >= 0 {
				t.Errorf("%s: a secret is on disk under the data root (%d files): %q", s.Name, files, disk.String()[max(0, i-150):i+len(sec)+20])
			}
			if strings.Contains(ui.String(), sec) {
				t.Errorf("%s: a secret reached the UI", s.Name)
			}
		}
	}
	// The repository's own file, and so the diff view, keeps its content.
	if b, _ := os.ReadFile(filepath.Join(repo, mock.LeakFile)); !strings.Contains(string(b), secretstest.Secrets()[0]) {
		t.Error("the repository's file was changed")
	}
	if done.Error != "" {
		t.Errorf("task error %q", done.Error)
	}
}

// The diff view shows the repository's own content as it is: a key the
// developer committed and a base64 blob that looks like one are what the
// user reviews, unscrubbed (scrubbing is for what agents print and we
// store, not for the user's files).
func TestDiffShowsRepositoryContentUnscrubbed(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "README"), []byte("hello\n"), 0o644)
	git(t, repo, "add", "README")
	git(t, repo, "commit", "-q", "-m", "init")
	base := git(t, repo, "rev-parse", "HEAD")
	tk, err := st.CreateTask(ctx, task.NewTask{Prompt: "add fixtures", Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	key := secretstest.Corpus()[0].Secrets[0]
	blob := "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODk="
	content := "fixture_blob = \"" + blob + "\"\nANTHROPIC_API_KEY=" + key + "\n"
	if secrets.Scrub(content) == content || !strings.Contains(secrets.Scrub(content), blob) {
		t.Fatalf("fixture: the key must be one the scrubber finds and the blob one it leaves: %q", secrets.Scrub(content))
	}
	git(t, repo, "checkout", "-q", "-b", "boof-runner/"+tk.ID)
	os.WriteFile(filepath.Join(repo, "fixtures.env"), []byte(content), 0o644)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "fixtures")
	git(t, repo, "checkout", "-q", "main")
	if _, err := st.Claim(ctx, tk.ID, store.ClaimInfo{Runner: "test", Iteration: 1, Role: task.RolePlanner, Round: 1, Attempt: 1, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Transition(ctx, tk.ID, task.StatusDone, store.TransitionNote{Branch: "boof-runner/" + tk.ID, BaseSHA: base}); err != nil {
		t.Fatal(err)
	}
	g := gitx.New()
	svc := NewReviewService(g, st, worktree.NewManager(g, time.Now), review.New(g, time.Now), &RecordingEmitter{}, context.Background)
	fp, err := svc.FilePatch(tk.ID, "fixtures.env", false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fp.Patch, "+ANTHROPIC_API_KEY="+key) || !strings.Contains(fp.Patch, blob) || strings.Contains(fp.Patch, secrets.Redacted) {
		t.Errorf("the diff is not the repository's content:\n%s", fp.Patch)
	}
}
