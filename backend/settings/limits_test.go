package settings

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

// limits.switchOrder defaults to the catalog's order, takes any order of
// known tools (the empty list included: nothing switches), and a name
// that is no tool or a tool named twice is refused with the key, the
// file unchanged.
func TestSwitchOrderKey(t *testing.T) {
	if got := Defaults(testCatalog()).Limits.SwitchOrder; !reflect.DeepEqual(got, []string{toolClaude, toolCodex}) {
		t.Fatalf("default switch order %q", got)
	}
	path := filepath.Join(t.TempDir(), "settings.json")
	f := NewFile(path, testCatalog())
	s, err := f.Set("limits.switchOrder", `["codex","mock","claude-code"]`)
	if err != nil || !reflect.DeepEqual(s.Limits.SwitchOrder, []string{toolCodex, toolMock, toolClaude}) {
		t.Fatalf("set: %q %v", s.Limits.SwitchOrder, err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for val, want := range map[string]string{
		`["codex","gemini"]`: `limits.switchOrder must list tools among claude-code, codex, mock (got "gemini" at position 2)`,
		`["codex","codex"]`:  `limits.switchOrder must name each tool once (got "codex" twice)`,
		`"codex"`:            `limits.switchOrder must be`,
		`[1]`:                `limits.switchOrder must be`,
	} {
		if _, err := f.Set("limits.switchOrder", val); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("set %s: %v, want %q", val, err, want)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("a refused value changed the file:\n%s", after)
	}
	if s, err = f.Set("limits.switchOrder", `[]`); err != nil || s.Limits.SwitchOrder == nil || len(s.Limits.SwitchOrder) != 0 {
		t.Fatalf("empty list: %q %v", s.Limits.SwitchOrder, err)
	}
	if s, err = f.Load(); err != nil || len(s.Limits.SwitchOrder) != 0 {
		t.Fatalf("reloaded empty list: %q %v", s.Limits.SwitchOrder, err)
	}
}
