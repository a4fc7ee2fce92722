package settings

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestBudgetsSetAndScopes(t *testing.T) {
	f := newFile(t, "")
	if _, err := f.Set("budgets.daily", `{"usd": 5, "mode": "cap"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Set("budgets.task", `{"tokens": 2000000, "mode": "warn"}`); err != nil {
		t.Fatal(err)
	}
	s, err := f.Set("budgets.tools.codex.monthly.usd", "40")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sc := range s.Budgets.Scopes() {
		b, _ := json.Marshal(sc.Limit)
		got = append(got, sc.Key+" "+sc.Period+" "+sc.Tool+" "+string(b))
	}
	want := []string{
		`task task  {"tokens":2000000,"mode":"warn"}`,
		`daily daily  {"usd":5,"mode":"cap"}`,
		`tools.codex.monthly monthly codex {"usd":40}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("scopes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !s.Budgets.Daily.Capped() || s.Budgets.Task.Capped() || s.Budgets.Tools["codex"].Monthly.Capped() {
		t.Error("modes: daily is cap, task warn, codex monthly warn by default")
	}
	// null removes a budget; the breakers keep their defaults.
	s, err = f.Set("budgets.daily", "null")
	if err != nil || s.Budgets.Daily != nil {
		t.Fatalf("unset daily: %+v %v", s.Budgets.Daily, err)
	}
	if s.Breakers != DefaultBreakers() {
		t.Errorf("breakers %+v, want defaults", s.Breakers)
	}
	if s, err = f.Set("breakers.toolCalls", "0"); err != nil || s.Breakers.ToolCalls != 0 {
		t.Errorf("turning a breaker off: %+v %v", s.Breakers, err)
	}
}

// TestBudgetsBadInput: negative, zero and non-numeric limits, an empty
// limit, an unknown mode or tool and out-of-range breakers are all named at
// once, in the user's terms, and the file is left as it was.
func TestBudgetsBadInput(t *testing.T) {
	content := `{"budgets":{"task":{"usd":-1,"mode":"stop"},"daily":{"usd":"five"},"monthly":{},` +
		`"tools":{"vim":{"daily":{"usd":1}},"codex":{"task":{"tokens":0}}}},` +
		`"breakers":{"repeatFailures":1,"velocityWindowMs":5,"tokensPerMinute":-3}}`
	f := newFile(t, content)
	_, err := f.Load()
	got := keyErrors(t, err)
	want := []string{
		`budgets.daily.usd must be a number (got "five")`,
		`budgets.task.usd must be an amount of US dollars above 0 and at most 1000000 (got -1)`,
		`budgets.task.mode must be warn or cap (got "stop")`,
		`budgets.monthly must set usd or tokens (remove it for no budget)`,
		`budgets.tools.codex.task.tokens must be a number of tokens between 1 and 1000000000000 (got 0)`,
		`budgets.tools.vim names no tool: budgets are kept per tool for claude-code, codex, mock`,
		`breakers.repeatFailures must be between 2 and 1000, 0 turns it off (got 1)`,
		`breakers.tokensPerMinute must be between 1 and 1000000000000, 0 turns it off (got -3)`,
		`breakers.velocityWindowMs must be between 1000 and 3600000 (got 5)`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Set refuses a bad value and leaves the file unchanged.
	f2 := newFile(t, `{"budgets":{"daily":{"usd":5}}}`)
	for _, v := range []string{"-5", "0", "abc", `"5"`} {
		if _, err := f2.Set("budgets.daily.usd", v); err == nil {
			t.Errorf("set usd %s accepted", v)
		}
	}
	s, err := f2.Load()
	if err != nil || s.Budgets.Daily == nil || *s.Budgets.Daily.USD != 5 {
		t.Fatalf("file changed by refused sets: %+v %v", s.Budgets.Daily, err)
	}
	if _, err := f2.Set("budgets.weekly", `{"usd":1}`); err == nil || !strings.Contains(err.Error(), "unknown settings key budgets.weekly") {
		t.Errorf("unknown scope: %v", err)
	}
}
