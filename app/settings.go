package app

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
)

// ToolChoice is a role's tool and model.
type ToolChoice struct {
	Tool  string `json:"tool"`
	Model string `json:"model"`
}

// SettingsView is settings.json as the Settings screen edits it. Its parts
// are named types so the generated TypeScript models name them too.
type SettingsView struct {
	WorkingDirectory string       `json:"working_directory"`
	RunnerEnabled    bool         `json:"runner_enabled"`
	Concurrency      int          `json:"concurrency"`
	Notifications    bool         `json:"notifications"`
	CloseToTray      bool         `json:"close_to_tray"`
	StartAtLogin     bool         `json:"start_at_login"`
	DefaultTool      string       `json:"default_tool"`
	Roles            RolesView    `json:"roles"`
	Review           ReviewView   `json:"review"`
	Worktree         WorktreeView `json:"worktree"`
	Retries          RetriesView  `json:"retries"`
	Stop             StopView     `json:"stop"`
	Budgets          BudgetsView  `json:"budgets"`
	Breakers         BreakersView `json:"breakers"`
	Limits           LimitsView   `json:"limits"`
	// Executor is read-only here (Save ignores it): see ExecutorView.
	Executor ExecutorView `json:"executor"`
}

// LimitsView is what a task does when a step's tool reaches its usage
// limit: OnLimit "wait" (for the reset) or "switch" (to the first other
// tool of SwitchOrder that is installed and not paused).
type LimitsView struct {
	OnLimit     string   `json:"on_limit"`
	SwitchOrder []string `json:"switch_order"`
}

// LimitView is one budget: a limit in US dollars and/or tokens, and its
// mode ("warn" or "cap"); a nil field is no limit of that kind.
type LimitView struct {
	USD    *float64 `json:"usd"`
	Tokens *int64   `json:"tokens"`
	Mode   string   `json:"mode"`
}

// BudgetsView is the budgets of all tools: per task, per day and per
// month; nil is no budget. Per-tool budgets are kept in the file as they
// are (boof-runner settings set budgets.tools.NAME...).
type BudgetsView struct {
	Task    *LimitView `json:"task"`
	Daily   *LimitView `json:"daily"`
	Monthly *LimitView `json:"monthly"`
}

// BreakersView is the per-step circuit breakers; 0 turns one off.
type BreakersView struct {
	ToolCalls        int   `json:"tool_calls"`
	RepeatFailures   int   `json:"repeat_failures"`
	NoProgress       int   `json:"no_progress"`
	TokensPerMinute  int64 `json:"tokens_per_minute"`
	VelocityWindowMs int64 `json:"velocity_window_ms"`
}

// RoleChoice is a role's tool and model, and whether a role other than
// the developer may change the worktree (roles.<role>.write).
type RoleChoice struct {
	ToolChoice
	Write bool `json:"write"`
}

// RolesView is the tool, model and write access of each role; Observer
// nil = no observer step.
type RolesView struct {
	Planner    RoleChoice  `json:"planner"`
	Refinement RoleChoice  `json:"refinement"`
	Developer  RoleChoice  `json:"developer"`
	Observer   *RoleChoice `json:"observer"`
	Reviewer   RoleChoice  `json:"reviewer"`
}

// ReviewView is the review gate's settings.
type ReviewView struct {
	Gate               bool `json:"gate"`
	MaxFixRounds       int  `json:"max_fix_rounds"`
	MaxInlineDiffBytes int  `json:"max_inline_diff_bytes"`
}

// WorktreeView says where worktrees live and what happens to them at the end.
type WorktreeView struct {
	Root      string `json:"root"`
	OnDone    string `json:"on_done"`
	OnFailure string `json:"on_failure"`
}

// RetriesView is the transient-failure retry policy.
type RetriesView struct {
	Transient     int     `json:"transient"`
	BackoffMs     []int64 `json:"backoff_ms"`
	IdleTimeoutMs int64   `json:"idle_timeout_ms"`
}

// StopView is the stop grace period.
type StopView struct {
	GraceMs int64 `json:"grace_ms"`
}

