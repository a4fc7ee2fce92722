//go:build linux

package proc

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// A process with an empty environment reads as unknown (as one does while
// it starts) until it has run longer than a start can take; one with an
// environment is known, with or without the entry; a pid that is gone is
// known (nothing to wait for).
func TestReadEnvironTellsWhetherItKnows(t *testing.T) {
	empty := exec.Command("/bin/sleep", "1000")
	empty.Env = []string{}
	tagged := exec.Command("/bin/sleep", "1000")
	tagged.Env = []string{TagEnv + "=t1", "OTHER=x"}
	for _, c := range []*exec.Cmd{empty, tagged} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
	}
	// stat waits until pid runs sleep (exec began) and, when want is set,
	// until its environment holds want (exec done).
	stat := func(pid int, want string) procInfo {
		t.Helper()
		deadline := time.Now().Add(safety)
		for {
			comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
			env, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
			if string(comm) == "sleep\n" && bytes.Contains(env, []byte(want)) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("process %d: comm %q, environment %q", pid, comm, env)
			}
			time.Sleep(time.Millisecond)
		}
		p, ok := readStat(pid)
		if !ok {
			t.Fatalf("no process %d", pid)
		}
		return p
	}
	if has, known := environHas(stat(empty.Process.Pid, ""), TagEnv+"=t1"); has || known {
		t.Fatalf("empty environment: has %v, known %v; want unknown", has, known)
	}
	if has, known := environHas(stat(tagged.Process.Pid, "OTHER=x"), TagEnv+"=t1"); !has || !known {
		t.Fatalf("tagged: has %v, known %v", has, known)
	}
	if has, known := environHas(stat(tagged.Process.Pid, "OTHER=x"), TagEnv+"=t2"); has || !known {
		t.Fatalf("other tag: has %v, known %v; want known, not there", has, known)
	}
	if v, ok, known := environValue(stat(tagged.Process.Pid, "OTHER=x"), "OTHER"); v != "x" || !ok || !known {
		t.Fatalf("value %q %v %v", v, ok, known)
	}
	// Once it has run for longer than a start can take, an empty
	// environment is its own: known, not there.
	defer func(d time.Duration) { startingFor = d }(startingFor)
	startingFor = 50 * time.Millisecond
	time.Sleep(startingFor + 3*time.Second/userHZ)
	if has, known := environHas(stat(empty.Process.Pid, ""), TagEnv+"=t1"); has || !known {
		t.Fatalf("empty environment of a process started %v ago: has %v, known %v; want known", startingFor, has, known)
	}
	gone := procInfo{pid: 1 << 22, ppid: 1}
	if has, known := environHas(gone, TagEnv+"=t1"); has || !known {
		t.Fatalf("gone pid: has %v, known %v; want known", has, known)
	}
}

// While a scan reports a candidate it could not tell yet, the tree kill
// looks again instead of calling the tree gone, and kills the member the
// later scan finds; an unknown that never resolves ends the kill after
// unknownLimit.
func TestTreeKillLooksAgainWhileACandidateIsUnknown(t *testing.T) {
	c := exec.Command("/bin/sleep", "1000")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = c.Wait(); close(exited) }()
	t.Cleanup(func() { _ = c.Process.Kill(); <-exited })
	pid := c.Process.Pid
	scans := 0
	k := treeKill{
		members: func(tb *procTable) (map[int]procInfo, bool) {
			scans++
			set := map[int]procInfo{}
			if scans <= 3 {
				return set, true // the daemon's environment unreadable: starting
			}
			if i, ok := tb.byPid[pid]; ok {
				set[pid] = tb.all[i]
			}
			return set, false
		},
		killAt: func() time.Time { return time.Now().Add(time.Second) },
		now:    time.Now,
	}
	if survivors, err := k.run(); err != nil {
		t.Fatalf("survivors %v: %v", survivors, err)
	}
	select {
	case <-exited:
	case <-time.After(safety):
		t.Fatalf("the member found after three unknown scans is alive (scans %d)", scans)
	}
	if scans < 4 {
		t.Fatalf("%d scans", scans)
	}

	forever := 0
	k.members = func(*procTable) (map[int]procInfo, bool) { forever++; return map[int]procInfo{}, true }
	t0 := time.Now()
	if _, err := k.run(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(t0); d < unknownLimit || forever < 2 {
		t.Fatalf("gave up after %v and %d scans; want at least %v of looking again", d, forever, unknownLimit)
	}
}
