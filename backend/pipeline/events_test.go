package pipeline

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/task"
)

// eventLine renders a stored event's kind and payload for comparison.
func eventLine(d task.EventData) string {
	switch d := d.(type) {
	case task.RunStarted:
		return fmt.Sprintf("run_started %s i%d %s run %d/%d fix %d", d.Start, d.Iteration, d.Step, d.Run, d.Runs, d.Fix)
	case task.StepStarted:
		return fmt.Sprintf("step_started %s %s r%d a%d %s", d.Step, d.Role, d.Round, d.Attempt, d.Tool)
	case task.StepFinished:
		return fmt.Sprintf("step_finished %s %s r%d a%d %s", d.Step, d.Role, d.Round, d.Attempt, d.Outcome)
	case task.VerdictGiven:
		return fmt.Sprintf("verdict %s i%d r%d %s", d.Role, d.Iteration, d.Round, d.Verdict)
	case task.RetryScheduled:
		return fmt.Sprintf("retry_scheduled %s %s %d/%d %dms %s", d.Step, d.Role, d.Attempt, d.MaxAttempts, d.DelayMs, d.Reason)
	case task.PlannerAsked:
		return fmt.Sprintf("planner_asked %s %q", d.Role, d.Questions)
	case task.PlannerAnswered:
		return fmt.Sprintf("planner_answered %s %t", d.Role, strings.Contains(d.Answer, "Use the defaults of the plan."))
	case task.OutcomeDecided:
		return fmt.Sprintf("outcome_decided %s %s", d.Status, d.Cleanup)
	case task.InjectionApplied:
		return fmt.Sprintf("injection_applied %s %s %q", d.Step, d.Delivery, d.Error)
	case task.StatusChanged:
		return fmt.Sprintf("status_changed %s→%s %s", d.From, d.To, d.Reason)
	case task.PromptInjected:
		return fmt.Sprintf("prompt_injected %d", d.Bytes)
	}
	return string(d.Kind())
}

