package app

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/task"
)

var verdictLine = regexp.MustCompile(`^(Observer|Reviewer) verdict \(round \d+\): ([A-Z_]+)`)

// PipelineHooks turns the pipeline's live output into the UI's feed and
// terminal buffers, and its step changes into a tasks:changed hint and a
// call of stepped (the shell's status watcher then emits runner:status; nil
// means nothing to call). stepped must not block.
func PipelineHooks(live *LiveOutput, emit Emitter, stepped func()) pipeline.Hooks {
	notify := func() {
		emit.Emit(EventTasksChanged)
		if stepped != nil {
			stepped()
		}
	}
	roles := &execRoles{}
	return pipeline.Hooks{
		OnOutput: func(taskID string, _ int64, chunk []byte) { live.Write(taskID, chunk) },
		OnLog: func(taskID string, _ int64, level task.LogLevel, text string) {
			it := FeedItem{Kind: "step", Text: text}
			switch {
			case level == task.LevelError:
				it.Kind = "error"
			case strings.HasPrefix(text, "Transient failure"):
				it.Kind = "retry"
			case verdictLine.MatchString(text):
				m := verdictLine.FindStringSubmatch(text)
				it.Kind, it.Role, it.Verdict = "verdict", strings.ToLower(m[1]), m[2]
			}
			live.Add(taskID, it)
		},
		OnEvent: func(taskID string, execID int64, e agent.Event) {
			it := FeedItem{Role: roles.get(execID), Text: e.Text, Tool: e.Tool, CallID: e.CallID, IsError: e.IsError}
			switch e.Kind {
			case agent.EventText:
				it.Kind = "text"
			case agent.EventToolCall:
				it.Kind = "tool_call"
			case agent.EventToolResult:
				it.Kind = "tool_result"
			case agent.EventRetry:
				it.Kind = "retry"
				it.Text = fmt.Sprintf("The tool is retrying after API error %d (attempt %d of %d)", e.ErrorStatus, e.Attempt, e.MaxAttempts)
			case agent.EventQuestion:
				it.Kind, it.Text = "text", "Question: "+e.Text
			default:
				return // raw lines are in the terminal view; usage is in the status
			}
			live.Add(taskID, it)
		},
		OnStep: func(taskID string, e task.Execution, running bool) {
			if running {
				roles.set(e.ID, string(e.Role))
			} else {
				roles.drop(e.ID)
			}
			notify()
		},
	}
}

// execRoles remembers the role of each running execution for the feed.
type execRoles struct {
	mu sync.Mutex
	m  map[int64]string
}

func (r *execRoles) set(id int64, role string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[int64]string{}
	}
	r.m[id] = role
}

func (r *execRoles) get(id int64) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[id]
}

func (r *execRoles) drop(id int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, id)
}
