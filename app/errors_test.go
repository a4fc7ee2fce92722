package app

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
)

// driveTo creates a task and moves it to status through legal changes.
func driveTo(t *testing.T, st *store.Store, path ...task.Status) string {
	t.Helper()
	ctx := context.Background()
	tk, err := st.CreateTask(ctx, task.NewTask{Prompt: "p"})
	if err != nil {
		t.Fatal(err)
	}
	for _, to := range path {
		if to == task.StatusOngoing {
			_, err = st.Claim(ctx, tk.ID, store.ClaimInfo{Role: task.RolePlanner})
		} else {
			_, err = st.Transition(ctx, tk.ID, to, store.TransitionNote{})
		}
		if err != nil {
			t.Fatalf("to %s: %v", to, err)
		}
	}
	return tk.ID
}

// TestTaskServiceErrorsSayWhatTheCLISays: the bound services show the
// messages of backend/usererr, the same lines the CLI prints (see
// backend/cli/errors_test.go), and a refusal changes nothing.
func TestTaskServiceErrorsSayWhatTheCLISays(t *testing.T) {
	st := newTestStore(t)
	rec := &RecordingEmitter{}
	svc := NewTaskService(st, rec, context.Background, TaskDeps{})
	done := driveTo(t, st, task.StatusOngoing, task.StatusDone)
	archived := driveTo(t, st, task.StatusOngoing, task.StatusFailed, task.StatusArchived)
	ongoing := driveTo(t, st, task.StatusOngoing)
	pending := driveTo(t, st)
	cases := []struct {
		name string
		call func() error
		code usererr.Code
		msg  string
	}{
		{"unknown task", func() error { _, err := svc.Get("0000000000000000"); return err },
			usererr.NotFound, `Task "0000000000000000" does not exist.`},
		{"retry a done task", func() error { _, err := svc.Retry(done); return err },
			usererr.WrongStatus, "This task is done: only failed or stopped tasks can be retried."},
		{"archive an archived task", func() error { _, err := svc.Archive(archived); return err },
			usererr.IllegalTransition, "This task is already archived."},
		{"archive an ongoing task", func() error { _, err := svc.Archive(ongoing); return err },
			usererr.IllegalTransition, "This task is ongoing: stop it before you archive it."},
		{"delete an ongoing task", func() error { return svc.Delete(ongoing, DeleteOptions{DeleteBranches: true}) },
			usererr.WrongStatus, "This task is ongoing: stop it before you delete it."},
		{"reorder a done task", func() error { return svc.Reorder([]string{pending, done}) },
			usererr.WrongStatus, "This task is done: only pending tasks can be reordered."},
		{"answer a pending task", func() error { _, err := svc.Answer(pending, "blue"); return err },
			usererr.WrongStatus, "This task is pending and has no questions to answer."},
		{"remove a missing attachment", func() error { _, err := svc.RemoveAttachment(pending, "spec.txt"); return err },
			usererr.NotFound, `Attachment "spec.txt" does not exist.`},
		{"invalid input", func() error { _, err := svc.Create(NewTaskInput{Prompt: "  "}); return err },
			usererr.InvalidInput, "Prompt is empty."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			var ue *usererr.Error
			if !errors.As(err, &ue) || err.Error() != c.msg || ue.Code != c.code {
				t.Fatalf("got %v (%T), want %s %q", err, err, c.code, c.msg)
			}
		})
	}
	if len(rec.Names()) != 0 {
		t.Fatalf("events emitted on refusals: %v", rec.Names())
	}
	for id, want := range map[string]task.Status{done: task.StatusDone, archived: task.StatusArchived, ongoing: task.StatusOngoing, pending: task.StatusPending} {
		if got, _ := st.GetTask(context.Background(), id); got.Status != want {
			t.Fatalf("%s: status %s, want %s", id, got.Status, want)
		}
	}
}

// TestSettingsSaveNamesEveryInvalidField: two bad fields come back as two
// field errors by their UI paths, each one sentence, and nothing is written.
func TestSettingsSaveNamesEveryInvalidField(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	const content = `{"review":{"maxFixRounds":3}}`
	os.WriteFile(path, []byte(content), 0o600)
	rec := &RecordingEmitter{}
	svc := NewSettingsService(settings.NewFile(path, host.Catalog()), newTestStore(t), nil, rec, context.Background, nil, nil)
	cur, err := svc.Get()
	if err != nil || cur.LoadError != "" {
		t.Fatalf("get: %+v %v", cur, err)
	}
	v := cur.Settings
	v.Concurrency = 0
	v.Worktree.OnDone = "trash"
	v.Retries.IdleTimeoutMs = 5
	res, err := svc.Save(v)
	if err != nil || res.Saved {
		t.Fatalf("save: %+v %v", res, err)
	}
	want := []FieldError{
		{Path: "concurrency", Message: "Must be between 1 and 32 (got 0)."},
		{Path: "worktree.on_done", Message: `Must be keep-branch, keep or delete (got "trash").`},
		{Path: "retries.idle_timeout_ms", Message: "Must be between 100 and 86400000 (got 5)."},
	}
	if !reflect.DeepEqual(res.Errors, want) {
		t.Fatalf("errors %+v\nwant %+v", res.Errors, want)
	}
	if res.Settings.Concurrency != 1 {
		t.Fatalf("settings shown %+v, want the stored ones", res.Settings)
	}
	if b, _ := os.ReadFile(path); string(b) != content || len(rec.Names()) != 0 {
		t.Fatalf("file %s, events %v", b, rec.Names())
	}
}

