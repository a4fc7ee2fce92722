package settings

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The tool names the tests use; settings receives them from backend/host.
const (
	toolClaude = "claude-code"
	toolCodex  = "codex"
	toolMock   = "mock"
)

// testCatalog is the catalog backend/host builds, with installed as the
// installed tools.
func testCatalog(installed ...string) Catalog {
	return Catalog{
		Names:        []string{toolClaude, toolCodex, toolMock},
		Configurable: []string{toolClaude, toolCodex},
		Installed:    func(tool string) bool { return slices.Contains(installed, tool) },
		SwitchOrder:  []string{toolClaude, toolCodex},
	}
}

func newFile(t *testing.T, content string, installed ...string) *File {
	t.Helper()
	p := filepath.Join(t.TempDir(), "settings.json")
	if content != "" {
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return NewFile(p, testCatalog(installed...))
}

func TestDefaultToolPreference(t *testing.T) {
	cases := map[string]struct {
		installed []string
		want      string
	}{
		"both":       {[]string{toolClaude, toolCodex}, toolClaude},
		"codex only": {[]string{toolCodex}, toolCodex},
		"none":       {nil, toolMock},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := newFile(t, "", c.installed...).Load()
			if err != nil {
				t.Fatal(err)
			}
			if s.DefaultTool != c.want || s.Roles.Developer.Tool != c.want || s.Roles.Observer != nil {
				t.Fatalf("default %q developer %q observer %v, want %q", s.DefaultTool, s.Roles.Developer.Tool, s.Roles.Observer, c.want)
			}
		})
	}
}

func TestCatalog(t *testing.T) {
	if got := testCatalog().Rule(); got != "claude-code if installed, else codex, else mock" {
		t.Errorf("rule = %q", got)
	}
	if got := (Catalog{Names: []string{"solo"}}).Rule(); got != "solo" {
		t.Errorf("one-tool rule = %q", got)
	}
	if d := (Catalog{}).Default(); d != "" {
		t.Errorf("empty catalog default = %q", d)
	}
	// A tool outside the catalog is refused, one inside it accepted.
	f := newFile(t, "")
	if _, err := f.Set("roles.developer.tool", "vim"); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "claude-code, codex, mock") {
		t.Errorf("unknown tool: %v", err)
	}
	if s, err := f.Set("roles.developer.tool", toolCodex); err != nil || s.Roles.Developer.Tool != toolCodex {
		t.Errorf("codex: %+v %v", s.Roles.Developer, err)
	}
	// Only configurable tools take tools.<name> keys.
	if _, err := f.Set("tools.mock.path", "/bin/true"); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("tools.mock.path: %v", err)
	}
	if s, err := f.Set("tools.codex.path", "/opt/codex"); err != nil || s.Tools[toolCodex].Path != "/opt/codex" {
		t.Errorf("tools.codex.path: %+v %v", s.Tools, err)
	}
	// Settings without a catalog accept no tool.
	if err := (Settings{}).Validate(); err == nil {
		t.Error("settings without a catalog validated")
	}
}

func TestLoadDefaults(t *testing.T) {
	s, err := newFile(t, "").Load()
	if err != nil {
		t.Fatal(err)
	}
	if !s.Review.Gate || s.Review.MaxFixRounds != 2 || s.Review.MaxInlineDiffBytes != 120000 ||
		s.Retries.Transient != 2 || s.Retries.IdleTimeoutMs != 1200000 || s.Runner.Concurrency != 1 || !s.Runner.Enabled ||
		s.Worktree.OnDone != "keep-branch" || s.Worktree.OnFailure != "keep" {
		t.Fatalf("defaults: %+v", s)
	}
	if s.Retries.Backoff(1) != 30000 || s.Retries.Backoff(2) != 120000 || s.Retries.Backoff(7) != 120000 {
		t.Fatalf("backoff: %v", s.Retries.BackoffMs)
	}
}

