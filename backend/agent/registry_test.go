package agent

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

type namedTool string

func (n namedTool) Name() string                              { return string(n) }
func (namedTool) Capabilities() Capabilities                  { return Capabilities{} }
func (namedTool) Health(context.Context, string) Health       { return Health{} }
func (namedTool) Models(context.Context) []Model              { return nil }
func (namedTool) Start(context.Context, Request) (Run, error) { return nil, errors.New("no") }

func TestRegistry(t *testing.T) {
	r := NewRegistry(namedTool("mock"), nil, namedTool("claude-code"))
	if got := r.Names(); !reflect.DeepEqual(got, []string{"claude-code", "mock"}) {
		t.Fatalf("names %v", got)
	}
	tl, err := r.Get("mock")
	if err != nil || tl.Name() != "mock" {
		t.Fatalf("get mock: %v %v", tl, err)
	}
	if _, err := r.Get("gpt"); !errors.Is(err, ErrUnknownTool) {
		t.Fatalf("unknown tool error = %v", err)
	}
}

func TestUsageAddAndFailed(t *testing.T) {
	u := Usage{InputTokens: 1, OutputTokens: 2}.Add(Usage{InputTokens: 3, CacheReadTokens: 4, CostUSD: 0.5, CostKnown: true})
	if u != (Usage{InputTokens: 4, OutputTokens: 2, CacheReadTokens: 4, CostUSD: 0.5, CostKnown: true}) {
		t.Fatalf("sum %+v", u)
	}
	if (Result{Report: "ok"}).Failed() {
		t.Fatal("clean result failed")
	}
	for _, r := range []Result{{ExitCode: 1}, {ErrorText: "x"}, {Signal: "killed", ExitCode: -1}} {
		if !r.Failed() {
			t.Fatalf("%+v not failed", r)
		}
	}
}
