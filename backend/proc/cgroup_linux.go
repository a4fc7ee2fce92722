package proc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// cgroupPrefix names the cgroup under which the Runners of one data root
// keep their step cgroups: "boof-runner-<scope>", or "boof-runner" for a
// Runner without a scope. The layout below it is
// <pid>.<start>.<runner id>/<seq>[@<step tag, path-escaped>]: the owning
// process (its pid and start time, so a later process can tell it is
// dead), the Runner, and one cgroup per started child.
const cgroupPrefix = "boof-runner"

func cgroupParentName(scope string) string {
	if scope == "" {
		return cgroupPrefix
	}
	return cgroupPrefix + "-" + scope
}

// cgroupSite is where one Runner creates its step cgroups.
type cgroupSite struct {
	// parent is <own cgroup>/boof-runner[-scope] (a path on the mount).
	parent string
	// dir is this Runner's directory in parent; rel is the same cgroup as
	// /proc/<pid>/cgroup names it.
	dir, rel string
}

// openCgroupSite finds this process's cgroup on the cgroup v2 mount and
// makes the Runner's directory below it. It fails (saying why, for the
// log) when there is no cgroup v2 hierarchy, when this process may not
// move children out of its own cgroup or create cgroups in it, or when
// the kernel has no cgroup.kill (before 5.14).
func openCgroupSite(scope, runnerID string, self int) (*cgroupSite, error) {
	own, rel, err := ownCgroup()
	if err != nil {
		return nil, err
	}
	// Starting a child in a cgroup of ours moves it out of our own: that
	// needs write access to our own cgroup.procs (the common ancestor).
	if err := unix.Faccessat(unix.AT_FDCWD, filepath.Join(own, "cgroup.procs"), unix.W_OK, unix.AT_EACCESS); err != nil {
		return nil, fmt.Errorf("own cgroup %s: cgroup.procs not writable: %w", own, err)
	}
	me, ok := readStat(self)
	if !ok {
		return nil, errors.New("own start time unreadable")
	}
	name := cgroupParentName(scope)
	s := &cgroupSite{parent: filepath.Join(own, name)}
	leaf := fmt.Sprintf("%d.%d.%s", self, me.start, runnerID)
	s.dir = filepath.Join(s.parent, leaf)
	s.rel = strings.TrimSuffix(rel, "/") + "/" + name + "/" + leaf
	if err := s.makeDir(); err != nil {
		return nil, fmt.Errorf("create cgroup in %s: %w", own, err)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "cgroup.kill")); err != nil {
		_ = unix.Rmdir(s.dir)
		return nil, fmt.Errorf("no cgroup.kill (kernel before 5.14?): %w", err)
	}
	return s, nil
}

// makeDir creates the parent and the Runner's directory (either may be
// there already). Another process's Runner removes a parent it finds
// empty, maybe between the two: then both are made again.
func (s *cgroupSite) makeDir() error {
	var err error
	for try := 0; try < 3; try++ {
		if err = unix.Mkdir(s.parent, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
			return err
		}
		if err = unix.Mkdir(s.dir, 0o755); err == nil || errors.Is(err, unix.EEXIST) {
			return nil
		}
		if !errors.Is(err, unix.ENOENT) {
			return err
		}
	}
	return err
}

// close removes the Runner's directory and, when no other Runner uses it,
// the parent. A step cgroup still there (one that could not be emptied)
// keeps both, for a later recovery.
func (s *cgroupSite) close() {
	_ = unix.Rmdir(s.dir)
	_ = unix.Rmdir(s.parent)
}

// ownCgroup returns the directory of this process's cgroup v2 on its
// mount, and its path as /proc/self/cgroup gives it.
func ownCgroup() (dir, rel string, err error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", "", fmt.Errorf("read own cgroup: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			rel = p
		}
	}
	if rel == "" || !strings.HasPrefix(rel, "/") {
		return "", "", errors.New("no cgroup v2 hierarchy (no 0:: line in /proc/self/cgroup)")
	}
	mounts, err := cgroup2Mounts()
	if err != nil {
		return "", "", err
	}
	for _, m := range mounts {
		sub, ok := underRoot(rel, m.root)
		if !ok {
			continue
		}
		dir = filepath.Join(m.point, sub)
		if _, err := os.Stat(filepath.Join(dir, "cgroup.procs")); err == nil {
			return dir, rel, nil
		}
	}
	return "", "", fmt.Errorf("own cgroup %s is on no cgroup2 mount", rel)
}

// underRoot returns rel relative to a mount's root, if it is under it.
func underRoot(rel, root string) (string, bool) {
	if root == "/" {
		return rel, true
	}
	if rel == root {
		return "/", true
	}
	if sub, ok := strings.CutPrefix(rel, root+"/"); ok {
		return "/" + sub, true
	}
	return "", false
}

type cgroupMount struct{ root, point string }

