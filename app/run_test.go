package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// hostFixture is a data root whose queue runs in this process with the mock
// tool on a real git repository.
type hostFixture struct {
	paths dataroot.Paths
	repo  string
	st    *store.Store
	host  *host.Host
	live  *LiveOutput
	rec   *RecordingEmitter
	tasks *TaskService
	run   *RunService
}

// newRepoAndRoot makes a git repository with one commit on main and an
// empty data root beside it, in a temp dir.
func newRepoAndRoot(t *testing.T) (string, dataroot.Paths) {
	t.Helper()
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	os.MkdirAll(repo, 0o755)
	git(t, repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "README"), []byte("hi\n"), 0o644)
	git(t, repo, "add", "README")
	git(t, repo, "commit", "-q", "-m", "init")
	paths := dataroot.Paths{Root: filepath.Join(root, "data")}
	if err := dataroot.Ensure(paths.Root); err != nil {
		t.Fatal(err)
	}
	return repo, paths
}

func startHost(t *testing.T) *hostFixture {
	t.Helper()
	repo, paths := newRepoAndRoot(t)
	settingsJSON := `{"workingDirectory": "` + repo + `", "retries": {"backoffMs": [10]},
		"roles": {"planner": {"tool": "mock"}, "refinement": {"tool": "mock"}, "developer": {"tool": "mock"}, "reviewer": {"tool": "mock"}},
		"stop": {"graceMs": 1000}}`
	if err := os.WriteFile(paths.Settings(), []byte(settingsJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), paths.Database(), store.Options{AttachmentsDir: paths.Attachments()})
	if err != nil {
		t.Fatal(err)
	}
	f := &hostFixture{paths: paths, repo: repo, st: st, rec: &RecordingEmitter{}}
	f.live = NewLiveOutput(f.rec, secrets.Scrub, time.Now, 0)
	f.host, err = host.Open(context.Background(), host.Options{Paths: paths, Store: st, Exe: os.Args[0],
		Hooks: PipelineHooks(f.live, f.rec, nil), Poll: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); f.host.Run(ctx, runner.Forever) }()
	t.Cleanup(func() {
		cancel()
		<-done
		f.host.Close()
		f.live.Close()
		st.Close()
	})
	f.tasks = NewTaskService(st, f.rec, context.Background, TaskDeps{WorkDir: func() string { return repo }, Wake: f.host.Runner.Wake,
		Intake: f.host.Intake})
	f.run = NewRunService(st, LocalRunner(f.host.Runner), f.host.Settings, f.live, f.rec, context.Background)
	return f
}

func (f *hostFixture) waitStatus(t *testing.T, id string, want task.Status) task.Task {
	t.Helper()
	var got task.Task
	waitFor(t, "status "+string(want), func() bool {
		got, _ = f.st.GetTask(context.Background(), id)
		return got.Status == want
	})
	return got
}

func (f *hostFixture) waitRole(t *testing.T, id string, role task.Role) {
	t.Helper()
	waitFor(t, "the "+string(role)+" step", func() bool {
		st, _ := f.run.Status()
		for _, r := range st.Running {
			if r.TaskID == id && r.Role == role {
				return true
			}
		}
		return false
	})
}

