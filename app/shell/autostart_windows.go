package shell

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"
)

// Start at login on Windows: a command line in the user's Run key. A
// registry value has no room for a marker, so the command line this app
// wrote is also kept in its own key (HKCU\Software\Boof Runner, value
// StartAtLogin): the Run value is ours when it equals that copy. The Run
// value is written first and the copy second, so a write cut short leaves
// a Run value equal to the one Apply writes, which Apply counts as ours.

const (
	runValueName    = "Boof Runner"
	runRecordName   = "StartAtLogin"
	defaultRunKey   = `Software\Microsoft\Windows\CurrentVersion`
	defaultOwnKey   = `Software\Boof Runner`
	headlessExeName = "boof-runner.exe"
	// maxRunCommand is the longest command line Windows runs from a Run
	// value (260 characters, Microsoft's documentation of the Run keys).
	maxRunCommand = 260
)

// runValueAutostart is the Run value under HKCU\parent\Run with its copy in
// HKCU\parent\Boof Runner; "" means the user's own Run key and
// HKCU\Software\Boof Runner.
func runValueAutostart(parent string) Autostart {
	slot := runValue{run: defaultRunKey + `\Run`, own: defaultOwnKey}
	if parent != "" {
		slot = runValue{run: parent + `\Run`, own: parent + `\Boof Runner`}
	}
	return Autostart{Path: `HKCU\` + slot.run + `\` + runValueName, slot: slot, format: runCommand}
}

// runCommand is the Run value's command line: the window program with
// --hidden (and --data-dir), each argument quoted as CommandLineToArgvW
// reads it. The headless boof-runner.exe is a console program (a console
// window would flash at login): the desktop program beside it is named
// instead.
func runCommand(a Autostart) string {
	exe := a.Exe
	if strings.EqualFold(filepath.Base(exe), headlessExeName) {
		exe = filepath.Join(filepath.Dir(exe), desktopExeName)
	}
	cmd := windows.EscapeArg(exe) + " --hidden"
	if a.DataDir != "" {
		cmd += " --data-dir " + windows.EscapeArg(a.DataDir)
	}
	return cmd
}

// desktopExeName is the window program's file name (app/desktop's
// desktopName).
const desktopExeName = "boof-runner-desktop.exe"

// runValue is the Run value and the key keeping the copy of what this app
// wrote, both under HKEY_CURRENT_USER.
type runValue struct {
	run, own string
}

func (r runValue) read() ([]byte, error) {
	s, err := getString(r.run, runValueName)
	return []byte(s), err
}

func (r runValue) ours(cur []byte) bool {
	s, err := getString(r.own, runRecordName)
	return err == nil && s == string(cur)
}

func (r runValue) write(text []byte) error {
	if len([]rune(string(text))) > maxRunCommand {
		return fmt.Errorf("its command line is %d characters, longer than the %d Windows runs at login (a shorter data root folder fits)", len([]rune(string(text))), maxRunCommand)
	}
	if err := setString(r.run, runValueName, string(text)); err != nil {
		return err
	}
	return setString(r.own, runRecordName, string(text))
}

func (r runValue) remove() error {
	if err := deleteValue(r.run, runValueName); err != nil {
		return err
	}
	return deleteValue(r.own, runRecordName)
}

// getString reads a string value under HKCU; os.ErrNotExist when the key
// or the value is missing.
func getString(key, name string) (string, error) {
	k, err := registry.OpenKey(registry.CURRENT_USER, key, registry.QUERY_VALUE)
	if err != nil {
		return "", notExist(err, key)
	}
	defer k.Close()
	s, _, err := k.GetStringValue(name)
	if err != nil {
		return "", notExist(err, key+`\`+name)
	}
	return s, nil
}

func setString(key, name, value string) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, key, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf(`open HKCU\%s: %w`, key, err)
	}
	defer k.Close()
	if err := k.SetStringValue(name, value); err != nil {
		return fmt.Errorf(`set HKCU\%s\%s: %w`, key, name, err)
	}
	return nil
}

// deleteValue removes a value under HKCU; a missing key or value is no
// error.
func deleteValue(key, name string) error {
	k, err := registry.OpenKey(registry.CURRENT_USER, key, registry.SET_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf(`open HKCU\%s: %w`, key, err)
	}
	defer k.Close()
	if err := k.DeleteValue(name); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return fmt.Errorf(`delete HKCU\%s\%s: %w`, key, name, err)
	}
	return nil
}

// notExist maps the registry's "not found" to os.ErrNotExist.
func notExist(err error, what string) error {
	if errors.Is(err, registry.ErrNotExist) {
		return fmt.Errorf(`HKCU\%s: %w`, what, os.ErrNotExist)
	}
	return fmt.Errorf(`read HKCU\%s: %w`, what, err)
}
