package agent

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
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

func TestRegistryEstimatesCostFromItsAdaptersPrices(t *testing.T) {
	built := map[string]Config{}
	adapter := func(name string, prices Prices) Adapter {
		return Adapter{Name: name, Prices: prices, New: func(c Config) Tool { built[name] = c; return namedTool(name) }}
	}
	r := Build([]Adapter{
		adapter("big", Prices{"big-1": {In: 3, Out: 15, CacheRead: 0.3, CacheWrite: 3.75}, "big": {In: 1}}),
		adapter("small", Prices{"small": {}}),
	}, func(a Adapter) Config { return Config{Path: "/bin/" + a.Name} })
	if got := r.Names(); !reflect.DeepEqual(got, []string{"big", "small"}) || built["small"].Path != "/bin/small" {
		t.Fatalf("names %v, configs %+v", got, built)
	}
	if got := r.Tools(); len(got) != 2 || got[0].Name() != "big" || got[1].Name() != "small" {
		t.Fatalf("tools %v", got)
	}
	// The longest prefix wins; case and spaces do not matter.
	u := task.Usage{TokensIn: 1_000_000, TokensOut: 100_000, CacheRead: 1_000_000, CacheWrite: 1_000_000}
	if c, ok := r.EstimateCost("big", " BIG-1-20250929", u); !ok || math.Abs(c-(3+1.5+0.3+3.75)) > 1e-9 {
		t.Fatalf("big-1 = %v %v", c, ok)
	}
	if c, ok := r.EstimateCost("big", "big-2", u); !ok || c != 1 {
		t.Fatalf("big-2 = %v %v", c, ok)
	}
	if c, ok := r.EstimateCost("small", "small", u); !ok || c != 0 {
		t.Fatalf("free model = %v %v", c, ok)
	}
	// Each tool prices only its own models; unknown tools and models have no price.
	for _, tm := range [][2]string{{"small", "big-1"}, {"big", "mystery"}, {"nobody", "big-1"}, {"big", ""}} {
		if c, ok := r.EstimateCost(tm[0], tm[1], u); ok || c != 0 {
			t.Errorf("%v priced %v", tm, c)
		}
	}
	if _, ok := NewRegistry(namedTool("big")).EstimateCost("big", "big-1", u); ok {
		t.Error("a registry of bare tools priced a step")
	}
}

func TestAdapterInstalled(t *testing.T) {
	if !(Adapter{Name: "built-in"}).Installed() {
		t.Error("a tool without a binary is not installed")
	}
	if (Adapter{Name: "x", Bin: "boof-no-such-binary-here"}).Installed() {
		t.Error("a missing binary is installed")
	}
	if !(Adapter{Name: "sh", Bin: "sh"}).Installed() {
		t.Error("sh is not installed")
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
