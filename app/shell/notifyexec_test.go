package shell

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// hostile is a notification whose text would break out of a naively quoted
// AppleScript string, PowerShell string, command line or toast XML.
var hostile = Notification{
	Summary: `-e "quit" \" $(rm -rf ~) '; & calc.exe`,
	Body:    "line\n\"end\" \\ `whoami` $env:PATH <text>&amp;</text>",
}

// osascript gets the fixed script; the text is its last three arguments,
// byte for byte, after the fixed app name.
func TestOsascriptArgsKeepTheTextOutOfTheScript(t *testing.T) {
	args := osascriptArgs(hostile)
	if n := len(args); n != 9 || !slices.Equal(args[6:], []string{"Boof Runner", hostile.Summary, hostile.Body}) {
		t.Fatalf("arguments %q", args)
	}
	for i := 0; i < 6; i += 2 {
		if args[i] != "-e" || strings.Contains(args[i+1], "quit") || strings.Contains(args[i+1], "line") {
			t.Fatalf("script part %d: %q", i, args[i:i+2])
		}
	}
}

// PowerShell gets the fixed script, encoded; the text is only in the
// environment.
func TestToastCommandKeepsTheTextOutOfTheCommandLine(t *testing.T) {
	args, env := toastCommand(hostile)
	enc := args[len(args)-1]
	if args[len(args)-2] != "-EncodedCommand" || strings.Trim(enc, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != "" {
		t.Fatalf("arguments %q", args)
	}
	raw, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(raw)%2 != 0 {
		t.Fatalf("not base64 UTF-16: %v", err)
	}
	u := make([]uint16, len(raw)/2)
	for i := range u {
		u[i] = uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
	}
	if got := string(utf16.Decode(u)); got != toastScript {
		t.Fatalf("the encoded script decodes to:\n%s", got)
	}
	for _, a := range args {
		if strings.Contains(a, "calc") || strings.Contains(a, "whoami") {
			t.Fatalf("the text is on the command line: %q", a)
		}
	}
	if !slices.Equal(env, []string{"BOOF_TOAST_TITLE=" + hostile.Summary, "BOOF_TOAST_TEXT=" + hostile.Body}) {
		t.Fatalf("environment %q", env)
	}
	if !strings.Contains(toastScript, "SecurityElement]::Escape($env:BOOF_TOAST_TITLE)") || !strings.Contains(toastScript, "SecurityElement]::Escape($env:BOOF_TOAST_TEXT)") {
		t.Fatal("the script does not escape the text for the toast's XML")
	}
}
