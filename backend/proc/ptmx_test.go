//go:build linux

package proc

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openPTY's master is read through the poller: a read with nothing to read
// honours a deadline (a blocking master ignored it, so a process holding
// the terminal could keep a handle from finishing), also after the window
// size is set through pty.Setsize, which asks for the descriptor. Bytes
// written to the terminal side arrive unchanged.
func TestOpenPTYMasterHonoursReadDeadlines(t *testing.T) {
	master, tty, err := openPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	defer tty.Close()
	if err := makeRaw(tty); err != nil {
		t.Fatal(err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	flags, err := unix.FcntlInt(master.Fd(), unix.F_GETFL, 0)
	if err != nil || flags&unix.O_NONBLOCK == 0 {
		t.Fatalf("master flags %#x, err %v: not non-blocking", flags, err)
	}
	if flags, err := unix.FcntlInt(master.Fd(), unix.F_GETFD, 0); err != nil || flags&unix.FD_CLOEXEC == 0 {
		t.Fatalf("master fd flags %#x, err %v: a child would inherit the master", flags, err)
	}

	if err := master.SetReadDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := master.Read(make([]byte, 16))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("read with nothing to read: %v, want the deadline", err)
		}
	case <-time.After(safety):
		t.Fatal("the read ignored its deadline")
	}

	if err := master.SetReadDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := tty.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, err := master.Read(buf)
	if err != nil || string(buf[:n]) != "hello\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
}
