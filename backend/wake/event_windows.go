package wake

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/windows"
)

// The wake-up on Windows: Windows' AF_UNIX has no datagrams, so the
// runner makes a named auto-reset event in the login session's namespace
// (Local\boof-runner-wake-<hash of the socket path>) and Poke sets it.
// Nothing is made at the path; the event goes with the last handle to it,
// so a crashed runner leaves nothing stale. Pokes before the runner waits
// again fold into one wake-up, which is all a poke means. A command run in
// another session (a service, an ssh login) finds no event there: its
// change is seen at the runner's next poll.

// eventName is the event of path: the same for every spelling Windows
// takes as the same file (case, separators, . and ..).
func eventName(path string) (*uint16, error) {
	return windows.UTF16PtrFromString(`Local\boof-runner-wake-` + pathHash(strings.ToLower(filepath.Clean(path)), 16))
}

// Listener is the wake-up event of a data root.
type Listener struct {
	event, stop windows.Handle
	done        chan struct{}
	once        sync.Once
}

// Listen makes the wake-up event of path and calls onPoke for every poke
// until Close. The caller must hold the data root's runner lock.
func Listen(path string, onPoke func()) (*Listener, error) {
	name, err := eventName(path)
	if err != nil {
		return nil, fmt.Errorf("wake-up event: %w", err)
	}
	// An event of that name already there is held open by a poke in
	// flight: the handle is to it, which is as good.
	ev, err := windows.CreateEvent(nil, 0, 0, name)
	if ev == 0 {
		return nil, fmt.Errorf("create wake-up event: %w", err)
	}
	stop, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		windows.CloseHandle(ev)
		return nil, fmt.Errorf("create wake-up event: %w", err)
	}
	l := &Listener{event: ev, stop: stop, done: make(chan struct{})}
	go l.serve(onPoke)
	return l, nil
}

func (l *Listener) serve(onPoke func()) {
	defer close(l.done)
	for {
		i, err := windows.WaitForMultipleObjects([]windows.Handle{l.event, l.stop}, false, windows.INFINITE)
		if err != nil || i != windows.WAIT_OBJECT_0 {
			return // stop set (or the wait broke: pokes then wait for the poll)
		}
		onPoke()
	}
}

// Close stops listening and closes the event; after it returns onPoke is
// not called again.
func (l *Listener) Close() error {
	var err error
	l.once.Do(func() {
		err = windows.SetEvent(l.stop)
		<-l.done
		err = errors.Join(err, windows.CloseHandle(l.event), windows.CloseHandle(l.stop))
	})
	return err
}

// Poke sets the wake-up event of path once. It returns ErrNoListener when
// no runner listens; any error only means the runner sees the change at
// its next poll.
func Poke(path string) error {
	name, err := eventName(path)
	if err != nil {
		return fmt.Errorf("poke the runner: %w", err)
	}
	ev, err := windows.OpenEvent(windows.EVENT_MODIFY_STATE, false, name)
	if errors.Is(err, windows.ERROR_FILE_NOT_FOUND) {
		return ErrNoListener
	}
	if err != nil {
		return fmt.Errorf("poke the runner: %w", err)
	}
	defer windows.CloseHandle(ev)
	if err := windows.SetEvent(ev); err != nil {
		return fmt.Errorf("poke the runner: %w", err)
	}
	return nil
}
