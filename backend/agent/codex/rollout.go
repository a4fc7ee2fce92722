package codex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// maxRolloutLine bounds one line of a session file we are willing to read.
const maxRolloutLine = 64 << 20

// rollout is what a thread's codex session file,
// $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl, says at
// its end. codex exec --json prints neither a failed turn's usage nor a
// usage limit's exact reset; the session file's token_count events hold both.
type rollout struct {
	// usage is the total_token_usage of the last token_count event that
	// has one; haveUsage is false when none has.
	usage     ThreadUsage
	haveUsage bool
	// resetsAt is the latest reset of the rate-limit windows at 100 % in
	// the last token_count event's rate_limits (codex records them from
	// the API's x-codex-*-reset-at headers, on a refused request too);
	// zero when no window is full.
	resetsAt time.Time
}

// tokenCount is the part of a token_count event line we read.
type tokenCount struct {
	Type    string `json:"type"`
	Payload struct {
		Type string `json:"type"`
		Info *struct {
			Total *ThreadUsage `json:"total_token_usage"`
		} `json:"info"`
		RateLimits *struct {
			Primary   *rateWindow `json:"primary"`
			Secondary *rateWindow `json:"secondary"`
		} `json:"rate_limits"`
	} `json:"payload"`
}

// rateWindow is one rate-limit window of a token_count event.
type rateWindow struct {
	UsedPercent float64 `json:"used_percent"`
	ResetsAt    float64 `json:"resets_at"`
}

// readRollout reads a thread's session file; ok is false when it cannot be
// found or read.
func readRollout(codexHome, thread string) (r rollout, ok bool) {
	if codexHome == "" || !sessionRe().MatchString(thread) {
		return rollout{}, false
	}
	matches, _ := filepath.Glob(filepath.Join(codexHome, "sessions", "*", "*", "*", "rollout-*-"+thread+".jsonl"))
	if len(matches) == 0 {
		return rollout{}, false
	}
	f, err := userfile.OpenKept(matches[len(matches)-1])
	if err != nil {
		return rollout{}, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxRolloutLine)
	for sc.Scan() {
		l := sc.Bytes()
		if !bytes.Contains(l, []byte(`"token_count"`)) {
			continue
		}
		var ev tokenCount
		if json.Unmarshal(l, &ev) != nil || ev.Type != "event_msg" || ev.Payload.Type != "token_count" {
			continue
		}
		if i := ev.Payload.Info; i != nil && i.Total != nil {
			r.usage, r.haveUsage = *i.Total, true
		}
		if rl := ev.Payload.RateLimits; rl != nil {
			r.resetsAt = fullWindowReset(rl.Primary, rl.Secondary)
		}
	}
	return r, true
}

// fullWindowReset is the latest reset among the windows used up, zero when
// none is.
func fullWindowReset(ws ...*rateWindow) time.Time {
	var at time.Time
	for _, w := range ws {
		if w == nil || w.UsedPercent < 100 {
			continue
		}
		if t := agent.EpochTime(w.ResetsAt); t.After(at) {
			at = t
		}
	}
	return at
}

// rolloutUsage returns a thread's cumulative usage as recorded in its codex
// session file: the total_token_usage of its last token_count event. ok is
// false when the file or such an event cannot be found.
func rolloutUsage(codexHome, thread string) (ThreadUsage, bool) {
	r, ok := readRollout(codexHome, thread)
	if !ok || !r.haveUsage {
		return ThreadUsage{}, false
	}
	return r.usage, true
}
