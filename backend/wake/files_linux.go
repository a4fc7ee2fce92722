package wake

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchSource is what a FileWatch reads: the inotify descriptor.
type watchSource = *os.File

// WatchFiles calls fire whenever one of the files called names in dir is
// written, made, moved in or removed (inotify on dir), at most once every
// gap: a burst of writes gives one call at once and one at the end of the
// gap. It is how a window that does not run the queue sees at once what
// another process commits to the database (its file and WAL). A
// filesystem or kernel without inotify gives an error, and the caller's
// poll is all there is; the watch never replaces that poll.
func WatchFiles(dir string, names []string, gap time.Duration, fire func()) (*FileWatch, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	const mask = unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_CREATE | unix.IN_MOVED_TO | unix.IN_DELETE
	if _, err := unix.InotifyAddWatch(fd, dir, mask); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	// A non-blocking descriptor goes through Go's poller: Close ends a Read.
	w := &FileWatch{f: os.NewFile(uintptr(fd), "inotify:"+dir), done: make(chan struct{})}
	go w.read(names, gap, fire)
	return w, nil
}

func (w *FileWatch) read(names []string, gap time.Duration, fire func()) {
	defer close(w.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := w.f.Read(buf)
		if err != nil {
			return
		}
		hit := false
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			start := off + unix.SizeofInotifyEvent
			end := start + int(ev.Len)
			if end > n {
				break
			}
			name := string(bytes.TrimRight(buf[start:end], "\x00"))
			if ev.Mask&unix.IN_Q_OVERFLOW != 0 || slices.Contains(names, name) {
				hit = true
			}
			off = end
		}
		if hit {
			w.ring(gap, fire)
		}
	}
}
