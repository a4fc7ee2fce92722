package shell

import (
	"encoding/base64"
	"time"
	"unicode/utf16"
)

// The notifications of macOS and Windows are shown by a system program
// (their platform files run it): osascript on macOS, PowerShell's WinRT
// toast on Windows. Both get a fixed script; the notification's text
// arrives as data (osascript's run arguments, environment variables),
// never as script or command-line text, so no quoting of task titles or
// agent output is needed. Pure builders, tested everywhere.

// notifyExecTimeout bounds one run of the program (PowerShell starts in
// seconds on a cold machine).
const notifyExecTimeout = 15 * time.Second

// osascriptArgs is osascript's command line showing m in Notification
// Center: the script reads its title, subtitle and text from argv. The
// first argument is the fixed app name, so a summary starting with "-"
// is not read as an option.
func osascriptArgs(m Notification) []string {
	return []string{
		"-e", "on run argv",
		"-e", "display notification (item 3 of argv) with title (item 1 of argv) subtitle (item 2 of argv)",
		"-e", "end run",
		"Boof Runner", m.Summary, m.Body,
	}
}

// toastScript shows a toast with the title and text of the environment
// variables BOOF_TOAST_TITLE and BOOF_TOAST_TEXT, escaped for the toast's
// XML. The toast is attributed to Windows PowerShell: an app of our own
// needs an AppUserModelID registered by a Start-menu shortcut, which the
// installer does not make.
const toastScript = `$ErrorActionPreference = 'Stop'
[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null
[Windows.Data.Xml.Dom.XmlDocument, Windows.Data.Xml.Dom.XmlDocument, ContentType = WindowsRuntime] | Out-Null
$t = [System.Security.SecurityElement]::Escape($env:BOOF_TOAST_TITLE)
$b = [System.Security.SecurityElement]::Escape($env:BOOF_TOAST_TEXT)
$doc = New-Object Windows.Data.Xml.Dom.XmlDocument
$doc.LoadXml("<toast><visual><binding template=""ToastGeneric""><text>$t</text><text>$b</text></binding></visual></toast>")
$app = '{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\WindowsPowerShell\v1.0\powershell.exe'
[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($app).Show([Windows.UI.Notifications.ToastNotification]::new($doc))
`

// toastCommand is powershell.exe's arguments and the environment entries
// that show m as a toast: the script goes -EncodedCommand (base64 of its
// UTF-16LE text, so the command line holds only [A-Za-z0-9+/=]), m's text
// in the environment.
func toastCommand(m Notification) (args, env []string) {
	u := utf16.Encode([]rune(toastScript))
	b := make([]byte, 0, 2*len(u))
	for _, c := range u {
		b = append(b, byte(c), byte(c>>8))
	}
	args = []string{"-NoProfile", "-NonInteractive", "-WindowStyle", "Hidden", "-EncodedCommand", base64.StdEncoding.EncodeToString(b)}
	return args, []string{"BOOF_TOAST_TITLE=" + m.Summary, "BOOF_TOAST_TEXT=" + m.Body}
}
