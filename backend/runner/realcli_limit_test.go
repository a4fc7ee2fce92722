//go:build realcli

package runner_test

// The real claude and codex CLIs meeting a usage limit of the fake model
// server: what each prints is parsed into a tool pause until the reset,
// the task goes back to pending at the step the limit cut short, and once
// the clock passes the reset the task goes on and is done.
//
// What the CLIs print on a 429 (measured against the fake, Claude Code
// 2.1.197 and codex-cli of scripts/install-clis.sh):
//
//   - claude with an API key does not retry a 429 whose retry-after is long
//     and prints a result with is_error, api_error_status 429 and "API
//     Error: Request rejected (429) · <the API's message>"; no
//     rate_limit_event (that comes with a subscription login only), so no
//     reset time: the pause is task.DefaultLimitWait, with a warning.
//   - codex answers a usage_limit_reached 429 with "You've hit your usage
//     limit. … try again at 5:40 PM." (resets_at in local time, rounded
//     down to the minute; "try again later." without resets_at), and a
//     plain 429 with "exceeded retry limit, last status: 429 Too Many
//     Requests". Its JSON events carry nothing more; its session file's
//     last token_count holds the x-codex-*-reset-at window headers of the
//     refused request (rate_limits.primary.resets_at, to the second).

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/task"
)

// limitRun runs the queue of r with clk until idle (a restart between calls).
func limitRun(t *testing.T, r *root, clk *clock) {
	t.Helper()
	h, err := host.Open(context.Background(), host.Options{Paths: dataroot.Paths{Root: r.dir}, Store: r.st, Exe: os.Args[0],
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Poll: 100 * time.Millisecond, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), realCLIBound)
	runErr := h.Run(ctx, runner.UntilIdle)
	cancel()
	if err := h.Close(); err != nil {
		t.Errorf("close host: %v", err)
	}
	if runErr != nil {
		t.Fatalf("host run: %v", runErr)
	}
}

// limitScenario runs one task whose developer meets limit on tool (every
// role runs with tool): it checks the pause (until wantUntil(start), within
// slack), the task back to pending at the developer, then moves the clock
// past the reset and checks the task goes on to done.
func limitScenario(t *testing.T, tool string, tools map[string]any, limit fakemodel.Reply, srv *fakemodel.Server,
	wantUntil func(start time.Time) time.Time, slack time.Duration, wantWarning string) {
	limitScenarioRole(t, map[string]any{"tool": tool}, tools, limit, srv, wantUntil, slack, wantWarning)
}

// limitScenarioRole is limitScenario with every role set to role (a tool
// and, say, a model).
func limitScenarioRole(t *testing.T, role map[string]any, tools map[string]any, limit fakemodel.Reply, srv *fakemodel.Server,
	wantUntil func(start time.Time) time.Time, slack time.Duration, wantWarning string) {
	tool := role["tool"].(string)
	var limited atomic.Bool
	limited.Store(true)
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		switch c.role {
		case task.RoleDeveloper:
			if limited.Load() {
				return limit
			}
			return developerReply(c)
		case task.RoleReviewer:
			return fakemodel.Reply{Text: "Done.\n\nVERDICT: APPROVE", InputTokens: 150, OutputTokens: 25}
		default:
			return planReply(c)
		}
	})
	r := newRoot(t, map[string]any{
		"roles":   map[string]any{"planner": role, "refinement": role, "developer": role, "reviewer": role},
		"tools":   tools,
		"retries": map[string]any{"idleTimeoutMs": realCLIIdleMs, "backoffMs": []int{10}},
		"stop":    map[string]any{"graceMs": 2000},
	})
	tk := r.add("Create greeting.txt containing hello and commit it.", 1)
	start := time.Now()
	clk := &clock{t: start}
	limitRun(t, r, clk)

	got := r.get(tk.ID)
	if got.Status != task.StatusPending || got.Error != "" {
		t.Fatalf("after the limit: %s %q\n%s", got.Status, got.Error, r.logText(tk.ID))
	}
	pauses, err := r.st.ToolPauses(context.Background(), clk.Now())
	if err != nil || len(pauses) != 1 || pauses[0].Tool != tool {
		t.Fatalf("pauses %+v %v\n%s", pauses, err, r.logText(tk.ID))
	}
	want := wantUntil(start)
	if d := pauses[0].Until.Sub(want); d < -slack || d > slack {
		t.Errorf("%s paused until %s, want %s\n%s", tool, pauses[0].Until, want, r.logText(tk.ID))
	}
	if !strings.Contains(pauses[0].Warning, wantWarning) {
		t.Errorf("pause warning %q, want %q", pauses[0].Warning, wantWarning)
	}
	rp, ok, err := r.st.ResumePoint(context.Background(), tk.ID)
	if err != nil || !ok || rp.Step != "developer" || rp.Tool != tool {
		t.Fatalf("resume point %+v %v %v", rp, ok, err)
	}
	for _, x := range r.execs(tk.ID) {
		if x.Role == task.RoleDeveloper && x.Outcome != task.OutcomeLimited {
			t.Errorf("developer execution outcome %s, want limited", x.Outcome)
		}
	}
	refusedCostsNothing(t, r, tk.ID)
	if model.turnsOf(task.RoleReviewer) != 0 {
		t.Error("the reviewer ran before the reset")
	}

	// Before the reset a restart claims nothing; after it the task goes on.
	limitRun(t, r, clk)
	if g := r.get(tk.ID); g.Status != task.StatusPending {
		t.Fatalf("before the reset: %s", g.Status)
	}
	limited.Store(false)
	clk.Set(pauses[0].Until.Add(time.Second))
	limitRun(t, r, clk)
	done := r.get(tk.ID)
	if done.Status != task.StatusDone {
		t.Fatalf("after the reset: %s %q\n%s", done.Status, done.Error, r.logText(tk.ID))
	}
	if n := model.turnsOf(task.RolePlanner); n != 1 {
		t.Errorf("the planner ran %d times: the steps before the limit are not run again", n)
	}
}