// FieldError names an invalid field by its UI path.
type FieldError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// SaveSettingsResult is the outcome of Save: saved, or the field errors with
// the stored settings unchanged.
type SaveSettingsResult struct {
	Saved    bool         `json:"saved"`
	Errors   []FieldError `json:"errors"`
	Settings SettingsView `json:"settings"`
	// LoadError is the problem with the file on disk (the app then runs on
	// defaults in memory and never overwrites the file until a save).
	LoadError string `json:"load_error,omitempty"`
}

// ToolHealthView is one tool's health for the Settings screen.
type ToolHealthView struct {
	agent.Health
	CheckedAt time.Time `json:"checked_at"`
}

// UsageRange is an inclusive range of dates (YYYY-MM-DD).
type UsageRange struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// UsageSummary is usage grouped five ways.
type UsageSummary struct {
	ByDay   []store.UsageRow `json:"by_day"`
	ByTool  []store.UsageRow `json:"by_tool"`
	ByModel []store.UsageRow `json:"by_model"`
	ByTask  []store.UsageRow `json:"by_task"`
	ByRole  []store.UsageRow `json:"by_role"`
}

// DirectoryPicker asks the user for a directory with the native dialog; the
// shell implements it over the Wails runtime.
type DirectoryPicker interface {
	// PickDirectory returns the chosen directory, or "" when the user
	// cancelled; it returns an error when no dialog can be shown.
	PickDirectory(title string) (string, error)
}

// SettingsService reads and writes settings and reports tool health and usage.
type SettingsService struct {
	file   *settings.File
	store  *store.Store
	tools  func() []agent.Tool
	emit   Emitter
	ctx    func() context.Context
	picker DirectoryPicker
	saved  func(settings.Settings) error

	// shown is the settings the screen was last given (Get, Save): a save
	// writes only what the user changed from them, so a key another process
	// set meanwhile is kept.
	// wake tells the runner the settings changed or work was re-queued
	// (WithWake).
	wake func()

	mu    sync.Mutex
	shown *settings.Settings

	// healthCache keeps the passing tool checks (see ToolHealth).
	healthCache healthCache
}

// NewSettingsService builds the service; tools lists the registered tools;
// picker shows the native folder dialog; saved (nil: nothing) is called
// after each save with the saved settings, to put them into effect outside
// the file (the start-at-login entry).
func NewSettingsService(f *settings.File, st *store.Store, tools func() []agent.Tool, emit Emitter, ctx func() context.Context, picker DirectoryPicker, saved func(settings.Settings) error, opts ...Option) *SettingsService {
	if saved == nil {
		saved = func(settings.Settings) error { return nil }
	}
	o := applyOptions(opts)
	return &SettingsService{file: f, store: st, tools: tools, emit: emit, ctx: ctx, picker: picker, saved: saved, wake: o.wake}
}

