package taskmd

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "boof.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// richTask builds a finished task with every kind of section, including
// bodies that look like markdown structure.
func richTask(t *testing.T, s *store.Store) string {
	t.Helper()
	ctx := context.Background()
	if _, err := s.SaveCommand(ctx, "review", "Review carefully."); err != nil {
		t.Fatal(err)
	}
	tk, err := s.CreateTask(ctx, task.NewTask{Title: "Fix the parser", Prompt: "Fix it.\n\n## Not a heading\n~~~\ncode\n~~~\n",
		Priority: 3, Labels: []string{"bug", "parser"}, Runs: 2, Base: "main", Command: "review", Repo: "/src/app",
		Tools: task.Tools{task.RoleReviewer: {Tool: "codex", Model: "gpt-5"}}})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	ex, err := s.Claim(ctx, tk.ID, store.ClaimInfo{Role: task.RolePlanner, Model: "claude-sonnet-4"})
	must(err)
	must(s.SetQuestions(ctx, tk.ID, []string{"Which grammar?"}))
	_, err = s.Transition(ctx, tk.ID, task.StatusActions, store.TransitionNote{})
	must(err)
	_, err = s.Answer(ctx, tk.ID, "The new one.")
	must(err)
	must(s.FinishExecution(ctx, ex.ID, task.OutcomeSucceeded, 0, task.Usage{TokensIn: 1000, TokensOut: 10}, false))
	_, err = s.Claim(ctx, tk.ID, store.ClaimInfo{Role: task.RoleDeveloper})
	must(err)
	add := func(sec task.Section) {
		t.Helper()
		sec.TaskID = tk.ID
		_, err := s.AddSection(ctx, sec)
		must(err)
	}
	add(task.Section{Kind: task.SectionPlannerReport, Role: task.RolePlanner, Iteration: 1, Body: "# Plan\n\n1. do\n"})
	add(task.Section{Kind: task.SectionFinalPlan, Role: task.RoleRefinement, Iteration: 1, Body: "Final.\n~~~~\nfence inside\n~~~~"})
	add(task.Section{Kind: task.SectionDeveloperReport, Role: task.RoleDeveloper, Iteration: 1, Body: ""})
	for round := 1; round <= 2; round++ {
		v := map[int]string{1: "CHANGES_REQUESTED", 2: "APPROVE"}[round]
		add(task.Section{Kind: task.SectionObserverReport, Role: task.RoleObserver, Iteration: 1, Round: round, Verdict: v, Body: "obs\nVERDICT: " + v})
		add(task.Section{Kind: task.SectionReviewerReport, Role: task.RoleReviewer, Iteration: 1, Round: round, Verdict: v, Body: "rev\r\nVERDICT: " + v + "\n"})
	}
	_, err = s.Inject(ctx, tk.ID, "also update the docs")
	must(err)
	_, err = s.ApplyInjections(ctx, tk.ID, "developer")
	must(err)
	must(s.AppendLog(ctx, tk.ID, 0, task.LevelInfo, "base main → abc123"))
	must(s.AppendLog(ctx, tk.ID, 0, task.LevelWarn, "  padded \"quoted\"\twith tab"))
	must(s.AppendLog(ctx, tk.ID, 0, task.LevelError, ""))
	_, err = s.Transition(ctx, tk.ID, task.StatusDone, store.TransitionNote{Branch: "boof/fix", BaseSHA: "abc123", HeadSHA: "def456", WorktreePath: "/wt/x"})
	must(err)
	return tk.ID
}

var volatile = regexp.MustCompile(`(?m)^(id|created_at|updated_at|started_at|finished_at): .*$|at=\S+|^\d{4}-\d\d-\d\dT\S+ `)

