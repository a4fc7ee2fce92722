package runner_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// BenchmarkStopFromCLI measures `boof-runner stop ID` run as another
// process against a headless runner process, from the stop command's
// start until the last process of the running step's tree is gone: a
// cooperative tree (the mock agent, which exits on SIGTERM) and a hostile
// one (it ignores SIGTERM and a child left the session with setsid) with
// a 1 s grace. Each iteration adds a task, waits for its developer step's
// processes, then stops it.
func BenchmarkStopFromCLI(b *testing.B) {
	cases := []struct {
		name, prompt string
		procs        int // processes of the step's tree to wait for
	}{
		{"cooperative", "Hang.\n[[mock-stall developer=1]]", 1},
		{"hostile-grace-1s", "Resist.\n[[mock-hostile developer=sigterm,setsid]]", 2},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			r := newRootTB(b, map[string]any{"stop": map[string]any{"graceMs": 1000}})
			cmd, out := r.spawnEnv(nil)
			defer func() {
				_ = cmd.Process.Signal(syscall.SIGTERM)
				_ = cmd.Wait()
			}()
			prefix := proc.TagPrefix(proc.Scope(r.dir), proc.OwnerRun)
			var total time.Duration
			for i := 0; i < b.N; i++ {
				tk := r.add(tc.prompt, 1)
				var tree []proc.Tagged
				waitTB(b, "the developer's process tree", out, func() bool {
					tree = tree[:0]
					all, _ := proc.FindTagged(prefix)
					for _, p := range all {
						if strings.Contains(p.Tag, "/"+tk.ID+"/developer") {
							tree = append(tree, p)
						}
					}
					return len(tree) >= tc.procs
				})
				time.Sleep(50 * time.Millisecond) // the hostile tree sets its traps
				stop := exec.Command(os.Args[0], "stop", tk.ID, "--data-dir", r.dir)
				stop.Env = append(os.Environ(), cliEnv+"=1")
				t0 := time.Now()
				if o, err := stop.CombinedOutput(); err != nil {
					b.Fatalf("stop: %v\n%s", err, o)
				}
				for {
					left := 0
					for _, p := range tree {
						if alive(p.PID) {
							left++
						}
					}
					if left == 0 {
						break
					}
					if time.Since(t0) > time.Minute {
						b.Fatalf("%d processes survived the stop\n%s", left, out)
					}
					time.Sleep(time.Millisecond)
				}
				total += time.Since(t0)
				waitTB(b, "task stopped", out, func() bool { return r.get(tk.ID).Status == task.StatusStopped })
			}
			b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/stop")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// waitTB is waitFor for benchmarks.
func waitTB(b *testing.B, what string, out fmt.Stringer, cond func() bool) {
	b.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.Fatalf("timed out waiting for %s\n%s", what, out)
}
