package host_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/secrets/secretstest"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// A data root written before scrubbing existed is scrubbed once when a
// host opens it: agent text in rows and transcripts loses its secrets, the
// user's own words stay verbatim, the log says how much changed (counts,
// never values), and the next open does not run the pass again.
func TestOpenScrubsDataWrittenBefore(t *testing.T) {
	ctx := context.Background()
	paths := newPaths(t)
	st, err := store.Open(ctx, paths.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	leak := secretstest.Text()
	userKey := secretstest.Corpus()[2].Secrets[0]
	tk, err := st.CreateTask(ctx, task.NewTask{Prompt: "Rotate the token " + userKey + " please", Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddSection(ctx, task.Section{TaskID: tk.ID, Kind: task.SectionPlannerReport, Role: task.RolePlanner, Iteration: 1, Body: "## Plan\n" + leak}); err != nil {
		t.Fatal(err)
	}
	if err := st.AppendLog(ctx, tk.ID, 0, task.LevelInfo, "→ Bash env\n"+leak); err != nil {
		t.Fatal(err)
	}
	if err := st.AppendEvent(ctx, tk.ID, task.PlannerAnswered{Role: task.RoleDeveloper, Answer: leak}); err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(paths.Transcripts(), tk.ID, "i1-planner-a1.log")
	if err := os.MkdirAll(filepath.Dir(transcript), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(transcript, []byte(`{"type":"text","text":"ok"}`+"\n"+leak), 0o600); err != nil {
		t.Fatal(err)
	}

	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	h, err := host.Open(context.Background(), host.Options{Paths: paths, Store: st, Exe: os.Args[0], Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}

	var stored strings.Builder
	secs, _ := st.Sections(ctx, tk.ID)
	for _, s := range secs {
		if s.Kind != task.SectionPrompt {
			stored.WriteString(s.Body)
		}
	}
	lines, _ := st.Log(ctx, tk.ID, 0, 100)
	for _, l := range lines {
		stored.WriteString(l.Text)
	}
	evs, _ := st.Events(ctx, tk.ID, time.Time{})
	for _, e := range evs {
		if a, ok := e.Data.(task.PlannerAnswered); ok {
			stored.WriteString(a.Answer)
		}
	}
	b, _ := os.ReadFile(transcript)
	stored.Write(b)
	for _, sec := range secretstest.Secrets() {
		if strings.Contains(stored.String(), sec) {
			t.Fatalf("secret %.16q… survived the upgrade pass", sec)
		}
		if strings.Contains(logs.String(), sec) {
			t.Fatalf("the log names a secret value")
		}
	}
	// grep -r over the data root: the database file, its WAL (checkpointed
	// after the pass) and free pages (secure_delete) hold none either.
	var disk bytes.Buffer
	_ = filepath.Walk(paths.Root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			disk.Write(b)
		}
		return nil
	})
	for _, sec := range secretstest.Secrets() {
		if sec != userKey && bytes.Contains(disk.Bytes(), []byte(sec)) {
			t.Fatalf("secret %.16q… is still in a file under the data root", sec)
		}
	}
	if !bytes.Contains(disk.Bytes(), []byte(userKey)) {
		t.Error("the user's prompt is not on disk verbatim")
	}
	if !strings.HasPrefix(string(b), `{"type":"text","text":"ok"}`+"\n") {
		t.Errorf("transcript text around the secrets changed: %.80q", b)
	}
	got, _ := st.GetTask(ctx, tk.ID)
	if got.Prompt != tk.Prompt {
		t.Errorf("the user's prompt changed: %q", got.Prompt)
	}
	if !strings.Contains(logs.String(), "secrets: scrubbed data written before this version") ||
		!strings.Contains(logs.String(), "sections=1 log_lines=1 events=1") || !strings.Contains(logs.String(), "transcripts=1") {
		t.Errorf("log lacks the counts:\n%s", logs.String())
	}

	logs.Reset()
	h, err = host.Open(context.Background(), host.Options{Paths: paths, Store: st, Exe: os.Args[0], Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	_ = h.Close()
	if strings.Contains(logs.String(), "scrubbed data") {
		t.Errorf("the pass ran twice:\n%s", logs.String())
	}
}
