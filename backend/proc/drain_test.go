//go:build linux

package proc

import (
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A process outside the tree (here this test; in the field, something
// that opened the terminal by its name) keeps the terminal open after the
// tree is torn down. The read of the PTY is then cut after DrainTimeout:
// the handle finishes with everything read so far while the holder still
// has the terminal open, instead of waiting for it to close it.
func TestDrainTimeoutEndsTheReadWhileAProcessOutsideTheTreeHoldsTheTerminal(t *testing.T) {
	for _, m := range mechanisms() {
		t.Run(m.name, func(t *testing.T) {
			var logs lockedBuffer
			m.opts.Logger = slog.New(slog.NewTextHandler(&logs, nil))
			m.opts.DrainTimeout = 200 * time.Millisecond
			r := newRunnerWith(t, m)
			mark := newMark(t)
			x := start(t, r, shSpec(t, mark, `echo ready; sleep 1000`))
			x.waitFor(t, "ready")
			fd, err := unix.Open("/proc/"+strconv.Itoa(x.h.Pid())+"/fd/1", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
			if err != nil {
				t.Fatalf("open the child's terminal: %v", err)
			}
			holder := os.NewFile(uintptr(fd), "pty")
			defer holder.Close()
			x.h.Stop(ReasonStopped)
			res := wait(t, x.h)
			if res.Reason != ReasonStopped {
				t.Fatalf("result %+v", res)
			}
			if !strings.Contains(logs.String(), "pty still open after teardown") {
				t.Fatalf("no drain warning in the log:\n%s", logs.String())
			}
			if !strings.Contains(x.output(), "ready") {
				t.Fatalf("output lost: %q", x.output())
			}
			assertGone(t, mark, nil)
		})
	}
}
