package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
)

// The Settings screen's write toggle is roles.<role>.write in the file:
// on for the reviewer writes true, off leaves the key out, the developer
// always shows write access and never stores the key.
func TestSettingsWriteToggle(t *testing.T) {
	dir := t.TempDir()
	f := settings.NewFile(filepath.Join(dir, "settings.json"), settings.Catalog{Names: []string{"mock"}})
	svc := NewSettingsService(f, nil, nil, &RecordingEmitter{}, context.Background, nil, nil)
	cur, err := svc.Get()
	if err != nil {
		t.Fatal(err)
	}
	v := cur.Settings
	if !v.Roles.Developer.Write || v.Roles.Reviewer.Write || v.Roles.Planner.Write {
		t.Fatalf("defaults: developer %v reviewer %v planner %v", v.Roles.Developer.Write, v.Roles.Reviewer.Write, v.Roles.Planner.Write)
	}
	v.Roles.Reviewer.Write = true
	v.Roles.Developer.Write = false
	res, err := svc.Save(v)
	if err != nil || !res.Saved {
		t.Fatalf("save %+v %v", res, err)
	}
	b, _ := os.ReadFile(f.Path())
	if !strings.Contains(string(b), `"write": true`) || strings.Count(string(b), `"write"`) != 1 {
		t.Errorf("file:\n%s", b)
	}
	s, _ := f.Load()
	if !s.Writes(task.RoleReviewer) || s.Writes(task.RolePlanner) || !s.Writes(task.RoleDeveloper) {
		t.Error("the file does not say what the screen showed")
	}
	if !res.Settings.Roles.Reviewer.Write || !res.Settings.Roles.Developer.Write {
		t.Errorf("view after save %+v", res.Settings.Roles)
	}
}

// The Settings screen saves through the same write as `settings set`: a
// change that would take the file past 1 MiB (which every reader, the
// runner included, would then refuse) is refused with the CLI's sentence
// and the file is left as it was; a change that fits still saves.
func TestSettingsSaveRefusesAFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	f := settings.NewFile(filepath.Join(dir, "settings.json"), settings.Catalog{Names: []string{"mock"}})
	if _, err := f.Set("roles.reviewer.model", strings.Repeat("v", 900<<10)); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(f.Path())
	if err != nil {
		t.Fatal(err)
	}
	svc := NewSettingsService(f, nil, nil, &RecordingEmitter{}, context.Background, nil, nil)
	cur, err := svc.Get()
	if err != nil {
		t.Fatal(err)
	}
	v := cur.Settings
	v.WorkingDirectory = "/" + strings.Repeat("w", 200<<10)
	res, err := svc.Save(v)
	want := "The settings would be 1101 KiB, over the limit of 1024 KiB, so nothing was saved: shorten or unset a long value, or start from the defaults with 'boof-runner settings reset'."
	if err == nil || err.Error() != want || res.Saved {
		t.Fatalf("save past the limit: %+v %v", res, err)
	}
	if after, _ := os.ReadFile(f.Path()); !bytes.Equal(before, after) {
		t.Fatal("the refused save changed the file")
	}
	v.WorkingDirectory = "/srv/repo"
	if res, err := svc.Save(v); err != nil || !res.Saved {
		t.Fatalf("a save that fits: %+v %v", res, err)
	}
	if s, err := f.Load(); err != nil || s.WorkingDirectory != "/srv/repo" || len(s.Roles.Reviewer.Model) != 900<<10 {
		t.Fatalf("after the save that fits: %v %q", err, s.WorkingDirectory)
	}
}

// The Settings screen's usage-limit fields are limits.onLimit and
// limits.switchOrder: the default order is shown, an edited order is
// stored as the screen sent it, and a view without limits (a front end
// older than them) changes neither.
func TestSettingsLimitsFields(t *testing.T) {
	f := settings.NewFile(filepath.Join(t.TempDir(), "settings.json"), host.Catalog())
	svc := NewSettingsService(f, nil, nil, &RecordingEmitter{}, context.Background, nil, nil)
	cur, err := svc.Get()
	if err != nil {
		t.Fatal(err)
	}
	v := cur.Settings
	if v.Limits.OnLimit != "wait" || strings.Join(v.Limits.SwitchOrder, ",") != "claude-code,codex,gemini,opencode,qwen-code" {
		t.Fatalf("defaults %+v", v.Limits)
	}
	v.Limits = LimitsView{OnLimit: "switch", SwitchOrder: []string{"gemini", "mock"}}
	if res, err := svc.Save(v); err != nil || !res.Saved || strings.Join(res.Settings.Limits.SwitchOrder, ",") != "gemini,mock" {
		t.Fatalf("save %+v %v", res, err)
	}
	s, _ := f.Load()
	if s.Limits.OnLimit != task.OnLimitSwitch || strings.Join(s.Limits.SwitchOrder, ",") != "gemini,mock" {
		t.Fatalf("stored %+v", s.Limits)
	}
	v.Limits, v.Concurrency = LimitsView{}, 2
	if res, err := svc.Save(v); err != nil || !res.Saved {
		t.Fatalf("save without limits %+v %v", res, err)
	}
	if s, _ = f.Load(); s.Limits.OnLimit != task.OnLimitSwitch || strings.Join(s.Limits.SwitchOrder, ",") != "gemini,mock" || s.Runner.Concurrency != 2 {
		t.Fatalf("a view without limits changed them: %+v", s.Limits)
	}
}
