package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/windows"
)

// treeMechanism: on Windows each child runs in a Job Object of its own
// (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE), assigned while it is suspended,
// before it can start anything: every descendant is born in the job, and
// the OS ends the whole job when the app exits or crashes.
const treeMechanism = "job object (Windows)"

// osHandle is what Windows knows of a handle's tree: its job.
type osHandle struct {
	job windows.Handle
}

// newJob makes a job whose processes all die when its last handle closes.
func newJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("create job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("set job limits: %w", err)
	}
	return job, nil
}

// assignAndResume puts the suspended process pid in job, then resumes its
// threads: nothing it starts can begin outside the job.
func assignAndResume(job windows.Handle, pid int) error {
	ph, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return fmt.Errorf("open process: %w", err)
	}
	defer windows.CloseHandle(ph)
	if err := windows.AssignProcessToJobObject(job, ph); err != nil {
		return fmt.Errorf("assign to job: %w", err)
	}
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("thread snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if int(te.OwnerProcessID) != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("open thread: %w", err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resume thread: %w", err)
		}
		resumed++
	}
	if resumed == 0 {
		return errors.New("resume: no thread found")
	}
	return nil
}

// spawn starts the child suspended in a new process group, puts it in a
// job of its own, resumes it and registers it. Its output is a pipe: the
// console of a pseudo-terminal (ConPTY) is not used yet, so StdinPTY
// falls back to a stdin pipe (Write and CloseInput act on it).
func (r *Runner) spawn(s Spec, path string, env []string, transcript *os.File) (*Handle, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start: output pipe: %w", err)
	}
	closeAll := func(fs ...*os.File) {
		for _, f := range fs {
			if f != nil {
				f.Close()
			}
		}
	}
	if s.Stdin == StdinPTY {
		s.Stdin = StdinPipe
	}
	var stdinR, stdinW *os.File
	if s.Stdin == StdinPipe {
		if stdinR, stdinW, err = os.Pipe(); err != nil {
			closeAll(outR, outW)
			return nil, fmt.Errorf("start: stdin pipe: %w", err)
		}
	}
	job, err := newJob()
	if err != nil {
		closeAll(outR, outW, stdinR, stdinW)
		return nil, fmt.Errorf("start: %w", err)
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		windows.CloseHandle(job)
		closeAll(outR, outW, stdinR, stdinW)
		return nil, fmt.Errorf("start: %w", ErrRunnerClosed)
	}
	r.seq++
	tag := r.id + "-" + strconv.Itoa(r.self) + "-" + strconv.Itoa(r.seq)
	env = append(env, TagEnv+"="+tag)
	cmd := &exec.Cmd{
		Path: path, Args: append([]string{s.Path}, s.Args...), Dir: s.Dir, Env: env,
		Stdout: outW, Stderr: outW,
		SysProcAttr: &syscall.SysProcAttr{
			CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP,
			HideWindow:    true,
		},
	}
	if stdinR != nil {
		cmd.Stdin = stdinR
	}
	if err := cmd.Start(); err != nil {
		r.mu.Unlock()
		windows.CloseHandle(job)
		closeAll(outR, outW, stdinR, stdinW)
		return nil, fmt.Errorf("start %s: %w", s.Path, err)
	}
	if err := assignAndResume(job, cmd.Process.Pid); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		r.mu.Unlock()
		windows.CloseHandle(job)
		closeAll(outR, outW, stdinR, stdinW)
		return nil, fmt.Errorf("start %s: %w", s.Path, err)
	}
	h := newHandle(r, s, cmd, tag, outR, stdinW, transcript)
	h.job = job
	r.direct[h.pid] = true
	r.handles[h] = struct{}{}
	r.mu.Unlock()
	closeAll(outW, stdinR)
	return h, nil
}

// Pgid returns the child's process group id (its pid: it was started with
// CREATE_NEW_PROCESS_GROUP, the group a console Ctrl-Break goes to).
func (h *Handle) Pgid() int { return h.pid }