func export(t *testing.T, s *store.Store, id string) string {
	t.Helper()
	d, err := Load(context.Background(), s, id)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, d); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRoundTripExportImportExport(t *testing.T) {
	src := openStore(t)
	id := richTask(t, src)
	first := export(t, src, id)
	d, err := Parse([]byte(first))
	if err != nil {
		t.Fatalf("parse own export: %v\n%s", err, first)
	}
	dst := openStore(t)
	imported, err := Import(context.Background(), dst, d)
	if err != nil {
		t.Fatal(err)
	}
	if imported.ID == id {
		t.Fatal("import reused the id")
	}
	second := export(t, dst, imported.ID)
	// The copy remembers where it came from; otherwise the two are the same.
	originLine := "origin_id: \"" + id + "\"\n"
	if !strings.Contains(second, originLine) || strings.Contains(first, "origin_id") {
		t.Fatalf("the copy's export does not name its origin %s:\n%s", id, second)
	}
	second = strings.Replace(second, originLine, "", 1)
	a, b := volatile.ReplaceAllString(first, "<t>"), volatile.ReplaceAllString(second, "<t>")
	if a != b {
		t.Fatalf("round trip differs:\n--- first\n%s\n--- second\n%s", first, second)
	}
	for _, want := range []string{"### Observer report", "verdict=APPROVE", "step=developer", "~~~~~\nFinal.", "## Not a heading", "status: done", `warn "  padded \"quoted\"\twith tab"`} {
		if !strings.Contains(first, want) {
			t.Errorf("export lacks %q", want)
		}
	}
	// Section bodies and log text come back byte for byte.
	want, _ := src.Sections(context.Background(), id)
	got, _ := dst.Sections(context.Background(), imported.ID)
	if len(want) != len(got) {
		t.Fatalf("%d sections, want %d", len(got), len(want))
	}
	bodies := map[string]bool{}
	for _, s := range want {
		bodies[string(s.Kind)+"|"+s.Body] = true
	}
	for _, s := range got {
		if !bodies[string(s.Kind)+"|"+s.Body] {
			t.Errorf("section %s body %q not in source", s.Kind, s.Body)
		}
	}
}

func TestParseAcceptsFileWithoutObserver(t *testing.T) {
	doc := "---\nstatus: pending\ntitle: \"x\"\n---\n# x\n\n## Prompt\n\n~~~\nDo it.\n~~~\n\n## Reports\n\n### Reviewer report\n\n#### iteration=1 round=1 verdict=APPROVE\n\n~~~\nok\n~~~\n"
	d, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if d.Task.Prompt != "Do it." || d.Task.Status != task.StatusPending || len(d.Sections) != 1 || d.Sections[0].Kind != task.SectionReviewerReport {
		t.Fatalf("doc = %+v", d)
	}
	s := openStore(t)
	tk, err := Import(context.Background(), s, d)
	if err != nil || tk.Status != task.StatusPending || tk.Runs != 1 {
		t.Fatalf("import: %+v %v", tk, err)
	}
}

func TestParseRejects(t *testing.T) {
	ok := "---\nstatus: pending\n---\n## Prompt\n~~~\np\n~~~\n"
	if _, err := Parse([]byte(ok)); err != nil {
		t.Fatalf("minimal file: %v", err)
	}
	cases := map[string]string{
		"unknown status":      strings.Replace(ok, "pending", "runnin", 1),
		"duplicate field":     strings.Replace(ok, "status: pending", "status: pending\nstatus: done", 1),
		"both spellings":      strings.Replace(ok, "status: pending", "status: pending\ncompleted_runs: 1\ncompletedRuns: 1", 1),
		"no status":           strings.Replace(ok, "status: pending\n", "title: \"t\"\n", 1),
		"no frontmatter":      "## Prompt\n~~~\np\n~~~\n",
		"unclosed front":      "---\nstatus: pending\n## Prompt\n",
		"not a map":           "---\n- status\n---\n## Prompt\n~~~\np\n~~~\n",
		"bad yaml":            "---\nstatus: [pending\n---\n## Prompt\n~~~\np\n~~~\n",
		"no prompt":           "---\nstatus: pending\n---\n",
		"empty prompt":        strings.Replace(ok, "~~~\np\n~~~", "~~~\n  \n~~~", 1),
		"unclosed fence":      "---\nstatus: pending\n---\n## Prompt\n~~~\np\n",
		"priority overflow":   strings.Replace(ok, "status: pending", "status: pending\npriority: 99999999999", 1),
		"label comma":         strings.Replace(ok, "status: pending", "status: pending\nlabels: [\"a,b\"]", 1),
		"label newline":       strings.Replace(ok, "status: pending", "status: pending\nlabels: [\"a\\nb\"]", 1),
		"archived bad prev":   strings.Replace(ok, "status: pending", "status: archived\nprev_status: ongoing", 1),
		"entry outside":       ok + "#### iteration=1\n~~~\nx\n~~~\n",
		"entry bad attr":      ok + "## Answers\n#### colour=red\n~~~\nx\n~~~\n",
		"stray text":          "---\nstatus: pending\n---\nhello\n## Prompt\n~~~\np\n~~~\n",
		"bad log line":        ok + "## Log\n~~~\nyesterday info hi\n~~~\n",
		"NUL":                 strings.Replace(ok, "p\n", "p\x00\n", 1),
		"yaml indicator":      strings.Replace(ok, "status: pending", "status: pending\ntitle: [a]", 1),
		"negative usage":      strings.Replace(ok, "status: pending", "status: pending\nusage: {\"tokens_in\": -1}", 1),
		"two prompts":         ok + "## Prompt\n~~~\nq\n~~~\n",
		"id not text":         strings.Replace(ok, "status: pending", "status: pending\nid: [x]", 1),
		"id two lines":        strings.Replace(ok, "status: pending", "status: pending\nid: \"a\\nb\"", 1),
		"bad time":            strings.Replace(ok, "status: pending", "status: pending\ncreated_at: yesterday", 1),
		"trailing json":       strings.Replace(ok, "status: pending", "status: pending\nlabels: [] []", 1),
		"invalid section key": ok + "## Reports\n### Observer report\n#### iteration=1 verdict=A\tB\n~~~\nx\n~~~\n",
		"non-UTF-8 front":     strings.Replace(ok, "status: pending", "status: pending\ntitle: \"\xff\"", 1),
		"non-UTF-8 plain":     "---\nstatus: pending\n---\n## Prompt\n\nbad \xff text\n",
		"extra not a map":     strings.Replace(ok, "status: pending", "status: pending\nextra: 5", 1),
		"non-UTF-8 heading":   ok + "## \xda\n",
		"non-UTF-8 unknown":   ok + "## Notes\n~~~\nbad \xff\n~~~\n",
		"alias bomb":          "---\nstatus: pending\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n---\n## Prompt\n~~~\np\n~~~\n",
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(doc))
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("want ErrFormat, got %v", err)
			}
			if name == "unknown status" && !errors.Is(err, task.ErrUnknownStatus) {
				t.Fatalf("want ErrUnknownStatus too, got %v", err)
			}
		})
	}
}

