package settings

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// keyErrors returns "key reason" for every key a *ValidationError names.
func keyErrors(t *testing.T, err error) []string {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v (%T), want *ValidationError", err, err)
	}
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("%v does not match ErrInvalid", err)
	}
	var out []string
	for _, k := range ve.Keys {
		out = append(out, k.Key+" "+k.Reason)
	}
	return out
}

func TestValidateReportsEveryBadKey(t *testing.T) {
	s := Defaults(testCatalog())
	s.Runner.Concurrency = 0
	s.Worktree.OnDone = "trash"
	s.Roles.Reviewer.Tool = "gpt"
	s.Retries.BackoffMs = []int64{10, -5, -6}
	s.Tools = map[string]ToolConfig{
		"codex":       {Env: map[string]string{"B B": "x", "A": "ok\x00"}},
		"claude-code": {Path: "a\nb"},
	}
	got := keyErrors(t, s.Validate())
	want := []string{
		"runner.concurrency must be between 1 and 32 (got 0)",
		`roles.reviewer.tool must be one of claude-code, codex, mock (got "gpt")`,
		`worktree.onDone must be keep-branch, keep or delete (got "trash")`,
		"retries.backoffMs must hold delays between 0 and 86400000 (got -5 at position 2)",
		"tools.claude-code.path contains the control character U+000A; it must be one line of plain text",
		"tools.codex.env.A must not contain NUL",
		`tools.codex.env must name valid environment variables (got "B B")`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := Defaults(testCatalog()).Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
}

// TestLoadNamesEveryBadKeyInUserTerms: values of the wrong type and bad
// values are reported together, by the key the user wrote and without Go
// type names, and the defaults are used in memory.
func TestLoadNamesEveryBadKeyInUserTerms(t *testing.T) {
	content := `{"runner":{"concurrency":"four","enabled":1},"roles":{"planner":"claude-code","developer":{"tool":7}},` +
		`"review":{"maxFixRounds":1.5},"retries":{"backoffMs":[1,"x"],"idleTimeoutMs":5},"worktree":{"onFailure":"trash"},` +
		`"tools":{"codex":{"env":{"K":3}}},"ui":{"closeToTray":"sometimes"}}`
	f := newFile(t, content)
	s, err := f.Load()
	got := keyErrors(t, err)
	want := []string{
		`runner.enabled must be true or false (got 1)`,
		`runner.concurrency must be a whole number (got "four")`,
		`roles.planner must be an object (got "claude-code")`,
		`roles.developer.tool must be a string (got 7)`,
		`review.maxFixRounds must be a whole number (got 1.5)`,
		`retries.backoffMs must be a list of whole numbers (got "x" at position 2)`,
		`ui.closeToTray must be true or false (got "sometimes")`,
		`tools.codex.env.K must be a string (got 3)`,
		`worktree.onFailure must be keep or delete (got "trash")`,
		`retries.idleTimeoutMs must be between 100 and 86400000 (got 5)`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(err.Error(), "settings.") || strings.Contains(err.Error(), "int") {
		t.Fatalf("Go type names in %q", err)
	}
	def := Defaults(testCatalog())
	s.catalog, def.catalog = Catalog{}, Catalog{} // funcs never compare equal
	if !reflect.DeepEqual(s, def) {
		t.Fatalf("want defaults in memory, got %+v", s)
	}
	if _, err := f.Set("review.gate", "false"); err == nil {
		t.Fatal("Set on an invalid file succeeded")
	}
	if b, _ := os.ReadFile(f.Path()); string(b) != content {
		t.Fatalf("file changed: %s", b)
	}
}

// TestDecodeMatchesJSON: for a valid document the key-by-key decoder gives
// what encoding/json gives.
func TestDecodeMatchesJSON(t *testing.T) {
	f := newFile(t, `{"workingDirectory":`+testAbsJSON("w")+`,"roles":{"observer":{"tool":"codex","model":"m"}},"retries":{"backoffMs":[5]},`+
		`"tools":{"codex":{"path":"/bin/codex","env":{"A":"1"}},"other":{"path":"x"}},"zzz":{"kept":true}}`)
	s, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	if s.WorkingDirectory != testAbs("w") || s.Roles.Observer == nil || *s.Roles.Observer != (ToolRef{Tool: "codex", Model: "m"}) ||
		!reflect.DeepEqual(s.Retries.BackoffMs, []int64{5}) || s.Tools["codex"].Env["A"] != "1" || s.Tools["other"].Path != "x" ||
		s.Roles.Planner.Tool != "mock" || s.Runner.Concurrency != DefaultConcurrency {
		t.Fatalf("decoded %+v", s)
	}
}

func TestSetThroughNonObjectNamesTheKey(t *testing.T) {
	f := newFile(t, `{"runner":5}`)
	_, err := f.Set("runner.concurrency", "2")
	if got := keyErrors(t, err); !reflect.DeepEqual(got, []string{"runner must be an object (got 5)"}) {
		t.Fatalf("got %q", got)
	}
}

func TestMalformedFileSaysWhy(t *testing.T) {
	f := newFile(t, `{"review": {`)
	_, err := f.Load()
	var me *MalformedError
	if !errors.As(err, &me) || !errors.Is(err, ErrMalformed) || me.Path != f.Path() || me.Problem != "is not valid JSON (unexpected EOF)" {
		t.Fatalf("err = %#v", err)
	}
}
