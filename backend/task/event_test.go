package task

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Every kind has one payload type, whose Kind names it, and which survives a
// JSON round trip through DecodeEvent.
func TestEveryKindHasItsPayload(t *testing.T) {
	if len(EventKinds()) != 39 {
		t.Fatalf("%d kinds declared; update this test and the front end's EventPayloads", len(EventKinds()))
	}
	for _, k := range EventKinds() {
		d := DecodeEvent(k, nil)
		if _, unknown := d.(Unknown); unknown || d.Kind() != k {
			t.Fatalf("kind %s decodes to %T (kind %s)", k, d, d.Kind())
		}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if back := DecodeEvent(k, b); !reflect.DeepEqual(back, d) {
			t.Fatalf("%s: %s decodes to %+v, want %+v", k, b, back, d)
		}
	}
}

func TestStoredAndLiveKinds(t *testing.T) {
	for _, k := range []EventKind{EventNote, EventText, EventToolCall, EventToolResult, EventToolRetry, EventQuestion, EventUsage} {
		if k.Stored() || !k.Known() || !errors.Is(CheckStored(DecodeEvent(k, nil)), ErrInvalid) {
			t.Fatalf("%s must be live only", k)
		}
	}
	for _, k := range []EventKind{EventStepStarted, EventStepFinished, EventVerdict, EventRetryScheduled, EventPlannerAsked,
		EventPlannerAnswered, EventInjectionApplied, EventStatusChanged, EventAccepted} {
		if !k.Stored() || CheckStored(DecodeEvent(k, nil)) != nil {
			t.Fatalf("%s must be stored", k)
		}
	}
	for name, d := range map[string]EventData{"nil": nil, "unknown kind": Unknown{Name: "mystery"}, "unreadable": Unknown{Name: EventVerdict}} {
		if err := CheckStored(d); !errors.Is(err, ErrInvalid) {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// History written by earlier versions stays readable: payloads of the old
// shapes decode into the typed payloads, and what cannot be read comes back
// as Unknown with its raw payload.
func TestDecodeEventHistory(t *testing.T) {
	at := time.Date(2026, 11, 30, 0, 41, 0, 0, time.UTC)
	cases := []struct {
		kind EventKind
		raw  string
		want EventData
	}{
		{EventEdited, `null`, Edited{}},
		{EventStopRequested, `null`, StopRequested{}},
		{EventStatusChanged, `{"from":"pending","to":"ongoing","reason":"claimed"}`, StatusChanged{From: StatusPending, To: StatusOngoing, Reason: "claimed"}},
		{EventStepStarted, `{"execution":7,"role":"developer","iteration":1,"round":2,"attempt":1,"tool":"mock","model":""}`,
			StepStarted{StepAttempt: StepAttempt{Execution: 7, Role: RoleDeveloper, Iteration: 1, Round: 2, Attempt: 1}, Tool: "mock"}},
		{EventStepFinished, `{"execution":7,"role":"developer","iteration":1,"round":0,"attempt":1,"outcome":"succeeded","exit_code":0,"usage":{"tokens_in":5,"tokens_out":2,"cache_read":0,"cache_write":0,"cost_usd":0.5}}`,
			StepFinished{StepAttempt: StepAttempt{Execution: 7, Role: RoleDeveloper, Iteration: 1, Attempt: 1}, Outcome: OutcomeSucceeded, Usage: Usage{TokensIn: 5, TokensOut: 2, CostUSD: 0.5}}},
		{EventVerdict, `{"role":"reviewer","round":1,"iteration":1,"verdict":"APPROVE"}`, VerdictGiven{Role: RoleReviewer, Round: 1, Iteration: 1, Verdict: VerdictApprove}},
		{EventRetryScheduled, `{"step":"developer","attempt":1,"delay_ms":30000}`, RetryScheduled{Step: "developer", Attempt: 1, DelayMs: 30000}},
		{EventRecovered, `{"reason":"interrupted","at":"2026-11-30T00:41:00Z"}`, Recovered{Reason: "interrupted", At: at}},
		{EventExported, `{"via":"ui"}`, Exported{Via: "ui"}},
		{EventExported, `{"file":"/tmp/t.md","bytes":120}`, Exported{File: "/tmp/t.md", Bytes: 120}},
		{EventChangesRequested, `{"comments":2,"drops":1}`, ChangesRequested{Comments: 2, Drops: 1}},
		{EventAcceptUndone, `{"strategy":"squash","target":"refs/heads/main","old_sha":"a","new_sha":"b","task_head":"c","at":"2026-11-30T00:41:00Z"}`,
			AcceptUndone{Accepted{Strategy: "squash", Target: "refs/heads/main", OldSHA: "a", NewSHA: "b", TaskHead: "c", At: at}}},
		{"mystery", `{"x":1}`, Unknown{Name: "mystery", Raw: json.RawMessage(`{"x":1}`)}},
		{EventVerdict, `"not an object"`, Unknown{Name: EventVerdict, Raw: json.RawMessage(`"not an object"`)}},
	}
	for _, c := range cases {
		got := DecodeEvent(c.kind, []byte(c.raw))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s: got %#v, want %#v", c.kind, c.raw, got, c.want)
		}
		if got.Kind() != c.kind {
			t.Errorf("%s: kind %s", c.kind, got.Kind())
		}
	}
	if b, _ := json.Marshal(Unknown{Name: "mystery", Raw: json.RawMessage(`{"x":1}`)}); string(b) != `{"x":1}` {
		t.Fatalf("unknown marshals to %s", b)
	}
	if b, _ := json.Marshal(Unknown{Name: "mystery", Raw: json.RawMessage(`{oops`)}); string(b) != `null` {
		t.Fatalf("unreadable unknown marshals to %s", b)
	}
}

// MapText reaches every free-text field and nothing else.
func TestMapText(t *testing.T) {
	up := strings.ToUpper
	cases := []struct{ in, want EventData }{
		{Note{Level: LevelWarn, Text: "a"}, Note{Level: LevelWarn, Text: "A"}},
		{AgentText{Text: "a"}, AgentText{Text: "A"}},
		{ToolCall{Tool: "bash", CallID: "c", Input: "ls"}, ToolCall{Tool: "bash", CallID: "c", Input: "LS"}},
		{ToolResult{CallID: "c", Output: "ok"}, ToolResult{CallID: "c", Output: "OK"}},
		{ToolRetry{Attempt: 1, Message: "busy"}, ToolRetry{Attempt: 1, Message: "BUSY"}},
		{AgentQuestion{Text: "why"}, AgentQuestion{Text: "WHY"}},
		{RetryScheduled{Step: "developer", Reason: "exit"}, RetryScheduled{Step: "developer", Reason: "EXIT"}},
		{PlannerAnswered{Role: RoleDeveloper, Answer: "yes"}, PlannerAnswered{Role: RoleDeveloper, Answer: "YES"}},
		{InjectionApplied{Step: "developer", Error: "closed"}, InjectionApplied{Step: "developer", Error: "CLOSED"}},
		{PromptInjected{Injection: 1, Text: "hi"}, PromptInjected{Injection: 1, Text: "HI"}},
		{VerdictGiven{Role: RoleReviewer, Verdict: VerdictApprove}, VerdictGiven{Role: RoleReviewer, Verdict: VerdictApprove}},
		{StepStarted{StepAttempt: StepAttempt{Step: "developer"}, Tool: "mock"}, StepStarted{StepAttempt: StepAttempt{Step: "developer"}, Tool: "mock"}},
	}
	for _, c := range cases {
		if got := MapText(c.in, up); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%T: %+v, want %+v", c.in, got, c.want)
		}
	}
	in := PlannerAsked{Role: RoleDeveloper, Questions: []string{"a", "b"}}
	if got := MapText(in, up); !reflect.DeepEqual(got, PlannerAsked{Role: RoleDeveloper, Questions: []string{"A", "B"}}) || in.Questions[0] != "a" {
		t.Fatalf("planner asked %+v (input %+v)", got, in)
	}
}