// An ongoing task (its run belonged to the app that wrote the file) comes
// in stopped; an archived one keeps the status it returns to.
func TestImportOngoingAsStoppedAndArchived(t *testing.T) {
	s := openStore(t)
	d, err := Parse([]byte("---\nstatus: ongoing\n---\n## Prompt\n~~~\np\n~~~\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Task.Status != task.StatusStopped || d.Task.Error != OngoingError || len(d.Notes) != 1 {
		t.Fatalf("ongoing parsed as %s %q %q", d.Task.Status, d.Task.Error, d.Notes)
	}
	tk, err := Import(context.Background(), s, d)
	if err != nil || tk.Status != task.StatusStopped {
		t.Fatalf("import: %+v %v", tk, err)
	}
	if _, err := s.Retry(context.Background(), tk.ID); err != nil {
		t.Fatalf("retry the imported task: %v", err)
	}
	d.Task.Status = task.StatusArchived
	d.Task.PrevStatus = task.StatusDone
	tk, err = Import(context.Background(), s, d, Options{Again: true})
	if err != nil || tk.Status != task.StatusArchived {
		t.Fatalf("archived import: %+v %v", tk, err)
	}
	back, err := s.Unarchive(context.Background(), tk.ID)
	if err != nil || back.Status != task.StatusDone {
		t.Fatalf("unarchive imported: %+v %v", back, err)
	}
	_ = time.Now
}

// Characters YAML does not allow in a document (DEL, C1 controls) in a
// field or an unknown section's heading are written escaped and come back
// the same.
func TestWriteEscapesWhatYAMLRefuses(t *testing.T) {
	odd := "a\x7fb\u0090c\u0085d\uffff"
	d := Doc{Task: task.Task{Status: task.StatusFailed, Prompt: "p", Error: odd, Extra: []byte(`{"## ` + odd + `":"x"}`)}}
	var b bytes.Buffer
	if err := Write(&b, d); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsRune(b.String(), 0x7f) || strings.ContainsRune(b.String(), 0x90) {
		t.Fatalf("raw control characters written:\n%q", b.String())
	}
	back, err := Parse(b.Bytes())
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, b.String())
	}
	if back.Task.Error != odd || string(back.Task.Extra) != `{"## `+odd+`":"x"}` {
		t.Fatalf("error %q extra %s", back.Task.Error, back.Task.Extra)
	}
}
