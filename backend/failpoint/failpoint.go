// Package failpoint lets the reliability harness crash or pause a real
// process at a named point between two steps that no outside observer can
// time (between `git update-ref` and `git read-tree` of an accept, say).
// A point does nothing unless the environment variable EnvVar names it, so
// production runs pay one environment lookup per point.
//
// EnvVar holds a comma-separated list of rules, each "name" or
// "name=action":
//
//	kill         SIGKILL this process at the point (the default): a kill -9
//	             exactly there, with every child left running
//	pause:FILE   create FILE, then wait (at most PauseLimit) until it is
//	             removed: the harness changes something meanwhile
package failpoint

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// EnvVar names the points to act on.
const EnvVar = "BOOF_FAILPOINTS"

// PauseLimit bounds a pause whose file nobody removes.
const PauseLimit = 2 * time.Minute

// Hit acts on the point name when EnvVar names it; otherwise it returns at
// once.
func Hit(name string) {
	rules := os.Getenv(EnvVar)
	if rules == "" {
		return
	}
	for _, rule := range strings.Split(rules, ",") {
		n, action, _ := strings.Cut(strings.TrimSpace(rule), "=")
		if n != name {
			continue
		}
		switch {
		case action == "" || action == "kill":
			killSelf()
		case strings.HasPrefix(action, "pause:"):
			pause(strings.TrimPrefix(action, "pause:"))
		}
	}
}

func pause(file string) {
	if file == "" {
		return
	}
	if err := os.WriteFile(file, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
		return
	}
	deadline := time.Now().Add(PauseLimit)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(file); err != nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
