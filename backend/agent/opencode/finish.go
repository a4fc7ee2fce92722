package opencode

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// resetAtRe finds a reset an error names as a time: "will reset at
// 2026-12-05T18:30:00Z".
var resetAtRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\breset(?:s)? at (\d{4}-\d\d-\d\d[T ][0-9:.]+(?:Z|[+-]\d\d:?\d\d)?)`)
})

// unknownFlagRe matches the argument parser's complaint of an opencode
// that lacks a flag the adapter passes.
var unknownFlagRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)unknown arguments?:`) })

// finish builds the step's result from the stream and the exit. resumed is
// the session the step continued ("" for a new one).
func (r *run) finish(pr proc.Result, resumed string, emit func(agent.Event)) agent.Result {
	o := r.parser.Outcome()
	if r.limitStop.Load() && !r.userStop.Load() {
		return quietLimit(o, pr, resumed)
	}
	toolErr := ""
	switch {
	case o.Error != "" && o.Status != 0:
		// The status in the words of the other CLIs ("API Error: 503 …"),
		// so a server error opencode gave up on is retried as transient.
		toolErr = fmt.Sprintf("API Error: %d %s", o.Status, o.Error)
	case o.Error != "":
		toolErr = o.Error
	case pr.Reason != proc.ReasonNone:
	case pr.ExitCode != 0 || pr.Signal != "":
		toolErr = withRaw("opencode "+pr.Err().Error(), o.Raw)
	case o.Steps == 0:
		toolErr = withRaw("opencode ended without finishing a step", o.Raw)
	}
	res := agent.ProcResult(pr, toolErr)
	res.SessionID, res.Usage = o.SessionID, o.Usage
	if res.SessionID == "" {
		res.SessionID = resumed
	}
	if res.Failed() && pr.Reason == proc.ReasonNone && o.Error != "" &&
		(o.Status == http.StatusTooManyRequests || rateLimitRe().MatchString(o.Error)) {
		res.Limit = &agent.Limit{Kind: "rate_limit", Message: toolErr,
			ResetsAt: resetFrom(o.RetryAfter, o.Error+"\n"+o.ErrorDetail, time.Now())}
		res.Transient = false
	}
	if res.Failed() && res.Limit == nil && pr.Reason == proc.ReasonNone {
		res.Exhausted = agent.DetectExhausted(toolErr)
	}
	if !res.Failed() {
		res.Report = o.Report
		res.Questions = agent.ExtractQuestions(o.Report)
		for _, q := range res.Questions {
			emit(agent.Event{Kind: agent.EventQuestion, Text: q})
		}
	}
	return res
}

// quietLimit is the result of a step the adapter ended while opencode sat
// waiting out a refused model call: a usage limit (as far as the pipeline
// is concerned the step was not stopped by us), its reset unknown unless
// the refusal named one.
func quietLimit(o Outcome, pr proc.Result, resumed string) agent.Result {
	msg := "the model server refused the model call (429) and opencode kept waiting to retry"
	if n := len(o.StreamErrors); n > 0 {
		msg = o.StreamErrors[n-1] + " (opencode kept waiting to retry)"
	}
	id := o.SessionID
	if id == "" {
		id = resumed
	}
	return agent.Result{SessionID: id, Usage: o.Usage, ExitCode: pr.ExitCode, Signal: pr.Signal, ErrorText: msg,
		Limit: &agent.Limit{Kind: "rate_limit", Message: msg, ResetsAt: resetFrom("", msg, time.Now())}}
}

// resetFrom reads when a refusal ends: a time after "reset at" in its text
// (absolute, so exact however late it is read), else the response's
// retry-after (seconds, counted from now, or an HTTP date), else what
// agent.ResetFromText finds; zero when none.
func resetFrom(retryAfter, text string, now time.Time) time.Time {
	if m := resetAtRe().FindStringSubmatch(text); m != nil {
		s := strings.Replace(m[1], " ", "T", 1)
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05"} {
			if at, err := time.Parse(layout, s); err == nil {
				return at
			}
		}
	}
	if v := strings.TrimSpace(retryAfter); v != "" {
		if n, err := strconv.ParseFloat(v, 64); err == nil && n > 0 && n < 366*24*3600 {
			return now.Add(time.Duration(n * float64(time.Second)))
		}
		if at, err := http.ParseTime(v); err == nil && at.After(now) {
			return at
		}
	}
	return agent.ResetFromText(text, now, time.Local)
}

// withRaw appends the last lines opencode printed outside its JSON events
// (its stderr) to msg, with a hint when opencode did not know a flag the
// adapter passes.
func withRaw(msg string, raw []string) string {
	if n := len(raw); n > 0 {
		msg += ": " + strings.Join(raw[max(0, n-3):], " | ")
	}
	if unknownFlagRe().MatchString(msg) {
		msg += " (this opencode lacks a flag Boof Runner passes: it was tested with opencode " + TestedVersion + "; check `opencode --version`)"
	}
	return msg
}
