package procstat

import (
	"context"
	"os"
	"os/exec"
	"testing"
)

func TestTreeCountsLiveProcessesOnly(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
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
