package budget

import (
	"context"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// benchBudgets are four budgets a usage event is evaluated against.
func benchBudgets() settings.Budgets {
	return settings.Budgets{Task: &settings.Limit{Tokens: toks(1 << 60)}, Daily: &settings.Limit{USD: usd(1e6), Mode: settings.ModeCap},
		Monthly: &settings.Limit{USD: usd(1e6)}, Tools: map[string]settings.ToolBudgets{"mock": {Daily: &settings.Limit{Tokens: toks(1 << 60)}}}}
}

// BenchmarkUsageEvent is the whole added cost of one usage event of a live
// step: the spend written with the step's usage in one SQLite transaction
// (real store, WAL), the budgets evaluated, and the breakers fed the
// usage and a tool call and result.
func BenchmarkUsageEvent(b *testing.B) {
	f := newFixture(b, t0)
	ctx := context.Background()
	if err := f.e.Configure(ctx, benchBudgets()); err != nil {
		b.Fatal(err)
	}
	s, _ := f.step("mock")
	if _, _, err := f.e.Begin(ctx, s); err != nil {
		b.Fatal(err)
	}
	br := NewBreakers(settings.DefaultBreakers(), "developer", t0)
	b.ResetTimer()
	for i := range b.N {
		u := task.Usage{TokensIn: int64(i+1) * 10, CostUSD: float64(i+1) * 1e-6}
		if _, err := f.e.Record(ctx, s, u, true); err != nil {
			b.Fatal(err)
		}
		br.Usage(u.TokensIn, t0)
		br.ToolCall("read", "c", "README.md")
		br.ToolResult("c", "same", false)
	}
}

// BenchmarkUsageEventAccounting is the in-memory part alone: the budgets
// evaluated and the breakers fed, with the store write replaced by a
// constant (what BenchmarkUsageEvent adds beyond it is SQLite).
func BenchmarkUsageEventAccounting(b *testing.B) {
	e := New(Options{Store: constStore{}, Now: func() time.Time { return t0 }, Location: time.UTC})
	ctx := context.Background()
	if err := e.Configure(ctx, benchBudgets()); err != nil {
		b.Fatal(err)
	}
	s := &Step{TaskID: "t", ExecID: 1, Tool: "mock"}
	if _, _, err := e.Begin(ctx, s); err != nil {
		b.Fatal(err)
	}
	br := NewBreakers(settings.DefaultBreakers(), "developer", t0)
	b.ResetTimer()
	for i := range b.N {
		if _, err := e.Record(ctx, s, task.Usage{TokensIn: int64(i + 1)}, true); err != nil {
			b.Fatal(err)
		}
		br.Usage(int64(i+1)*10, t0)
		br.ToolCall("read", "c", "README.md")
		br.ToolResult("c", "same", false)
	}
}

// constStore is a Store whose every usage event adds 10 tokens and $0.0001.
type constStore struct{}

func (constStore) RecordUsage(context.Context, int64, task.Usage, bool, time.Time) (store.Spend, error) {
	return store.Spend{TaskID: "t", ExecID: 1, Tool: "mock", At: t0, Tokens: 10, CostUSD: 1e-4}, nil
}
func (constStore) SpendByTool(context.Context, time.Time, time.Time) ([]store.SpendTotal, error) {
	return nil, nil
}
func (constStore) TaskSpendByTool(context.Context, string) ([]store.SpendTotal, error) {
	return nil, nil
}
func (constStore) LastSpendAt(context.Context) (time.Time, error) { return time.Time{}, nil }

// BenchmarkBaselineLogLine is the write the pipeline already makes for
// every tool call and result of a step (one log line, real store): the
// baseline BenchmarkUsageEvent compares with, measured in the same run.
func BenchmarkBaselineLogLine(b *testing.B) {
	f := newFixture(b, t0)
	ctx := context.Background()
	s, _ := f.step("mock")
	b.ResetTimer()
	for range b.N {
		if err := f.st.AppendLog(ctx, s.TaskID, s.ExecID, task.LevelInfo, "→ read README.md"); err != nil {
			b.Fatal(err)
		}
	}
}
