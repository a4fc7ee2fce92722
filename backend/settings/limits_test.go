package settings

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// limits.onLimit and sessions.* are set through the file like any key,
// checked, and a task's own on-limit wins over settings.
func TestLimitsAndSessionsKeys(t *testing.T) {
	f := NewFile(filepath.Join(t.TempDir(), "settings.json"), testCatalog())
	s, err := f.Set("limits.onLimit", "switch")
	if err != nil || s.Limits.OnLimit != task.OnLimitSwitch {
		t.Fatalf("set onLimit: %+v %v", s.Limits, err)
	}
	if s, err = f.Set("sessions.rotateAfterTurns", "40"); err != nil || s.Sessions.RotateAfterTurns != 40 ||
		s.Sessions.RotateContextPercent != DefaultRotateContextPercent || s.Sessions.MaxRotations != DefaultMaxRotations {
		t.Fatalf("set rotateAfterTurns: %+v %v", s.Sessions, err)
	}
	if s.EffectiveOnLimit(task.OnLimitDefault) != task.OnLimitSwitch || s.EffectiveOnLimit(task.OnLimitWait) != task.OnLimitWait {
		t.Error("effective on-limit")
	}
	if Defaults(testCatalog()).EffectiveOnLimit(task.OnLimitDefault) != task.OnLimitWait {
		t.Error("default on-limit is not wait")
	}
	for key, val := range map[string]string{"limits.onLimit": "later", "sessions.rotateContextPercent": "101", "sessions.maxRotations": "-1"} {
		if _, err := f.Set(key, val); err == nil {
			t.Errorf("%s=%s accepted", key, val)
		}
	}
	b := Defaults(testCatalog())
	b.Limits.OnLimit, b.Sessions.RotateContextPercent, b.Sessions.MaxRotations = "later", 101, -1
	want := []string{`limits.onLimit must be wait or switch (got "later")`,
		"sessions.rotateContextPercent must be between 0 and 100 (got 101)", "sessions.maxRotations must be between 0 and 20 (got -1)"}
	if got := keyErrors(t, b.Validate()); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
}
