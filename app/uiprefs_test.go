package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// The diff layout is remembered in settings.ui.diffView across a
// restart, a bad layout is refused, and no other key of the file changes.
func TestDiffViewIsRemembered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"ui": {"notifications": false}, "mine": 1}`), 0o600)
	svc := newSettingsSvc(t, path)
	if v, err := svc.DiffView(); err != nil || v != "unified" {
		t.Fatalf("default %q %v", v, err)
	}
	if v, err := svc.SetDiffView("split"); err != nil || v != "split" {
		t.Fatalf("set %q %v", v, err)
	}
	for _, bad := range []string{"null", "sideways", ""} {
		if _, err := svc.SetDiffView(bad); err == nil {
			t.Fatalf("the layout %q was saved", bad)
		}
	}
	again := newSettingsSvc(t, path)
	if v, _ := again.DiffView(); v != "split" {
		t.Fatalf("after a restart %q", v)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `"mine": 1`) || !strings.Contains(string(b), `"notifications": false`) {
		t.Fatalf("other keys changed:\n%s", b)
	}
}

func newSettingsSvc(t *testing.T, path string) *SettingsService {
	t.Helper()
	return NewSettingsService(settings.NewFile(path, host.Catalog()), newTestStore(t), nil, &RecordingEmitter{}, context.Background, nil, nil)
}
