package procstat

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
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
// kernel counts it (getrusage), or fails after 10 s.
func burnCPU(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for x := 0; ; x++ {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		if time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) >= d {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("used %v CPU in 10 s", time.Duration(ru.Utime.Nano()+ru.Stime.Nano()))
		}
		for i := 0; i < 1e6; i++ {
			x ^= i
		}
	}
}
