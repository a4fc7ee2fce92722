//go:build realcli

package codex

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
)

// BenchmarkAdapterVsShell measures one real codex step through the adapter
// (PTY runner, parser, -o file) against the same codex command run directly
// by sh with output to /dev/null, both against the same fake server. The
// two alternate in every iteration so machine load hits both alike; the
// adapter/shell metric is the ratio of their total times.
//
//	BOOF_CODEX_BIN=... go test -tags realcli -run '^$' -bench AdapterVsShell -benchtime 10x ./backend/agent/codex
func BenchmarkAdapterVsShell(b *testing.B) {
	srv := fakemodel.Start(b)
	srv.SetDefault(fakemodel.Reply{Text: "Done."})
	c := realTool(b, srv.URL(), true)
	dir := gitRepo(b)
	shellLast := filepath.Join(b.TempDir(), "last.txt")
	inv, err := buildArgs(stepParams{prompt: "Say done.", system: "Be brief.", model: "gpt-6.2-sol", dir: dir,
		lastFile: shellLast, overrides: c.opts.ConfigOverrides})
	if err != nil {
		b.Fatal(err)
	}
	quoted := make([]string, 0, len(inv.args)+1)
	for _, a := range append([]string{c.opts.Path}, inv.args...) {
		quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	script := strings.Join(quoted, " ") + " </dev/null >/dev/null 2>&1"
	var adapter, shell time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir, cmd.Env = dir, c.env(nil)
		if err := cmd.Run(); err != nil {
			b.Fatalf("shell run: %v", err)
		}
		t1 := time.Now()
		run, err := c.Start(context.Background(), agent.Request{Prompt: "Say done.", SystemPrompt: "Be brief.", Model: "gpt-6.2-sol", Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		res, _ := run.Wait()
		if res.Failed() || res.Report != "Done." {
			b.Fatalf("adapter run: %+v", res)
		}
		t2 := time.Now()
		shell += t1.Sub(t0)
		adapter += t2.Sub(t1)
	}
	b.StopTimer()
	b.ReportMetric(float64(adapter.Milliseconds())/float64(b.N), "adapter-ms/step")
	b.ReportMetric(float64(shell.Milliseconds())/float64(b.N), "shell-ms/step")
	b.ReportMetric(float64(adapter)/float64(shell), "adapter/shell")
}
