package app

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// finish runs a new task through the queue to status to (done tasks get a
// branch, as the runner gives them).
func finish(t *testing.T, st *store.Store, title string, to task.Status) string {
	t.Helper()
	ctx := context.Background()
	tk, err := st.CreateTask(ctx, task.NewTask{Title: title, Prompt: "do " + title})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Claim(ctx, tk.ID, store.ClaimInfo{Runner: "test", Role: task.RolePlanner, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	if to == task.StatusOngoing {
		return tk.ID
	}
	if _, err := st.Transition(ctx, tk.ID, to, store.TransitionNote{Branch: "boof-runner/" + tk.ID}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond) // distinct finish times
	return tk.ID
}

func opened(rec *RecordingEmitter) []UIRequest {
	var out []UIRequest
	for _, p := range rec.PayloadsOf(EventUIOpen) {
		out = append(out, p[0].(UIRequest))
	}
	return out
}

func TestNavigatorQueuesUntilTheFrontEndIsReady(t *testing.T) {
	rec := &RecordingEmitter{}
	var logs bytes.Buffer
	nav := NewNavigator(newTestStore(t), rec, context.Background, slog.New(slog.NewTextHandler(&logs, nil)))
	nav.Open(UIRequest{View: ViewReview})
	nav.Open(UIRequest{View: ViewNewTask}) // the newest pending request wins
	if len(rec.Names()) != 0 {
		t.Fatalf("emitted before the front end was ready: %v", rec.Names())
	}
	svc := NewNavService(nav)
	got, err := svc.Ready()
	if err != nil || len(got) != 1 || got[0].View != ViewNewTask || got[0].Seq != 2 {
		t.Fatalf("pending %+v %v", got, err)
	}
	if again, _ := svc.Ready(); len(again) != 0 { // a reload gets nothing twice
		t.Fatalf("pending twice: %+v", again)
	}
	nav.Open(UIRequest{View: ViewWindow})
	if o := opened(rec); len(o) != 1 || o[0].Seq != 3 {
		t.Fatalf("after ready: %+v", o)
	}
	svc.Shown(3, string(ViewWindow))
	if c := strings.Count(logs.String(), "window: first paint"); c != 1 {
		t.Fatalf("first paint logged %d times:\n%s", c, logs.String())
	}
	if !strings.Contains(logs.String(), `msg="window: shown" seq=3`) {
		t.Fatalf("no shown line:\n%s", logs.String())
	}
}

func TestNavigatorReviewAndTask(t *testing.T) {
	st := newTestStore(t)
	rec := &RecordingEmitter{}
	nav := NewNavigator(st, rec, context.Background, nil)
	NewNavService(nav).Ready()

	if r := nav.Review(""); r.TaskID != "" || r.Message != "" {
		t.Fatalf("empty queue: %+v", r)
	}
	older := finish(t, st, "older", task.StatusDone)
	newer := finish(t, st, "newer", task.StatusDone)
	failed := finish(t, st, "broken", task.StatusFailed)
	asking := finish(t, st, "asking", task.StatusOngoing)
	if err := st.SetQuestions(context.Background(), asking, []string{"Which?"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Transition(context.Background(), asking, task.StatusActions, store.TransitionNote{}); err != nil {
		t.Fatal(err)
	}
	pending, _ := st.CreateTask(context.Background(), task.NewTask{Title: "later", Prompt: "p"})

	cases := []struct {
		name string
		got  UIRequest
		want UIRequest
	}{
		{"oldest waiting for review", nav.Review(""), UIRequest{View: ViewReview, TaskID: older}},
		{"a named task", nav.Review(newer), UIRequest{View: ViewReview, TaskID: newer}},
		{"an unknown id", nav.Review("nope"), UIRequest{View: ViewReview, Message: `Task "nope" does not exist.`}},
		{"nothing to review yet", nav.Review(pending.ID), UIRequest{View: ViewReview, Message: `"later" has nothing to review yet: it is pending.`}},
		{"needs an answer", nav.Task(asking), UIRequest{View: ViewActions, TaskID: asking}},
		{"finished", nav.Task(newer), UIRequest{View: ViewReview, TaskID: newer}},
		{"failed", nav.Task(failed), UIRequest{View: ViewTask, TaskID: failed}},
		{"unknown task", nav.Task("gone"), UIRequest{View: ViewReview, Message: `Task "gone" does not exist.`}},
	}
	for _, c := range cases {
		c.got.Seq = 0
		if c.got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, c.got, c.want)
		}
	}
	if n := len(opened(rec)); n != 1+len(cases) {
		t.Fatalf("%d ui:open events, want %d", n, 1+len(cases))
	}
}
