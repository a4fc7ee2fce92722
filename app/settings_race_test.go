package app

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// TestWindowSaveKeepsAKeyAScriptSet: the Settings screen is shown, a script
// (the real CLI, another process) sets runner.concurrency, then the user
// saves a change of review.gate from the screen: both changes are in the
// file; the script's value is not overwritten by the stale one the screen
// showed.
func TestWindowSaveKeepsAKeyAScriptSet(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	svc := NewSettingsService(settings.NewFile(path, host.Catalog()), newTestStore(t), nil, &RecordingEmitter{}, context.Background, nil, nil)
	shown, err := svc.Get()
	if err != nil || shown.Settings.Concurrency != 1 {
		t.Fatalf("get: %+v %v", shown, err)
	}
	bin := filepath.Join(t.TempDir(), "boof-runner")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/boof-runner/boof-runner").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin, "settings", "set", "runner.concurrency", "4", "--data-dir", dir).CombinedOutput(); err != nil {
		t.Fatalf("settings set: %v\n%s", err, out)
	}
	v := shown.Settings
	v.Review.Gate = false
	res, err := svc.Save(v)
	if err != nil || !res.Saved || len(res.Errors) != 0 {
		t.Fatalf("save: %+v %v", res, err)
	}
	got, err := settings.NewFile(path, host.Catalog()).Load()
	if err != nil || got.Runner.Concurrency != 4 || got.Review.Gate {
		t.Fatalf("file now: concurrency %d gate %v (%v); want 4 and false", got.Runner.Concurrency, got.Review.Gate, err)
	}
	if res.Settings.Concurrency != 4 {
		t.Fatalf("the screen is given concurrency %d after the save, want 4", res.Settings.Concurrency)
	}
}
