package shell

import (
	"bytes"
	"context"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/godbus/dbus/v5"
)

// notifyServer is a minimal org.freedesktop.Notifications server (an edge
// we do not own): it records every Notify call.
type notifyServer struct {
	caps []string
	conn *dbus.Conn

	mu    sync.Mutex
	calls []notifyCall
}

type notifyCall struct {
	ID                 uint32
	App, Summary, Body string
	Actions            []string
	Hints              map[string]dbus.Variant
}

func (s *notifyServer) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := uint32(len(s.calls) + 1)
	s.calls = append(s.calls, notifyCall{ID: id, App: app, Summary: summary, Body: body, Actions: actions, Hints: hints})
	return id, nil
}

// click is the user clicking notification id: the server signals
// ActionInvoked with the default action, as notification daemons do.
func (s *notifyServer) click(t *testing.T, id uint32) {
	t.Helper()
	if err := s.conn.Emit(notifyPath, notifyName+".ActionInvoked", id, "default"); err != nil {
		t.Fatal(err)
	}
}

func (s *notifyServer) GetCapabilities() ([]string, *dbus.Error) { return s.caps, nil }

func (s *notifyServer) GetServerInformation() (name, vendor, version, spec string, err *dbus.Error) {
	return "fake", "boof-runner tests", "1", "1.2", nil
}

func (s *notifyServer) recorded() []notifyCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]notifyCall(nil), s.calls...)
}

func (s *notifyServer) summaries() []string {
	var out []string
	for _, c := range s.recorded() {
		out = append(out, c.Summary)
	}
	slices.Sort(out)
	return out
}

func startNotifyServer(t *testing.T, addr string, caps ...string) *notifyServer {
	t.Helper()
	conn := connectBus(t, addr)
	s := &notifyServer{caps: caps, conn: conn}
	if err := conn.Export(s, notifyPath, notifyName); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(notifyName, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v %v", notifyName, reply, err)
	}
	return s
}

// lifecycle drives real store tasks through the statuses the runner sets.
type lifecycle struct {
	t  testing.TB
	st *store.Store
}

func (l lifecycle) create(title string) string {
	l.t.Helper()
	tk, err := l.st.CreateTask(context.Background(), task.NewTask{Title: title, Prompt: "do " + title})
	if err != nil {
		l.t.Fatal(err)
	}
	return tk.ID
}

func (l lifecycle) claim(id string) {
	l.t.Helper()
	if _, err := l.st.Claim(context.Background(), id, store.ClaimInfo{Runner: "test", Role: task.RolePlanner, Tool: "mock"}); err != nil {
		l.t.Fatal(err)
	}
}

func (l lifecycle) to(id string, s task.Status, errText string) {
	l.t.Helper()
	if _, err := l.st.Transition(context.Background(), id, s, store.TransitionNote{Error: errText}); err != nil {
		l.t.Fatal(err)
	}
}

func (l lifecycle) ask(id, question string) {
	l.t.Helper()
	if err := l.st.SetQuestions(context.Background(), id, []string{question}); err != nil {
		l.t.Fatal(err)
	}
	l.to(id, task.StatusActions, "")
}

