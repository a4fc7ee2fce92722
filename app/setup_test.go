package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/setup"
	"github.com/boof-runner/boof-runner/backend/store"
)

// pickerAt stands in for the native folder dialog (GTK's, which the test
// cannot click): it answers with dir, "" for a cancelled dialog.
type pickerAt struct{ dir string }

func (p *pickerAt) PickDirectory(string) (string, error) { return p.dir, nil }

// firstRun is a fresh data root as a new user has it: no working
// directory in the settings, no task, the tools' paths as given, and the
// window's services over it as app/shell builds them.
type firstRun struct {
	root   string
	st     *store.Store
	h      *host.Host
	picker *pickerAt
	rec    *RecordingEmitter
	tasks  *TaskService
	setup  *SetupService
}

func newFirstRun(t *testing.T, settingsJSON string) *firstRun {
	t.Helper()
	root := t.TempDir()
	paths := dataroot.Paths{Root: filepath.Join(root, "data")}
	if err := dataroot.Ensure(paths.Root); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths.Settings(), []byte(settingsJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), paths.Database(), store.Options{AttachmentsDir: paths.Attachments()})
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.Open(context.Background(), host.Options{Paths: paths, Store: st, Exe: os.Args[0]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(); st.Close() })
	f := &firstRun{root: root, st: st, h: h, picker: &pickerAt{}, rec: &RecordingEmitter{}}
	in := h.Intake
	settingsSvc := NewSettingsService(h.Settings, st, h.Tools.Tools, f.rec, context.Background, f.picker, nil)
	f.tasks = NewTaskService(st, f.rec, context.Background, TaskDeps{
		WorkDir: func() string { s, _ := h.Settings.Load(); return s.WorkDir() }, Wake: h.Runner.Wake, Intake: in})
	f.setup = NewSetupService(SetupDeps{Settings: h.Settings, Store: st, Adapters: host.Adapters(), Health: settingsSvc.ToolHealth,
		Picker: f.picker, Intake: in, Emit: f.rec, Ctx: context.Background})
	return f
}

// problems is the status's problems as "kind:tool" words.
func (f *firstRun) problems(t *testing.T) string {
	t.Helper()
	s, err := f.setup.Status()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range s.Problems {
		out = append(out, string(p.Kind)+":"+p.Tool)
	}
	if s.Ready != (len(out) == 0) {
		t.Fatalf("ready %v with %v", s.Ready, out)
	}
	return strings.Join(out, ",")
}

func newGitRepo(t *testing.T, dir string) string {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	git(t, dir, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, "README"), []byte("hi\n"), 0o644)
	git(t, dir, "add", "README")
	git(t, dir, "commit", "-q", "-m", "init")
	return dir
}