func toView(s settings.Settings) SettingsView {
	var v SettingsView
	v.WorkingDirectory, v.RunnerEnabled, v.Concurrency = s.WorkingDirectory, s.Runner.Enabled, s.Runner.Concurrency
	v.Notifications, v.CloseToTray, v.DefaultTool = s.UI.Notifications, s.UI.CloseToTray, s.DefaultTool
	v.StartAtLogin = s.UI.StartAtLogin
	tc := func(r settings.ToolRef) RoleChoice {
		return RoleChoice{ToolChoice: ToolChoice{Tool: r.Tool, Model: r.Model}, Write: r.Write != nil && *r.Write}
	}
	v.Roles.Planner, v.Roles.Refinement = tc(s.Roles.Planner), tc(s.Roles.Refinement)
	v.Roles.Developer, v.Roles.Reviewer = tc(s.Roles.Developer), tc(s.Roles.Reviewer)
	v.Roles.Developer.Write = true // always: the developer is the role that edits
	if s.Roles.Observer != nil {
		o := tc(*s.Roles.Observer)
		v.Roles.Observer = &o
	}
	v.Review.Gate, v.Review.MaxFixRounds, v.Review.MaxInlineDiffBytes = s.Review.Gate, s.Review.MaxFixRounds, s.Review.MaxInlineDiffBytes
	v.Worktree.Root, v.Worktree.OnDone, v.Worktree.OnFailure = s.Worktree.Root, s.Worktree.OnDone, s.Worktree.OnFailure
	v.Retries.Transient, v.Retries.BackoffMs, v.Retries.IdleTimeoutMs = s.Retries.Transient, s.Retries.BackoffMs, s.Retries.IdleTimeoutMs
	if v.Retries.BackoffMs == nil {
		v.Retries.BackoffMs = []int64{}
	}
	v.Stop.GraceMs = s.Stop.GraceMs
	lv := func(l *settings.Limit) *LimitView {
		if l == nil {
			return nil
		}
		mode := l.Mode
		if mode == "" {
			mode = settings.ModeWarn
		}
		return &LimitView{USD: l.USD, Tokens: l.Tokens, Mode: mode}
	}
	v.Budgets = BudgetsView{Task: lv(s.Budgets.Task), Daily: lv(s.Budgets.Daily), Monthly: lv(s.Budgets.Monthly)}
	b := s.Breakers
	v.Breakers = BreakersView{ToolCalls: b.ToolCalls, RepeatFailures: b.RepeatFailures, NoProgress: b.NoProgress,
		TokensPerMinute: b.TokensPerMinute, VelocityWindowMs: b.VelocityWindowMs}
	v.Limits = LimitsView{OnLimit: string(s.EffectiveOnLimit(task.OnLimitDefault)),
		SwitchOrder: append([]string{}, s.Limits.SwitchOrder...)}
	v.Executor = executorView(s.Executor)
	return v
}

func fromView(base settings.Settings, v SettingsView) settings.Settings {
	s := base
	s.WorkingDirectory, s.Runner.Enabled, s.Runner.Concurrency = strings.TrimSpace(v.WorkingDirectory), v.RunnerEnabled, v.Concurrency
	s.UI.Notifications, s.UI.CloseToTray, s.UI.StartAtLogin = v.Notifications, v.CloseToTray, v.StartAtLogin
	tr := func(c RoleChoice) settings.ToolRef {
		r := settings.ToolRef{Tool: c.Tool, Model: strings.TrimSpace(c.Model)}
		if c.Write {
			w := true
			r.Write = &w
		}
		return r
	}
	s.Roles.Planner, s.Roles.Refinement = tr(v.Roles.Planner), tr(v.Roles.Refinement)
	s.Roles.Developer, s.Roles.Reviewer = tr(v.Roles.Developer), tr(v.Roles.Reviewer)
	s.Roles.Developer.Write = nil // the developer always writes; the key stays out of the file
	s.Roles.Observer = nil
	if v.Roles.Observer != nil && v.Roles.Observer.Tool != "" {
		o := tr(*v.Roles.Observer)
		s.Roles.Observer = &o
	}
	s.Review.Gate, s.Review.MaxFixRounds, s.Review.MaxInlineDiffBytes = v.Review.Gate, v.Review.MaxFixRounds, v.Review.MaxInlineDiffBytes
	s.Worktree.Root, s.Worktree.OnDone, s.Worktree.OnFailure = strings.TrimSpace(v.Worktree.Root), v.Worktree.OnDone, v.Worktree.OnFailure
	s.Retries.Transient, s.Retries.BackoffMs, s.Retries.IdleTimeoutMs = v.Retries.Transient, v.Retries.BackoffMs, v.Retries.IdleTimeoutMs
	s.Stop.GraceMs = v.Stop.GraceMs
	fl := func(l *LimitView) *settings.Limit {
		if l == nil || (l.USD == nil && l.Tokens == nil) {
			return nil
		}
		out := &settings.Limit{USD: l.USD, Tokens: l.Tokens}
		if l.Mode == settings.ModeCap || (l.Mode != "" && l.Mode != settings.ModeWarn) {
			out.Mode = l.Mode // a bad mode is kept for Validate to name
		}
		return out
	}
	s.Budgets.Task, s.Budgets.Daily, s.Budgets.Monthly = fl(v.Budgets.Task), fl(v.Budgets.Daily), fl(v.Budgets.Monthly)
	b := v.Breakers
	s.Breakers = settings.Breakers{ToolCalls: b.ToolCalls, RepeatFailures: b.RepeatFailures, NoProgress: b.NoProgress,
		TokensPerMinute: b.TokensPerMinute, VelocityWindowMs: b.VelocityWindowMs}
	// A view without limits (a front end older than them) keeps the stored ones.
	if v.Limits.OnLimit != "" {
		s.Limits.OnLimit = task.OnLimit(v.Limits.OnLimit)
	}
	if v.Limits.SwitchOrder != nil {
		s.Limits.SwitchOrder = append([]string{}, v.Limits.SwitchOrder...)
	}
	return s
}

