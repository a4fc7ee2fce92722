package qwen

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBuildArgs(t *testing.T) {
	const id = "11111111-2222-4333-8444-555555555555"
	for _, tc := range []struct {
		name string
		p    params
		want string
		err  error
	}{
		{"new session", params{session: id},
			"--input-format stream-json --output-format stream-json --yolo --auth-type openai --session-id=" + id, nil},
		{"resume, model, system, read-only, dirs, wall time", params{session: id, resume: true, model: "qwen3-coder-plus",
			system: "-be careful", readOnly: true, readDirs: []string{"/att"}, maxWall: 1500 * time.Millisecond},
			"--input-format stream-json --output-format stream-json --yolo --auth-type openai --model=qwen3-coder-plus " +
				"--append-system-prompt=-be careful --resume=" + id + " --exclude-tools=write_file --exclude-tools=edit " +
				"--exclude-tools=notebook_edit --include-directories=/att --max-wall-time=2s", nil},
		{"ephemeral", params{session: id, ephemeral: true},
			"--input-format stream-json --output-format stream-json --yolo --auth-type openai --session-id=" + id + " --chat-recording=false", nil},
		{"bad model", params{session: id, model: "--yolo"}, "", ErrBadModel},
		{"NUL in system prompt", params{session: id, system: "a\x00b"}, "", ErrBadText},
		{"system prompt too long", params{session: id, system: strings.Repeat("x", maxArgBytes+1)}, "", ErrSystemPromptTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := buildArgs(tc.p)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if got := strings.Join(a, " "); err == nil && got != tc.want {
				t.Fatalf("args\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestEncodeUser(t *testing.T) {
	b, err := encodeUser("line one\n\"quoted\" ✓")
	if err != nil || string(b) != `{"type":"user","message":{"role":"user","content":"line one\n\"quoted\" ✓"}}`+"\n" {
		t.Fatalf("%s %v", b, err)
	}
	if _, err := encodeUser("bad \xff"); !errors.Is(err, ErrBadText) {
		t.Fatalf("invalid UTF-8: %v", err)
	}
}

func TestCheckVersion(t *testing.T) {
	for v, ok := range map[string]bool{"0.24.4": true, "0.24.0": true, "0.25.1": true, "1.0.0": true, "0.23.9": false, "0.9.0": false} {
		if err := checkVersion(v); (err == nil) != ok {
			t.Errorf("checkVersion(%s) = %v", v, err)
		}
	}
}

// Every session has its own home; a second run of a session that is
// running is refused, and a session whose home is gone cannot be resumed.
func TestOpenHome(t *testing.T) {
	base := t.TempDir()
	id, err := newSessionID()
	if err != nil || !sessionRe().MatchString(id) {
		t.Fatalf("session id %q %v", id, err)
	}
	other, _ := newSessionID()
	if other == id {
		t.Fatal("two session ids are the same")
	}
	h, err := openHome(base, id, false)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(base, id, "settings.json")); err != nil || !strings.Contains(string(b), `"usageStatisticsEnabled": false`) {
		t.Fatalf("settings %s %v", b, err)
	}
	if _, err := openHome(base, id, true); !errors.Is(err, ErrSessionBusy) {
		t.Fatalf("second run of a running session: %v", err)
	}
	h2, err := openHome(base, other, false)
	if err != nil || h2.dir == h.dir {
		t.Fatalf("another session: %+v %v", h2, err)
	}
	h2.close()
	h.close()
	h, err = openHome(base, id, true)
	if err != nil {
		t.Fatalf("resume after the run ended: %v", err)
	}
	h.close()
	if _, err := openHome(base, other[:8]+"-0000-4000-8000-000000000000", true); !errors.Is(err, ErrSessionGone) {
		t.Fatalf("unknown session: %v", err)
	}
	if _, err := openHome(base, "../escape", true); !errors.Is(err, ErrBadSession) {
		t.Fatalf("bad session id: %v", err)
	}
}