// The first run through the window's services: on a fresh data root the
// first-launch status names no agent CLI and no repository; a CLI that is
// installed but fails its check (a real process answering "Not logged
// in", opened with it) is named with its sign-in command; the New task form cannot queue
// a task without a repository (nothing stored); the folder picker says
// whether the folder chosen is a git repository; choosing one fixes "no
// repository"; a task can name its own repository, which the recent
// repositories then list after the working directory.
func TestFirstRunNamesWhatIsMissing(t *testing.T) {
	tmp := t.TempDir()
	// every agent CLI at a path that does not exist, whatever this machine has
	tools := func(codex string) string {
		var ps []string
		for _, a := range host.Adapters() {
			p := filepath.Join(tmp, "no-"+a.Name)
			if a.Name == "codex" && codex != "" {
				p = codex
			}
			if a.Bin != "" {
				ps = append(ps, strconv.Quote(a.Name)+`: {"path": `+strconv.Quote(p)+`}`)
			}
		}
		return `{"tools": {` + strings.Join(ps, ", ") + `}}`
	}
	f := newFirstRun(t, tools(""))
	if got := f.problems(t); got != "no_agent_cli:,no_repository:" {
		t.Fatalf("fresh root: %q", got)
	}
	// dismissing the first-launch screen is remembered in the settings
	if s, err := f.setup.Status(); err != nil || s.Dismissed {
		t.Fatalf("a fresh root's screen dismissed: %+v %v", s, err)
	}
	if d, err := f.setup.Dismissed(); err != nil || d {
		t.Fatalf("dismissed on a fresh root: %v %v", d, err)
	}
	if err := f.setup.Dismiss(); err != nil {
		t.Fatal(err)
	}
	if d, err := f.setup.Dismissed(); err != nil || !d {
		t.Fatalf("dismissed after Dismiss: %v %v", d, err)
	}
	if s, err := f.setup.Status(); err != nil || !s.Dismissed || s.Ready || len(s.Problems) != 2 {
		t.Fatalf("after dismissing: %+v %v", s, err)
	}
	if cur, _ := f.h.Settings.Load(); !cur.UI.SetupDismissed {
		t.Fatal("the dismissal is not in the settings file")
	}

	codex := filepath.Join(tmp, "codex")
	os.WriteFile(codex, []byte("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'codex-cli 0.50.0'; exit 0; fi\n"+
		"echo 'Not logged in: run codex login' >&2\nexit 1\n"), 0o755)
	// the tools are built when the app opens: open it again with codex there
	f = newFirstRun(t, tools(codex))
	s, err := f.setup.Status()
	if err != nil || len(s.Problems) != 2 || s.Problems[0].Kind != setup.NotSignedIn || s.Problems[0].Tool != "codex" ||
		!slices.Equal(s.Problems[0].Commands, []string{"codex login"}) || s.Problems[1].Kind != setup.NoRepository || s.Problems[1].Action != setup.ChooseRepository {
		t.Fatalf("codex not signed in: %+v %v", s, err)
	}

	if _, err := f.tasks.Create(NewTaskInput{Prompt: "Fix the bug"}); err == nil || !strings.Contains(err.Error(), "no folder to run in") {
		t.Fatalf("a task without a repository: %v", err)
	}
	if ts, err := f.st.ListTasks(context.Background(), store.Filter{}); err != nil || len(ts) != 0 {
		t.Fatalf("a refused task was stored: %+v %v", ts, err)
	}
	if rs, err := f.setup.RecentRepositories(); err != nil || len(rs) != 0 {
		t.Fatalf("recent repositories of a fresh root: %+v %v", rs, err)
	}

	plain := filepath.Join(tmp, "plain")
	os.MkdirAll(plain, 0o755)
	f.picker.dir = plain
	if c, err := f.setup.PickRepository(); err != nil || !c.Usable || c.Git || !strings.Contains(c.Problem, "not a git repository") {
		t.Fatalf("a plain folder picked: %+v %v", c, err)
	}
	f.picker.dir = ""
	if c, err := f.setup.PickRepository(); err != nil || c != (setup.RepoCheck{}) {
		t.Fatalf("a cancelled picker: %+v %v", c, err)
	}
	if c, err := f.setup.UseRepository(filepath.Join(tmp, "gone")); err != nil || c.Usable || !strings.Contains(c.Problem, "does not exist") {
		t.Fatalf("a missing folder used: %+v %v", c, err)
	}
	if cur, _ := f.h.Settings.Load(); cur.WorkDir() != "" {
		t.Fatalf("a refused folder was set: %q", cur.WorkDir())
	}

	repo := newGitRepo(t, filepath.Join(tmp, "repo"))
	f.picker.dir = repo
	c, err := f.setup.PickRepository()
	if err != nil || !c.Usable || !c.Git || c.Problem != "" {
		t.Fatalf("a repository picked: %+v %v", c, err)
	}
	if c, err := f.setup.UseRepository(c.Path); err != nil || !c.Usable {
		t.Fatalf("use: %+v %v", c, err)
	}
	if !slices.Contains(f.rec.Names(), EventSettingsChanged) {
		t.Fatalf("no settings event: %v", f.rec.Names())
	}
	if got := f.problems(t); got != "not_signed_in:codex" {
		t.Fatalf("after choosing a repository: %q", got)
	}

	other := newGitRepo(t, filepath.Join(tmp, "other"))
	tk, err := f.tasks.Create(NewTaskInput{Prompt: "Fix the other bug", Repo: other})
	if err != nil || tk.Repo != other {
		t.Fatalf("a task with its own repository: %+v %v", tk, err)
	}
	rs, err := f.setup.RecentRepositories()
	if err != nil || len(rs) != 2 || rs[0].Path != repo || !rs[0].WorkingDirectory || rs[0].Tasks != 0 ||
		rs[1].Path != other || rs[1].WorkingDirectory || rs[1].Tasks != 1 || rs[1].LastUsed == nil {
		t.Fatalf("recent repositories: %+v %v", rs, err)
	}
}
