package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/store"
)

// callsGolden is what the bound services answer to calls the window makes
// with bad (and a few good) inputs: the front end's component tests answer
// with these results and sentences (src/lib/backend/goldens.ts), and the
// contract browser flow replays every call through the Wails seam of the
// real app and expects the same (frontend/e2e/real/contract.mjs).
const callsGolden = "../frontend/src/lib/backend/calls-golden.json"

// goldenCall is one call of a bound method, its arguments as JSON values:
// "$N" stands for the id of what call N of the entry returned, "<repo>" for
// the working directory.
type goldenCall struct {
	Method string `json:"method"`
	Args   []any  `json:"args"`
}

// goldenEntry is a case: calls made in order (the first ones set it up), the
// fields of the last one's result that are recorded (none: all of it), and
// its outcome, {"ok": result} or {"err": sentence}, with the ids the backend
// made for the entry written <id> and the working directory <repo>.
type goldenEntry struct {
	Name    string         `json:"name"`
	Calls   []goldenCall   `json:"calls"`
	Keep    []string       `json:"keep,omitempty"`
	Outcome map[string]any `json:"outcome"`
}

func call(method string, args ...any) goldenCall { return goldenCall{method, args} }

// newTask is the New task form's input; over changes fields.
func newTask(over map[string]any) map[string]any {
	in := map[string]any{"title": "", "prompt": "Do the thing", "priority": 0, "base": "", "labels": []string{}, "runs": 1}
	for k, v := range over {
		in[k] = v
	}
	return in
}

