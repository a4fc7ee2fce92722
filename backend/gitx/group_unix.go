//go:build unix

package gitx

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
	"golang.org/x/sys/unix"
)

// ownGroup starts the command in its own process group, so that stopping
// it stops the hooks and filters it runs too; SIGTERM first (git removes
// its lock files). A network command gets a new session instead (a new
// process group too, its id the pid) with no controlling terminal:
// nothing can open /dev/tty.
func ownGroup(cmd *exec.Cmd, network bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if network {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	}
	cmd.Cancel = func() error { return signalGroup(cmd, unix.SIGTERM) }
}

// endGroup ends whatever the command left in its group (a hook's
// background job, a filter that ignored SIGTERM); when the group had
// members, it waits until they are gone, so none outlives the call.
func endGroup(cmd *exec.Cmd) {
	if signalGroup(cmd, unix.SIGKILL) == nil {
		_ = proc.KillTree(cmd.Process.Pid, nil, time.Millisecond)
	}
}

// signalGroup signals the command's process group (its pid is the group
// id). After Wait the leader is reaped, but the id stays reserved while any
// member lives, so a group that still has members is still ours.
func signalGroup(cmd *exec.Cmd, sig unix.Signal) error {
	pid := cmd.Process.Pid
	if pid <= 1 {
		return nil
	}
	err := unix.Kill(-pid, sig)
	if sig == unix.SIGTERM {
		_ = unix.Kill(-pid, unix.SIGCONT)
	}
	if errors.Is(err, unix.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}
