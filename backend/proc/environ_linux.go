package proc

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// A process that is being started reads as having no environment: between
// fork (or vfork) and exec, and during exec, /proc/<pid>/environ reads
// empty or fails with ESRCH for a few milliseconds (up to 5 ms on an idle
// machine here, longer under load). A tree scan that took that for "no
// tag" missed a daemon the child had just started — the tree kill then
// ended with the daemon alive and holding the terminal. So a read tells
// whether it knew: a scan that found an unknown candidate looks again
// (treeKill, for at most unknownLimit). Only a process that started less
// than startingFor ago can be unknown: one of ours that really has no
// environment (started with `env -i`, say) would otherwise make every
// tree kill that scans it (a step's sweep that found something, KillTag,
// the handle's orphans) wait the full unknownLimit.

// unknownLimit bounds how long a tree kill keeps looking again because of
// a candidate whose environment could not be read.
const unknownLimit = 500 * time.Millisecond

// startingFor is how long after its start a process whose environment
// reads empty is taken to be starting (a variable for tests).
var startingFor = 2 * time.Second

// userHZ is the unit of the start times in /proc/<pid>/stat (USER_HZ,
// fixed at 100 in the kernel's ABI on the architectures Go supports).
const userHZ = 100

// readEnviron reads /proc/<pid>/environ. known is false when the read says
// nothing yet (empty, or ESRCH for a process that is still listed); a
// process that is gone or belongs to another user is known (not ours).
func readEnviron(p procInfo) (b []byte, known bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/environ")
	switch {
	case err == nil && len(b) > 0:
		return b, true
	case p.pid <= 2 || p.ppid == 2:
		return nil, true // init, kthreadd or a kernel thread: no environment to wait for
	case err == nil, errors.Is(err, unix.ESRCH):
		return nil, !startedWithin(p, startingFor)
	default:
		return nil, true
	}
}

// startedWithin reports whether p started less than d ago, by the
// boot-time clock of /proc/uptime that its start time counts on. When the
// clock cannot be read it says yes (wait, rather than miss a process).
func startedWithin(p procInfo, d time.Duration) bool {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return true
	}
	up, _, _ := bytes.Cut(bytes.TrimSpace(b), []byte(" "))
	secs, err := strconv.ParseFloat(string(up), 64)
	if err != nil {
		return true
	}
	return secs-float64(p.start)/userHZ < d.Seconds()
}

// environHas reports whether p's environment holds the entry kv, and
// whether its environment could be read at all (see readEnviron).
func environHas(p procInfo, kv string) (has, known bool) {
	b, known := readEnviron(p)
	_, has = findEntry(b, func(e []byte) bool { return string(e) == kv })
	return has, known
}

// environValue returns the value of key in p's environment, whether it is
// there, and whether the environment could be read at all.
func environValue(p procInfo, key string) (value string, ok, known bool) {
	b, known := readEnviron(p)
	prefix := key + "="
	e, ok := findEntry(b, func(e []byte) bool { return bytes.HasPrefix(e, []byte(prefix)) })
	if !ok {
		return "", false, known
	}
	return string(e[len(prefix):]), true, true
}

// findEntry returns the first NUL-separated entry of env that match
// accepts.
func findEntry(env []byte, match func([]byte) bool) ([]byte, bool) {
	for len(env) > 0 {
		entry := env
		if i := bytes.IndexByte(env, 0); i >= 0 {
			entry, env = env[:i], env[i+1:]
		} else {
			env = nil
		}
		if match(entry) {
			return entry, true
		}
	}
	return nil, false
}
