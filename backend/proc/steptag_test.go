//go:build linux

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// spawnTagged starts `sh -c script` with the step tag in its environment,
// in its own session, and reaps it in the background.
func spawnTagged(t *testing.T, tag, script string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Env = append(os.Environ(), StepEnv+"="+tag)
	cmd.SysProcAttr = setsidAttr()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait() }()
	t.Cleanup(func() { _, _ = KillTagged(tag, 100*time.Millisecond) })
	return cmd
}

func waitTagged(t *testing.T, prefix string, n int) []Tagged {
	t.Helper()
	deadline := time.Now().Add(safety)
	for {
		ps, err := FindTagged(prefix)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) >= n {
			return ps
		}
		if time.Now().After(deadline) {
			t.Fatalf("found %d tagged processes, want %d: %+v", len(ps), n, ps)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestKillTaggedEndsEscapeesAndCountsThem(t *testing.T) {
	scope := fmt.Sprintf("t%d", time.Now().UnixNano())
	tag := StepTag(scope, OwnerRun, "task1", "developer")
	// A SIGTERM-ignorer, a setsid escapee and a double-forked daemon, all
	// carrying the tag; a child that scrubbed its environment is found as a
	// descendant.
	sh := spawnTagged(t, tag, `trap '' TERM; setsid sleep 300 & (sleep 300 &) ; env -i /bin/sleep 300 & wait`)
	other := StepTag("other"+scope, OwnerRun, "task1", "developer")
	spawnTagged(t, other, "exec sleep 300")
	// The ( ... &) subshell is found too while it lives: wait until the
	// tree is the shell and its three sleeps.
	deadline := time.Now().Add(safety)
	for {
		ps, _ := FindTagged(TagPrefix(scope, OwnerRun))
		sleeps := 0
		for _, p := range ps {
			if p.PID != sh.Process.Pid && strings.HasSuffix(p.Command, "sleep 300") && !strings.HasPrefix(p.Command, "/bin/sh") {
				sleeps++
			}
		}
		if len(ps) == 4 && sleeps == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tree did not settle: %+v", ps)
		}
		time.Sleep(10 * time.Millisecond)
	}

	found, err := KillTagged(TagPrefix(scope, OwnerRun), 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 4 {
		t.Fatalf("found %d processes, want the shell, the setsid sleep, the daemon and the scrubbed sleep: %+v", len(found), found)
	}
	for _, f := range found {
		if f.TaskID() != "task1" || f.Step() != "developer" {
			t.Errorf("process %d attributed to %q/%q (%q)", f.PID, f.TaskID(), f.Step(), f.Command)
		}
	}
	if left, _ := FindTagged(TagPrefix(scope, OwnerRun)); len(left) > 0 {
		t.Fatalf("survivors: %+v", left)
	}
	if left, _ := FindTagged(other); len(left) != 1 {
		t.Fatalf("another scope's process was touched: %+v", left)
	}
}

func TestKillRecordedSkipsReusedPids(t *testing.T) {
	cmd := exec.Command("sleep", "300")
	cmd.SysProcAttr = setsidAttr()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	starts := StartTimes(pid)
	if starts[pid] == 0 {
		t.Fatal("no start time read")
	}
	// A wrong start time stands for a pid that now names another process.
	found, err := KillRecorded(pid, map[int]uint64{pid: starts[pid] + 1}, 100*time.Millisecond)
	if err != nil || len(found) != 0 {
		t.Fatalf("signalled a reused pid: %v %+v", err, found)
	}
	if p, ok := readStat(pid); !ok || p.zombie {
		t.Fatal("the process with a different start time was killed")
	}
	found, err = KillRecorded(pid, starts, 100*time.Millisecond)
	if err != nil || len(found) != 1 || found[0].PID != pid {
		t.Fatalf("recorded process not stopped: %v %+v", err, found)
	}
	_ = cmd.Wait()
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		if p, ok := readStat(pid); ok && !p.zombie && p.start == starts[pid] {
			t.Fatal("still alive")
		}
	}
}

func TestStepTagFormat(t *testing.T) {
	tag := StepTag("abc", OwnerAccept, "T/1 x", "git=add")
	if tag != "abc/accept/T_1_x/git_add" {
		t.Fatalf("tag %q", tag)
	}
	f := Tagged{Tag: tag}
	if f.TaskID() != "T_1_x" || f.Step() != "git_add" {
		t.Fatalf("parts %q %q", f.TaskID(), f.Step())
	}
	if s := Scope("/a/b"); len(s) != 12 || s != Scope("/a/b/") || s == Scope("/a/c") || strings.ContainsAny(s, "/=") {
		t.Fatalf("scope %q", s)
	}
}
