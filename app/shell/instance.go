package shell

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/app/desktop/handoff"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// One desktop app per data root. The first launch takes an OS file lock
// (flock) on instance.lock in the data root and listens on a Unix socket
// beside it; a later launch finds the lock held, hands its options to the
// running app over the socket and exits 0. The lock is the kernel's: a
// crashed app leaves no stale lock (only its files, which mean nothing),
// and a lock file that cannot be used at all (corrupt, a directory,
// unreadable) never keeps the app from starting: it starts unguarded and
// says so in the log.

// Launch is what a desktop launch asks of the app: its command-line
// options (the hand-off protocol's, package app/desktop/handoff).
type Launch = handoff.Launch

// Names of the instance files in the data root.
const (
	instanceLockFile   = handoff.LockFile
	instanceSocketFile = handoff.SocketFile
)

// handOffTimeout bounds how long a second launch tries to reach the running
// app (which may be starting or quitting) before it gives up; a variable
// for the tests.
var handOffTimeout = 10 * time.Second

// ErrNotAnswering is matched by the error of a launch that found the data
// root's app running but could not hand it its options.
var ErrNotAnswering = errors.New("the running app does not answer")

// Instance is this process's claim on a data root's desktop app: the held
// lock and the socket on which later launches reach it.
type Instance struct {
	root string
	sock string
	lock *os.File // nil when the app runs unguarded
	ln   net.Listener
	log  *slog.Logger

	mu      sync.Mutex
	handler func(Launch)
	pending []Launch
	closed  bool
	wg      sync.WaitGroup
	// temp is a temporary data root to remove on Close (bindingsBuild).
	temp string
}

