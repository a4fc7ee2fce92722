package mock

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// HostilePIDs is the file in the mock's state directory where the hostile
// behaviours append the pids of the processes they start, one "pid start"
// line each (start in clock ticks since boot), so a test can check that
// every one of them is gone.
const HostilePIDs = "hostile.pids"

// hostile plays the role's hostile behaviours, then blocks until the
// process is stopped (it never finishes on its own).
func hostile(o runOpts, toks []string, w *lineWriter) int {
	w.event(agent.Event{Kind: agent.EventText, Text: "Hostile: " + strings.Join(toks, ", ")})
	var spawned []int
	start := func(cmd *exec.Cmd) {
		if err := cmd.Start(); err == nil {
			spawned = append(spawned, cmd.Process.Pid)
			go func() { _ = cmd.Wait() }()
		}
	}
	closePTY := false
	storm := 0
	var hidden []int
	for _, t := range toks {
		switch t {
		case HostileSigterm:
			signal.Ignore(syscall.SIGTERM)
		case HostileSetsid:
			cmd := exec.Command("sleep", "3600")
			detach(cmd)
			start(cmd)
		case HostileDaemon:
			// The shell forks the sleeps and exits: they are orphans, one of
			// them in a session of its own too.
			start(exec.Command("sh", "-c", "(setsid sleep 3600 >/dev/null 2>&1 &) ; (sleep 3600 >/dev/null 2>&1 &)"))
		case HostileHide:
			if pid, ok := hide(o.state); ok {
				hidden = append(hidden, pid)
			}
		case HostileStorm:
			start(exec.Command("sh", "-c", "i=0; while [ $i -lt 150 ]; do sleep 3600 & i=$((i+1)); done; wait"))
			if len(spawned) > 0 {
				storm = spawned[len(spawned)-1]
			}
		case HostileFlood:
			flood(o, w)
		case HostilePTYClose:
			closePTY = true
		}
	}
	// Let the shells fork: the storm until all its children run.
	time.Sleep(200 * time.Millisecond)
	for deadline := time.Now().Add(30 * time.Second); storm > 0 && len(childrenOf()[storm]) < 150 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	recordHostile(o.state, append(spawned, hidden...))
	w.event(agent.Event{Kind: agent.EventText, Text: "Hostile tree ready."})
	if closePTY {
		closeStdio()
	}
	time.Sleep(stallFor)
	return 1
}

// hideScript starts `setsid env -u <tags> sh -c 'cd /; …; exec sleep'`
// in a subshell that exits at once: the helper is an orphan in a session
// of its own, without the tags, outside the worktree. It writes its pid to
// the file named by $0.
var hideScript = `(setsid env -u ` + proc.StepEnv + ` -u ` + proc.TagEnv +
	` sh -c 'cd /; echo $$ >"$1.tmp"; mv "$1.tmp" "$1"; exec sleep 3600' hide "$0" </dev/null >/dev/null 2>&1 &)`

// hide starts the hiding helper and returns its pid.
func hide(state string) (int, bool) {
	f, err := os.CreateTemp(state, "hide-*.pid")
	if err != nil {
		return 0, false
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	if err := exec.Command("sh", "-c", hideScript, name).Run(); err != nil {
		return 0, false
	}
	defer os.Remove(name)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(name); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			return pid, err == nil
		}
	}
	return 0, false
}

// flood writes FloodMiB (default 1024) MiB of output in 64 KiB lines.
func flood(o runOpts, w *lineWriter) {
	mib := o.script.FloodMiB[o.role]
	if mib <= 0 {
		mib = 1024
	}
	line := append(bytes.Repeat([]byte{'x'}, 64<<10-1), '\n')
	for i := 0; i < mib*16; i++ {
		w.mu.Lock()
		_, err := w.w.Write(line)
		w.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// recordHostile appends the pids of the processes the behaviours started,
// and of their descendants, with their start times.
func recordHostile(state string, roots []int) {
	var b strings.Builder
	seen := map[int]bool{}
	queue := append([]int(nil), roots...)
	children := childrenOf()
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		if st, ok := startTime(pid); ok {
			fmt.Fprintf(&b, "%d %d\n", pid, st)
		}
		queue = append(queue, children[pid]...)
	}
	// Orphans re-parented away from us carry our step tag; list them too.
	if tag := os.Getenv("BOOF_STEP"); tag != "" {
		for pid := range children {
			if !seen[pid] && pid != os.Getpid() && environHas(pid, "BOOF_STEP="+tag) {
				if st, ok := startTime(pid); ok {
					fmt.Fprintf(&b, "%d %d\n", pid, st)
				}
			}
		}
	}
	f, err := os.OpenFile(filepath.Join(state, HostilePIDs), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	_, _ = f.WriteString(b.String())
	_ = f.Close()
}

// childrenOf maps every pid to its children (and lists every pid as a key).
func childrenOf() map[int][]int {
	out := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f := statFields(pid)
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		out[ppid] = append(out[ppid], pid)
		if _, ok := out[pid]; !ok {
			out[pid] = nil
		}
	}
	return out
}

// statFields returns the fields of /proc/<pid>/stat after the command name.
func statFields(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 > len(b) {
		return nil
	}
	return strings.Fields(string(b[i+2:]))
}

func startTime(pid int) (uint64, bool) {
	f := statFields(pid)
	if len(f) < 20 {
		return 0, false
	}
	v, err := strconv.ParseUint(f[19], 10, 64)
	return v, err == nil
}

func environHas(pid int, kv string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, e := range bytes.Split(b, []byte{0}) {
		if string(e) == kv {
			return true
		}
	}
	return false
}
