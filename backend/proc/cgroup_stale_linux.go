package proc

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// KillStaleCgroups ends what the Runners of scope left in their cgroups
// when their process died (a crash, kill -9): it looks for every
// "boof-runner-<scope>" cgroup on the host's cgroup v2 tree (the next
// start may run in another cgroup than the dead one did) and, in them, the
// directories of Runners whose process is gone. Every process in their
// step cgroups gets SIGTERM (and SIGCONT), then, after grace (zero means
// DefaultGrace), cgroup.kill; the emptied cgroups are removed. A process
// cannot leave its cgroup, whatever it does with its session, environment,
// working directory or parent, so nothing a dead run started there is
// missed. It returns the processes found at the start, each with the step
// tag its cgroup was made for (Tag "" when none), sorted by pid; nil when
// there is no cgroup v2 tree or nothing was left; an error wrapping
// ErrInvalidSpec for an empty scope, and one wrapping ErrSurvivors when
// something outlived SIGKILL.
func KillStaleCgroups(scope string, grace time.Duration) ([]Tagged, error) {
	if scope == "" || strings.ContainsAny(scope, "/\x00") {
		return nil, fmt.Errorf("kill stale cgroups %q: %w", scope, ErrInvalidSpec)
	}
	if grace <= 0 {
		grace = DefaultGrace
	}
	mounts, err := cgroup2Mounts()
	if err != nil {
		return nil, nil // no cgroup v2 tree: no Runner put anything there
	}
	name := cgroupParentName(scope)
	var parents []cgroupDir
	for _, m := range mounts {
		parents = append(parents, findCgroups(m, name)...)
	}
	var steps []staleStep
	var runners []string
	for _, p := range parents {
		s, r := deadRunners(p)
		steps, runners = append(steps, s...), append(runners, r...)
	}
	if len(steps) == 0 && len(runners) == 0 {
		return nil, nil
	}
	found := make([]Tagged, 0)
	for _, s := range steps {
		pids, _ := s.c.pids()
		for _, pid := range pids {
			if p, ok := readStat(pid); ok && !p.zombie {
				found = append(found, Tagged{PID: pid, Start: p.start, Tag: s.tag, Command: cmdline(pid)})
			}
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].PID < found[j].PID })
	err = endStaleSteps(steps, time.Now().Add(grace))
	for _, s := range steps {
		_ = s.c.remove()
	}
	for _, r := range runners {
		_ = unix.Rmdir(r)
	}
	for _, p := range parents {
		_ = unix.Rmdir(p.dir) // kept while a live Runner uses it
	}
	if len(found) == 0 {
		found = nil
	}
	if err != nil {
		return found, fmt.Errorf("kill stale cgroups: %w", err)
	}
	return found, nil
}

// cgroupDir is a cgroup: its path on the mount and as /proc names it.
type cgroupDir struct{ dir, rel string }

// staleStep is a step cgroup of a dead Runner.
type staleStep struct {
	c   stepCgroup
	tag string
}

// findCgroups walks a cgroup2 mount for the cgroups called name. The walk
// reads directories only (a host has hundreds to a few thousand cgroups).
// It enters other Runners' cgroups too: an app whose tests or whose own
// copy run as a step of another is in one.
func findCgroups(m cgroupMount, name string) []cgroupDir {
	var out []cgroupDir
	stack := []string{m.point}
	for len(stack) > 0 {
		dir := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !e.IsDir() {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if e.Name() == name {
				sub, _ := filepath.Rel(m.point, p)
				out = append(out, cgroupDir{dir: p, rel: filepath.Join(m.root, sub)})
				continue
			}
			stack = append(stack, p)
		}
	}
	return out
}

// deadRunners lists the step cgroups of the Runners in parent whose
// process is gone, and those Runners' directories.
func deadRunners(parent cgroupDir) (steps []staleStep, runners []string) {
	ents, err := os.ReadDir(parent.dir)
	if err != nil {
		return nil, nil
	}
	for _, e := range ents {
		if !e.IsDir() || runnerAlive(e.Name()) {
			continue
		}
		rdir := filepath.Join(parent.dir, e.Name())
		runners = append(runners, rdir)
		subs, err := os.ReadDir(rdir)
		if err != nil {
			continue
		}
		for _, s := range subs {
			if !s.IsDir() {
				continue
			}
			_, esc, _ := strings.Cut(s.Name(), "@")
			tag, err := url.PathUnescape(esc)
			if err != nil {
				tag = ""
			}
			steps = append(steps, staleStep{
				c:   stepCgroup{dir: filepath.Join(rdir, s.Name()), rel: parent.rel + "/" + e.Name() + "/" + s.Name()},
				tag: tag,
			})
		}
	}
	return steps, runners
}

// runnerAlive reports whether the process a Runner directory is named
// after ("<pid>.<start>.<id>") still runs. A name that is not one is
// taken as alive: not ours to touch.
func runnerAlive(name string) bool {
	f := strings.SplitN(name, ".", 3)
	if len(f) != 3 {
		return true
	}
	pid, err1 := strconv.Atoi(f[0])
	start, err2 := strconv.ParseUint(f[1], 10, 64)
	if err1 != nil || err2 != nil || pid <= 0 {
		return true
	}
	p, ok := readStat(pid)
	return ok && p.start == start && !p.zombie
}

// endStaleSteps ends every process of steps: SIGTERM once each until
// killAt, then cgroup.kill, until all are empty.
func endStaleSteps(steps []staleStep, killAt time.Time) error {
	sent := make([]map[int]bool, len(steps))
	for i := range sent {
		sent[i] = map[int]bool{}
	}
	delay := time.Millisecond
	killed := false
	var giveUp time.Time
	for {
		var live []int
		for i, s := range steps {
			if pop, err := s.c.populated(); err == nil && pop {
				live = append(live, i)
			}
		}
		if len(live) == 0 {
			return nil
		}
		now := time.Now()
		if !killed && !now.Before(killAt) {
			for _, i := range live {
				_ = steps[i].c.kill()
			}
			killed, giveUp = true, now.Add(killPhaseLimit)
		}
		if killed && now.After(giveUp) {
			var left []int
			for _, i := range live {
				pids, _ := steps[i].c.pids()
				left = append(left, pids...)
			}
			return fmt.Errorf("%w: %v", ErrSurvivors, left)
		}
		if !killed {
			for _, i := range live {
				_, _ = steps[i].c.signal(unix.SIGTERM, sent[i])
			}
		}
		wait := delay
		if d := time.Until(killAt); !killed && d > 0 && d < wait {
			wait = d
		}
		time.Sleep(wait)
		if delay < maxPoll {
			delay *= 2
		}
	}
}

// removeDead removes the empty cgroups that dead processes' Runners left
// beside this site (in every boof-runner* cgroup of our own cgroup), and
// the parents they leave empty. Cgroups with processes in them stay: only
// a recovery of their data root ends those (KillStaleCgroups).
func (s *cgroupSite) removeDead() {
	own := filepath.Dir(s.parent)
	ents, err := os.ReadDir(own)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), cgroupPrefix) {
			continue
		}
		parent := filepath.Join(own, e.Name())
		steps, runners := deadRunners(cgroupDir{dir: parent})
		for _, st := range steps {
			if pop, err := st.c.populated(); err == nil && !pop {
				_ = st.c.remove()
			}
		}
		for _, r := range runners {
			_ = unix.Rmdir(r)
		}
		if parent != s.parent {
			_ = unix.Rmdir(parent)
		}
	}
}
