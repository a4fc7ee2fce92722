package gemini

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// Bad requests are refused before anything runs, with the error that
// names the problem; the worktree's config directory is not even made.
func TestStartRefusesBadRequests(t *testing.T) {
	tool, rec := fakeCLI(t, "success", "0", nil)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		req  agent.Request
		env  []string
		want error
	}{
		{"no dir", agent.Request{Prompt: "x"}, nil, ErrNoDir},
		{"blank prompt", agent.Request{Prompt: " \n", Dir: dir}, nil, ErrEmptyPrompt},
		{"NUL", agent.Request{Prompt: "a\x00b", Dir: dir}, nil, ErrBadText},
		{"not UTF-8", agent.Request{Prompt: "a\xffb", Dir: dir}, nil, ErrBadText},
		{"system NUL", agent.Request{Prompt: "a", SystemPrompt: "s\x00", Dir: dir}, nil, ErrBadText},
		{"huge", agent.Request{Prompt: strings.Repeat("x", maxStdinBytes+1), Dir: dir}, nil, ErrPromptTooLong},
		{"session", agent.Request{Prompt: "a", ResumeSession: "--yolo", Dir: dir}, nil, ErrBadSession},
		{"model", agent.Request{Prompt: "a", Model: "-m x", Dir: dir}, nil, ErrBadModel},
		{"http elsewhere", agent.Request{Prompt: "a", Dir: dir}, []string{"GOOGLE_GEMINI_BASE_URL=http://example.com"}, ErrInsecureBaseURL},
		{"no URL", agent.Request{Prompt: "a", Dir: dir}, []string{"GOOGLE_GEMINI_BASE_URL=::"}, ErrInsecureBaseURL},
		{"missing CLI", agent.Request{Prompt: "a", Dir: dir}, []string{"PATH=/nowhere"}, agent.ErrNotInstalled},
	} {
		t.Run(c.name, func(t *testing.T) {
			tl := New(tool.opts)
			tl.opts.Env = append(append([]string(nil), tool.opts.Env...), c.env...)
			if c.name == "missing CLI" {
				tl.opts.Path = "gemini"
			}
			run, err := tl.Start(context.Background(), c.req)
			if !errors.Is(err, c.want) || run != nil {
				t.Fatalf("err %v, want %v", err, c.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(rec, "args.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Error("gemini ran for a bad request")
	}
	if _, err := os.Stat(filepath.Join(tool.opts.StateDir, "homes")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a config directory was made for a bad request")
	}
}

// https anywhere and http to this machine are fine; http elsewhere would
// send the key in clear.
func TestCheckBaseURL(t *testing.T) {
	for raw, ok := range map[string]bool{
		"":                                    true,
		"https://generativelanguage.test":     true,
		"http://127.0.0.1:8080":               true,
		"http://localhost:1/v1":               true,
		"http://[::1]:9":                      true,
		"http://10.0.0.2:80":                  false,
		"http://localhost.example.com":        false,
		"ftp://127.0.0.1":                     false,
		"generativelanguage.googleapis.com/x": false,
	} {
		env := []string{}
		if raw != "" {
			env = append(env, "GOOGLE_GEMINI_BASE_URL="+raw)
		}
		if err := checkBaseURL(env); (err == nil) != ok {
			t.Errorf("%q: %v", raw, err)
		}
	}
}

// The limit reading of gemini's error texts: the reset from the retry
// delay (seconds or milliseconds), a daily quota's reset at the next
// midnight Pacific, exit 173 alone a limit of unknown reset, a model out
// of capacity none.
func TestDetectLimit(t *testing.T) {
	now := time.Date(2026, 3, 7, 23, 30, 0, 0, time.UTC)
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Skip("no time zone data")
	}
	for _, c := range []struct {
		text  string
		exit  int
		ok    bool
		reset time.Time
	}{
		{"[API Error: Resource has been exhausted (e.g. check quota).\nSuggested retry after 3599s.]", 173, true, now.Add(3599 * time.Second)},
		{"quota exceeded. Please retry in 1500ms.", 1, true, now.Add(time.Second)},
		{"[API Error: You have exhausted your daily quota on this model.]", 173, true, time.Date(2026, 3, 8, 0, 0, 0, 0, la)},
		{"[API Error: something odd]", 173, true, time.Time{}},
		{"[API Error: You have exhausted your capacity on this model.]", 173, false, time.Time{}},
		{"[API Error: The model is overloaded.]", 247, false, time.Time{}},
		{"API key not valid", 144, false, time.Time{}},
	} {
		l, ok := detectLimit(c.text, "unknown", c.exit, now)
		if ok != c.ok || !l.ResetsAt.Equal(c.reset) {
			t.Errorf("%q exit %d: %v %s, want %v %s", c.text, c.exit, ok, l.ResetsAt, c.ok, c.reset)
		}
	}
	// The quota day follows Pacific time across a change of clocks.
	if got := NextQuotaDay(time.Date(2026, 11, 1, 7, 30, 0, 0, time.UTC), la); !got.Equal(time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("next quota day %s", got.UTC())
	}
}
