//go:build slow && unix

package cli_test

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// signalWhilePaused starts cmd (its environment pausing it at a failpoint
// with pause:PATH), waits until it stands there, sends sig, lifts the
// pause and waits for the process to end.
func signalWhilePaused(t *testing.T, cmd *exec.Cmd, pause string, sig syscall.Signal) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(pause); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(sig)
	time.Sleep(200 * time.Millisecond) // the signal is delivered before the pause is lifted
	os.Remove(pause)
	cmd.Wait()
}
