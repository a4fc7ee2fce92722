//go:build realcli

package codex

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/task"
)

// limitStep runs one developer step of the real codex whose model answers
// with replies, and returns its result.
func limitStep(t *testing.T, replies ...fakemodel.Reply) agent.Result {
	t.Helper()
	srv := fakemodel.Start(t)
	c := realTool(t, srv.URL(), true)
	srv.Enqueue(replies...)
	run, rec := startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Create hello.txt.", Dir: gitRepo(t),
		TranscriptPath: filepath.Join(t.TempDir(), "step.log"), IdleTimeout: time.Minute, MaxRuntime: 2 * time.Minute})
	res, err := run.Wait()
	if err != nil || res.Limit == nil || res.Transient {
		t.Fatalf("result %+v %v\noutput %q", res, err, rec.output)
	}
	return res
}

// codex prints a usage limit's reset rounded down to the minute; the
// window headers of the refused request give it to the second, and codex
// records them in its session file: the pause ends at the reset itself.
func TestRealLimitResetToTheSecondFromTheSessionFile(t *testing.T) {
	reset := time.Now().Truncate(time.Minute).Add(time.Minute + 30*time.Second)
	res := limitStep(t, fakemodel.OpenAIUsageLimit(reset))
	if !res.Limit.ResetsAt.Equal(reset.Truncate(time.Second)) {
		t.Fatalf("reset %v, want %v (%q)", res.Limit.ResetsAt, reset.Truncate(time.Second), res.ErrorText)
	}
}

// Without the window headers only the printed minute is left: a reset
// later in the current minute prints as a minute already begun, which is
// a short wait, not the same minute tomorrow.
func TestRealLimitResetInTheCurrentMinuteIsNotTomorrow(t *testing.T) {
	reset := time.Now().Truncate(time.Minute).Add(59 * time.Second)
	res := limitStep(t, fakemodel.OpenAIUsageLimitBody(reset))
	now := time.Now()
	if at := res.Limit.ResetsAt; at.Before(reset) || at.After(now.Add(2*time.Minute)) {
		t.Fatalf("reset %v for a reset at %v read at %v (%q)", at, reset, now, res.ErrorText)
	}
}

// A usage limit after the turn's first model call: codex prints no usage
// for the failed turn, the session file has the call's; the step reports it.
func TestRealLimitMidTurnReportsTheWorkBefore(t *testing.T) {
	res := limitStep(t,
		fakemodel.Reply{Text: "Writing it.", ToolCalls: []fakemodel.ToolCall{fakemodel.ExecCommand("true")}, InputTokens: 500, OutputTokens: 9},
		fakemodel.OpenAIUsageLimit(time.Now().Add(time.Hour)))
	if res.Usage.InputTokens+res.Usage.CacheReadTokens != 500 || res.Usage.OutputTokens != 9 {
		t.Fatalf("usage %+v, want the first call's 500 in, 9 out", res.Usage)
	}
}
