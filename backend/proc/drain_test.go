package proc

import (
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A process the runner cannot attribute to the handle (own session, no
// tag, its parent gone before any scan saw it) keeps the terminal open
// after the tree is torn down. The read of the PTY is then cut after
// DrainTimeout: the handle finishes with everything read so far while the
// holder still runs, instead of waiting for the holder to close the
// terminal.
func TestDrainTimeoutEndsTheReadWhileAnUnattributedProcessHoldsTheTerminal(t *testing.T) {
	var logs lockedBuffer
	r := NewRunner(RunnerOptions{
		Logger:        slog.New(slog.NewTextHandler(&logs, nil)),
		TrackInterval: time.Hour, // no snapshot can see the holder as a descendant
		DrainTimeout:  200 * time.Millisecond,
	})
	t.Cleanup(func() { r.Shutdown(time.Second) })
	mark := newMark(t)
	x := start(t, r, helperSpec(t, mark, "untagged-holder"))
	x.waitFor(t, "holder ")
	m := regexp.MustCompile(`holder (\d+)`).FindStringSubmatch(x.output())
	holder, _ := strconv.Atoi(m[1])
	t.Cleanup(func() { _ = unix.Kill(holder, unix.SIGKILL) })

	res := wait(t, x.h)
	if res.ExitCode != 0 {
		t.Fatalf("result %+v", res)
	}
	if p, ok := readStat(holder); !ok || p.zombie {
		t.Fatalf("the holder %d is gone: the test did not hold the terminal past the teardown", holder)
	}
	if !strings.Contains(logs.String(), "pty still open after teardown") {
		t.Fatalf("no drain warning in the log:\n%s", logs.String())
	}
	if !strings.Contains(x.output(), "holder "+m[1]) {
		t.Fatalf("output lost: %q", x.output())
	}
}
