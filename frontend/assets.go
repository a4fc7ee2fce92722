//go:build !desktop

package frontend

import (
	"io/fs"
	"testing/fstest"
)

// Assets returns an empty FS without the desktop build tag: such a binary is
// the headless CLI; Wails itself refuses to open a window without its tags.
func Assets() fs.FS { return fstest.MapFS{} }