// The pipeline records what happens as typed events: a task that meets
// every kind (an injection before the run and one delivered live, a
// transient failure, a role's questions the planner answers, the tool's own
// API retries, two review rounds) leaves exactly these events in its history,
// in order, and the live hook got the same values.
func TestRunRecordsTypedEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	tk := e.addTask("Exercise every event.\n[[mock-transient refinement=1]]\n[[mock-questions developer=1]]\n"+
		"[[mock-delay developer=200]]\n[[mock-apiretry reviewer=1]]\n[[mock-verdicts reviewer=CHANGES_REQUESTED,APPROVE]]", 1)
	if _, err := e.st.Inject(ctx, tk.ID, "Prefer small commits."); err != nil {
		t.Fatal(err)
	}
	done := e.startRun(ctx, tk.ID)
	e.waitOpenExec(tk.ID, task.RoleDeveloper)
	if _, err := e.st.Inject(ctx, tk.ID, "Also add a CHANGELOG entry."); err != nil {
		t.Fatal(err)
	}
	if res := <-done; res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}

	stored, err := e.st.Events(ctx, tk.ID, tk.CreatedAt)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range stored {
		got = append(got, eventLine(ev.Data))
	}
	want := []string{
		"created",
		"prompt_injected 21",
		"status_changed pending→ongoing claimed",
		"claimed",
		"run_started run i1 planner run 1/1 fix 0",
		`injection_applied planner next_step ""`,
		"step_started planner planner r0 a1 mock",
		"step_finished planner planner r0 a1 succeeded",
		"step_started refinement refinement r0 a1 mock",
		"step_finished refinement refinement r0 a1 transient",
		"retry_scheduled refinement refinement 1/3 30000ms " + mock.TransientError,
		"step_started refinement refinement r0 a2 mock",
		"step_finished refinement refinement r0 a2 succeeded",
		"step_started developer developer r0 a1 mock",
		"prompt_injected 27",
		`injection_applied developer live ""`,
		"step_finished developer developer r0 a1 succeeded",
		`planner_asked developer ["Which name should the mock file have?" "Should the leftovers be kept?"]`,
		"step_started planner-answer planner r0 a1 mock",
		"step_finished planner-answer planner r0 a1 succeeded",
		"planner_answered developer true",
		"step_started developer developer r0 a1 mock",
		"step_finished developer developer r0 a1 succeeded",
		"step_started reviewer-1 reviewer r1 a1 mock",
		"step_finished reviewer-1 reviewer r1 a1 succeeded",
		"verdict reviewer i1 r1 CHANGES_REQUESTED",
		"step_started developer-1 developer r1 a1 mock",
		"step_finished developer-1 developer r1 a1 succeeded",
		"step_started reviewer-2 reviewer r2 a1 mock",
		"step_finished reviewer-2 reviewer r2 a1 succeeded",
		"verdict reviewer i1 r2 APPROVE",
		"outcome_decided done done",
		"status_changed ongoing→done approved",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stored events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Every step event names its execution row; the finished ones carry its usage.
	exs := e.executions(tk.ID)
	var starts []int64
	for _, ev := range stored {
		switch d := ev.Data.(type) {
		case task.StepStarted:
			starts = append(starts, d.Execution)
		case task.StepFinished:
			if x := execByID(exs, d.Execution); x == nil || x.Outcome != d.Outcome || x.Usage != d.Usage {
				t.Fatalf("step_finished %+v does not match its execution %+v", d, x)
			}
			if d.Outcome == task.OutcomeSucceeded && d.Usage.TokensIn == 0 {
				t.Fatalf("step_finished without usage: %+v", d)
			}
		}
	}
	if len(starts) != len(exs) {
		t.Fatalf("%d step_started events for %d executions", len(starts), len(exs))
	}
	for i, x := range exs {
		if starts[i] != x.ID {
			t.Fatalf("step_started %d names execution %d, want %d", i, starts[i], x.ID)
		}
	}

	// The live hook got the same values the store holds, in the same order.
	hook := e.hookEvents()
	var live, hist []task.EventData
	for _, h := range hook {
		if h.ev.Kind().Stored() {
			live = append(live, h.ev.Data)
		}
	}
	for _, ev := range stored {
		switch ev.Kind() {
		case task.EventCreated, task.EventPromptInjected, task.EventStatusChanged, task.EventClaimed:
			continue // the store's own, not the pipeline's
		}
		hist = append(hist, ev.Data)
	}
	if !reflect.DeepEqual(live, hist) {
		t.Fatalf("hook events differ from the stored ones:\n%+v\n%+v", live, hist)
	}

	// The live-only events: the agent's stream and the run's notes.
	count := map[task.EventKind]int{}
	for _, h := range hook {
		count[h.ev.Kind()]++
		switch d := h.ev.Data.(type) {
		case task.ToolRetry:
			want := task.ToolRetry{Attempt: 1, MaxAttempts: mock.APIRetryMax, DelayMs: mock.APIRetryDelayMs, ErrorStatus: mock.APIRetryStatus, Message: mock.APIRetryError}
			if d != want || roleOfExec(exs, h.execID) != task.RoleReviewer {
				t.Fatalf("tool retry %+v from execution %d", d, h.execID)
			}
		case task.AgentText, task.ToolCall, task.ToolResult, task.AgentQuestion, task.UsageReport:
			if h.execID == 0 || execByID(exs, h.execID) == nil {
				t.Fatalf("%s event without its execution: %+v", h.ev.Kind(), h)
			}
		}
		if h.ev.TaskID != tk.ID || h.ev.At.IsZero() {
			t.Fatalf("event envelope %+v", h.ev)
		}
	}
	if count[task.EventToolRetry] != 2 || count[task.EventQuestion] != 2 || count[task.EventToolCall] == 0 ||
		count[task.EventToolResult] != count[task.EventToolCall] || count[task.EventText] == 0 || count[task.EventUsage] == 0 || count[task.EventNote] == 0 {
		t.Fatalf("live event counts %v", count)
	}
	// The log keeps human lines for the same events.
	mustContain(t, e.logText(tk.ID), "Transient failure in refinement (attempt 1/3)", "Reviewer verdict (round 1): CHANGES_REQUESTED",
		"Injected prompt delivered live to developer", "tool retrying after API error 529 (attempt 1/10)")
}

func execByID(exs []task.Execution, id int64) *task.Execution {
	for i := range exs {
		if exs[i].ID == id {
			return &exs[i]
		}
	}
	return nil
}

func roleOfExec(exs []task.Execution, id int64) task.Role {
	if x := execByID(exs, id); x != nil {
		return x.Role
	}
	return ""
}