func goldenCases() []goldenEntry {
	create := call("TaskService.Create", newTask(nil))
	nightly := map[string]any{"name": "Nightly", "cron": "30 2 * * *", "tz": "UTC", "task": newTask(map[string]any{"prompt": "Update deps"})}
	importFile := func(id string) string {
		return "---\nid: " + id + "\ntitle: Retry flaky uploads\nstatus: done\ncompletedRuns: 1\nassignee: dana\n---\n\n## Prompt\n\nRetry the upload up to 3 times.\n"
	}
	return []goldenEntry{
		{Name: "create: a pending task with what was sent", Calls: []goldenCall{call("TaskService.Create", newTask(map[string]any{"title": " Ship it ", "prompt": "Ship the release", "priority": 2, "labels": []string{"release"}, "runs": 2}))},
			Keep: []string{"title", "prompt", "status", "priority", "labels", "runs", "completed_runs", "skip"}},
		{Name: "create: empty prompt", Calls: []goldenCall{call("TaskService.Create", newTask(map[string]any{"prompt": "   "}))}},
		{Name: "create: negative runs", Calls: []goldenCall{call("TaskService.Create", newTask(map[string]any{"runs": -1}))}},
		{Name: "create: unknown base ref", Calls: []goldenCall{call("TaskService.Create", newTask(map[string]any{"base": "no-such-branch"}))}},
		{Name: "create: an unknown command template", Calls: []goldenCall{call("TaskService.Create", newTask(map[string]any{"command": "tests"}))}},
		{Name: "create: in a cluster the settings do not name", Calls: []goldenCall{call("TaskService.Create", newTask(map[string]any{"executor": "kubernetes"}))}},
		{Name: "get: unknown task", Calls: []goldenCall{call("TaskService.Get", "0000000000000000")}},
		{Name: "update: the prompt cannot be emptied", Calls: []goldenCall{create,
			call("TaskService.Update", "$0", map[string]any{"title": "", "prompt": " ", "labels": []string{}, "priority": 0, "runs": 1, "base": "", "command": "", "tools": map[string]any{}})}},
		{Name: "answer: a task with no questions", Calls: []goldenCall{create, call("TaskService.Answer", "$0", "Yes")}},
		{Name: "answer: empty", Calls: []goldenCall{create, call("TaskService.Answer", "$0", "  ")}},
		{Name: "import: malformed markdown", Calls: []goldenCall{call("TaskService.Import", "hello", false)}},
		{Name: "import: unknown keys are kept and noted", Calls: []goldenCall{call("TaskService.Import", importFile("2025-10-02-notes"), false)}, Keep: []string{"notes"}},
		{Name: "import: the same file twice", Calls: []goldenCall{call("TaskService.Import", importFile("2025-10-03-retry-flaky-upload"), false), call("TaskService.Import", importFile("2025-10-03-retry-flaky-upload"), false)}},
		{Name: "reorder: an unknown task", Calls: []goldenCall{call("TaskService.Reorder", []string{"0000000000000000"})}},
		{Name: "skip: a pending task", Calls: []goldenCall{create, call("TaskService.SetSkip", "$0", true)}, Keep: []string{"skip", "status"}},
		{Name: "stop: a task that is not running", Calls: []goldenCall{create, call("RunService.Stop", "$0")}},
		{Name: "inject: empty text", Calls: []goldenCall{create, call("RunService.Inject", "$0", "  ")}},
		{Name: "resume: a tool that is not paused", Calls: []goldenCall{call("RunService.ResumeTool", "claude-code")}},
		{Name: "usage: range reversed", Calls: []goldenCall{call("SettingsService.Usage", map[string]any{"from": "2026-12-31", "to": "2026-01-01"})}},
		{Name: "usage: not a date", Calls: []goldenCall{call("SettingsService.Usage", map[string]any{"from": "yesterday", "to": "2026-01-01"})}},
		{Name: "usage: over a year", Calls: []goldenCall{call("SettingsService.Usage", map[string]any{"from": "2024-01-01", "to": "2026-01-01"})}},
		{Name: "usage: one row per day", Calls: []goldenCall{call("SettingsService.Usage", map[string]any{"from": "2026-01-01", "to": "2026-01-03"})}, Keep: []string{"by_day"}},
		{Name: "tools: an unknown tool", Calls: []goldenCall{call("SettingsService.TestTool", "nope")}},
		{Name: "commands: a name with a space", Calls: []goldenCall{call("CommandService.Save", map[string]any{"id": "", "name": "Add tests", "body": "x"})}},
		{Name: "commands: empty body", Calls: []goldenCall{call("CommandService.Save", map[string]any{"id": "", "name": "add-tests", "body": " "})}},
		{Name: "commands: a duplicate name", Calls: []goldenCall{call("CommandService.Save", map[string]any{"id": "", "name": "add-tests", "body": "one"}),
			call("CommandService.Save", map[string]any{"id": "", "name": "add-tests", "body": "two"})}},
		{Name: "schedule preview: weekdays at 02:00 in words", Calls: []goldenCall{call("ScheduleService.Preview", "0 2 * * 1-5", "Europe/Berlin")}, Keep: []string{"text", "tz"}},
		{Name: "schedule preview: four fields", Calls: []goldenCall{call("ScheduleService.Preview", "0 2 * *", "")}},
		{Name: "schedule preview: minute out of range", Calls: []goldenCall{call("ScheduleService.Preview", "61 * * * *", "UTC")}},
		{Name: "schedule preview: hour out of range", Calls: []goldenCall{call("ScheduleService.Preview", "0 25 * * *", "UTC")}},
		{Name: "schedule preview: unknown zone", Calls: []goldenCall{call("ScheduleService.Preview", "0 2 * * *", "Mars/Olympus")}},
		{Name: "schedule preview: empty", Calls: []goldenCall{call("ScheduleService.Preview", "", "")}},
		{Name: "schedule preview: an interval of zero", Calls: []goldenCall{call("ScheduleService.Preview", "@every 0s", "")}},
		{Name: "schedule preview: a negative interval", Calls: []goldenCall{call("ScheduleService.Preview", "@every -5m", "UTC")}},
		{Name: "schedule create: an interval under a minute", Calls: []goldenCall{call("ScheduleService.Create", map[string]any{"name": "", "cron": "@every 30s", "tz": "UTC", "task": newTask(nil)})}},
		{Name: "schedule: run now is refused while paused", Calls: []goldenCall{call("ScheduleService.Create", nightly), call("ScheduleService.SetPaused", "$0", true), call("ScheduleService.RunNow", "$0")}},
		{Name: "schedule: a bad edit", Calls: []goldenCall{call("ScheduleService.Create", nightly),
			call("ScheduleService.Update", "$0", map[string]any{"name": "X", "cron": "0 25 * * *", "tz": "UTC", "task": newTask(nil)})}},
		{Name: "schedule: the log of a deleted schedule", Calls: []goldenCall{call("ScheduleService.Create", nightly), call("ScheduleService.Delete", "$0"), call("ScheduleService.Log", "$0")}},
		{Name: "schedule: a repeat with a start time", Calls: []goldenCall{call("ScheduleService.Create", map[string]any{"name": "", "cron": "@daily", "tz": "", "task": newTask(map[string]any{"not_before": "2030-01-01T00:00:00Z"})})}},
		{Name: "merge queue: a task that is not done", Calls: []goldenCall{create, call("MergeQueueService.Add", "$0", map[string]any{"target": "", "strategy": ""})}},
		{Name: "merge queue: a bad strategy", Calls: []goldenCall{create, call("MergeQueueService.Add", "$0", map[string]any{"target": "", "strategy": "sideways"})}},
		{Name: "merge queue: an unknown task", Calls: []goldenCall{call("MergeQueueService.Add", "0000000000000000", map[string]any{"target": "", "strategy": ""})}},
		{Name: "merge queue: remove a task that is not queued", Calls: []goldenCall{create, call("MergeQueueService.Remove", "$0")}},
		{Name: "merge queue: send back a task that is not queued", Calls: []goldenCall{create, call("MergeQueueService.SendBack", "$0")}},
		{Name: "verify: an empty command", Calls: []goldenCall{call("VerifyService.Set", "<repo>", "   ")}},
		{Name: "verify: unset where none is set", Calls: []goldenCall{call("VerifyService.Unset", "<repo>")}},
	}
}

