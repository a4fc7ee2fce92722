package shell

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plistStrings is the text of every <string> of a property list, in order;
// the list must be well-formed XML.
func plistStrings(t *testing.T, b []byte) []string {
	t.Helper()
	var strs []string
	d := xml.NewDecoder(strings.NewReader(string(b)))
	d.Strict = true
	inString := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return strs
		}
		if err != nil {
			t.Fatalf("the property list does not parse: %v\n%s", err, b)
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
}

// The LaunchAgent (macOS's start-at-login entry; written by pure Go, so
// tested here on every OS): written under Library/LaunchAgents as a
// property list that parses, with the app's arguments escaped; rewritten
// when the binary moves; removed when off; a user's own file left alone.
func TestAutostartLaunchAgent(t *testing.T) {
	home := t.TempDir()
	a, err := launchAgent(home)
	if err != nil {
		t.Fatal(err)
	}
	a.Exe, a.DataDir = "/Applications/Boof Runner.app/Contents/MacOS/boof-runner", "/data/a&b <root>"
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
	want := []string{"app.boof-runner.autostart", a.Exe, "--hidden", "--data-dir", "/data/a&b <root>", "Interactive"}
	if strs := plistStrings(t, b); strings.Join(strs, "|") != strings.Join(want, "|") {
		t.Fatalf("strings %q, want %q:\n%s", strs, want, b)
	}
	if !strings.Contains(string(b), "<key>RunAtLoad</key>\n\t<true/>") {
		t.Fatalf("not run at load:\n%s", b)
	}
	// The binary moved and the default root is used: the agent follows.
	a.Exe, a.DataDir = "/Applications/Boof Runner 2.app/Contents/MacOS/boof-runner", ""
	if err := a.Apply(true); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(a.Path)
	want = []string{"app.boof-runner.autostart", a.Exe, "--hidden", "Interactive"}
	if strs := plistStrings(t, b); strings.Join(strs, "|") != strings.Join(want, "|") {
		t.Fatalf("after the move: strings %q, want %q:\n%s", strs, want, b)
	}
	if err := a.Apply(false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(a.Path); !os.IsNotExist(err) {
		t.Fatalf("agent still there: %v", err)
	}
	own := "<plist><dict><key>Label</key><string>mine</string></dict></plist>\n"
	if err := os.WriteFile(a.Path, []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := a.Apply(true); err == nil || !strings.Contains(err.Error(), "not Boof Runner's own") {
		t.Fatalf("writing over the user's own agent: %v", err)
	}
	if err := a.Apply(false); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(a.Path); string(got) != own {
		t.Fatalf("the user's agent changed:\n%s", got)
	}
}
