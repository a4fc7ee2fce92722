package desktop

import (
	"io/fs"
	"os"
	"os/exec"
)

// desktopName is the desktop binary's file name.
const desktopName = "boof-runner-desktop.exe"

// execDesktop starts the desktop binary with this process's arguments and
// environment and ends this process: Windows has no exec, and the window
// program is a GUI one that needs no console.
func execDesktop(desk string, argv, env []string) error {
	cmd := exec.Command(desk, argv[1:]...)
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		return err
	}
	os.Exit(0)
	return nil
}

// executable: any file is executable on Windows (its extension decides).
func executable(fs.FileInfo) bool { return true }
