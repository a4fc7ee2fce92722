package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func newTestStore(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "boof.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestTaskServiceCreateListAndEvents(t *testing.T) {
	st := newTestStore(t)
	rec := &RecordingEmitter{}
	deps, repo := withRepo(t, st)
	svc := NewTaskService(st, rec, context.Background, deps)
	created, err := svc.Create(NewTaskInput{Title: "T", Prompt: "do it", Priority: 3, Labels: []string{"ui"}})
	if err != nil {
		t.Fatal(err)
	}
	if created.Status != task.StatusPending || created.Repo != repo || created.Priority != 3 {
		t.Fatalf("created %+v", created)
	}
	if names := rec.Names(); len(names) != 1 || names[0] != EventTasksChanged {
		t.Fatalf("events %v", names)
	}
	got, err := svc.List(ListFilter{Label: "ui"})
	if err != nil || len(got) != 1 || got[0].ID != created.ID {
		t.Fatalf("list by label: %v %v", got, err)
	}
	if got, _ := svc.List(ListFilter{Label: "nope"}); len(got) != 0 {
		t.Fatalf("unknown label listed %v", got)
	}
	if _, err := svc.List(ListFilter{Status: "running"}); err == nil {
		t.Fatal("unknown status accepted")
	}
}

func TestTaskServiceErrorsAreReadableAndChangeNothing(t *testing.T) {
	st := newTestStore(t)
	rec := &RecordingEmitter{}
	svc := NewTaskService(st, rec, context.Background, TaskDeps{})
	_, err := svc.Create(NewTaskInput{Prompt: "   "})
	if err == nil || err.Error() != "Prompt is empty." {
		t.Fatalf("got %v", err)
	}
	if _, err := svc.Get("0000000000000000"); err == nil || err.Error() != `Task "0000000000000000" does not exist.` {
		t.Fatalf("get missing: %v", err)
	}
	if _, err := svc.Answer("0000000000000000", "  "); err == nil {
		t.Fatal("empty answer accepted")
	}
	if len(rec.Names()) != 0 {
		t.Fatalf("events emitted on failure: %v", rec.Names())
	}
	if all, _ := st.ListTasks(context.Background(), store.Filter{}); len(all) != 0 {
		t.Fatalf("stored %v", all)
	}
}

