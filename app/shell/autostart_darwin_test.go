package shell

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The LaunchAgent: written under Library/LaunchAgents as a property list
// that parses, with the app's arguments escaped; removed when off; a user's
// own file left alone.
func TestAutostartLaunchAgent(t *testing.T) {
	home := t.TempDir()
	a, err := NewAutostart(home, "/Applications/Boof Runner.app/Contents/MacOS/boof-runner", "/data/a&b <root>")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, "Library", "LaunchAgents", "app.boof-runner.autostart.plist"); a.Path != want {
		t.Fatalf("path %s, want %s", a.Path, want)
	}
	if err := a.Apply(true); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(a.Path)
	if err != nil {
		t.Fatal(err)
	}
	var strs []string
	d := xml.NewDecoder(strings.NewReader(string(b)))
	d.Strict = true
	inString := false
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inString = tok.Name.Local == "string"
		case xml.CharData:
			if inString {
				strs = append(strs, string(tok))
			}
		case xml.EndElement:
			inString = false
		}
	}
	want := []string{"app.boof-runner.autostart", a.Exe, "--hidden", "--data-dir", "/data/a&b <root>", "Interactive"}
	if strings.Join(strs, "|") != strings.Join(want, "|") {
		t.Fatalf("strings %q, want %q:\n%s", strs, want, b)
	}
	if err := a.Apply(false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(a.Path); !os.IsNotExist(err) {
		t.Fatalf("agent still there: %v", err)
	}
	own := "<plist><dict><key>Label</key><string>mine</string></dict></plist>\n"
	os.WriteFile(a.Path, []byte(own), 0o644)
	if err := a.Apply(true); err == nil {
		t.Fatal("wrote over the user's own agent")
	}
	if got, _ := os.ReadFile(a.Path); string(got) != own {
		t.Fatalf("the user's agent changed:\n%s", got)
	}
}
