package shell

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"
)

// testRunKey is a key of the test's own under HKCU standing in for
// Software\Microsoft\Windows\CurrentVersion, removed after the test: the
// user's real Run key is never touched.
func testRunKey(t *testing.T) string {
	t.Helper()
	key := fmt.Sprintf(`Software\Boof Runner tests\%s-%d`, t.Name(), time.Now().UnixNano())
	t.Cleanup(func() {
		for _, k := range []string{key + `\Run`, key + `\Boof Runner`, key} {
			if err := registry.DeleteKey(registry.CURRENT_USER, k); err != nil && err != registry.ErrNotExist {
				t.Errorf("remove HKCU\\%s: %v", k, err)
			}
		}
	})
	return key
}

func regValue(t *testing.T, key, name string) (string, bool) {
	t.Helper()
	s, err := getString(key, name)
	if err != nil {
		return "", false
	}
	return s, true
}

// Start at login on Windows, against the real registry: the Run value
// names the window program with its arguments quoted the way Windows
// reads them back; it follows a moved binary; it is removed when off; a
// value the user wrote is never changed or removed; a write cut short
// between the value and its copy is finished; a command line too long for
// Windows is refused with nothing written.
func TestAutostartRunValue(t *testing.T) {
	key := testRunKey(t)
	a, err := NewAutostart(key, `C:\Program Files\Boof Runner\boof-runner.exe`, `D:\data root\say "hi"\`)
	if err != nil {
		t.Fatal(err)
	}
	run, own := key+`\Run`, key+`\Boof Runner`
	if want := `HKCU\` + run + `\Boof Runner`; a.Path != want {
		t.Fatalf("path %s, want %s", a.Path, want)
	}
	if err := a.Apply(false); err != nil { // off with no entry: nothing to do
		t.Fatal(err)
	}
	if err := a.Apply(true); err != nil {
		t.Fatal(err)
	}
	cmd, ok := regValue(t, run, "Boof Runner")
	if !ok {
		t.Fatal("no Run value written")
	}
	argv, err := windows.DecomposeCommandLine(cmd)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`C:\Program Files\Boof Runner\boof-runner-desktop.exe`, "--hidden", "--data-dir", `D:\data root\say "hi"\`}
	if strings.Join(argv, "|") != strings.Join(want, "|") {
		t.Fatalf("the Run value %s reads back as %q, want %q", cmd, argv, want)
	}
	if rec, _ := regValue(t, own, "StartAtLogin"); rec != cmd {
		t.Fatalf("the copy %q differs from the Run value %q", rec, cmd)
	}

	// The binary moved, the default root is used: the value follows.
	a.Exe, a.DataDir = `E:\Apps\boof-runner-desktop.exe`, ""
	if err := a.Apply(true); err != nil {
		t.Fatal(err)
	}
	if cmd, _ := regValue(t, run, "Boof Runner"); cmd != `E:\Apps\boof-runner-desktop.exe --hidden` {
		t.Fatalf("after the move the Run value is %q", cmd)
	}

	// Off: the value and its copy are gone.
	if err := a.Apply(false); err != nil {
		t.Fatal(err)
	}
	if cmd, ok := regValue(t, run, "Boof Runner"); ok {
		t.Fatalf("the Run value is still there: %q", cmd)
	}
	if rec, ok := regValue(t, own, "StartAtLogin"); ok {
		t.Fatalf("the copy is still there: %q", rec)
	}

	// A value the user wrote under the same name is left as it is.
	mine := `"C:\Tools\boof-runner-desktop.exe" --data-dir F:\elsewhere`
	if err := setString(run, "Boof Runner", mine); err != nil {
		t.Fatal(err)
	}
	if err := a.Apply(true); err == nil || !strings.Contains(err.Error(), "not Boof Runner's own") {
		t.Fatalf("writing over the user's value: %v", err)
	}
	if err := a.Apply(false); err != nil {
		t.Fatal(err)
	}
	if cmd, _ := regValue(t, run, "Boof Runner"); cmd != mine {
		t.Fatalf("the user's value changed to %q", cmd)
	}
	if err := deleteValue(run, "Boof Runner"); err != nil {
		t.Fatal(err)
	}

	// A write cut short: the Run value written, its copy not. It counts as
	// ours, the copy is written, and the next move is followed.
	if err := setString(run, "Boof Runner", a.Entry()); err != nil {
		t.Fatal(err)
	}
	if err := a.Apply(true); err != nil {
		t.Fatal(err)
	}
	if rec, _ := regValue(t, own, "StartAtLogin"); rec != a.Entry() {
		t.Fatalf("the copy was not written: %q", rec)
	}
	a.Exe = `G:\boof-runner-desktop.exe`
	if err := a.Apply(true); err != nil {
		t.Fatal(err)
	}
	if cmd, _ := regValue(t, run, "Boof Runner"); cmd != `G:\boof-runner-desktop.exe --hidden` {
		t.Fatalf("after the second move the Run value is %q", cmd)
	}

	// Too long for Windows: refused, the value in place kept.
	a.DataDir = `D:\` + strings.Repeat("x", 300)
	if err := a.Apply(true); err == nil || !strings.Contains(err.Error(), "260") {
		t.Fatalf("a %d-character command line: %v", len(a.Entry()), err)
	}
	if cmd, _ := regValue(t, run, "Boof Runner"); cmd != `G:\boof-runner-desktop.exe --hidden` {
		t.Fatalf("after the refused write the Run value is %q", cmd)
	}
}

// The default place is the user's own Run key (only named here: the test
// writes nothing there).
func TestAutostartDefaultRunKey(t *testing.T) {
	a, err := NewAutostart("", `C:\boof-runner.exe`, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := `HKCU\Software\Microsoft\Windows\CurrentVersion\Run\Boof Runner`; a.Path != want {
		t.Fatalf("path %s, want %s", a.Path, want)
	}
	if a.Entry() != `C:\boof-runner-desktop.exe --hidden` {
		t.Fatalf("entry %q", a.Entry())
	}
}