func TestRealCLILimitClaudePausesUntilTheReset(t *testing.T) {
	t.Parallel()
	bin := realBin(t, "BOOF_CLAUDE_BIN", "Claude Code")
	srv := fakemodel.Start(t)
	reset := time.Now().Add(3 * time.Hour)
	limitScenario(t, "claude-code", map[string]any{"claude-code": claudeSettings(t, bin, srv, nil)},
		fakemodel.AnthropicUsageLimit(reset), srv,
		func(start time.Time) time.Time { return start.Add(task.DefaultLimitWait) }, time.Second, "named no reset time")
}

func TestRealCLILimitCodexPausesUntilTheReset(t *testing.T) {
	t.Parallel()
	bin := realBin(t, "BOOF_CODEX_BIN", "codex")
	srv := fakemodel.Start(t)
	reset := time.Now().Add(2 * time.Hour)
	limitScenario(t, "codex", map[string]any{"codex": codexSettings(t, bin, srv)},
		fakemodel.OpenAIUsageLimit(reset), srv,
		func(time.Time) time.Time { return reset.Truncate(time.Second) }, 0, "")
}

// With limits.onLimit switch, the real claude meeting its usage limit in
// the developer step hands the step to the real codex: codex starts fresh
// with the handoff in its prompt, the reviewer runs on codex too (claude is
// paused), and the task is done in the same run.
func TestRealCLILimitClaudeSwitchesToCodexWithAHandoff(t *testing.T) {
	t.Parallel()
	claudeBin := realBin(t, "BOOF_CLAUDE_BIN", "Claude Code")
	codexBin := realBin(t, "BOOF_CODEX_BIN", "codex")
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		switch {
		case c.role == task.RoleDeveloper && c.api == "claude":
			return fakemodel.AnthropicUsageLimit(time.Now().Add(3 * time.Hour))
		case c.role == task.RoleDeveloper:
			return developerReply(c)
		case c.role == task.RoleReviewer:
			return fakemodel.Reply{Text: "Done.\n\nVERDICT: APPROVE", InputTokens: 150, OutputTokens: 25}
		default:
			return planReply(c)
		}
	})
	p := runPipelineWith(t, map[string]any{"planner": claudeRole(), "refinement": claudeRole(), "developer": claudeRole(), "reviewer": claudeRole()},
		map[string]any{"claude-code": claudeSettings(t, claudeBin, srv, nil), "codex": codexSettings(t, codexBin, srv)},
		map[string]any{"limits": map[string]any{"onLimit": "switch"}})
	p.requireDone(t)
	var handed bool
	for _, r := range srv.ModelRequests("/v1/responses") {
		if c := classify(r); c.role == task.RoleDeveloper && !c.toolResult {
			body := string(r.Body)
			handed = strings.Contains(body, "## Handoff") && strings.Contains(body, "claude-code reached its usage limit") &&
				strings.Contains(body, "Request rejected (429)")
		}
	}
	if !handed {
		t.Error("codex's developer prompt carries no handoff from claude")
	}
	var tools []string
	for _, x := range p.executions(t, "") {
		tools = append(tools, string(x.Role)+":"+x.Tool+":"+string(x.Outcome))
	}
	if got := strings.Join(tools, " "); got != "planner:claude-code:succeeded refinement:claude-code:succeeded developer:claude-code:limited developer:codex:succeeded reviewer:codex:succeeded" {
		t.Errorf("executions %s", got)
	}
	if !strings.Contains(p.r.logText(p.tk.ID), "claude-code hit its usage limit; continuing on codex with a handoff") {
		t.Errorf("log:\n%s", p.r.logText(p.tk.ID))
	}
}