func TestLoadPartialKeepsDefaults(t *testing.T) {
	f := newFile(t, `{"review":{"maxFixRounds":5},"roles":{"observer":{"tool":"mock","model":"m"},"planner":{"model":"opus"}}}`, toolCodex)
	s, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	if s.Review.MaxFixRounds != 5 || !s.Review.Gate || s.Roles.Observer == nil || s.Roles.Observer.Model != "m" ||
		s.Roles.Planner.Tool != toolCodex || s.Roles.Planner.Model != "opus" {
		t.Fatalf("got %+v observer %+v", s, s.Roles.Observer)
	}
}

func TestLoadBadFileNamesKeyAndKeepsFile(t *testing.T) {
	cases := map[string]struct{ content, wantInErr string }{
		"malformed":        {`{"review": {`, "malformed"},
		"not object":       {`[1,2]`, "malformed"},
		"trailing":         {`{} {}`, "malformed"},
		"wrong type":       {`{"review":{"maxFixRounds":"two"}}`, "review.maxFixRounds"},
		"fraction":         {`{"runner":{"concurrency":1.5}}`, "runner.concurrency"},
		"out of range":     {`{"runner":{"concurrency":0}}`, "runner.concurrency"},
		"unknown tool":     {`{"roles":{"developer":{"tool":"gpt"}}}`, "roles.developer.tool"},
		"bad policy":       {`{"worktree":{"onDone":"trash"}}`, "worktree.onDone"},
		"empty backoff":    {`{"retries":{"backoffMs":[]}}`, "retries.backoffMs"},
		"negative backoff": {`{"retries":{"backoffMs":[1,-1]}}`, "retries.backoffMs must hold delays between 0 and 86400000 (got -1 at position 2)"},
		"bad env name":     {`{"tools":{"codex":{"env":{"A B":"x"}}}}`, "tools.codex.env"},
		"relative workdir": {`{"workingDirectory":"rel/dir"}`, "workingDirectory"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFile(t, c.content)
			s, err := f.Load()
			if err == nil || !strings.Contains(err.Error(), c.wantInErr) {
				t.Fatalf("err = %v, want mention of %q", err, c.wantInErr)
			}
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrInvalid) {
				t.Fatalf("err %v is neither ErrMalformed nor ErrInvalid", err)
			}
			if s.Review.MaxFixRounds != DefaultMaxFixRounds || s.Runner.Concurrency != 1 {
				t.Fatalf("want defaults in memory, got %+v", s)
			}
			b, _ := os.ReadFile(f.Path())
			if string(b) != c.content {
				t.Fatalf("file rewritten: %q", b)
			}
			if _, err := f.Set("review.gate", "false"); err == nil {
				t.Fatal("Set on a bad file succeeded")
			}
			if b, _ := os.ReadFile(f.Path()); string(b) != c.content && errors.Is(err, ErrMalformed) {
				t.Fatalf("Set rewrote a malformed file: %q", b)
			}
		})
	}
}

