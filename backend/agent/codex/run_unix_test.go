//go:build unix

package codex

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

func TestRunStopLeavesNoProcess(t *testing.T) {
	c := fakeTool(t, "FAKE_CODEX_STREAM="+td(t, "unreachable/stream.jsonl"), "FAKE_CODEX_HANG=1")
	rec := &recorder{}
	run, err := c.Start(context.Background(), agent.Request{Prompt: "p", Dir: t.TempDir(), Grace: time.Second, OnEvent: rec.event})
	if err != nil {
		t.Fatal(err)
	}
	// Wait until the fake has printed its stream and started its child.
	var pids []int
	for i := 0; i < 500 && len(pids) < 2; i++ {
		time.Sleep(20 * time.Millisecond)
		pids = run.Pids()
	}
	if len(pids) < 2 {
		t.Fatalf("tree never grew: %v", pids)
	}
	if err := run.Send("more"); !errors.Is(err, agent.ErrNoMidRunInput) {
		t.Fatalf("Send = %v", err)
	}
	run.Stop(proc.ReasonStopped)
	run.Stop(proc.ReasonStopped)
	res, err := run.Wait()
	if err != nil || res.StopReason != proc.ReasonStopped || res.Transient || !res.Failed() {
		t.Fatalf("result %+v %v", res, err)
	}
	for _, pid := range pids {
		if syscall.Kill(pid, 0) == nil {
			if st, _ := os.ReadFile(filepath.Join("/proc", itoa(pid), "stat")); !strings.Contains(string(st), ") Z ") {
				t.Errorf("pid %d survived the stop", pid)
			}
		}
	}
}
