package settings

import (
	"os"
	"path/filepath"
	"strings"
)

// WorkDir returns the working directory as a task records it: absolute and
// clean, with a leading "~/" expanded to the home directory. It returns ""
// when none is set or the home directory is unknown.
func (s Settings) WorkDir() string {
	return ResolveWorkDir(s.WorkingDirectory, os.UserHomeDir)
}

// ResolveWorkDir expands a workingDirectory value: "" stays "", "~" and
// "~/x" resolve against home (an error or empty home gives ""), and any
// other path is made absolute and clean.
func ResolveWorkDir(w string, home func() (string, error)) string {
	w = strings.TrimSpace(w)
	switch {
	case w == "":
		return ""
	case w == "~" || strings.HasPrefix(w, "~/"):
		h, err := home()
		if err != nil || h == "" {
			return ""
		}
		return filepath.Join(h, strings.TrimPrefix(w[1:], "/"))
	}
	abs, err := filepath.Abs(w)
	if err != nil {
		return ""
	}
	return abs
}
