package app

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/setup"
	"github.com/boof-runner/boof-runner/backend/store"
)

// maxRecentRepos is how many recent repositories RecentRepositories lists.
const maxRecentRepos = 20

// SetupService is the first run: what is missing before a task can run
// and the one click that fixes each, and the repository choice of the
// New task form (recent repositories, the native folder picker, the check
// that a folder is a git repository).
type SetupService struct {
	file     *settings.File
	store    *store.Store
	adapters []agent.Adapter
	health   func() ([]ToolHealthView, error)
	picker   DirectoryPicker
	intake   *intake.Service
	git      *gitx.Git
	emit     Emitter
	ctx      func() context.Context
}

// SetupDeps are what SetupService is built from.
type SetupDeps struct {
	Settings *settings.File
	Store    *store.Store
	// Adapters are the registered tools' facts (host.Adapters).
	Adapters []agent.Adapter
	// Health checks the tools (SettingsService.ToolHealth: a passing check
	// is shown again for 10 minutes).
	Health func() ([]ToolHealthView, error)
	Picker DirectoryPicker
	// Intake makes the checks of a new task (host.Services.Intake).
	Intake *intake.Service
	Git    *gitx.Git
	Emit   Emitter
	Ctx    func() context.Context
}

// NewSetupService builds the service.
func NewSetupService(d SetupDeps) *SetupService {
	if d.Git == nil {
		d.Git = gitx.New()
	}
	return &SetupService{file: d.Settings, store: d.Store, adapters: d.Adapters, health: d.Health, picker: d.Picker,
		intake: d.Intake, git: d.Git, emit: d.Emit, ctx: d.Ctx}
}

// SetupStatus is what the first-launch screen shows.
type SetupStatus struct {
	// Ready is set when nothing is missing (Problems is empty).
	Ready bool `json:"ready"`
	// Problems name what is missing, each with its fix and the action of
	// the one click that fixes it.
	Problems []setup.Problem `json:"problems"`
	// WorkingDirectory is the settings' working directory ("" none).
	WorkingDirectory string `json:"working_directory"`
	// Tools are the tools' checks.
	Tools []ToolHealthView `json:"tools"`
	// Dismissed is set once the user dismissed the first-launch screen
	// (settings ui.setupDismissed): the window does not open on it again.
	Dismissed bool `json:"dismissed"`
}

// Status checks what a task needs (runs the tools' checks, see
// SettingsService.ToolHealth) and names what is missing: no agent CLI
// installed, an installed CLI not signed in, no repository, a working
// directory that cannot hold a task.
func (s *SetupService) Status() (SetupStatus, error) {
	hs, err := s.health()
	if err != nil {
		return SetupStatus{}, userError(err)
	}
	byName := map[string]ToolHealthView{}
	for _, h := range hs {
		byName[h.Tool] = h
	}
	tools := make([]setup.Tool, 0, len(s.adapters))
	for _, a := range s.adapters {
		tools = append(tools, setup.Tool{Adapter: a, Health: byName[a.Name].Health})
	}
	cur, _ := s.file.Load()
	problems := setup.Assess(tools, cur.WorkDir(), s.intake.CheckBase(s.ctx(), "", ""))
	if hs == nil {
		hs = []ToolHealthView{}
	}
	return SetupStatus{Ready: len(problems) == 0, Problems: problems, WorkingDirectory: cur.WorkDir(), Tools: hs,
		Dismissed: cur.UI.SetupDismissed}, nil
}

// Dismissed reports whether the first-launch screen was dismissed
// (settings ui.setupDismissed), without checking the tools: the window
// asks it at start and runs Status (a CLI process and a model request per
// tool) only when the screen may open.
func (s *SetupService) Dismissed() (bool, error) {
	cur, err := s.file.Load()
	if err != nil {
		return false, userError(err)
	}
	return cur.UI.SetupDismissed, nil
}

// Dismiss remembers that the user dismissed the first-launch screen
// (settings ui.setupDismissed), so the window no longer opens on it; it
// returns the settings' refusal when the file cannot be written.
func (s *SetupService) Dismiss() error {
	if _, err := s.file.Set("ui.setupDismissed", "true"); err != nil {
		return userError(err)
	}
	s.emit.Emit(EventSettingsChanged)
	return nil
}

// RecentRepository is a repository the New task form offers.
type RecentRepository struct {
	Path string `json:"path"`
	// WorkingDirectory is set for the settings' working directory (the one
	// a task without a repository of its own runs in).
	WorkingDirectory bool `json:"working_directory"`
	// Tasks is how many tasks were added there; LastUsed when the last was
	// (zero for a working directory no task used yet).
	Tasks    int        `json:"tasks"`
	LastUsed *time.Time `json:"last_used,omitempty"`
}

// RecentRepositories lists the repositories tasks were added in, the one
// used last first, with the settings' working directory first of all;
// folders that no longer exist are left out.
func (s *SetupService) RecentRepositories() ([]RecentRepository, error) {
	uses, err := s.store.RecentRepos(s.ctx(), maxRecentRepos)
	if err != nil {
		return nil, userError(err)
	}
	cur, _ := s.file.Load()
	wd := cur.WorkDir()
	out := []RecentRepository{}
	if wd != "" && isDir(wd) {
		out = append(out, RecentRepository{Path: filepath.Clean(wd), WorkingDirectory: true})
	}
	for _, u := range uses {
		r := RecentRepository{Path: u.Path, Tasks: u.Tasks, LastUsed: &u.LastUsed}
		if len(out) > 0 && out[0].Path == filepath.Clean(u.Path) {
			out[0].Tasks, out[0].LastUsed = r.Tasks, r.LastUsed
			continue
		}
		if isDir(u.Path) {
			out = append(out, r)
		}
	}
	return out, nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// PickRepository opens the native folder picker and checks the folder
// chosen (see CheckRepository); a cancelled picker gives an empty path.
// It returns an error only when no dialog can be shown.
func (s *SetupService) PickRepository() (setup.RepoCheck, error) {
	dir, err := s.picker.PickDirectory("Choose a repository")
	if err != nil || dir == "" {
		return setup.RepoCheck{}, userError(err)
	}
	return s.CheckRepository(dir)
}

// CheckRepository checks a folder as the repository of new tasks: usable
// (the checks a new task makes pass) and whether it is a git repository;
// problem says why not, in one sentence.
func (s *SetupService) CheckRepository(path string) (setup.RepoCheck, error) {
	return setup.CheckRepository(s.ctx(), s.intake, s.git, path), nil
}

// UseRepository makes a usable folder the settings' working directory
// (the first-launch screen's fix for "no repository"); a folder that is
// not usable is refused, changing nothing, with its check.
func (s *SetupService) UseRepository(path string) (setup.RepoCheck, error) {
	c := setup.CheckRepository(s.ctx(), s.intake, s.git, path)
	if !c.Usable {
		return c, nil
	}
	if _, err := s.file.Set("workingDirectory", strconv.Quote(c.Path)); err != nil {
		return c, userError(err)
	}
	s.emit.Emit(EventSettingsChanged)
	return c, nil
}