// goldenWorld is a data root and a working directory as the window starts
// on them (the runner not running), and its bound services by name. Every
// case runs in one world, in order, as the browser flow replays them in one
// app: a case must not depend on what an earlier one left.
type goldenWorld struct {
	repo     string
	services map[string]reflect.Value
}

func newGoldenWorld(t *testing.T) *goldenWorld {
	t.Helper()
	repo, paths := newRepoAndRoot(t)
	if err := os.WriteFile(paths.Settings(), []byte(`{"workingDirectory": "`+repo+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background
	st, err := store.Open(ctx(), paths.Database(), store.Options{AttachmentsDir: paths.Attachments()})
	if err != nil {
		t.Fatal(err)
	}
	rec := &RecordingEmitter{}
	live := NewLiveOutput(rec, secrets.Scrub, time.Now, 0)
	h, err := host.Open(ctx(), host.Options{Paths: paths, Store: st, Exe: os.Args[0], Hooks: PipelineHooks(live, rec, nil), Poll: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(); live.Close(); st.Close() })
	g := h.Git
	workDir := func() string { return repo }
	tools := func() []agent.Tool { return h.Tools.Tools() }
	in := h.Intake
	svcs := map[string]any{
		"TaskService":       NewTaskService(st, rec, ctx, TaskDeps{WorkDir: workDir, Wake: h.Runner.Wake, Intake: in}),
		"RunService":        NewRunService(st, LocalRunner(h.Runner), h.Settings, live, rec, ctx),
		"CommandService":    NewCommandService(st, rec, ctx),
		"SettingsService":   NewSettingsService(h.Settings, st, tools, rec, ctx, nil, nil),
		"ScheduleService":   NewScheduleService(st, rec, ctx, ScheduleDeps{Intake: in, Wake: h.Runner.Wake}),
		"MergeQueueService": NewMergeQueueService(h.Queue, st, rec, ctx, h.Runner.Wake),
		"VerifyService":     NewVerifyService(g, st, rec, ctx, workDir),
	}
	w := &goldenWorld{repo: repo, services: map[string]reflect.Value{}}
	for name, s := range svcs {
		w.services[name] = reflect.ValueOf(s)
	}
	return w
}

// invoke calls a bound method as Wails does: each argument decoded from
// JSON into the parameter's type; an error is its message.
func (w *goldenWorld) invoke(c goldenCall) (any, error) {
	service, method, _ := strings.Cut(c.Method, ".")
	svc, ok := w.services[service]
	if !ok {
		return nil, fmt.Errorf("no service %s", service)
	}
	m := svc.MethodByName(method)
	if !m.IsValid() || m.Type().NumIn() != len(c.Args) {
		return nil, fmt.Errorf("no method %s taking %d arguments", c.Method, len(c.Args))
	}
	in := make([]reflect.Value, len(c.Args))
	for i, a := range c.Args {
		b, _ := json.Marshal(a)
		p := reflect.New(m.Type().In(i))
		if err := json.Unmarshal(b, p.Interface()); err != nil {
			return nil, fmt.Errorf("argument %d of %s: %w", i, c.Method, err)
		}
		in[i] = p.Elem()
	}
	out := m.Call(in)
	if err, _ := out[len(out)-1].Interface().(error); err != nil {
		return nil, &callError{err.Error()}
	}
	if len(out) == 1 {
		return nil, nil
	}
	var v any
	b, _ := json.Marshal(out[0].Interface())
	return v, json.Unmarshal(b, &v)
}

// callError is the error a bound method returned (not a failure to call it).
type callError struct{ msg string }

func (e *callError) Error() string { return e.msg }

// run makes an entry's calls and returns its outcome.
func (w *goldenWorld) run(e goldenEntry) (map[string]any, error) {
	var ids, made []string // ids by call; the ones the backend made (not given in the call)
	var res any
	var err error
	for _, c := range e.Calls {
		c.Args = substitute(c.Args, ids, w.repo).([]any)
		res, err = w.invoke(c)
		var ce *callError
		if err != nil && !errors.As(err, &ce) {
			return nil, err
		}
		id := idOf(res)
		ids = append(ids, id)
		if b, _ := json.Marshal(c.Args); id != "" && !strings.Contains(string(b), `"`+id+`"`) {
			made = append(made, id)
		}
	}
	norm := func(s string) string {
		for _, id := range made {
			s = strings.ReplaceAll(s, id, "<id>")
		}
		return strings.ReplaceAll(s, w.repo, "<repo>")
	}
	if err != nil {
		return map[string]any{"err": norm(err.Error())}, nil
	}
	if obj, ok := res.(map[string]any); ok && len(e.Keep) > 0 {
		kept := map[string]any{}
		for _, k := range e.Keep {
			kept[k] = obj[k]
		}
		res = kept
	}
	b, _ := json.Marshal(res)
	var out any
	json.Unmarshal([]byte(norm(string(b))), &out)
	return map[string]any{"ok": out}, nil
}

// idOf is the id of what a call returned: its id, or its task's.
func idOf(res any) string {
	obj, _ := res.(map[string]any)
	if id, ok := obj["id"].(string); ok {
		return id
	}
	if t, ok := obj["task"].(map[string]any); ok {
		id, _ := t["id"].(string)
		return id
	}
	return ""
}

// substitute replaces "$N" with the id call N returned and "<repo>" with
// the working directory, anywhere in v.
func substitute(v any, ids []string, repo string) any {
	switch x := v.(type) {
	case string:
		if x == "<repo>" {
			return repo
		}
		var n int
		if _, err := fmt.Sscanf(x, "$%d", &n); err == nil && n < len(ids) {
			return ids[n]
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = substitute(x[i], ids, repo)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = substitute(e, ids, repo)
		}
		return out
	}
	return v
}

// TestCallsGoldenIsCurrent: the outcomes of the golden calls are what the
// services answer now (go test ./app -run Golden -update rewrites them;
// make contract does, and fails on a difference from what is committed).
func TestCallsGoldenIsCurrent(t *testing.T) {
	var want []goldenEntry
	w := newGoldenWorld(t)
	for _, e := range goldenCases() {
		b, _ := json.Marshal(e.Calls) // the arguments as JSON values, as the golden holds them
		json.Unmarshal(b, &e.Calls)
		out, err := w.run(e)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		e.Outcome = out
		want = append(want, e)
	}
	checkGolden(t, callsGolden, want)
}

// checkGolden writes want to the golden file at path with -update, then
// fails unless the file holds want (both as read back from JSON).
func checkGolden[T any](t *testing.T, path string, want T) {
	t.Helper()
	b, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if *updateGolden {
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got, w T
	if err := json.Unmarshal(file, &got); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &w)
	if !reflect.DeepEqual(got, w) {
		t.Fatalf("%s is out of date: run go test ./app -run Golden -update", path)
	}
}