// cgroup2Mounts lists the cgroup2 mounts of this process's mount
// namespace, from /proc/self/mountinfo.
func cgroup2Mounts() ([]cgroupMount, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("read mounts: %w", err)
	}
	defer f.Close()
	var out []cgroupMount
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		// id parent maj:min root point options [optional...] - fstype source super
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok || !strings.HasPrefix(post, "cgroup2 ") {
			continue
		}
		f := strings.Fields(pre)
		if len(f) < 5 {
			continue
		}
		out = append(out, cgroupMount{root: unescapeMount(f[3]), point: unescapeMount(f[4])})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read mounts: %w", err)
	}
	if len(out) == 0 {
		return nil, errors.New("no cgroup2 file system mounted")
	}
	return out, nil
}

// unescapeMount decodes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// stepCgroup is the cgroup one child was started in: everything it
// starts stays in it, whatever it does with its session, environment,
// working directory or parent.
type stepCgroup struct {
	// dir is its path on the mount; rel its path as /proc/<pid>/cgroup says.
	dir, rel string
}

// newStep creates the cgroup for one child and opens it for
// CLONE_INTO_CGROUP. The caller closes fd once the child started.
func (s *cgroupSite) newStep(name string) (c stepCgroup, fd int, err error) {
	c = stepCgroup{dir: filepath.Join(s.dir, name), rel: s.rel + "/" + name}
	err = unix.Mkdir(c.dir, 0o755)
	if errors.Is(err, unix.ENOENT) { // removed from outside (an administrator): make it again
		if err = s.makeDir(); err == nil {
			err = unix.Mkdir(c.dir, 0o755)
		}
	}
	if err != nil {
		return c, -1, fmt.Errorf("create step cgroup: %w", err)
	}
	fd, err = unix.Open(c.dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = unix.Rmdir(c.dir)
		return c, -1, fmt.Errorf("open step cgroup: %w", err)
	}
	return c, fd, nil
}

// pids lists the processes in the cgroup (the kernel drops a process from
// it when it exits: zombies are not listed).
func (c stepCgroup) pids() ([]int, error) {
	b, err := os.ReadFile(filepath.Join(c.dir, "cgroup.procs"))
	if err != nil {
		return nil, fmt.Errorf("read cgroup procs: %w", err)
	}
	var out []int
	for _, f := range bytes.Fields(b) {
		if pid, err := strconv.Atoi(string(f)); err == nil {
			out = append(out, pid)
		}
	}
	return out, nil
}

// populated reports whether a live process is left in the cgroup. A
// cgroup that is gone counts as empty.
func (c stepCgroup) populated() (bool, error) {
	var buf [128]byte
	fd, err := unix.Open(filepath.Join(c.dir, "cgroup.events"), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read cgroup events: %w", err)
	}
	n, err := unix.Read(fd, buf[:])
	unix.Close(fd)
	if err != nil {
		return false, fmt.Errorf("read cgroup events: %w", err)
	}
	return bytes.Contains(buf[:n], []byte("populated 1")), nil
}

// kill sends SIGKILL to every process in the cgroup, atomically: a fork
// racing with it cannot leave a child behind.
func (c stepCgroup) kill() error {
	err := os.WriteFile(filepath.Join(c.dir, "cgroup.kill"), []byte("1"), 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cgroup kill: %w", err)
	}
	return nil
}

// remove deletes the (emptied) cgroup and any cgroups a member made
// below it (a copy of the app run as a step makes its own); one that is
// already gone is fine.
func (c stepCgroup) remove() error {
	if err := removeCgroup(c.dir); err != nil {
		return fmt.Errorf("remove step cgroup: %w", err)
	}
	return nil
}

// removeCgroup removes dir and the cgroups below it, deepest first (a
// cgroup holds only interface files, which go with it).
func removeCgroup(dir string) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	for _, e := range ents {
		if e.IsDir() {
			_ = removeCgroup(filepath.Join(dir, e.Name()))
		}
	}
	err = unix.Rmdir(dir)
	if err == nil || errors.Is(err, unix.ENOENT) {
		return nil
	}
	return err
}

// holds reports whether pid is in this cgroup now (a zombie still names
// the cgroup it died in).
func (c stepCgroup) holds(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			return p == c.rel
		}
	}
	return false
}

// signal sends sig (and SIGCONT with SIGTERM, so a stopped process can
// act on it) to each member not in sent, through a pidfd checked to
// still be in the cgroup, so a pid reused since the list was read is
// never hit. It returns whether any process was listed.
func (c stepCgroup) signal(sig unix.Signal, sent map[int]bool) (bool, error) {
	pids, err := c.pids()
	if err != nil {
		return false, err
	}
	for _, pid := range pids {
		if sent[pid] {
			continue
		}
		sent[pid] = true
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue
		}
		if c.holds(pid) {
			_ = unix.PidfdSendSignal(fd, sig, nil, 0)
			if sig == unix.SIGTERM {
				_ = unix.PidfdSendSignal(fd, unix.SIGCONT, nil, 0)
			}
		}
		unix.Close(fd)
	}
	return len(pids) > 0, nil
}