var camelHump = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// uiPath turns a settings key (review.maxFixRounds, runner.enabled) into the
// UI's field path (review.max_fix_rounds, runner_enabled).
func uiPath(key string) string {
	switch key {
	case "workingDirectory":
		return "working_directory"
	case "runner.enabled":
		return "runner_enabled"
	case "runner.concurrency":
		return "concurrency"
	case "ui.notifications":
		return "notifications"
	case "ui.closeToTray":
		return "close_to_tray"
	case "ui.startAtLogin":
		return "start_at_login"
	}
	return strings.ToLower(camelHump.ReplaceAllString(key, "${1}_${2}"))
}

// show records what the screen now shows.
func (s *SettingsService) show(cur settings.Settings) {
	s.mu.Lock()
	s.shown = &cur
	s.mu.Unlock()
}

// lastShown is what the screen shows, or cur when it was never given any.
func (s *SettingsService) lastShown(cur settings.Settings) settings.Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shown == nil {
		return cur
	}
	return *s.shown
}

// Get returns the effective settings.
func (s *SettingsService) Get() (SaveSettingsResult, error) {
	cur, err := s.file.Load()
	s.show(cur)
	res := SaveSettingsResult{Saved: true, Errors: []FieldError{}, Settings: toView(cur)}
	if err != nil {
		msg, _ := usererr.Describe(err)
		res.LoadError = strings.TrimSuffix(msg, ".") + " — using defaults until you save."
	}
	return res, nil
}

// Save validates and writes the settings. Validation problems are not an
// error: every invalid field comes back in Errors and nothing is written.
// Only the fields the user changed from what the screen was shown are
// written, onto the file as it is now (settings.File.SaveChanges): a key a
// script set meanwhile is kept.
func (s *SettingsService) Save(v SettingsView) (SaveSettingsResult, error) {
	cur, _ := s.file.Load()
	base := s.lastShown(cur)
	next := fromView(base, v)
	res := SaveSettingsResult{Errors: []FieldError{}}
	err := next.Validate()
	if err == nil {
		err = s.file.SaveChanges(base, next)
	}
	var ve *settings.ValidationError
	if errors.As(err, &ve) {
		for _, ke := range ve.Keys {
			res.Errors = append(res.Errors, FieldError{Path: uiPath(ke.Key), Message: usererr.FieldMessage(ke)})
		}
		res.Settings = toView(cur)
		return res, nil
	}
	if err != nil {
		return res, userError(err)
	}
	saved, _ := s.file.Load()
	s.show(saved)
	res.Saved, res.Settings = true, toView(saved)
	s.wake() // the runner reads the new settings now (concurrency, pause, budgets)
	s.emit.Emit(EventSettingsChanged)
	if err := s.saved(saved); err != nil {
		return res, userError(&usererr.Edge{Kind: usererr.SavedBut, Err: err})
	}
	return res, nil
}

// PickDirectory opens the native folder picker; "" when cancelled.
func (s *SettingsService) PickDirectory() (string, error) {
	dir, err := s.picker.PickDirectory("Working directory")
	return dir, userError(err)
}

func smokeModel(cur settings.Settings, tool string) string {
	for _, r := range []settings.ToolRef{cur.Roles.Developer, cur.Roles.Planner, cur.Roles.Reviewer} {
		if r.Tool == tool {
			return r.Model
		}
	}
	return ""
}