// TestSettingsLoadErrorNamesEveryBadKey: a hand-edited file with two bad
// keys is reported once, naming both, and the app runs on defaults.
func TestSettingsLoadErrorNamesEveryBadKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"runner":{"concurrency":0},"worktree":{"onDone":"trash"}}`), 0o600)
	svc := NewSettingsService(settings.NewFile(path, host.Catalog()), newTestStore(t), nil, &RecordingEmitter{}, context.Background, nil, nil)
	res, err := svc.Get()
	if err != nil {
		t.Fatal(err)
	}
	want := `Invalid settings: runner.concurrency must be between 1 and 32 (got 0); worktree.onDone must be keep-branch, keep or delete (got "trash") — using defaults until you save.`
	if res.LoadError != want || res.Settings.Concurrency != 1 || res.Settings.Worktree.OnDone != "keep-branch" {
		t.Fatalf("load error %q\nwant %q\nsettings %+v", res.LoadError, want, res.Settings)
	}
	if strings.Count(res.LoadError, "\n") != 0 {
		t.Fatal("load error spans lines")
	}
}

var updateGolden = flag.Bool("update", false, "rewrite the goldens the front end's component tests answer with")

// settingsGolden is where the front end's stubs take the Settings screen's
// field errors (and Go's default settings) from (frontend/src/lib/backend/goldens.ts).
const settingsGolden = "../frontend/src/lib/backend/settings-golden.json"

type settingsCase struct {
	Settings SettingsView `json:"settings"`
	Errors   []FieldError `json:"errors"`
}

// TestSettingsGoldenIsCurrent: the field errors Save gives for a set of
// edited forms (go test ./app -run SettingsGolden -update rewrites them).
func TestSettingsGoldenIsCurrent(t *testing.T) {
	svc := NewSettingsService(settings.NewFile(filepath.Join(t.TempDir(), "settings.json"), host.Catalog()), newTestStore(t), nil, &RecordingEmitter{}, context.Background, nil, nil)
	cur, err := svc.Get()
	if err != nil {
		t.Fatal(err)
	}
	edits := []func(v *SettingsView){
		func(v *SettingsView) {},
		func(v *SettingsView) { v.Concurrency, v.Retries.IdleTimeoutMs = 99, 5 },
		func(v *SettingsView) {
			v.Concurrency, v.Worktree.OnDone, v.Worktree.OnFailure = 0, "trash", "x"
			v.Review.MaxFixRounds, v.Review.MaxInlineDiffBytes, v.Retries.Transient = 51, 0, 21
			v.Retries.BackoffMs, v.Stop.GraceMs = []int64{}, -1
		},
		func(v *SettingsView) {
			v.WorkingDirectory, v.Roles.Developer.Tool, v.Roles.Planner.Model = "rel/dir", "gpt", "a\nb"
			v.Roles.Observer = &RoleChoice{ToolChoice: ToolChoice{Tool: "nope"}}
			v.Retries.BackoffMs = []int64{10, -5, 90000000}
		},
		func(v *SettingsView) {
			v.WorkingDirectory, v.Roles.Observer = "~/src", &RoleChoice{ToolChoice: ToolChoice{Tool: "codex", Model: "gpt-5"}}
		},
		func(v *SettingsView) {
			usd := -5.0
			v.Budgets.Daily, v.Breakers.RepeatFailures = &LimitView{USD: &usd, Mode: "warn"}, 1
		},
		func(v *SettingsView) { v.Limits = LimitsView{OnLimit: "later", SwitchOrder: []string{"codex", "vim"}} },
		func(v *SettingsView) {
			v.Limits = LimitsView{OnLimit: "switch", SwitchOrder: []string{"gemini", "mock", "gemini"}}
		},
		func(v *SettingsView) {
			v.Limits = LimitsView{OnLimit: "switch", SwitchOrder: []string{"gemini", "claude-code"}}
		},
	}
	var want []settingsCase
	for _, edit := range edits {
		v := cur.Settings
		v.Retries.BackoffMs = append([]int64(nil), v.Retries.BackoffMs...)
		edit(&v)
		c := settingsCase{Settings: v, Errors: []FieldError{}}
		b, _ := json.Marshal(v) // Save may keep the slice it was given
		res, err := svc.Save(v)
		if err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(b, &c.Settings)
		c.Errors = res.Errors
		want = append(want, c)
	}
	checkGolden(t, settingsGolden, want)
}
