//go:build realcli

package claude

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
)

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// BenchmarkStepOverhead runs the same one-turn claude step through the
// adapter (PTY runner, parser, events) and directly in a shell against the
// same fake server, alternating, and reports both per-step times and their
// ratio (goal ≤ 1.1):
//
//	BOOF_CLAUDE_BIN=... go test -tags realcli -run '^$' -bench StepOverhead -benchtime 10x ./backend/agent/claude
func BenchmarkStepOverhead(b *testing.B) {
	bin := claudeBin(b)
	srv := fakemodel.Start(b)
	srv.SetDefault(fakemodel.Reply{Text: "ok"})
	env := append(fakeEnv(b, srv.URL(), true), "PATH="+os.Getenv("PATH"), "TERM=xterm-256color", "LANG=C.UTF-8")
	tool := New(Options{Path: bin, Runner: testRunner, Env: env, PassEnv: []string{}})
	dir := b.TempDir()
	req := agent.Request{Prompt: "Say ok.", Model: "haiku", SystemPrompt: "Be brief.", Dir: dir}
	var line []string
	for _, a := range args(req, false, nil) {
		line = append(line, shellQuote(a))
	}
	shellEnv := append(tool.env(nil), "PATH="+os.Getenv("PATH"))
	script := shellQuote(bin) + " " + strings.Join(line, " ") + " </dev/null >/dev/null 2>&1"

	adapter := func() {
		run, err := tool.Start(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		if res, _ := run.Wait(); res.Failed() || res.Report != "ok" {
			b.Fatalf("adapter step %+v", res)
		}
	}
	shell := func() {
		cmd := exec.Command("/bin/sh", "-c", script)
		cmd.Dir, cmd.Env = dir, shellEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("shell step: %v %s", err, out)
		}
	}
	adapter() // warm both paths (page cache, claude's first-run files)
	shell()
	var ta, ts time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		first, second, t1, t2 := adapter, shell, &ta, &ts
		if i%2 == 1 {
			first, second, t1, t2 = shell, adapter, &ts, &ta
		}
		start := time.Now()
		first()
		mid := time.Now()
		second()
		*t1 += mid.Sub(start)
		*t2 += time.Since(mid)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(ta.Milliseconds())/n, "adapter-ms/step")
	b.ReportMetric(float64(ts.Milliseconds())/n, "shell-ms/step")
	b.ReportMetric(ta.Seconds()/ts.Seconds(), "ratio")
}
