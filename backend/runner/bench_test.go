package runner_test

import (
	"context"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// sleepy makes every step sleep-bound (the mock pauses between its lines).
const sleepy = "Sleep-bound task.\n[[mock-delay planner=1000 refinement=1000 developer=1000 reviewer=1000]]"

// BenchmarkParallelTasks times four sleep-bound mock tasks with concurrency
// 4 against one task with concurrency 1, in the same run, and reports the
// throughput ratio (goal ≥ 0.9 × 4 = 3.6).
func BenchmarkParallelTasks(b *testing.B) {
	var one, four time.Duration
	for i := 0; i < b.N; i++ {
		one += timeQueue(b, 1)
		four += timeQueue(b, 4)
	}
	b.ReportMetric(float64(one)/float64(b.N)/1e6, "one-task-ms")
	b.ReportMetric(float64(four)/float64(b.N)/1e6, "four-tasks-ms")
	b.ReportMetric(4*float64(one)/float64(four), "throughput-x")
}

func timeQueue(b *testing.B, n int) time.Duration {
	r := newRootTB(b, map[string]any{"runner": map[string]any{"concurrency": n}})
	for i := 0; i < n; i++ {
		if _, err := r.st.CreateTask(context.Background(), task.NewTask{Prompt: sleepy}); err != nil {
			b.Fatal(err)
		}
	}
	start := time.Now()
	res := r.cli(context.Background(), "runner", "--until-idle")
	d := time.Since(start)
	if res.code != 0 {
		b.Fatalf("runner: %+v", res)
	}
	done, _ := r.st.ListTasks(context.Background(), store.Filter{Statuses: []task.Status{task.StatusDone}})
	if len(done) != n {
		b.Fatalf("%d of %d tasks done", len(done), n)
	}
	return d
}