func TestSetGetUnknownKeysPreserved(t *testing.T) {
	f := newFile(t, `{"future":{"x":1},"review":{"gate":true,"extra":"keep me"}}`)
	if _, err := f.Set("review.maxFixRounds", "4"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Set("worktree.onDone", "keep"); err != nil { // bare word → string
		t.Fatal(err)
	}
	if _, err := f.Set("roles.observer", `{"tool":"mock","model":"small"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Set("tools.claude-code.env", `{"IS_SANDBOX":"1"}`); err != nil {
		t.Fatal(err)
	}
	s, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	if s.Review.MaxFixRounds != 4 || s.Worktree.OnDone != "keep" || s.Roles.Observer.Model != "small" ||
		strings.Join(s.EnvList(toolClaude), ",") != "IS_SANDBOX=1" {
		t.Fatalf("after set: %+v", s)
	}
	var raw map[string]any
	b, _ := os.ReadFile(f.Path())
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if raw["future"] == nil || raw["review"].(map[string]any)["extra"] != "keep me" {
		t.Fatalf("unknown keys lost: %s", b)
	}
	got, err := f.Get("review.maxFixRounds")
	if err != nil || string(got) != "4" {
		t.Fatalf("get = %s, %v", got, err)
	}
	got, err = f.Get("roles.observer")
	if err != nil || !strings.Contains(string(got), `"small"`) {
		t.Fatalf("get observer = %s, %v", got, err)
	}
	// null unsets back to the default.
	if _, err := f.Set("roles.observer", "null"); err != nil {
		t.Fatal(err)
	}
	if s, _ := f.Load(); s.Roles.Observer != nil {
		t.Fatalf("observer not unset: %+v", s.Roles.Observer)
	}
	if _, err := f.Get("roles.observer"); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("get unset observer: %v", err)
	}
	if _, err := f.Set("review.maxFixRounds", "null"); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.Get("review.maxFixRounds"); string(got) != "2" {
		t.Fatalf("unset maxFixRounds = %s", got)
	}
	all, err := f.Get("")
	if err != nil || !strings.Contains(string(all), `"maxInlineDiffBytes"`) {
		t.Fatalf("get all: %s %v", all, err)
	}
}

func TestSetRejectsBadInputChangingNothing(t *testing.T) {
	const content = `{"review":{"maxFixRounds":3}}`
	cases := map[string][2]string{
		"unknown key":   {"review.maxFixRound", "4"},
		"empty segment": {"review..gate", "true"},
		"wrong type":    {"review.gate", `"yes"`},
		"range":         {"review.maxFixRounds", "-1"},
		"bad tool":      {"roles.reviewer", `{"tool":"nope"}`},
		"through leaf":  {"review.maxFixRounds.x", "1"},
		"bare word num": {"runner.concurrency", "many"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFile(t, content)
			if _, err := f.Set(c[0], c[1]); err == nil {
				t.Fatalf("Set(%q, %q) succeeded", c[0], c[1])
			}
			if b, _ := os.ReadFile(f.Path()); string(b) != content {
				t.Fatalf("file changed: %s", b)
			}
		})
	}
}

func TestSaveKeepsUnknownAndIsAtomic(t *testing.T) {
	f := newFile(t, `{"zzz":[1],"roles":{"observer":{"tool":"mock"}}}`)
	s, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	s.Roles.Observer = nil
	s.Review.Gate = false
	if err := f.Save(s); err != nil {
		t.Fatal(err)
	}
	got, err := f.Load()
	if err != nil || got.Review.Gate || got.Roles.Observer != nil {
		t.Fatalf("after save: %+v %v", got, err)
	}
	b, _ := os.ReadFile(f.Path())
	if !strings.Contains(string(b), `"zzz"`) {
		t.Fatalf("unknown key lost: %s", b)
	}
	ents, _ := os.ReadDir(filepath.Dir(f.Path()))
	if len(ents) != 2 || ents[0].Name() != "settings.json" || ents[1].Name() != "settings.json.lock" {
		t.Fatalf("temp files left: %v", ents)
	}
	s.Runner.Concurrency = 0
	if err := f.Save(s); !errors.Is(err, ErrInvalid) {
		t.Fatalf("save invalid: %v", err)
	}
	if b2, _ := os.ReadFile(f.Path()); string(b2) != string(b) {
		t.Fatal("invalid save changed the file")
	}
}

func TestSaveReplacesMalformedFile(t *testing.T) {
	f := newFile(t, `{oops`)
	s, err := f.Load()
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("load: %v", err)
	}
	if err := f.Save(s); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Load(); err != nil {
		t.Fatalf("after save: %v", err)
	}
}

func TestUISettingsDefaultOnAndSettable(t *testing.T) {
	f := NewFile(filepath.Join(t.TempDir(), "settings.json"), testCatalog())
	s, err := f.Load()
	if err != nil || !s.UI.Notifications || !s.UI.CloseToTray {
		t.Fatalf("defaults %+v %v", s.UI, err)
	}
	s, err = f.Set("ui.notifications", "false")
	if err != nil || s.UI.Notifications || !s.UI.CloseToTray {
		t.Fatalf("after set %+v %v", s.UI, err)
	}
	if _, err := f.Set("ui.closeToTray", `"sometimes"`); err == nil {
		t.Fatal("a string accepted for a bool")
	}
}
