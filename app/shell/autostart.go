package shell

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Autostart is the entry that starts the app hidden in the tray at login
// (settings.ui.startAtLogin), in the form and place the shell's platform
// file gives (platformAutostart): a file on Linux and macOS, a registry
// value on Windows. The entry is ours when its place says so (a file
// carries autostartMarker); an entry that is not ours (the user's own) is
// never changed or removed.
type Autostart struct {
	// Path is where the entry lives: its file, or on Windows the registry
	// value's full name. Messages name it.
	Path string
	// Exe is the app binary the entry starts.
	Exe string
	// DataDir is passed as --data-dir; "" when the app runs on the default
	// data root.
	DataDir string

	slot   entrySlot              // reads and writes the entry at Path
	format func(Autostart) string // the entry's text for Exe and DataDir
}

// entrySlot is the place the platform keeps the entry in.
type entrySlot interface {
	// read returns the entry; an error matching os.ErrNotExist when there
	// is none.
	read() ([]byte, error)
	// ours says whether cur, just read, is an entry this app wrote.
	ours(cur []byte) bool
	// write replaces the entry with text, marked as ours.
	write(text []byte) error
	// remove removes the entry and its mark.
	remove() error
}

// autostartMarker marks an entry file this app wrote.
const autostartMarker = "X-Boof-Runner-Autostart=true"

// NewAutostart returns the entry of exe on dataDir ("" for the default
// root) under configHome, the place the platform keeps login items under
// ("" means the user's own: see platformAutostart).
func NewAutostart(configHome, exe, dataDir string) (Autostart, error) {
	a, err := platformAutostart(configHome)
	if err != nil {
		return Autostart{}, err
	}
	a.Exe, a.DataDir = exe, dataDir
	return a, nil
}

// Entry is the text of the entry.
func (a Autostart) Entry() string { return a.format(a) }

// Apply writes the entry when on (replacing an older entry of ours) and
// removes ours when off. An entry the user wrote is left alone: Apply then
// returns an error saying so when on, and nil when off. An entry equal to
// the one Apply would write counts as ours (a write cut short between the
// entry and its mark is finished).
func (a Autostart) Apply(on bool) error {
	cur, err := a.slot.read()
	switch {
	case errors.Is(err, os.ErrNotExist):
		cur = nil
	case err != nil:
		return fmt.Errorf("the start-at-login entry: %w", err)
	}
	want := a.Entry()
	marked := cur != nil && a.slot.ours(cur)
	ours := cur == nil || marked || string(cur) == want
	if !on {
		if cur != nil && ours {
			if err := a.slot.remove(); err != nil {
				return fmt.Errorf("remove the start-at-login entry: %w", err)
			}
		}
		return nil
	}
	if !ours {
		return fmt.Errorf("%s is not Boof Runner's own start-at-login entry; it is left as it is", a.Path)
	}
	if marked && string(cur) == want {
		return nil
	}
	if err := a.slot.write([]byte(want)); err != nil {
		return fmt.Errorf("write the start-at-login entry: %w", err)
	}
	return nil
}

// fileSlot is an entry kept in a file of its own (Linux's XDG autostart
// entry, macOS's LaunchAgent); the marker is in its text.
type fileSlot string

func (f fileSlot) read() ([]byte, error) { return userfile.ReadKept(string(f)) }

func (f fileSlot) ours(cur []byte) bool { return bytes.Contains(cur, []byte(autostartMarker)) }

func (f fileSlot) write(text []byte) error {
	if err := os.MkdirAll(filepath.Dir(string(f)), 0o755); err != nil {
		return fmt.Errorf("create the autostart folder: %w", err)
	}
	return atomicfile.WriteFile(string(f), text, 0o644)
}

func (f fileSlot) remove() error { return os.Remove(string(f)) }
