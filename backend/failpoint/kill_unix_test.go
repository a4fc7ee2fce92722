//go:build unix

package failpoint

import (
	"os"
	"syscall"
)

// killed says whether the process ended by SIGKILL.
func killed(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signal() == syscall.SIGKILL
}