// Pids returns the live processes of the job right now, sorted; nil once
// it is empty. The direct child counts while it has not exited, listed or
// not (Wine 8 leaves a process assigned with AssignProcessToJobObject out
// of the job's list, though its children are listed in it).
func (h *Handle) Pids() []int {
	pids, err := jobPids(h.job)
	if err != nil {
		return nil
	}
	h.mu.Lock()
	exited := h.exited
	h.mu.Unlock()
	if !exited && !slices.Contains(pids, h.pid) {
		pids = append(pids, h.pid)
		sort.Ints(pids)
	}
	if len(pids) == 0 {
		return nil
	}
	return pids
}

// jobPids lists the processes in job.
func jobPids(job windows.Handle) ([]int, error) {
	const max = 4096
	buf := make([]byte, 8+max*unsafe.Sizeof(uintptr(0)))
	if err := windows.QueryInformationJobObject(job, windows.JobObjectBasicProcessIdList,
		uintptr(unsafe.Pointer(&buf[0])), uint32(len(buf)), nil); err != nil {
		return nil, fmt.Errorf("job processes: %w", err)
	}
	n := *(*uint32)(unsafe.Pointer(&buf[4])) // NumberOfProcessIdsInList
	ids := unsafe.Slice((*uintptr)(unsafe.Pointer(&buf[8])), min(int(n), max))
	out := make([]int, 0, len(ids))
	for _, id := range ids {
		out = append(out, int(id))
	}
	sort.Ints(out)
	return out, nil
}

// teardown ends the job: a Ctrl-Break to the child's process group at
// once when a stop was asked for while it ran (it reaches console
// programs that share our console), TerminateJobObject at the kill
// deadline for whatever is still in it; then it waits for the child's own
// exit and closes the job.
func (h *Handle) teardown(stopping bool, exited <-chan struct{}) {
	if stopping {
		_ = windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(h.pid))
	}
	terminated := false
	for delay := time.Millisecond; ; delay = min(delay*2, maxPoll) {
		pids, err := jobPids(h.job)
		if err != nil {
			h.r.log.Warn("proc: job unreadable; terminating it", "pid", h.pid, "err", err)
			_ = windows.TerminateJobObject(h.job, 1)
			break
		}
		if len(pids) == 0 {
			break
		}
		now := h.r.now()
		killAt := h.getKillAt()
		if !now.Before(killAt) && !terminated {
			_ = windows.TerminateJobObject(h.job, 1)
			terminated = true
		}
		if now.After(killAt.Add(killPhaseLimit)) {
			h.r.log.Warn("proc: tree not fully stopped", "pid", h.pid, "survivors", pids, "err", ErrSurvivors)
			break
		}
		time.Sleep(delay)
	}
	<-exited
	windows.CloseHandle(h.job)
}

// addGroup has nothing to add on Windows: a dead run's job died with it.
func addGroup(map[int]pinfo, map[int]pinfo, int) {}

// stopPolitely cannot reach another console's process on Windows: it is
// the forced stop.
func stopPolitely(pid int) { stopForced(pid) }

func stopForced(pid int) {
	ph, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return
	}
	_ = windows.TerminateProcess(ph, 1)
	windows.CloseHandle(ph)
}

// exitedZombie: Windows has no zombies.
func exitedZombie(*process.Process) bool { return false }

// osBaseEnv adds what Windows programs cannot start or find their files
// without (node, and so the agent CLIs, need APPDATA and the rest), taken
// from this process's environment.
func osBaseEnv() []string {
	var out []string
	for _, k := range []string{"SystemRoot", "SystemDrive", "ComSpec", "PATHEXT", "TEMP", "TMP",
		"USERPROFILE", "APPDATA", "LOCALAPPDATA", "ProgramData", "ProgramFiles", "windir"} {
		if v, ok := os.LookupEnv(k); ok {
			out = append(out, k+"="+v)
		}
	}
	return out
}