// Tools names the registered tools, in ToolHealth's order, without
// checking them: what the window needs at start (the task editor's tool
// choices). The checks (a version call and a smoke prompt per installed
// tool: CLI processes and, for a real CLI, a model request) run when the
// Settings screen asks for ToolHealth.
func (s *SettingsService) Tools() ([]string, error) {
	out := []string{}
	for _, t := range s.tools() {
		out = append(out, t.Name())
	}
	return out, nil
}

// check runs the health checks of tools with the settings cur.
func (s *SettingsService) check(cur settings.Settings, tools []agent.Tool) []ToolHealthView {
	if len(tools) == 0 {
		return nil
	}
	model := func(tool string) string { return smokeModel(cur, tool) }
	hs := agent.CheckHealth(s.ctx(), tools, model, 20*time.Second)
	out := make([]ToolHealthView, 0, len(hs))
	now := time.Now().UTC()
	for _, h := range hs {
		out = append(out, ToolHealthView{Health: h, CheckedAt: now})
	}
	return out
}

// TestTool runs one tool's health check with its smoke prompt now.
func (s *SettingsService) TestTool(name string) (ToolHealthView, error) {
	for _, t := range s.tools() {
		if t.Name() == name {
			cur, _ := s.file.Load()
			v := s.check(cur, []agent.Tool{t})[0]
			s.healthCache.put(v, checkedWith(cur, name))
			return v, nil
		}
	}
	return ToolHealthView{}, userError(&usererr.Edge{Kind: usererr.UnknownTool, Value: name})
}

// Models lists the models a tool offers (known aliases plus configured ones).
func (s *SettingsService) Models(name string) ([]string, error) {
	for _, t := range s.tools() {
		if t.Name() == name {
			out := []string{}
			for _, m := range t.Models(s.ctx()) {
				out = append(out, m.ID)
			}
			return out, nil
		}
	}
	return nil, userError(&usererr.Edge{Kind: usererr.UnknownTool, Value: name})
}

// Usage sums tokens and cost per day, tool, model, task and role over a range of
// dates (inclusive); every day of the range is listed, zeros included.
func (s *SettingsService) Usage(r UsageRange) (UsageSummary, error) {
	from, err1 := time.Parse(time.DateOnly, r.From)
	to, err2 := time.Parse(time.DateOnly, r.To)
	if err1 != nil || err2 != nil || to.Before(from) {
		return UsageSummary{}, userError(&usererr.Edge{Kind: usererr.UsageDates})
	}
	if to.Sub(from) > 366*24*time.Hour {
		return UsageSummary{}, userError(&usererr.Edge{Kind: usererr.UsageTooLong})
	}
	end := to.AddDate(0, 0, 1)
	ctx := s.ctx()
	var out UsageSummary
	var err error
	days := map[string]store.UsageRow{}
	rows, err := s.store.UsageByDay(ctx, from, end)
	if err != nil {
		return out, userError(err)
	}
	for _, r := range rows {
		days[r.Key] = r
	}
	out.ByDay = []store.UsageRow{}
	for d := from; d.Before(end); d = d.AddDate(0, 0, 1) {
		k := d.Format(time.DateOnly)
		row, ok := days[k]
		if !ok {
			row = store.UsageRow{Key: k}
		}
		out.ByDay = append(out.ByDay, row)
	}
	if out.ByTool, err = s.store.UsageByTool(ctx, from, end); err != nil {
		return out, userError(err)
	}
	if out.ByModel, err = s.store.UsageByModel(ctx, from, end); err != nil {
		return out, userError(err)
	}
	if out.ByTask, err = s.store.UsageByTask(ctx, from, end); err != nil {
		return out, userError(err)
	}
	if out.ByRole, err = s.store.UsageByRole(ctx, from, end); err != nil {
		return out, userError(err)
	}
	for _, p := range []*[]store.UsageRow{&out.ByTool, &out.ByModel, &out.ByTask, &out.ByRole} {
		if *p == nil {
			*p = []store.UsageRow{}
		}
	}
	return out, nil
}
