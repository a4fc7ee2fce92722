package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
)

// newRepo makes a git repository on branch main with one commit.
func newRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "README"), []byte("hi\n"), 0o644)
	git(t, repo, "add", "README")
	git(t, repo, "commit", "-q", "-m", "init")
	return repo
}

// settingsAt writes a settings file naming workDir ("" names none) in a
// fresh folder and returns it.
func settingsAt(t *testing.T, workDir string) *settings.File {
	t.Helper()
	f := settings.NewFile(filepath.Join(t.TempDir(), "settings.json"), host.Catalog())
	if workDir != "" {
		if _, err := f.Set("workingDirectory", workDir); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// withRepo is TaskDeps whose intake runs tasks in a fresh repository (the
// working directory of its settings), which it returns.
func withRepo(t *testing.T, st *store.Store) (TaskDeps, string) {
	t.Helper()
	repo := newRepo(t)
	return TaskDeps{WorkDir: func() string { return repo }, Intake: intakeOf(st, settingsAt(t, repo))}, repo
}

// intakeOf is the intake of settings file f over st.
func intakeOf(st *store.Store, f *settings.File) *intake.Service {
	return intake.New(intake.Options{Store: st, Settings: f.Load})
}

// TestCreateRefusesWhatAddRefuses: the window's New task form, its import
// and its Repeat option create through backend/intake, as `boof-runner
// add` and import do (backend/cli/create_test.go), and refuse with the same
// sentence what the runner would refuse later; nothing is stored and no
// event is sent.
func TestCreateRefusesWhatAddRefuses(t *testing.T) {
	st := newTestStore(t)
	rec := &RecordingEmitter{}
	repo := newRepo(t)
	empty := t.TempDir()
	git(t, empty, "init", "-q", "-b", "main")
	unborn := newRepo(t)
	git(t, unborn, "checkout", "-q", "--orphan", "fresh")
	broken := settings.NewFile(filepath.Join(t.TempDir(), "settings.json"), host.Catalog())
	os.WriteFile(broken.Path(), []byte(`{"runner": {`), 0o600)
	service := func(f *settings.File) (*TaskService, *ScheduleService) {
		in := intakeOf(st, f)
		return NewTaskService(st, rec, context.Background, TaskDeps{Intake: in}),
			NewScheduleService(st, rec, context.Background, ScheduleDeps{Intake: in})
	}
	noWorkDir := "Nothing was added: the task has no folder to run in; give it a repository (--repo), or set the working directory in the settings (workingDirectory)."
	inRepo, schedulesInRepo := service(settingsAt(t, repo))
	none, schedulesNone := service(settingsAt(t, ""))
	inBroken, _ := service(broken)
	inEmpty, _ := service(settingsAt(t, empty))
	inUnborn, _ := service(settingsAt(t, unborn))
	doc := func(repo string) string {
		return "---\nstatus: pending\nrepo: \"" + repo + "\"\n---\n\n## Prompt\n\n~~~\ndo it\n~~~\n"
	}
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"unknown base ref", func() error { _, err := inRepo.Create(NewTaskInput{Prompt: "p", Base: "no-such-branch"}); return err },
			`The base ref "no-such-branch" is not a branch or commit in ` + repo + "."},
		{"no working directory", func() error { _, err := none.Create(NewTaskInput{Prompt: "p"}); return err }, noWorkDir},
		{"settings that cannot be read", func() error { _, err := inBroken.Create(NewTaskInput{Prompt: "p"}); return err },
			"The settings file " + broken.Path() + " is not valid JSON (unexpected EOF); so the task has no working directory and nothing was added: fix the settings, or give the task a repository (--repo)."},
		{"a repository without commits", func() error { _, err := inEmpty.Create(NewTaskInput{Prompt: "p"}); return err },
			"The repository has no commits yet; make a first commit so tasks have something to start from."},
		{"a repository on an unborn branch", func() error { _, err := inUnborn.Create(NewTaskInput{Prompt: "p"}); return err },
			"The repository " + unborn + " is on branch fresh, which has no commits yet; give the task a base branch or commit, or check out a branch that has commits."},
		{"import without a working directory", func() error { _, err := none.Import(doc(""), false); return err }, noWorkDir},
		{"import of a relative repo", func() error { _, err := inRepo.Import(doc("src/app"), false); return err },
			"The repository folder src/app is not an absolute path; give the full path of the folder."},
		{"a schedule without a working directory", func() error {
			_, err := schedulesNone.Create(ScheduleInput{Cron: "@daily", Task: NewTaskInput{Prompt: "p"}})
			return err
		}, noWorkDir},
		{"a schedule from an unknown base ref", func() error {
			_, err := schedulesInRepo.Create(ScheduleInput{Cron: "@daily", Task: NewTaskInput{Prompt: "p", Base: "nope"}})
			return err
		}, `The base ref "nope" is not a branch or commit in ` + repo + "."},
	}
	for _, c := range cases {
		if err := c.call(); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %q", c.name, err, c.want)
		}
	}
	if all, _ := st.ListTasks(context.Background(), store.Filter{}); len(all) != 0 {
		t.Fatalf("refused tasks were stored: %+v", all)
	}
	if all, _ := st.ListSchedules(context.Background()); len(all) != 0 {
		t.Fatalf("refused schedules were stored: %+v", all)
	}
	if len(rec.Names()) != 0 {
		t.Fatalf("events sent on refusal: %v", rec.Names())
	}
	if tk, err := inRepo.Create(NewTaskInput{Prompt: "p", Base: "main"}); err != nil || tk.Repo != repo {
		t.Fatalf("a task that can run: %+v %v", tk, err)
	}
}

