package gemini

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// script writes an executable shell script and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gemini")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// The health check says, in one line each, what is wrong with a gemini
// that is missing, too old, prints garbage or exits at once, whose smoke
// prompt is refused or unanswered, or that hangs before its first line;
// a good one is installed, authenticated and reachable.
func TestHealth(t *testing.T) {
	for _, c := range []struct {
		name, recorded, exit string
		path                 string // "" = the fake CLI
		env                  []string
		installed, authed    bool
		reachable            bool
		err                  string
	}{
		{name: "good", recorded: "success", exit: "0", installed: true, authed: true, reachable: true},
		{name: "missing", recorded: "success", exit: "0", path: "/nowhere/gemini", err: "gemini executable /nowhere/gemini not found (install @google/gemini-cli, or set tools.gemini.path)"},
		{name: "too old", recorded: "success", exit: "0", env: []string{"FAKE_GEMINI_VERSION=0.40.2"}, installed: true,
			err: "gemini 0.40.2 is older than 0.61.0, the oldest version this app drives"},
		{name: "garbage", recorded: "success", exit: "0", path: "printf '\\377\\033[31mno version here\\n'", err: "gemini --version printed no version"},
		{name: "exits at once", recorded: "success", exit: "0", path: "echo 'node: not found' >&2; exit 127", err: "gemini --version: exit status 127: node: not found"},
		{name: "bad key", recorded: "error_auth", exit: "144", installed: true, reachable: true, err: "API key not valid"},
		{name: "refused", recorded: "error_refused", exit: "1", installed: true, err: "fetch failed"},
		{name: "insecure URL", recorded: "success", exit: "0", env: []string{"GOOGLE_GEMINI_BASE_URL=http://example.com"}, installed: true,
			err: "GOOGLE_GEMINI_BASE_URL must be https (http only for localhost)"},
		{name: "hangs", recorded: "success", exit: "0", path: `[ "$1" = --version ] && { echo 0.61.0; exit 0; }; sleep 60`, installed: true,
			err: "gemini: no answer to the smoke prompt in time"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tool, _ := fakeCLI(t, c.recorded, c.exit, nil)
			tool.opts.Env = append(tool.opts.Env, c.env...)
			switch {
			case strings.HasPrefix(c.path, "/"):
				tool.opts.Path = c.path
			case c.path != "":
				tool.opts.Path = script(t, c.path)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
			defer cancel()
			h := tool.Health(ctx, "gemini-2.5-flash")
			if h.Tool != Name || h.Installed != c.installed || h.Authenticated != c.authed || h.Reachable != c.reachable ||
				!strings.Contains(h.Error, c.err) || (c.err == "") != (h.Error == "") || strings.Contains(h.Error, "\n") {
				t.Fatalf("health %+v", h)
			}
		})
	}
}

// A step whose gemini hangs before its first line is stopped by the idle
// watchdog, its whole process tree ended, and it is reported stalled
// (worth a retry), never left running.
func TestHangBeforeTheFirstLineStalls(t *testing.T) {
	tool, _ := fakeCLI(t, "success", "0", nil)
	tool.opts.Path = script(t, `sleep 60 & sleep 60; wait`)
	run, err := tool.Start(context.Background(), agent.Request{Prompt: "go", Dir: t.TempDir(), IdleTimeout: time.Second, Grace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := run.Wait()
	if res.StopReason != proc.ReasonStalled || !res.Transient || !res.Failed() {
		t.Fatalf("result %+v", res)
	}
	if pids := run.Pids(); len(pids) != 0 {
		t.Fatalf("processes left: %v", pids)
	}
}

// Models lists gemini's models and aliases, then the configured ones.
func TestModels(t *testing.T) {
	tool := New(Options{Models: []string{"gemini-2.5-pro", "my-tuned-model", " "}})
	ms := tool.Models(context.Background())
	ids := make([]string, 0, len(ms))
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	got := strings.Join(ids, " ")
	if !strings.HasPrefix(got, "auto pro flash") || !strings.HasSuffix(got, "gemini-2.5-flash-lite my-tuned-model") ||
		strings.Count(got, "gemini-2.5-pro") != 1 || ms[len(ms)-1].Source != agent.ModelSourceSettings {
		t.Fatalf("models %s", got)
	}
}