// A reset in the current minute: codex prints it rounded down to a minute
// that has already begun ("try again at 11:42 AM" at 11:42:20). Once for a
// reset later in that minute, once for a reset at HH:MM:30 of the minute
// the runner resumes in (codex refusing again right after the pause): each
// pauses codex for at most a few minutes, never until the next day, then
// the task goes on and is done. Only the error object carries the reset
// (no rate-limit window headers), so the printed minute is all there is.
func TestRealCLILimitCodexResetInTheCurrentMinute(t *testing.T) {
	t.Parallel()
	bin := realBin(t, "BOOF_CODEX_BIN", "codex")
	srv := fakemodel.Start(t)
	minute := func(sec time.Duration) time.Time { return time.Now().Truncate(time.Minute).Add(sec) }
	var refused atomic.Int32
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		switch c.role {
		case task.RoleDeveloper:
			switch refused.Add(1) {
			case 1:
				return fakemodel.OpenAIUsageLimitBody(minute(59 * time.Second))
			case 2:
				return fakemodel.OpenAIUsageLimitBody(minute(30 * time.Second))
			}
			return developerReply(c)
		case task.RoleReviewer:
			return fakemodel.Reply{Text: "Done.\n\nVERDICT: APPROVE", InputTokens: 150, OutputTokens: 25}
		default:
			return planReply(c)
		}
	})
	role := map[string]any{"tool": "codex"}
	r := newRoot(t, map[string]any{
		"roles":   map[string]any{"planner": role, "refinement": role, "developer": role, "reviewer": role},
		"tools":   map[string]any{"codex": codexSettings(t, bin, srv)},
		"retries": map[string]any{"idleTimeoutMs": 120000, "backoffMs": []int{10}},
		"stop":    map[string]any{"graceMs": 2000},
	})
	tk := r.add("Create greeting.txt containing hello and commit it.", 1)
	clk := &clock{t: time.Now()}
	const few = 3 * time.Minute
	for i := 1; i <= 2; i++ {
		limitRun(t, r, clk)
		pauses, err := r.st.ToolPauses(context.Background(), clk.Now())
		if err != nil || len(pauses) != 1 || pauses[0].Tool != "codex" {
			t.Fatalf("refusal %d: pauses %+v %v\n%s", i, pauses, err, r.logText(tk.ID))
		}
		latest := time.Now()
		if clk.Now().After(latest) {
			latest = clk.Now()
		}
		if until := pauses[0].Until; until.After(latest.Add(few)) {
			t.Fatalf("refusal %d paused codex until %s (now %s): more than %s\n%s", i, until, latest, few, r.logText(tk.ID))
		}
		if g := r.get(tk.ID); g.Status != task.StatusPending {
			t.Fatalf("refusal %d: task %s %q", i, g.Status, g.Error)
		}
		clk.Set(pauses[0].Until.Add(time.Second))
	}
	limitRun(t, r, clk)
	if done := r.get(tk.ID); done.Status != task.StatusDone {
		t.Fatalf("after the resets: %s %q\n%s", done.Status, done.Error, r.logText(tk.ID))
	}
	var outcomes []string
	for _, x := range r.execs(tk.ID) {
		if x.Role == task.RoleDeveloper {
			outcomes = append(outcomes, string(x.Outcome))
		}
	}
	if got := strings.Join(outcomes, " "); got != "limited limited succeeded" {
		t.Errorf("developer executions %s", got)
	}
	refusedCostsNothing(t, r, tk.ID)
}