// TestTheWindowsSentencesComeFromUsererr: the sentences the bound services
// built themselves before (commands, answers, injections, usage ranges,
// tools, uploads) are the same now that backend/usererr words them.
func TestTheWindowsSentencesComeFromUsererr(t *testing.T) {
	st := newTestStore(t)
	rec := &RecordingEmitter{}
	cmds := NewCommandService(st, rec, context.Background)
	deps, _ := withRepo(t, st)
	tasks := NewTaskService(st, rec, context.Background, deps)
	set := NewSettingsService(settingsAt(t, ""), st, func() []agent.Tool { return nil }, rec, context.Background, nil, nil)
	pending, err := tasks.Create(NewTaskInput{Prompt: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cmds.Save(CommandInput{Name: "dup", Body: "one"}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"a command without a name", func() error { _, err := cmds.Save(CommandInput{Name: " ", Body: "x"}); return err }, "The command needs a name."},
		{"an empty command", func() error { _, err := cmds.Save(CommandInput{Name: "x", Body: " "}); return err }, "The command text is empty."},
		{"a command name taken", func() error { _, err := cmds.Save(CommandInput{Name: "dup", Body: "two"}); return err }, `A command named "dup" already exists.`},
		{"an empty answer", func() error { _, err := tasks.Answer(pending.ID, "  "); return err }, "The answer is empty."},
		{"a bad upload", func() error {
			_, err := tasks.AddAttachment(pending.ID, AttachmentInput{Name: "a.txt", DataBase64: "!!"})
			return err
		}, "The file could not be read (bad encoding)."},
		{"a reversed usage range", func() error { _, err := set.Usage(UsageRange{From: "2026-12-31", To: "2026-01-01"}); return err },
			"The usage range needs two dates, from before to (YYYY-MM-DD)."},
		{"a usage range over a year", func() error { _, err := set.Usage(UsageRange{From: "2024-01-01", To: "2026-01-01"}); return err },
			"The usage range is limited to one year."},
		{"an unknown tool", func() error { _, err := set.TestTool("nope"); return err }, "Unknown tool nope."},
		{"models of an unknown tool", func() error { _, err := set.Models("nope"); return err }, "Unknown tool nope."},
	}
	for _, c := range cases {
		if err := c.call(); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %q", c.name, err, c.want)
		}
	}
	if _, err := cmds.Save(CommandInput{ID: "dup", Name: "dup", Body: "two"}); err != nil {
		t.Fatalf("the same name kept: %v", err)
	}
}
