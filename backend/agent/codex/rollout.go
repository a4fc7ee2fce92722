package codex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
)

// maxRolloutLine bounds one line of a session file we are willing to read.
const maxRolloutLine = 64 << 20

// rolloutUsage returns a thread's cumulative usage as recorded in its codex
// session file, $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl:
// the total_token_usage of its last token_count event. ok is false when the
// file or such an event cannot be found.
func rolloutUsage(codexHome, thread string) (ThreadUsage, bool) {
	if codexHome == "" || !sessionRe().MatchString(thread) {
		return ThreadUsage{}, false
	}
	matches, _ := filepath.Glob(filepath.Join(codexHome, "sessions", "*", "*", "*", "rollout-*-"+thread+".jsonl"))
	if len(matches) == 0 {
		return ThreadUsage{}, false
	}
	f, err := os.Open(matches[len(matches)-1])
	if err != nil {
		return ThreadUsage{}, false
	}
	defer f.Close()
	var last ThreadUsage
	found := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxRolloutLine)
	for sc.Scan() {
		l := sc.Bytes()
		if !bytes.Contains(l, []byte(`"token_count"`)) {
			continue
		}
		var ev struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
				Info *struct {
					Total *ThreadUsage `json:"total_token_usage"`
				} `json:"info"`
			} `json:"payload"`
		}
		if json.Unmarshal(l, &ev) != nil || ev.Type != "event_msg" || ev.Payload.Type != "token_count" ||
			ev.Payload.Info == nil || ev.Payload.Info.Total == nil {
			continue
		}
		last, found = *ev.Payload.Info.Total, true
	}
	return last, found
}
