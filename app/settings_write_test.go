package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
