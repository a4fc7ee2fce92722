package app

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/store"
)

var verdictLine = regexp.MustCompile(`^(Observer|Reviewer) verdict \(round \d+\): ([A-Z_]+)`)

// PipelineHooks turns the pipeline's live output into the UI's feed and
// terminal buffers, and its step changes into runner:status hints.
func PipelineHooks(live *LiveOutput, emit Emitter, status func() (RunnerStatus, error)) pipeline.Hooks {
	notify := func() {
		emit.Emit(EventTasksChanged)
		if status != nil {
			if st, err := status(); err == nil {
				emit.Emit(EventRunnerStatus, st)
			}
		}
	}
	return pipeline.Hooks{
		OnOutput: func(taskID string, _ int64, chunk []byte) { live.Write(taskID, chunk) },
		OnLog: func(taskID string, _ int64, level, text string) {
			it := FeedItem{Kind: "step", Text: text}
			switch {
			case level == store.LevelError:
				it.Kind = "error"
			case strings.HasPrefix(text, "Transient failure"):
				it.Kind = "retry"
			case verdictLine.MatchString(text):
				m := verdictLine.FindStringSubmatch(text)
				it.Kind, it.Role, it.Verdict = "verdict", strings.ToLower(m[1]), m[2]
			}
			live.Add(taskID, it)
		},
		OnStep: func(taskID string, e store.Execution, running bool) {
			state := "finished"
			if running {
				state = "started"
			}
			text := fmt.Sprintf("%s %s (iteration %d, round %d, attempt %d) with %s", capitalize(string(e.Role)), state, e.Iteration, e.Round, e.Attempt, e.Tool)
			if !running && e.Outcome != "" {
				text += ": " + string(e.Outcome)
			}
			live.Add(taskID, FeedItem{Kind: "step", Role: string(e.Role), Text: text})
			notify()
		},
	}
}
