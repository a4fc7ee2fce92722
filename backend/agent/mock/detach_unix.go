//go:build unix

package mock

import (
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own (setsid).
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// closeStdio closes descriptors 0, 1 and 2 (the terminal).
func closeStdio() {
	for _, fd := range []int{0, 1, 2} {
		_ = syscall.Close(fd)
	}
}
