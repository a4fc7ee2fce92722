package qwen

import (
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// TestedVersion is the qwen version this adapter's flags and parser were
// checked with.
const TestedVersion = "0.24.4"

// quotaRe matches qwen's fast-failed quota error ("Quota exhausted: …"):
// qwen gives up at once on a 429 whose message says the quota is exhausted
// or exceeded and names the reset.
var quotaRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bquota exhausted\b`) })

// resetAtRe finds the reset such a message names: "will reset at
// 2026-12-05T18:30:00Z".
var resetAtRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\breset(?:s)? at (\d{4}-\d\d-\d\d[T ][0-9:.]+(?:Z|[+-]\d\d:?\d\d)?)`)
})

// unknownFlagRe matches the argument parser's complaint of a qwen that
// lacks one of the flags the adapter passes.
var unknownFlagRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)unknown arguments?:`) })

// finish builds the step's result from the stream and the exit.
func (r *run) finish(pr proc.Result, emit func(agent.Event)) agent.Result {
	o := r.parser.Outcome()
	if r.limitStop.Load() && !r.userStop.Load() {
		return rateLimited(o, pr)
	}
	toolErr := ""
	switch {
	case o.IsError:
		toolErr = o.ErrorText
	case o.Results == 0 && pr.Reason == proc.ReasonNone:
		toolErr = withRaw("qwen ended without a result", o.Raw)
	}
	res := agent.ProcResult(pr, toolErr)
	res.SessionID, res.Usage = o.SessionID, o.Usage
	if res.Failed() && pr.Reason == proc.ReasonNone && res.Limit == nil && quotaRe().MatchString(toolErr) {
		res.Limit = &agent.Limit{Kind: "quota", Message: toolErr, ResetsAt: resetFrom(toolErr, time.Now())}
		res.Transient = false
	}
	if res.Failed() && res.Limit == nil && pr.Reason == proc.ReasonNone {
		res.Exhausted = agent.DetectExhausted(toolErr)
	}
	if !o.IsError && o.Results > 0 {
		res.Report = o.Report
		res.Questions = agent.ExtractQuestions(o.Report)
		for _, q := range res.Questions {
			emit(agent.Event{Kind: agent.EventQuestion, Text: q})
		}
	}
	return res
}

// rateLimited is the result of a step the adapter ended at qwen's first
// rate-limit retry event: a usage limit (the step did not end by a stop of
// ours as far as the pipeline is concerned), its reset read from qwen's
// message when it names one.
func rateLimited(o Outcome, pr proc.Result) agent.Result {
	msg := o.RetryText
	if msg == "" {
		msg = "qwen kept retrying a rate limit (429) of the model server"
	}
	return agent.Result{SessionID: o.SessionID, Usage: o.Usage, ExitCode: pr.ExitCode, Signal: pr.Signal,
		ErrorText: msg, Limit: &agent.Limit{Kind: "rate_limit", Message: msg, ResetsAt: resetFrom(msg, time.Now())}}
}

// resetFrom reads the reset a limit message names: an RFC 3339 time after
// "reset at", else what agent.ResetFromText finds; zero when none.
func resetFrom(msg string, now time.Time) time.Time {
	if m := resetAtRe().FindStringSubmatch(msg); m != nil {
		s := strings.Replace(m[1], " ", "T", 1)
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05"} {
			if at, err := time.Parse(layout, s); err == nil {
				return at
			}
		}
	}
	return agent.ResetFromText(msg, now, time.Local)
}

// withRaw appends the last lines qwen printed outside its stream (its
// stderr: an unknown flag, a missing node) to msg, with a hint when qwen
// did not know a flag the adapter passes.
func withRaw(msg string, raw []string) string {
	if n := len(raw); n > 0 {
		msg += ": " + strings.Join(raw[max(0, n-3):], " | ")
	}
	if unknownFlagRe().MatchString(msg) {
		msg += " (this qwen lacks a flag Boof Runner passes: it was tested with qwen " + TestedVersion + "; check `qwen --version`)"
	}
	return msg
}