// ClaimInstance resolves the data root (dataDir "" means the default),
// creates it when missing, and claims its desktop app. When another
// process holds the claim, it hands that app l and returns handedOff true
// (the caller exits 0); the error then is nil, or ErrNotAnswering when the
// running app took no hand-off within handOffTimeout. Otherwise it returns
// the Instance this process holds until Close; launches that arrive before
// Serve are kept for it.
func ClaimInstance(ctx context.Context, dataDir string, l Launch, log *slog.Logger) (inst *Instance, handedOff bool, err error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	temp := ""
	if bindingsBuild {
		if temp, err = os.MkdirTemp("", "boof-runner-bindings-*"); err != nil {
			return nil, false, err
		}
		dataDir = temp
	}
	defer func() {
		if inst != nil {
			inst.temp = temp
		} else if temp != "" {
			os.RemoveAll(temp)
		}
	}()
	root, err := dataroot.Default(dataDir)
	if err != nil {
		return nil, false, err
	}
	if err := dataroot.Ensure(root); err != nil {
		return nil, false, err
	}
	sock := socketPath(root)
	deadline := time.Now().Add(handOffTimeout)
	for {
		lock, held, lerr := lockInstance(filepath.Join(root, instanceLockFile))
		switch {
		case lerr != nil:
			// An unusable lock never stops the app: hand off when an app
			// answers, else start unguarded.
			if handOff(ctx, sock, l) == nil {
				return nil, true, nil
			}
			log.Warn("single instance: the lock cannot be used; starting without it", "err", lerr)
			return listenInstance(root, sock, nil, log), false, nil
		case !held:
			return listenInstance(root, sock, lock, log), false, nil
		}
		herr := handOff(ctx, sock, l)
		if herr == nil {
			return nil, true, nil
		}
		// The holder is starting (not listening yet) or quitting (the
		// lock goes soon): try again.
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		if time.Now().After(deadline) {
			return nil, false, fmt.Errorf("%w: another Boof Runner%s holds %s but did not take the launch (%v)",
				ErrNotAnswering, holderPID(filepath.Join(root, instanceLockFile)), root, herr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lockInstance opens the lock file and tries to lock it (handoff.Lock),
// writing this process's pid into it when it got the lock.
func lockInstance(path string) (f *os.File, held bool, err error) {
	f, held, err = handoff.Lock(filepath.Dir(path))
	if f == nil {
		return nil, held, err
	}
	// The pid is for people and error messages only; what it held before
	// (another pid, garbage) means nothing once the lock is ours.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, false, nil
}

// holderPID names the pid written in the lock file, for a message.
func holderPID(path string) string {
	b, err := userfile.ReadKept(path)
	if err != nil {
		return ""
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
		return fmt.Sprintf(" (pid %d)", pid)
	}
	return ""
}

// socketPath is handoff.SocketPath.
func socketPath(root string) string { return handoff.SocketPath(root) }

// listenInstance removes what a crashed app left at the socket path and
// listens there. A socket that cannot be made leaves the app running
// without hand-off (logged): a second launch then waits and says so.
func listenInstance(root, sock string, lock *os.File, log *slog.Logger) *Instance {
	i := &Instance{root: root, sock: sock, lock: lock, log: log}
	if fi, err := os.Lstat(sock); err == nil && !fi.IsDir() {
		os.Remove(sock)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		log.Warn("single instance: cannot listen for later launches", "socket", sock, "err", err)
		return i
	}
	os.Chmod(sock, 0o600)
	ln.(*net.UnixListener).SetUnlinkOnClose(false) // Close removes it, only while it is ours
	i.ln = ln
	i.wg.Add(1)
	go i.accept(ln)
	return i
}

// Root is the data root this instance holds.
func (i *Instance) Root() string { return i.root }

// Guarded reports whether the lock is held (false: the lock file could not
// be used and the app runs without one).
func (i *Instance) Guarded() bool { return i.lock != nil }

// Serve hands every later launch to h, first those that arrived before,
// oldest first. h runs on the instance's goroutine and must not block long.
func (i *Instance) Serve(h func(Launch)) {
	i.mu.Lock()
	i.handler = h
	pending := i.pending
	i.pending = nil
	i.mu.Unlock()
	for _, l := range pending {
		h(l)
	}
}

func (i *Instance) deliver(l Launch) {
	i.mu.Lock()
	h := i.handler
	if h == nil {
		i.pending = append(i.pending, l)
	}
	i.mu.Unlock()
	if h != nil {
		h(l)
	}
}

func (i *Instance) accept(ln net.Listener) {
	defer i.wg.Done()
	for {
		c, err := ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				i.log.Warn("single instance: accept", "err", err)
			}
			return
		}
		i.serveConn(c)
	}
}

// serveConn reads one request, acknowledges it, then delivers it. A
// malformed request is answered with ok false and changes nothing.
func (i *Instance) serveConn(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(io.LimitReader(c, 64<<10)).ReadBytes('\n')
	var req handoff.Request
	if err == nil {
		err = json.Unmarshal(line, &req)
	}
	json.NewEncoder(c).Encode(handoff.Reply{OK: err == nil})
	if err != nil {
		i.log.Warn("single instance: bad hand-off", "err", err)
		return
	}
	i.log.Info("single instance: launch handed over", "from", req.PID, "new_task", req.Launch.NewTask, "review", req.Launch.Review, "review_id", req.Launch.ReviewID, "hidden", req.Launch.Hidden)
	i.deliver(req.Launch)
}

// handOff sends l to the app listening on sock (handoff.Send).
func handOff(ctx context.Context, sock string, l Launch) error { return handoff.Send(ctx, sock, l) }

// Retire stops taking launches (the socket goes) but keeps the lock: the
// app is quitting, so a later launch waits for the lock and starts anew.
func (i *Instance) Retire() {
	i.mu.Lock()
	ln := i.ln
	i.ln = nil
	i.mu.Unlock()
	if ln != nil {
		ln.Close()
		i.wg.Wait()
		os.Remove(i.sock)
	}
}

// Close stops taking launches, removes the socket and releases the lock
// (the lock file stays: removing a lock file races with the next app).
// Later calls do nothing.
func (i *Instance) Close() error {
	i.mu.Lock()
	if i.closed {
		i.mu.Unlock()
		return nil
	}
	i.closed = true
	i.mu.Unlock()
	i.Retire()
	var err error
	if i.lock != nil {
		err = handoff.Unlock(i.lock)
	}
	if i.temp != "" {
		os.RemoveAll(i.temp)
	}
	return err
}
