package mock

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// detach starts cmd detached from our console, in a process group of its
// own.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP}
}

// closeStdio closes the standard handles.
func closeStdio() {
	for _, f := range []*os.File{os.Stdin, os.Stdout, os.Stderr} {
		_ = f.Close()
	}
}
