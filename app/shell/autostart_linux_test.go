package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAutostartWritesRemovesAndKeepsTheUsersOwn(t *testing.T) {
	home := t.TempDir()
	a, err := NewAutostart(home, "/opt/Boof Runner/boof-runner", "/data/my root")
	if err != nil {
		t.Fatal(err)
	}
	if a.Path != filepath.Join(home, "autostart", "boof-runner.desktop") {
		t.Fatalf("path %s", a.Path)
	}
	if err := a.Apply(false); err != nil { // off with no entry: nothing to do
		t.Fatal(err)
	}
	if err := a.Apply(true); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(a.Path)
	if err != nil {
		t.Fatal(err)
	}
	entry := string(b)
	for _, want := range []string{
		"[Desktop Entry]\nType=Application\n",
		`Exec="/opt/Boof Runner/boof-runner" --hidden --data-dir "/data/my root"` + "\n",
		autostartMarker,
	} {
		if !strings.Contains(entry, want) {
			t.Fatalf("entry lacks %q:\n%s", want, entry)
		}
	}
	// The binary moved: the entry follows.
	a.Exe = "/usr/bin/boof-runner"
	a.DataDir = ""
	if err := a.Apply(true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(a.Path); !strings.Contains(string(b), "Exec=/usr/bin/boof-runner --hidden\n") {
		t.Fatalf("entry not updated:\n%s", b)
	}
	if err := a.Apply(false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(a.Path); !os.IsNotExist(err) {
		t.Fatalf("entry still there: %v", err)
	}
	// An entry the user wrote is never changed or removed.
	own := "[Desktop Entry]\nType=Application\nName=My Boof\nExec=boof-runner --data-dir /elsewhere\n"
	os.WriteFile(a.Path, []byte(own), 0o644)
	if err := a.Apply(true); err == nil || !strings.Contains(err.Error(), "not Boof Runner's own") {
		t.Fatalf("writing over the user's entry: %v", err)
	}
	if err := a.Apply(false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(a.Path); string(b) != own {
		t.Fatalf("the user's entry changed:\n%s", b)
	}
}

func TestDesktopQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/bin/boof-runner": "/usr/bin/boof-runner",
		"/a b/c":               `"/a b/c"`,
		`/x$y"z`:               `"/x\\$y\\"z"`,
	} {
		if got := desktopQuote(in); got != want {
			t.Errorf("desktopQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
