package gitx

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// ownGroup starts the command in a process group of its own and without a
// console window (a network one too: Windows has no controlling terminal
// to lose); cancelling it kills git (exec's default).
func ownGroup(cmd *exec.Cmd, _ bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP, HideWindow: true}
}

// endGroup has nothing to end on Windows: git for Windows waits for its
// hooks and filters, and a process group there is only where a console
// Ctrl-Break goes.
func endGroup(*exec.Cmd) {}
