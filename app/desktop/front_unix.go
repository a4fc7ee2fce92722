//go:build unix

package desktop

import (
	"io/fs"
	"syscall"
)

// desktopName is the desktop binary's file name.
const desktopName = "boof-runner-desktop"

// execDesktop replaces this process with the desktop binary (same pid).
func execDesktop(desk string, argv, env []string) error { return syscall.Exec(desk, argv, env) }

func executable(fi fs.FileInfo) bool { return fi.Mode()&0o111 != 0 }
