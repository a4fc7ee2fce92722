package taskmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func parseFile(t *testing.T, name string) Doc {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "earlier", name))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse(b)
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return d
}

// writeParse checks that what Write makes of d parses back to the same
// document and the same bytes, and returns them.
func writeParse(t *testing.T, d Doc) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, d); err != nil {
		t.Fatal(err)
	}
	d2, err := Parse(b.Bytes())
	if err != nil {
		t.Fatalf("own output does not parse: %v\n%s", err, b.String())
	}
	var b2 bytes.Buffer
	Write(&b2, d2)
	if b.String() != b2.String() {
		t.Fatalf("write/parse not stable:\n%s\n---\n%s", b.String(), b2.String())
	}
	if d2.Format != FormatBoof || len(d2.Notes) != 0 {
		t.Fatalf("our own output read as %s with notes %q", d2.Format, d2.Notes)
	}
	return b.String()
}

func TestEarlierFormatDoneWithRounds(t *testing.T) {
	d := parseFile(t, "done-with-rounds.md")
	tk := d.Task
	created := time.Date(2025, 11, 2, 10, 0, 0, 0, time.UTC)
	if d.Format != FormatEarlier || tk.ID != "2025-11-02-cache-thumbnails" || d.Origin() != tk.ID || tk.Title != "Cache generated thumbnails" ||
		tk.Status != task.StatusDone || tk.Priority != 3 || strings.Join(tk.Labels, ",") != "media,perf" || tk.Command != "" ||
		tk.Runs != 1 || tk.CompletedRuns != 1 || tk.Base != "main" || !tk.CreatedAt.Equal(created) {
		t.Fatalf("task fields: %+v", tk)
	}
	if tk.Tools[task.RoleDeveloper] != (task.ToolChoice{Tool: "claude-code", Model: "sonnet"}) || tk.Tools[task.RoleReviewer] != (task.ToolChoice{Tool: "codex"}) {
		t.Fatalf("tools %+v", tk.Tools)
	}
	if tk.Usage.TokensIn != 61250 || tk.Usage.TokensOut != 10480 || tk.Usage.CostUSD != 0.73 {
		t.Fatalf("usage %+v", tk.Usage)
	}
	if want := "Thumbnails are rendered on every request. Keep them in an LRU cache keyed by\npath and size, bounded to 64 MB."; tk.Prompt != want {
		t.Fatalf("prompt %q", tk.Prompt)
	}
	var got []string
	for _, s := range d.Sections {
		got = append(got, strings.Join([]string{string(s.Kind), string(s.Role), itoa(s.Iteration), itoa(s.Round), s.Verdict, firstLine(s.Body)}, "|"))
	}
	want := []string{
		"planner_report|planner|1|0||1. Add `thumbcache.go` with an LRU keyed by (path, size).",
		"developer_report|developer|1|0||Added the cache with a byte budget; the handler reads through it.",
		"reviewer_report|reviewer|1|1|CHANGES_REQUESTED|The budget is counted in entries, not bytes.",
		"reviewer_report|reviewer|1|2|APPROVE|Fixed: the budget counts bytes now, with a test.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("sections:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(d.Log) != 4 || d.Log[3].Text != "Task done" || d.Log[3].Level != task.LevelInfo ||
		!d.Log[1].At.Equal(time.Date(2025, 11, 2, 11, 10, 40, 500e6, time.UTC)) {
		t.Fatalf("log %+v", d.Log)
	}
	// A section this version does not know is kept, and said so.
	if !reflect.DeepEqual(d.Notes, []string{`unknown section "## Design notes the user wrote" kept`}) {
		t.Fatalf("notes %q", d.Notes)
	}
	var extra map[string]string
	if err := json.Unmarshal(d.Task.Extra, &extra); err != nil || extra["## Design notes the user wrote"] != "Use the existing `lru` package." {
		t.Fatalf("extra %s: %v", d.Task.Extra, err)
	}
	out := writeParse(t, d)
	for _, w := range []string{`id: "2025-11-02-cache-thumbnails"`, `"## Design notes the user wrote":`, "#### iteration=1 round=2 role=reviewer verdict=APPROVE"} {
		if !strings.Contains(out, w) {
			t.Fatalf("export lacks %q:\n%s", w, out)
		}
	}
}

func TestEarlierFormatNullsCRLFUnknownKeysOngoing(t *testing.T) {
	d := parseFile(t, "ongoing-crlf.md")
	tk := d.Task
	if tk.Title != "" || tk.Priority != 0 || len(tk.Labels) != 0 || len(tk.Questions) != 0 || tk.Runs != 0 || tk.Base != "" ||
		len(tk.Tools) != 0 || tk.Command != "review-carefully" {
		t.Fatalf("null fields: %+v", tk)
	}
	if tk.Status != task.StatusStopped || tk.Error != OngoingError {
		t.Fatalf("ongoing became %s %q", tk.Status, tk.Error)
	}
	if tk.Prompt != "The login test fails one run in ten. Find out why." {
		t.Fatalf("prompt %q (CRs left?)", tk.Prompt)
	}
	if len(d.Sections) != 2 || d.Sections[0].Kind != task.SectionCommand || d.Sections[0].Body != "Review every change twice." ||
		d.Sections[1].Kind != task.SectionPlannerReport {
		t.Fatalf("sections %+v", d.Sections)
	}
	wantNotes := []string{`unknown key "assignee" kept`, `unknown key "estimate" kept`, "status ongoing imported as stopped (the run it was in is gone)"}
	if !reflect.DeepEqual(d.Notes, wantNotes) {
		t.Fatalf("notes %q", d.Notes)
	}
	if string(d.Task.Extra) != `{"assignee":"dana","estimate":{"hours":3}}` {
		t.Fatalf("extra %s", d.Task.Extra)
	}
	out := writeParse(t, d)
	if !strings.Contains(out, `extra: {"assignee":"dana","estimate":{"hours":3}}`) || !strings.Contains(out, "status: stopped") {
		t.Fatalf("export:\n%s", out)
	}
}

func TestEarlierFormatArchivedAttachmentsQuestions(t *testing.T) {
	d := parseFile(t, "archived-questions.md")
	if d.Task.Status != task.StatusArchived || d.Task.PrevStatus != task.StatusStopped {
		t.Fatalf("archived without prev: %s prev %s", d.Task.Status, d.Task.PrevStatus)
	}
	if strings.Join(d.Attachments, ",") != "sketch.png,notes.txt" || strings.Join(d.Task.Labels, ",") != "plugins" ||
		len(d.Task.Questions) != 1 || d.Task.Title != "Old idea: plugin roles" {
		t.Fatalf("doc %+v", d)
	}
	if len(d.Sections) != 2 || d.Sections[1].Kind != task.SectionAnswers || d.Sections[1].Body != "Yes, one process per plugin." {
		t.Fatalf("sections %+v", d.Sections)
	}
	writeParse(t, d)
}

// A prompt may hold markdown headings of its own: only the format's
// headings end it.
func TestEarlierPromptKeepsItsHeadings(t *testing.T) {
	d, err := Parse([]byte("---\nstatus: pending\n---\n\n## Prompt\n\nDo this.\n\n## Background\n\nIt broke.\n\n### Planner report\n\nPlan.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Task.Prompt != "Do this.\n\n## Background\n\nIt broke." || len(d.Sections) != 1 || d.Sections[0].Body != "Plan." {
		t.Fatalf("prompt %q sections %+v", d.Task.Prompt, d.Sections)
	}
}

// The same file imported twice is refused the second time unless asked
// for; the task keeps the file's id as its origin.
func TestImportKeepsOriginAndRefusesDuplicates(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	d := parseFile(t, "done-with-rounds.md")
	tk, err := Import(ctx, s, d)
	if err != nil {
		t.Fatal(err)
	}
	if tk.OriginID != "2025-11-02-cache-thumbnails" || !task.ValidID(tk.ID) || tk.Status != task.StatusDone || tk.Usage.TokensIn != 61250 {
		t.Fatalf("imported %+v", tk)
	}
	_, err = Import(ctx, s, d)
	var dup *store.DuplicateOriginError
	if !errors.As(err, &dup) || dup.TaskID != tk.ID || dup.OriginID != "2025-11-02-cache-thumbnails" {
		t.Fatalf("second import: %v", err)
	}
	if list, _ := s.ListTasks(ctx, store.Filter{}); len(list) != 1 {
		t.Fatalf("%d tasks after a refused import", len(list))
	}
	again, err := Import(ctx, s, d, Options{Again: true})
	if err != nil || again.ID == tk.ID || again.OriginID != tk.OriginID {
		t.Fatalf("import --again: %+v %v", again, err)
	}
	// An export of the copy carries its origin, and importing that export
	// is refused too: it is the same task.
	loaded, err := Load(ctx, s, tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, loaded); err != nil {
		t.Fatal(err)
	}
	d2, err := Parse(b.Bytes())
	if err != nil || d2.Origin() != "2025-11-02-cache-thumbnails" || string(d2.Task.Extra) != string(tk.Extra) {
		t.Fatalf("export of the import: origin %q extra %s, %v", d2.Origin(), d2.Task.Extra, err)
	}
	if _, err := Import(ctx, s, d2); !errors.As(err, &dup) {
		t.Fatalf("import of the export: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
