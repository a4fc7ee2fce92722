package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/review"
)

// TestKilledHunkAcceptLeavesNoTempFolder: `accept --only` killed (kill -9)
// while its temporary index exists leaves its folder in $TMPDIR; the next
// hunk accept removes it (its process is dead), and the folder an earlier
// version left unowned once it is old, while a live process's folder and
// other programs' folders stay.
func TestKilledHunkAcceptLeavesNoTempFolder(t *testing.T) {
	data, repo, id, _ := reviewSetup(t)
	tmp := t.TempDir()
	accept := func(extraEnv ...string) (*exec.Cmd, error) {
		cmd := exec.Command(binary, "accept", id, "--only", "c d.txt", "--data-dir", data)
		cmd.Env = append(append(os.Environ(), "BOOF_RUNNER_HOME=", "TMPDIR="+tmp), extraEnv...)
		out, err := cmd.CombinedOutput()
		if err != nil && cmd.ProcessState == nil {
			t.Fatal(err)
		}
		if err != nil {
			t.Logf("accept: %v\n%s", err, out)
		}
		return cmd, err
	}
	cmd, _ := accept(failpoint.EnvVar + "=" + review.FailHunksIndex)
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("accept not killed at %s: %v", review.FailHunksIndex, cmd.ProcessState)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "boof-hunks-*"))
	if len(left) != 1 {
		t.Fatalf("after the kill: %v, want the one folder of the killed accept", left)
	}
	// An earlier version's unowned folder, an hour and more old; a live
	// process's (this test's own pid and start time); someone else's.
	old := filepath.Join(tmp, "boof-guard-123456")
	pid := os.Getpid()
	mine := filepath.Join(tmp, fmt.Sprintf("boof-drops-pid%d-%d-42", pid, proc.StartTimes(pid)[pid]))
	other := filepath.Join(tmp, "boof-notes-7")
	for _, d := range []string{old, mine, other} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * time.Hour)
	os.Chtimes(old, past, past)

	if _, err := accept(); err != nil {
		t.Fatalf("the next accept: %v", err)
	}
	if git(t, repo, "show", "main:c d.txt") != "sea" {
		t.Fatal("the next accept did not land")
	}
	for _, d := range append(left, old) {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s not removed: %v", filepath.Base(d), err)
		}
	}
	for _, d := range []string{mine, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s removed: %v", filepath.Base(d), err)
		}
	}
	if rest, _ := filepath.Glob(filepath.Join(tmp, "boof-hunks-*")); len(rest) != 0 {
		t.Errorf("left in TMPDIR: %v", rest)
	}
}
