package procstat

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

func TestTreeCountsLiveProcessesOnly(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	// CPU time counts in clock ticks (10 ms): a test binary that started a
	// moment ago may not have used one yet (CI saw 0). Use some first.
	burnCPU(t, 30*time.Millisecond)
	s := Tree(context.Background(), []int{os.Getpid(), cmd.Process.Pid, cmd.Process.Pid, 0, -1})
	if s.Processes != 2 || s.RSSBytes == 0 || s.CPUSeconds <= 0 {
		t.Fatalf("stats %+v", s)
	}
	cmd.Process.Kill()
	cmd.Wait()
	after := Tree(context.Background(), []int{os.Getpid(), cmd.Process.Pid})
	if after.Processes != 1 {
		t.Fatalf("a dead process was counted: %+v", after)
	}
	if none := Tree(context.Background(), nil); none != (Stats{}) {
		t.Fatalf("empty: %+v", none)
	}
}

// burnCPU spins until this process has used at least d of CPU time, as the
// OS counts it (gopsutil's times of this process), or fails after 10 s.
func burnCPU(t *testing.T, d time.Duration) {
	t.Helper()
	self, err := process.NewProcess(int32(os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for x := 0; ; x++ {
		ts, err := self.Times()
		if err != nil {
			t.Fatal(err)
		}
		used := time.Duration((ts.User + ts.System) * float64(time.Second))
		if used >= d {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("used %v CPU in 10 s", used)
		}
		for i := 0; i < 1e6; i++ {
			x ^= i
		}
	}
}