func TestTaskServiceLifecycleAndDetail(t *testing.T) {
	st := newTestStore(t)
	deps, _ := withRepo(t, st)
	svc := NewTaskService(st, &RecordingEmitter{}, context.Background, deps)
	a, _ := svc.Create(NewTaskInput{Prompt: "a"})
	b, _ := svc.Create(NewTaskInput{Prompt: "b"})
	c, _ := svc.Create(NewTaskInput{Prompt: "c"})
	if err := svc.Reorder([]string{c.ID, a.ID, b.ID}); err != nil {
		t.Fatal(err)
	}
	next, err := st.NextPending(context.Background())
	if err != nil || next.ID != c.ID {
		t.Fatalf("after reorder next = %v, %v", next.ID, err)
	}
	if _, err := svc.SetSkip(c.ID, true); err != nil {
		t.Fatal(err)
	}
	if next, _ := st.NextPending(context.Background()); next.ID != a.ID {
		t.Fatalf("skip not honoured: next %s", next.ID)
	}
	if _, err := svc.Update(a.ID, TaskUpdate{Title: "edited", Prompt: "a2", Runs: 2}); err != nil {
		t.Fatal(err)
	}
	d, err := svc.Get(a.ID)
	if err != nil || d.Title != "edited" || d.Prompt != "a2" || d.Runs != 2 {
		t.Fatalf("detail %+v %v", d.Task, err)
	}
	if d.Reports == nil || d.Injections == nil || d.Events == nil || d.Attachments == nil {
		t.Fatal("detail slices must be [] not null")
	}
	if len(d.Events) == 0 {
		t.Fatal("no events recorded")
	}
	md, err := svc.Export(a.ID)
	if err != nil || !strings.Contains(md, "a2") {
		t.Fatalf("export: %v", err)
	}
	imported, err := svc.Import(md, false)
	if err != nil || imported.Task.ID == a.ID || imported.Task.Prompt != "a2" || imported.Task.OriginID != a.ID || imported.Notes == nil {
		t.Fatalf("import: %+v %v", imported, err)
	}
	// The same file again is refused, in the user's words, unless asked for.
	if _, err := svc.Import(md, false); err == nil || err.Error() != fmt.Sprintf(`Task %q was already imported (as %s); nothing changed: import it again (--again) to make a second copy.`, a.ID, imported.Task.ID) {
		t.Fatalf("second import: %v", err)
	}
	if again, err := svc.Import(md, true); err != nil || again.Task.ID == imported.Task.ID {
		t.Fatalf("import again: %+v %v", again, err)
	}
	withKeys := strings.Replace(md, "status: pending", "status: ongoing\nowner: \"me\"", 1)
	noted, err := svc.Import(withKeys, true)
	if err != nil || noted.Task.Status != task.StatusStopped || len(noted.Notes) != 2 || noted.Notes[0] != `unknown key "owner" kept` {
		t.Fatalf("import with notes: %+v %v", noted, err)
	}
	if err := svc.Delete(b.ID, DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Get(b.ID); err == nil {
		t.Fatal("deleted task still there")
	}
	if _, err := svc.Retry(a.ID); err == nil {
		t.Fatal("retry of a pending task accepted")
	}
}

func TestCommandService(t *testing.T) {
	st := newTestStore(t)
	svc := NewCommandService(st, &RecordingEmitter{}, context.Background)
	if _, err := svc.Save(CommandInput{Name: "", Body: "x"}); err == nil {
		t.Fatal("empty name accepted")
	}
	c, err := svc.Save(CommandInput{Name: "tests", Body: "write tests"})
	if err != nil || c.ID != "tests" {
		t.Fatalf("save: %+v %v", c, err)
	}
	if _, err := svc.Save(CommandInput{Name: "tests", Body: "dup"}); err == nil {
		t.Fatal("duplicate name accepted")
	}
	if _, err := svc.Save(CommandInput{ID: "tests", Name: "testing", Body: "write more tests"}); err != nil {
		t.Fatal(err)
	}
	list, _ := svc.List()
	if len(list) != 1 || list[0].Name != "testing" || list[0].Body != "write more tests" {
		t.Fatalf("after rename: %+v", list)
	}
	if err := svc.Delete("testing"); err != nil {
		t.Fatal(err)
	}
	if list, _ := svc.List(); len(list) != 0 {
		t.Fatalf("after delete: %+v", list)
	}
}

func TestUserErrorNamesWhatIsMissing(t *testing.T) {
	st := newTestStore(t)
	svc := NewCommandService(st, &RecordingEmitter{}, context.Background)
	if err := svc.Delete("nope"); err == nil || err.Error() != `Command "nope" does not exist.` {
		t.Fatalf("got %v", err)
	}
}

func TestTaskServiceRefusesAnUnknownBaseRef(t *testing.T) {
	st := newTestStore(t)
	rec := &RecordingEmitter{}
	deps, repo := withRepo(t, st)
	svc := NewTaskService(st, rec, context.Background, deps)
	_, err := svc.Create(NewTaskInput{Prompt: "do it", Base: "no-such-branch", Runs: 1})
	if err == nil || err.Error() != `The base ref "no-such-branch" is not a branch or commit in `+repo+"." {
		t.Fatalf("unknown base: %v", err)
	}
	if got, _ := svc.List(ListFilter{}); len(got) != 0 || len(rec.Names()) != 0 {
		t.Fatalf("a refused task changed something: %v %v", got, rec.Names())
	}
	created, err := svc.Create(NewTaskInput{Prompt: "do it", Base: "main", Runs: 1})
	if err != nil || created.Base != "main" {
		t.Fatalf("known base: %+v %v", created, err)
	}
	if _, err := svc.Update(created.ID, TaskUpdate{Prompt: "do it", Runs: 1, Base: "nope"}); err == nil || !strings.Contains(err.Error(), `The base ref "nope" is not`) {
		t.Fatalf("update to an unknown base: %v", err)
	}
}