func check(t *testing.T, n *Notifier) {
	t.Helper()
	if err := n.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestNotifierAnnouncesEachTransitionOnce(t *testing.T) {
	addr := startSessionBus(t)
	srv := startNotifyServer(t, addr, "body", "body-markup")
	st := newTestStore(t)
	l := lifecycle{t, st}
	old := l.create("old work")
	l.claim(old)
	l.to(old, task.StatusDone, "")
	a, b, c := l.create("alpha"), l.create("beta"), l.create("gamma")

	n := NewNotifier(st, NotifierOptions{})
	t.Cleanup(n.Close)
	check(t, n)
	if got := srv.recorded(); len(got) != 0 {
		t.Fatalf("start-up notified old tasks: %+v", got)
	}
	for _, id := range []string{a, b, c} {
		l.claim(id)
	}
	check(t, n)
	l.to(a, task.StatusDone, "")
	l.to(b, task.StatusFailed, "boom <b>&\nstack line")
	l.ask(c, "Which database?")
	check(t, n)
	check(t, n)
	want := []string{"Task failed: beta", "Task finished: alpha", "Task needs an answer: gamma"}
	if got := srv.summaries(); !slices.Equal(got, want) {
		t.Fatalf("summaries %q, want %q", got, want)
	}
	bodies := map[string]string{}
	for _, call := range srv.recorded() {
		bodies[call.Summary] = call.Body
		if call.App != "Boof Runner" || call.Hints["desktop-entry"].Value() != "boof-runner" {
			t.Fatalf("call %+v", call)
		}
	}
	if bodies["Task failed: beta"] != "boom &lt;b&gt;&amp;" || bodies["Task needs an answer: gamma"] != "Which database?" {
		t.Fatalf("bodies %q", bodies)
	}

	// Archiving and unarchiving a finished task is no new finish.
	if _, err := st.Archive(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	check(t, n)
	if _, err := st.Unarchive(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	check(t, n)
	// Answered and asked again: a new transition, announced again.
	if _, err := st.Answer(context.Background(), c, "Postgres"); err != nil {
		t.Fatal(err)
	}
	l.claim(c)
	l.ask(c, "Which version?")
	// A task that runs its whole life between two checks is still seen.
	d := l.create("delta")
	l.claim(d)
	l.to(d, task.StatusDone, "")
	check(t, n)
	want = []string{"Task failed: beta", "Task finished: alpha", "Task finished: delta", "Task needs an answer: gamma", "Task needs an answer: gamma"}
	if got := srv.summaries(); !slices.Equal(got, want) {
		t.Fatalf("summaries %q, want %q", got, want)
	}
}

func TestNotifierSettingOffSendsNothingAndReplaysNothing(t *testing.T) {
	addr := startSessionBus(t)
	srv := startNotifyServer(t, addr, "body")
	st := newTestStore(t)
	l := lifecycle{t, st}
	var on atomic.Bool
	n := NewNotifier(st, NotifierOptions{Enabled: on.Load})
	t.Cleanup(n.Close)
	a, b := l.create("alpha"), l.create("beta")
	check(t, n)
	l.claim(a)
	l.to(a, task.StatusDone, "")
	check(t, n)
	on.Store(true)
	check(t, n)
	if got := srv.recorded(); len(got) != 0 {
		t.Fatalf("notified while off (or replayed): %+v", got)
	}
	l.claim(b)
	l.to(b, task.StatusFailed, "exit status 1")
	check(t, n)
	if got := srv.summaries(); !slices.Equal(got, []string{"Task failed: beta"}) {
		t.Fatalf("summaries %q", got)
	}
}

func TestNotifierWithoutServerLogsOnceAndRecovers(t *testing.T) {
	addr := startSessionBus(t)
	st := newTestStore(t)
	l := lifecycle{t, st}
	var logs bytes.Buffer
	n := NewNotifier(st, NotifierOptions{Log: slog.New(slog.NewTextHandler(&logs, nil))})
	t.Cleanup(n.Close)
	ids := []string{l.create("one"), l.create("two"), l.create("three")}
	check(t, n)
	for _, id := range ids[:2] {
		l.claim(id)
		l.to(id, task.StatusDone, "")
		check(t, n)
	}
	if c := strings.Count(logs.String(), "desktop notifications unavailable"); c != 1 {
		t.Fatalf("logged %d times:\n%s", c, logs.String())
	}
	srv := startNotifyServer(t, addr, "body")
	l.claim(ids[2])
	l.to(ids[2], task.StatusDone, "")
	check(t, n)
	if got := srv.summaries(); !slices.Equal(got, []string{"Task finished: three"}) {
		t.Fatalf("after the server appeared: %q", got)
	}
}

func TestNotifierWithoutSessionBus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+t.TempDir()+"/no-bus")
	st := newTestStore(t)
	l := lifecycle{t, st}
	var logs bytes.Buffer
	n := NewNotifier(st, NotifierOptions{Log: slog.New(slog.NewTextHandler(&logs, nil))})
	t.Cleanup(n.Close)
	id := l.create("one")
	check(t, n)
	l.claim(id)
	l.to(id, task.StatusFailed, "x")
	check(t, n)
	if !strings.Contains(logs.String(), "desktop notifications unavailable") {
		t.Fatalf("no log line: %q", logs.String())
	}
}

// BenchmarkNotifierCheck is the cost of one transition check over a
// 1,000-task store with nothing to announce (the steady state).
func BenchmarkNotifierCheck(b *testing.B) {
	run, _ := seedQueue(b, 1000)
	n := NewNotifier(run.st, NotifierOptions{})
	defer n.Close()
	ctx := context.Background()
	for b.Loop() {
		if err := n.Check(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func TestNotifierClickOpensTheTask(t *testing.T) {
	addr := startSessionBus(t)
	srv := startNotifyServer(t, addr, "body", "actions")
	st := newTestStore(t)
	l := lifecycle{t, st}
	var mu sync.Mutex
	var opened []string
	n := NewNotifier(st, NotifierOptions{Open: func(id string) {
		mu.Lock()
		opened = append(opened, id)
		mu.Unlock()
	}})
	t.Cleanup(n.Close)
	done, asking := l.create("finished"), l.create("asking")
	check(t, n)
	l.claim(done)
	l.claim(asking)
	l.to(done, task.StatusDone, "")
	l.ask(asking, "Which one?")
	check(t, n)
	calls := srv.recorded()
	if len(calls) != 2 {
		t.Fatalf("calls %+v", calls)
	}
	ids := map[string]uint32{}
	for _, c := range calls {
		if !slices.Equal(c.Actions, []string{"default", "Open"}) {
			t.Fatalf("actions %q: a click would do nothing", c.Actions)
		}
		ids[c.Summary] = c.ID
	}
	srv.click(t, ids["Task needs an answer: asking"])
	srv.click(t, ids["Task finished: finished"])
	srv.click(t, 999) // not ours: nothing
	waitFor(t, "two opened tasks", func() bool { mu.Lock(); defer mu.Unlock(); return len(opened) == 2 })
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if want := []string{asking, done}; !slices.Equal(opened, want) {
		t.Fatalf("opened %q, want %q", opened, want)
	}
}

func TestNotifierSaysWhatTheTrayStopped(t *testing.T) {
	addr := startSessionBus(t)
	srv := startNotifyServer(t, addr, "body")
	st := newTestStore(t)
	l := lifecycle{t, st}
	n := NewNotifier(st, NotifierOptions{})
	t.Cleanup(n.Close)
	a, b := l.create("Refactor the parser"), l.create("Not asked")
	l.claim(a)
	l.claim(b)
	check(t, n)
	n.ExpectStop(a, "Refactor the parser")
	check(t, n)
	if got := srv.recorded(); len(got) != 0 {
		t.Fatalf("notified before the task stopped: %+v", got)
	}
	if _, err := st.Transition(context.Background(), a, task.StatusStopped, store.TransitionNote{Branch: "boof-runner/" + a}); err != nil {
		t.Fatal(err)
	}
	l.to(b, task.StatusStopped, "stopped by the user")
	check(t, n)
	check(t, n)
	got := srv.recorded()
	if len(got) != 1 || got[0].Summary != "Stopped: Refactor the parser" ||
		got[0].Body != "Its work is kept on branch boof-runner/"+a+" and in its worktree." {
		t.Fatalf("notifications %+v", got)
	}
}

// A task a budget cap or a circuit breaker stopped is announced with its
// reason (a stop the user asked for is not); a budget warning is announced
// at the next check, once.
func TestNotifierSaysWhatBudgetsAndBreakersDid(t *testing.T) {
	addr := startSessionBus(t)
	srv := startNotifyServer(t, addr, "body")
	st := newTestStore(t)
	l := lifecycle{t, st}
	capped, broken, user := l.create("capped"), l.create("looping"), l.create("mine")
	n := NewNotifier(st, NotifierOptions{})
	t.Cleanup(n.Close)
	check(t, n)
	for _, id := range []string{capped, broken, user} {
		l.claim(id)
	}
	check(t, n)
	n.BudgetWarning(capped, task.BudgetWarning{BudgetSpend: task.BudgetSpend{Scope: "daily", Period: "daily", Mode: "cap",
		LimitUSD: 5, SpentUSD: 4.2}, Percent: 80})
	l.to(capped, task.StatusStopped, "budget: daily cap $5.00 reached")
	l.to(broken, task.StatusStopped, `circuit_broken:repeat_failure: bash "npm test" failed 3 times in a row with the same error`)
	l.to(user, task.StatusStopped, "stopped by user")
	check(t, n)
	check(t, n)
	got := map[string]string{}
	for _, c := range srv.recorded() {
		got[c.Summary] = c.Body
	}
	want := map[string]string{
		"Budget warning: daily at 80 %": "$4.20 of $5.00 spent.",
		"Task stopped: capped":          "budget: daily cap $5.00 reached; its work is kept.",
		"Task stopped: looping":         `circuit_broken:repeat_failure: bash "npm test" failed 3 times in a row with the same error; its work is kept.`,
	}
	if len(srv.recorded()) != 3 || !maps.Equal(got, want) {
		t.Fatalf("notifications %q, want %q", got, want)
	}
}
