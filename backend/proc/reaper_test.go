//go:build linux

package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestReaperLeavesOtherChildrenAlone runs os/exec children elsewhere in
// the process while the runner reaps adopted orphans; their exit statuses
// must reach their own Wait.
func TestReaperLeavesOtherChildrenAlone(t *testing.T) {
	for _, m := range mechanisms() {
		t.Run(m.name, func(t *testing.T) { reaperLeavesOtherChildrenAlone(t, newRunnerWith(t, m)) })
	}
}

func reaperLeavesOtherChildrenAlone(t *testing.T, r *Runner) {
	mark := newMark(t)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := exec.Command("/bin/sh", "-c", "exit 7").Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 7 {
				errs <- fmt.Errorf("os/exec child: %v", err)
			}
		}()
	}
	// Meanwhile, trees whose orphans the runner must reap.
	for i := 0; i < 3; i++ {
		s := shSpec(t, mark, `setsid sh -c 'sleep 1000 & echo daemon-ready'`)
		s.Grace = 100 * time.Millisecond
		x := start(t, r, s)
		wait(t, x.h)
		if !strings.Contains(x.output(), "daemon-ready") {
			t.Fatalf("output %q", x.output())
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assertGone(t, mark, nil)
}

// TestReapForeignOrphans: a daemon of some other tool the app ran is
// adopted by the subreaper and reaped when it exits.
func TestReapForeignOrphans(t *testing.T) {
	// Only the fallback adopts orphans (with cgroups there is nothing to reap).
	r := NewRunner(RunnerOptions{ReapForeignOrphans: true, NoCgroup: true})
	defer r.Shutdown(time.Second)
	out, err := exec.Command("setsid", "sh", "-c", "sleep 0.2 >/dev/null & echo $!").Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(safety)
	for {
		p, ok := readStat(pid)
		if !ok {
			break // exited and reaped
		}
		if p.ppid != os.Getpid() && !p.zombie {
			t.Fatalf("orphan %d re-parented to %d, not to the subreaper", pid, p.ppid)
		}
		if time.Now().After(deadline) {
			t.Fatalf("orphan %d not reaped: %+v", pid, p)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
