package app

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/task"
)

// hookStep is one call of Hooks.OnEvent.
type hookStep struct {
	execID int64
	data   task.EventData
}

// feedOf runs events through the app's pipeline hooks and returns the feed
// the UI would get, the hints emitted and how often the status watcher was
// poked.
func feedOf(t *testing.T, steps []hookStep) ([]FeedItem, []string, int) {
	t.Helper()
	rec := &RecordingEmitter{}
	live := NewLiveOutput(rec, secrets.Scrub, time.Now, time.Hour)
	stepped := 0
	h := PipelineHooks(live, rec, func() { stepped++ })
	for _, s := range steps {
		h.OnEvent("t1", s.execID, task.Event{TaskID: "t1", At: time.Now(), Data: s.data})
	}
	live.Close()
	return live.Snapshot("t1").Feed, rec.Names(), stepped
}

// shown is what a feed item shows besides its text: kind, role and verdict.
func shown(feed []FeedItem) []string {
	var out []string
	for _, it := range feed {
		line := fmt.Sprintf("%s %s", it.Kind, it.Role)
		if v, ok := it.Data.(task.VerdictGiven); ok {
			line += " " + string(v.Verdict)
		}
		out = append(out, line)
	}
	return out
}

// run is a reviewer round and a fix round as the pipeline emits them, with
// the run's log notes worded by note.
func runEvents(note func(string) string) []hookStep {
	return []hookStep{
		{0, task.Note{Level: task.LevelInfo, Text: note("Run 1 of 1 started")}},
		{5, task.StepStarted{StepAttempt: task.StepAttempt{Execution: 5, Step: "reviewer-1", Role: task.RoleReviewer, Iteration: 1, Round: 1, Attempt: 1}, Tool: "mock"}},
		{5, task.AgentText{Text: "Checking the diff with key sk-ant-0123456789abcdefghij"}},
		{5, task.ToolCall{Tool: "git", CallID: "c1", Input: "git status --short"}},
		{5, task.ToolResult{CallID: "c1", Output: " M README"}},
		{5, task.ToolRetry{Attempt: 2, MaxAttempts: 10, ErrorStatus: 529}},
		{5, task.UsageReport{Usage: task.Usage{TokensIn: 10}}},
		{5, task.AgentQuestion{Text: "Should the README change?"}},
		{5, task.StepFinished{StepAttempt: task.StepAttempt{Execution: 5, Step: "reviewer-1", Role: task.RoleReviewer, Iteration: 1, Round: 1, Attempt: 1}, Outcome: task.OutcomeSucceeded}},
		{0, task.VerdictGiven{Role: task.RoleReviewer, Iteration: 1, Round: 1, Verdict: task.VerdictChangesRequested}},
		{0, task.Note{Level: task.LevelInfo, Text: note("Reviewer verdict (round 1): APPROVE")}},
		{0, task.Note{Level: task.LevelWarn, Text: note("Transient failure in developer (attempt 1/3): exit code 1; retrying in 1s in the same worktree")}},
		{0, task.RetryScheduled{Step: "developer-1", Role: task.RoleDeveloper, Attempt: 1, MaxAttempts: 3, DelayMs: 1000, Reason: "exit code 1"}},
		{0, task.PlannerAsked{Role: task.RoleDeveloper, Questions: []string{"Which file?"}}},
		{0, task.PlannerAnswered{Role: task.RoleDeveloper, Answer: "README.md"}},
		{7, task.StepStarted{StepAttempt: task.StepAttempt{Execution: 7, Step: "developer-1", Role: task.RoleDeveloper, Iteration: 1, Round: 1, Attempt: 2}, Tool: "mock"}},
		{7, task.InjectionApplied{Injection: 3, Step: "developer-1", Delivery: task.DeliveryLive}},
		{7, task.Note{Level: task.LevelWarn, Text: note("Stop requested: stopping developer-1")}},
		{0, task.Note{Level: task.LevelError, Text: note("Task failed: review not approved")}},
	}
}

func TestFeedRendersTypedEvents(t *testing.T) {
	feed, hints, stepped := feedOf(t, runEvents(func(s string) string { return s }))
	want := []string{
		"note ",
		"step_started reviewer",
		"text reviewer",
		"tool_call reviewer",
		"tool_result reviewer",
		"tool_retry reviewer",
		"question reviewer",
		"step_finished reviewer",
		"verdict reviewer CHANGES_REQUESTED",
		"note ",
		"note ",
		"retry_scheduled developer",
		"planner_asked developer",
		"planner_answered planner",
		"step_started developer",
		"injection_applied developer",
		"note developer",
		"note ",
	}
	if got := shown(feed); !reflect.DeepEqual(got, want) {
		t.Fatalf("feed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Free text is scrubbed on its way to the UI; the payload is the event's.
	if d := feed[2].Data.(task.AgentText); strings.Contains(d.Text, "sk-ant") {
		t.Fatalf("secret reached the feed: %q", d.Text)
	}
	if d := feed[5].Data.(task.ToolRetry); d != (task.ToolRetry{Attempt: 2, MaxAttempts: 10, ErrorStatus: 529}) {
		t.Fatalf("tool retry %+v", d)
	}
	for i, it := range feed {
		if it.Seq != int64(i+1) || it.At.IsZero() {
			t.Fatalf("item %d: seq %d at %v", i, it.Seq, it.At)
		}
	}
	// Each step start and end is a hint to reload the task list, and pokes the runner status.
	if n := strings.Count(strings.Join(hints, " "), EventTasksChanged); n != 3 || stepped != 3 {
		t.Fatalf("hints %v, status watcher poked %d times", hints, stepped)
	}
	// The JSON the front end reads: kind and role beside the payload.
	b, _ := json.Marshal(feed[8])
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["kind"] != "verdict" || m["role"] != "reviewer" || !reflect.DeepEqual(m["data"], map[string]any{
		"role": "reviewer", "iteration": 1.0, "round": 1.0, "verdict": "CHANGES_REQUESTED"}) {
		t.Fatalf("verdict item JSON %s", b)
	}
}

// Rewording every log line changes nothing the feed shows but the notes'
// own text: kinds, roles and verdicts come from the typed events alone, and a
// note that reads like a verdict or a retry stays a note.
func TestFeedIgnoresLogWording(t *testing.T) {
	plain, _, _ := feedOf(t, runEvents(func(s string) string { return s }))
	reworded, _, _ := feedOf(t, runEvents(func(s string) string { return "Reworded: " + strings.ToLower(s) + " (details)" }))
	if !reflect.DeepEqual(shown(plain), shown(reworded)) {
		t.Fatalf("rewording the log changed the feed:\n%v\n%v", shown(plain), shown(reworded))
	}
	for i := range plain {
		a, b := plain[i].Data, reworded[i].Data
		if _, note := a.(task.Note); note {
			if a == b {
				t.Fatalf("note %d was not reworded", i)
			}
			continue
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("item %d changed: %+v → %+v", i, a, b)
		}
	}
	verdicts := 0
	for _, it := range plain {
		if it.Kind == task.EventVerdict {
			verdicts++
		}
	}
	if verdicts != 1 {
		t.Fatalf("%d verdict items; only the typed verdict makes one", verdicts)
	}
}
