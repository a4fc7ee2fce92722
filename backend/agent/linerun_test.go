package agent

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
)

var testRunner *proc.Runner

func TestMain(m *testing.M) {
	testRunner = proc.NewRunner(proc.RunnerOptions{})
	code := m.Run()
	testRunner.Shutdown(time.Second)
	os.Exit(code)
}

func TestProcResult(t *testing.T) {
	cases := []struct {
		name      string
		pr        proc.Result
		toolErr   string
		failed    bool
		transient bool
		errText   string
	}{
		{"clean", proc.Result{}, "", false, false, ""},
		{"tool 503", proc.Result{ExitCode: 1}, "API Error: 503", true, true, "API Error: 503"},
		{"tool error exit 0", proc.Result{}, "Not logged in", true, false, "Not logged in"},
		{"bare exit", proc.Result{ExitCode: 3}, "", true, false, "exit status 3"},
		{"stalled", proc.Result{ExitCode: -1, Signal: "terminated", Reason: proc.ReasonStalled, IdleTimeout: 2 * time.Minute}, "", true, true, "stalled: no output for 2 min"},
		{"stopped 503", proc.Result{ExitCode: -1, Signal: "terminated", Reason: proc.ReasonStopped}, "API Error: 503", true, false, "API Error: 503"},
		{"timeout 529", proc.Result{ExitCode: -1, Signal: "killed", Reason: proc.ReasonTimeout}, "API Error: 529", true, false, "API Error: 529"},
		{"canceled", proc.Result{ExitCode: -1, Signal: "terminated", Reason: proc.ReasonCanceled}, "", true, false, "stopped: context canceled"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ProcResult(c.pr, c.toolErr)
			if r.Failed() != c.failed || r.Transient != c.transient || r.ErrorText != c.errText || r.StopReason != c.pr.Reason || r.ExitCode != c.pr.ExitCode {
				t.Fatalf("%+v", r)
			}
		})
	}
}

// shRun starts a LineRun of sh -c script with a stdin pipe.
func shRun(t *testing.T, script string, encode func(string) ([]byte, error), onLine func(*LineRun, string)) (*LineRun, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var lines []string
	r := NewLineRun(LineRunConfig{
		Runner: testRunner,
		Spec:   proc.Spec{Path: "/bin/sh", Args: []string{"-c", script}, Dir: t.TempDir(), Stdin: proc.StdinPipe, Grace: time.Second},
		Encode: encode,
		Finish: func(pr proc.Result) Result { return ProcResult(pr, "") },
	})
	r.SetOnLine(func(b []byte) {
		mu.Lock()
		lines = append(lines, string(b))
		mu.Unlock()
		if onLine != nil {
			onLine(r, string(b))
		}
	})
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return r, &lines
}

func TestLineRunSendAndCloseInput(t *testing.T) {
	encode := func(s string) ([]byte, error) { return []byte(strings.ToUpper(s) + "\n"), nil }
	// The script echoes input lines until EOF; the handler closes the input
	// once it sees the first echo, which ends the run.
	r, lines := shRun(t, `echo ready; while read l; do echo "got:$l"; done; echo eof`, encode, func(r *LineRun, l string) {
		if strings.HasPrefix(l, "got:") {
			r.CloseInput()
		}
	})
	if err := r.Send("hello"); err != nil {
		t.Fatal(err)
	}
	res, err := r.Wait()
	if err != nil || res.Failed() {
		t.Fatalf("%+v %v", res, err)
	}
	if got := strings.Join(*lines, ","); got != "ready,got:HELLO,eof" {
		t.Fatalf("lines %s", got)
	}
	if err := r.Send("again"); !errors.Is(err, ErrRunDone) {
		t.Fatalf("send after close: %v", err)
	}
	if r.Pid() <= 0 || r.Pgid() <= 0 {
		t.Fatal("no pid")
	}
	if res2, _ := r.Wait(); res2.ExitCode != res.ExitCode || res2.StopReason != res.StopReason {
		t.Fatal("second Wait differs")
	}
}

func TestLineRunCloseInputBeforeStartReturns(t *testing.T) {
	// The very first line closes the input, possibly before Start returned.
	r, _ := shRun(t, `echo first; cat >/dev/null; echo after-eof`, nil, func(r *LineRun, l string) {
		if l == "first" {
			r.CloseInput()
		}
	})
	if err := r.Send("x"); !errors.Is(err, ErrNoMidRunInput) {
		t.Fatalf("send without encoder: %v", err)
	}
	if res, _ := r.Wait(); res.Failed() {
		t.Fatalf("%+v", res)
	}
}

func TestLineRunStopAndStartErrors(t *testing.T) {
	r, _ := shRun(t, `echo up; sleep 60`, nil, nil)
	r.Stop(proc.ReasonStopped)
	res, _ := r.Wait()
	if res.StopReason != proc.ReasonStopped || !res.Failed() || res.Transient {
		t.Fatalf("%+v", res)
	}
	cleaned := false
	bad := NewLineRun(LineRunConfig{Runner: testRunner, Spec: proc.Spec{Path: "/nonexistent/tool", Dir: t.TempDir()},
		Finish: func(proc.Result) Result { return Result{} }, Cleanup: func() { cleaned = true }})
	if err := bad.Start(context.Background()); err == nil || !cleaned {
		t.Fatalf("start of a missing binary: %v, cleanup %v", err, cleaned)
	}
	if err := NewLineRun(LineRunConfig{}).Start(context.Background()); err == nil {
		t.Fatal("start without runner")
	}
}
