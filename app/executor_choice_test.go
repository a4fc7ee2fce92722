package app

import (
	"context"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
)

// TestNewTaskFormChoosesWhereATaskRuns: the settings view says whether a
// cluster is configured, which and where a task that does not choose runs
// (the New task form offers the choice from it); the form's choice reaches
// the stored task, and a schedule's template; Save leaves the executor
// settings as they are; a task that chooses the cluster after the settings
// stopped naming one is refused with one line, storing nothing and sending
// no event.
func TestNewTaskFormChoosesWhereATaskRuns(t *testing.T) {
	st := newTestStore(t)
	rec := &RecordingEmitter{}
	repo := newRepo(t)
	f := settingsAt(t, repo)
	in := intakeOf(st, f)
	tasks := NewTaskService(st, rec, context.Background, TaskDeps{Intake: in})
	schedules := NewScheduleService(st, rec, context.Background, ScheduleDeps{Intake: in})
	set := NewSettingsService(f, st, func() []agent.Tool { return nil }, rec, context.Background, nil, nil)
	view := func() ExecutorView {
		t.Helper()
		r, err := set.Get()
		if err != nil || r.LoadError != "" {
			t.Fatalf("get settings: %v %q", err, r.LoadError)
		}
		return r.Settings.Executor
	}
	setKey := func(key, value string) {
		t.Helper()
		if _, err := f.Set(key, value); err != nil {
			t.Fatalf("set %s: %v", key, err)
		}
	}

	if v := view(); v != (ExecutorView{Default: task.ExecutorLocal}) {
		t.Fatalf("no cluster configured: %+v", v)
	}
	setKey("executor.image", "registry.example/boof-runner:1")
	if v := view(); v != (ExecutorView{Cluster: true, Default: task.ExecutorLocal, Namespace: settings.DefaultExecutorNamespace}) {
		t.Fatalf("an image named: %+v", v)
	}
	setKey("executor.context", "prod")
	setKey("executor.namespace", "agents")
	setKey("executor.kind", "kubernetes")
	want := ExecutorView{Cluster: true, Default: task.ExecutorKubernetes, Context: "prod", Namespace: "agents"}
	if v := view(); v != want {
		t.Fatalf("the cluster as the default: %+v, want %+v", v, want)
	}

	// The choice reaches the store.
	for _, e := range []task.Executor{task.ExecutorKubernetes, task.ExecutorLocal, task.ExecutorDefault} {
		created, err := tasks.Create(NewTaskInput{Prompt: "run " + string(e), Runs: 1, Executor: e})
		if err != nil {
			t.Fatalf("create with executor %q: %v", e, err)
		}
		got, err := st.GetTask(context.Background(), created.ID)
		if err != nil || got.Executor != e {
			t.Fatalf("stored executor %q, want %q (%v)", got.Executor, e, err)
		}
	}
	sc, err := schedules.Create(ScheduleInput{Cron: "30 2 * * *", Task: NewTaskInput{Prompt: "nightly", Runs: 1, Executor: task.ExecutorKubernetes}})
	if err != nil {
		t.Fatal(err)
	}
	if stored, err := st.GetSchedule(context.Background(), sc.ID); err != nil || stored.Template.Executor != task.ExecutorKubernetes {
		t.Fatalf("the schedule's template executor %q (%v)", stored.Template.Executor, err)
	}

	// The view is read-only: a save of other fields keeps the executor,
	// whatever the view sent says.
	r, _ := set.Get()
	edited := r.Settings
	edited.Concurrency = 2
	edited.Executor = ExecutorView{}
	if saved, err := set.Save(edited); err != nil || !saved.Saved || saved.Settings.Executor != want {
		t.Fatalf("save: %+v %v", saved, err)
	}
	if s, _ := f.Load(); s.Executor.Image != "registry.example/boof-runner:1" || s.Executor.Context != "prod" || s.Runner.Concurrency != 2 {
		t.Fatalf("settings after the save: %+v", s)
	}

	// The cluster leaves the settings while the form still offers it.
	setKey("executor.kind", "null")
	setKey("executor.image", "null")
	before, _ := tasks.List(ListFilter{})
	events := len(rec.Names())
	_, err = tasks.Create(NewTaskInput{Prompt: "too late", Runs: 1, Executor: task.ExecutorKubernetes})
	wantErr := "Nothing was added: the task is to run in a cluster, but the settings name none; set executor.image (and executor.context, executor.namespace) first, or run it on this machine (--executor local)."
	if err == nil || err.Error() != wantErr {
		t.Fatalf("cluster gone: %v", err)
	}
	if after, _ := tasks.List(ListFilter{}); len(after) != len(before) || len(rec.Names()) != events {
		t.Fatalf("a refused task changed something: %d tasks (was %d), events %v", len(after), len(before), rec.Names())
	}
	if v := view(); v.Cluster {
		t.Fatalf("the view still offers the cluster: %+v", v)
	}
}
