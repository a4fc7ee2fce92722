package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// loadWithin loads f in a goroutine and fails the test when it blocks.
func loadWithin(t *testing.T, f *File) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { _, err := f.Load(); done <- err }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("Load blocked")
		return nil
	}
}

// parallelKeys are 12 different keys with non-default values.
var parallelKeys = [][2]string{
	{"workingDirectory", testAbs("src", "app")}, {"runner.enabled", "false"}, {"runner.concurrency", "3"},
	{"review.gate", "false"}, {"review.maxFixRounds", "5"}, {"review.maxInlineDiffBytes", "4000"},
	{"worktree.onDone", "keep"}, {"worktree.onFailure", "delete"}, {"retries.transient", "4"},
	{"retries.idleTimeoutMs", "60000"}, {"stop.graceMs", "1234"}, {"ui.notifications", "false"},
}

// TestParallelSetsLoseNothing: 12 writers with their own File values (as
// 12 processes would have) set 12 different keys at once; every key is in
// the file afterwards.
func TestParallelSetsLoseNothing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	var wg sync.WaitGroup
	errs := make(chan error, len(parallelKeys))
	for _, kv := range parallelKeys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := NewFile(p, testCatalog()).Set(kv[0], kv[1])
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	f := NewFile(p, testCatalog())
	for _, kv := range parallelKeys {
		got, err := f.Get(kv[0])
		want, _ := json.Marshal(parseValue(kv[1]))
		if err != nil || strings.TrimSpace(string(got)) != string(want) {
			t.Errorf("%s = %s (%v), want %s", kv[0], got, err, want)
		}
	}
}

// TestSaveChangesKeepsAConcurrentSet: the window shows the settings, a
// script sets runner.concurrency, then the window saves a change of
// review.gate: both changes are in the file.
func TestSaveChangesKeepsAConcurrentSet(t *testing.T) {
	window := newFile(t, `{"runner":{"concurrency":2},"zzz":true}`)
	shown, err := window.Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewFile(window.Path(), testCatalog()).Set("runner.concurrency", "7"); err != nil {
		t.Fatal(err)
	}
	next := shown
	next.Review.Gate = false
	if err := window.SaveChanges(shown, next); err != nil {
		t.Fatal(err)
	}
	got, err := window.Load()
	if err != nil || got.Runner.Concurrency != 7 || got.Review.Gate {
		t.Fatalf("after save: concurrency %d gate %v (%v)", got.Runner.Concurrency, got.Review.Gate, err)
	}
	b, _ := os.ReadFile(window.Path())
	if !strings.Contains(string(b), `"zzz"`) {
		t.Fatalf("unknown key lost: %s", b)
	}
	// Removing the observer deletes its key; an invalid change writes nothing.
	obs := ToolRef{Tool: toolMock}
	next.Roles.Observer = &obs
	if err := window.SaveChanges(got, next); err != nil {
		t.Fatal(err)
	}
	withObs, _ := window.Load()
	noObs := withObs
	noObs.Roles.Observer = nil
	if err := window.SaveChanges(withObs, noObs); err != nil {
		t.Fatal(err)
	}
	if s, _ := window.Load(); s.Roles.Observer != nil {
		t.Fatalf("observer kept: %+v", s.Roles.Observer)
	}
	before, _ := os.ReadFile(window.Path())
	bad := noObs
	bad.Runner.Concurrency = 0
	if err := window.SaveChanges(noObs, bad); !errors.Is(err, ErrInvalid) {
		t.Fatalf("invalid save: %v", err)
	}
	if after, _ := os.ReadFile(window.Path()); string(after) != string(before) {
		t.Fatal("an invalid save changed the file")
	}
}

// TestWriteThroughSymlink: a settings.json kept as a symbolic link stays a
// link; its target gets the change.
func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "boof.json")
	os.MkdirAll(filepath.Dir(target), 0o700)
	os.WriteFile(target, []byte(`{"review":{"gate":true}}`), 0o600)
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(link); err != nil && os.Getenv("BOOF_UNDER_WINE") != "" {
		t.Skipf("Wine 8's CreateSymbolicLinkW reports success and makes no link (%v)", err)
	}
	if _, err := NewFile(link, testCatalog()).Set("review.gate", "false"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link replaced: %v", err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), `"gate": false`) {
		t.Fatalf("target not written: %s", b)
	}
}

// TestUnknownKeysNameTheClosestKnownKey: a mistyped key of the file and of
// Set/Get names the key it probably meant.
func TestUnknownKeysNameTheClosestKnownKey(t *testing.T) {
	f := newFile(t, `{"runner":{"concurency":2},"reveiw":{"gate":false},"tools":{"claude":{"path":"/x"},"codex":{"env":{"MY_VAR":"1"}}},"frobnicate":1}`)
	got, err := f.UnknownKeys()
	if err != nil {
		t.Fatal(err)
	}
	want := []UnknownKey{{"frobnicate", ""}, {"reveiw", "review"}, {"runner.concurency", "runner.concurrency"}, {"tools.claude", "tools.claude-code"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("unknown keys %v\nwant %v", got, want)
	}
	var uk *UnknownKeyError
	if _, err := f.Set("runner.concurency", "2"); !errors.As(err, &uk) || uk.Suggestion != "runner.concurrency" || !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("set: %v", err)
	}
	if _, err := f.Get("review.maxFixRound"); !errors.As(err, &uk) || uk.Suggestion != "review.maxFixRounds" {
		t.Fatalf("get: %v", err)
	}
	if _, err := f.Set("a..b", "1"); !errors.As(err, &uk) || uk.Suggestion != "" {
		t.Fatalf("empty segment: %v", err)
	}
	if s := Suggest("zzzzzzzzzz", nil); s != "" {
		t.Fatalf("far key suggested %q", s)
	}
}
