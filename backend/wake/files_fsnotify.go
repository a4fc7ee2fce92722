//go:build darwin || windows

package wake

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watchSource is what a FileWatch reads: an fsnotify watcher (kqueue on
// macOS, ReadDirectoryChangesW on Windows).
type watchSource = *fsnotify.Watcher

// WatchFiles calls fire whenever one of the files called names in dir is
// written, made, moved in or removed, at most once every gap (see the
// Linux file for the contract). An error leaves the caller's poll as all
// there is.
func WatchFiles(dir string, names []string, gap time.Duration, fire func()) (*FileWatch, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	if err := fw.Add(dir); err != nil {
		fw.Close()
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	w := &FileWatch{f: fw, done: make(chan struct{})}
	go w.read(names, gap, fire)
	return w, nil
}

func (w *FileWatch) read(names []string, gap time.Duration, fire func()) {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.f.Events:
			if !ok {
				return
			}
			if slices.Contains(names, filepath.Base(ev.Name)) {
				w.ring(gap, fire)
			}
		case err, ok := <-w.f.Errors:
			if !ok {
				return
			}
			// An overflow loses events: ring, as inotify's IN_Q_OVERFLOW does.
			if err == fsnotify.ErrEventOverflow {
				w.ring(gap, fire)
			}
		}
	}
}
