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
// (settings.ui.startAtLogin), in the form and folder the shell's platform
// file gives (autostartPath, autostartEntry). The entry is ours when it
// carries autostartMarker; an entry without it (the user's own) is never
// changed or removed.
type Autostart struct {
	// Path is the entry's file (autostartPath).
	Path string
	// Exe is the app binary the entry starts.
	Exe string
	// DataDir is passed as --data-dir; "" when the app runs on the default
	// data root.
	DataDir string
}

// autostartMarker marks an entry this app wrote.
const autostartMarker = "X-Boof-Runner-Autostart=true"

// NewAutostart returns the entry of exe on dataDir ("" for the default
// root) under configHome, the folder the platform keeps login items under
// ("" means the user's own: see autostartPath).
func NewAutostart(configHome, exe, dataDir string) (Autostart, error) {
	path, err := autostartPath(configHome)
	if err != nil {
		return Autostart{}, err
	}
	return Autostart{Path: path, Exe: exe, DataDir: dataDir}, nil
}

// Entry is the text of the entry.
func (a Autostart) Entry() string { return autostartEntry(a) }

// Apply writes the entry when on (replacing an older entry of ours) and
// removes ours when off. An entry the user wrote is left alone: Apply then
// returns an error saying so when on, and nil when off.
func (a Autostart) Apply(on bool) error {
	cur, err := userfile.ReadKept(a.Path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		cur = nil
	case err != nil:
		return fmt.Errorf("the start-at-login entry: %w", err)
	}
	ours := cur == nil || bytes.Contains(cur, []byte(autostartMarker))
	if !on {
		if cur != nil && ours {
			if err := os.Remove(a.Path); err != nil {
				return fmt.Errorf("remove the start-at-login entry: %w", err)
			}
		}
		return nil
	}
	if !ours {
		return fmt.Errorf("%s is not Boof Runner's own start-at-login entry; it is left as it is", a.Path)
	}
	want := a.Entry()
	if string(cur) == want {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(a.Path), 0o755); err != nil {
		return fmt.Errorf("create the autostart folder: %w", err)
	}
	if err := atomicfile.WriteFile(a.Path, []byte(want), 0o644); err != nil {
		return fmt.Errorf("write the start-at-login entry: %w", err)
	}
	return nil
}