func TestRunServiceInjectLiveAndStop(t *testing.T) {
	f := startHost(t)
	if st, _ := f.run.Status(); !st.Enabled || !st.LockHeld {
		t.Fatalf("status %+v", st)
	}
	// The mock developer waits for one mid-run message: only a live inject finishes it.
	a, err := f.tasks.Create(NewTaskInput{Prompt: "Wait for me\n[[mock-await developer=1]]"})
	if err != nil {
		t.Fatal(err)
	}
	f.waitRole(t, a.ID, task.RoleDeveloper)
	res, err := f.run.Inject(a.ID, "use tabs, not spaces")
	if err != nil || res.Delivery != "live" || res.InjectionID == "" {
		t.Fatalf("inject %+v %v", res, err)
	}
	f.waitStatus(t, a.ID, task.StatusDone)
	snap, _ := f.run.Output(a.ID)
	if !strings.Contains(snap.Terminal, "received: use tabs, not spaces") {
		t.Fatalf("the live session did not get the prompt; terminal:\n%s", snap.Terminal)
	}
	kinds := map[task.EventKind]bool{}
	for _, it := range snap.Feed {
		kinds[it.Kind] = true
	}
	for _, k := range []task.EventKind{task.EventStepStarted, task.EventStepFinished, task.EventVerdict, task.EventPromptInjected,
		task.EventInjectionApplied, task.EventText, task.EventToolCall, task.EventToolResult, task.EventNote} {
		if !kinds[k] {
			t.Fatalf("no %s in the feed; kinds %v", k, kinds)
		}
	}
	var verdict, liveInject bool
	for _, it := range snap.Feed {
		switch d := it.Data.(type) {
		case task.VerdictGiven:
			verdict = verdict || (it.Role == task.RoleReviewer && d.Role == task.RoleReviewer && d.Verdict == task.VerdictApprove)
		case task.InjectionApplied:
			liveInject = liveInject || (it.Role == task.RoleDeveloper && d.Delivery == task.DeliveryLive && d.Step == "developer")
		}
	}
	if !verdict || !liveInject {
		t.Fatalf("feed lacks the reviewer's APPROVE (%v) or the live injection into the developer (%v)", verdict, liveInject)
	}
	page, err := f.run.Transcript(a.ID, 0, 1<<20)
	if err != nil || page.Total == 0 || !strings.Contains(page.Data, "received:") {
		t.Fatalf("transcript %d bytes %v", page.Total, err)
	}

	// A developer that never gets its messages is stopped from the UI.
	b, _ := f.tasks.Create(NewTaskInput{Prompt: "Never finishes\n[[mock-await developer=9]]"})
	f.waitRole(t, b.ID, task.RoleDeveloper)
	waitFor(t, "the step's process tree to be measured", func() bool {
		st, _ := f.run.Status()
		return len(st.Running) == 1 && st.Running[0].Resources.Processes > 0 && st.Running[0].Resources.RSSBytes > 0
	})
	exs, _ := f.st.Executions(context.Background(), b.ID)
	dev := exs[len(exs)-1]
	if err := f.run.Stop(b.ID); err != nil {
		t.Fatal(err)
	}
	stopped := f.waitStatus(t, b.ID, task.StatusStopped)
	if stopped.WorktreePath == "" {
		t.Fatal("no worktree recorded for the stopped task")
	}
	if _, err := os.Stat(stopped.WorktreePath); err != nil {
		t.Fatalf("the stopped task's worktree is gone: %v", err)
	}
	for _, pid := range append(dev.PIDs, dev.PID) {
		if pid > 0 && runner.Alive(pid) {
			t.Fatalf("pid %d of the stopped step survived", pid)
		}
	}
	if err := f.run.Stop(b.ID); err == nil {
		t.Fatal("stopping a stopped task succeeded")
	}
	if st, err := f.run.SetEnabled(false); err != nil || st.Enabled {
		t.Fatalf("pause: %+v %v", st, err)
	}
	if st, _ := f.run.Status(); st.Enabled {
		t.Fatal("pause did not stick")
	}
}

// TestRunServiceWhileAnotherProcessRunsTheQueue: without the runner lock the
// service shows the store's ongoing tasks, says which process runs the
// queue, and its controls reach that process through the store.
func TestRunServiceWhileAnotherProcessRunsTheQueue(t *testing.T) {
	st := newTestStore(t)
	ctx := context.Background()
	running, err := st.CreateTask(ctx, task.NewTask{Title: "Elsewhere", Prompt: "runs in the other process"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Claim(ctx, running.ID, store.ClaimInfo{Runner: "other", Role: task.RolePlanner, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	pending, _ := st.CreateTask(ctx, task.NewTask{Prompt: "waits"})
	rec := &RecordingEmitter{}
	live := NewLiveOutput(rec, secrets.Scrub, time.Now, 0)
	defer live.Close()
	sf := settings.NewFile(filepath.Join(t.TempDir(), "settings.json"), host.Catalog())
	run := NewRunService(st, LockedRunner(st, "process 42 runs the queue", nil), sf, live, rec, context.Background)

	s, err := run.Status()
	if err != nil || s.LockHeld || s.LockMessage != "process 42 runs the queue" || !s.Enabled {
		t.Fatalf("status %+v %v", s, err)
	}
	if len(s.Running) != 1 || s.Running[0].TaskID != running.ID || s.Running[0].Title != "Elsewhere" || s.Running[0].Role != task.RolePlanner {
		t.Fatalf("running %+v", s.Running)
	}
	if err := run.Stop(pending.ID); err == nil || !strings.Contains(err.Error(), "only ongoing tasks can be stopped") {
		t.Fatalf("stop of a pending task: %v", err)
	}
	if ok, _ := st.StopRequested(ctx, pending.ID); ok {
		t.Fatal("a stop request was stored for a pending task")
	}
	if err := run.Stop(running.ID); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.StopRequested(ctx, running.ID); err != nil || !ok {
		t.Fatalf("no durable stop request for the other process: %v %v", ok, err)
	}
	if s, err := run.SetEnabled(false); err != nil || s.Enabled || !slices.Contains(rec.Names(), EventRunnerStatus) {
		t.Fatalf("pause %+v %v, events %v", s, err, rec.Names())
	}
}
