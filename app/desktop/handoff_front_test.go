//go:build !desktop

package desktop

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/app/desktop/handoff"
)

// A second launch while the data root's app runs is handed to that app by
// the command the user types itself: the window binary (and GTK) is never
// started for it. With the claim held by an app that does not answer, or
// with no app, the window binary is started (it waits or claims).
func TestFrontHandsALaunchToTheRunningAppWithoutTheDesktopBinary(t *testing.T) {
	tmp := t.TempDir()
	bin := buildFront(t, filepath.Join(tmp, "bin"))
	rec := filepath.Join(tmp, "rec")
	fakeDesktop(t, filepath.Join(tmp, "bin", "boof-runner-desktop"), rec)
	data := filepath.Join(tmp, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "BOOF_DESKTOP_BIN=", "BOOF_RUNNER_HOME=")
	launch := func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, append(args, "--data-dir", data)...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("launch %v: %v\n%s", args, err, out)
		}
	}
	started := func() bool {
		_, err := os.Stat(rec)
		os.Remove(rec)
		return err == nil
	}

	// The running app: the claim held, the socket answering.
	lock, held, err := handoff.Lock(data)
	if err != nil || held {
		t.Fatalf("lock: held %v, %v", held, err)
	}
	defer lock.Close()
	ln, err := net.Listen("unix", handoff.SocketPath(data))
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan handoff.Request, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		var req handoff.Request
		line, _ := bufio.NewReader(c).ReadBytes('\n')
		err = json.Unmarshal(line, &req)
		got <- req // before the reply: the launcher returns once it has it
		json.NewEncoder(c).Encode(handoff.Reply{OK: err == nil})
	}()
	launch("--review", "T9")
	if started() {
		t.Fatal("the window binary was started although the running app took the launch")
	}
	select {
	case req := <-got:
		if req.Launch != (handoff.Launch{Review: true, ReviewID: "T9"}) || req.PID == 0 {
			t.Fatalf("the app got %+v", req)
		}
	default:
		t.Fatal("the running app got no launch")
	}

	// Held, but nobody answers (the app is starting or quitting): the
	// window binary takes the launch over.
	ln.Close()
	launch("--new-task")
	if !started() {
		t.Fatal("with an app that does not answer, the window binary was not started")
	}

	// No app at all.
	lock.Close()
	launch()
	if !started() {
		t.Fatal("with no app, the window binary was not started")
	}
}
