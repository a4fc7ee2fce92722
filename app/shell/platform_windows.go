package shell

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// The shell's platform file for Windows: the tray is the notification
// area, which every Windows desktop has (fyne.io/systray drives it through
// Shell_NotifyIcon); start at login a value under the user's Run key
// (autostart_windows.go); notifications PowerShell's toasts.

// trayHostAvailable: the notification area is always there.
func trayHostAvailable(context.Context) bool { return true }

// platformAutostart is the "Boof Runner" value of
// HKCU\Software\Microsoft\Windows\CurrentVersion\Run, which Explorer runs
// at the next login; key, when not "", is a key under HKCU standing in for
// Software\Microsoft\Windows\CurrentVersion (tests).
func platformAutostart(key string) (Autostart, error) { return runValueAutostart(key), nil }

// platformNotify shows m as a toast through PowerShell (notifyexec.go),
// started without a console window. A click on it does not open the task.
func platformNotify(ctx context.Context, m Notification) (handled bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, notifyExecTimeout)
	defer cancel()
	args, env := toastCommand(m)
	cmd := exec.CommandContext(ctx, "powershell.exe", args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: windows.CREATE_NO_WINDOW}
	if out, err := cmd.CombinedOutput(); err != nil {
		return true, fmt.Errorf("powershell toast: %w: %s", err, firstLine(string(out)))
	}
	return true, nil
}
