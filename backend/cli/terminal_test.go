package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"golang.org/x/term"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// hostile holds what would act on a terminal printed raw: OSC 0 and 2
// title changes (ended by BEL and by ST), a screen clear and cursor home,
// an OSC 52 clipboard write, the C1 CSI, a right-to-left override and an
// isolate. hostileFile adds a byte that is not UTF-8 (only files hold it:
// prompts and templates must be UTF-8).
const (
	hostile     = "\x1b]0;owned\x07\x1b]2;title\x1b\\\x1b[2J\x1b[H\x1b]52;c;aGk=\x07\u009b31m\u202egnp.exe\u2066x\u2069"
	hostileFile = hostile + "\xff\n"
)

// escaped is how hostile's start reads once escaped for a terminal, and
// jsonEscaped how it reads in JSON (the encoder escapes C0 itself).
const (
	escaped     = `\x1b]0;owned\x07\x1b]2;title\x1b\\x1b[2J`
	jsonEscaped = `\u001b]0;owned\u0007\u001b]2;title\u001b\\\u001b[2J`
)

// terminalEnd is written to the terminal after the command exits, so the
// reader knows it has everything.
const terminalEnd = "\n<<end of the command's output>>\n"

// onTerminal runs the binary with a terminal (a real PTY, in raw mode so
// the bytes read are the bytes written) as its stdout and stderr, and
// returns its exit code and everything it printed.
func onTerminal(t *testing.T, data string, args ...string) (int, []byte) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if _, err := term.MakeRaw(int(tty.Fd())); err != nil {
		t.Fatal(err)
	}
	read := make(chan []byte, 1)
	go func() {
		var out []byte
		chunk := make([]byte, 4096)
		for !bytes.Contains(out, []byte(terminalEnd)) {
			n, err := ptmx.Read(chunk)
			out = append(out, chunk[:n]...)
			if err != nil {
				break
			}
		}
		read <- out
	}()
	cmd := exec.Command(binary, append(args, "--data-dir", data)...)
	cmd.Env = append(os.Environ(), "BOOF_RUNNER_HOME=")
	cmd.Stdout, cmd.Stderr = tty, tty
	err = cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if _, err := tty.Write([]byte(terminalEnd)); err != nil {
		t.Fatal(err)
	}
	select {
	case out := <-read:
		out, _, _ = bytes.Cut(out, []byte(terminalEnd))
		return code, out
	case <-time.After(time.Minute):
		t.Fatalf("%v: the terminal's output did not end", args)
		return 0, nil
	}
}

// rawControls lists what in out would act on a terminal: a byte that is
// not UTF-8, or a character task.Unsafe names other than a line feed or a
// tab.
func rawControls(out []byte) []string {
	var bad []string
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRune(out[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			bad = append(bad, fmt.Sprintf("byte %#x at %d", out[i], i))
		case task.Unsafe(r) && r != '\n' && r != '\t':
			bad = append(bad, fmt.Sprintf("%U at %d", r, i))
		}
		i += n
	}
	return bad
}

// hostileSetup makes a data root with hostile text everywhere a verb
// prints from: a task whose prompt, log line, event and report hold it,
// whose branch adds evil.txt (hostileFile) and a file whose name holds an
// escape, with its worktree kept; a settings key; a command template; a repository verify
// command that prints it; a schedule whose template's prompt holds it.
func hostileSetup(t *testing.T) (data, repo, id string) {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	repo = t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(repo, "a.txt"), "one\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "first")
	base := git(t, repo, "rev-parse", "HEAD")
	data = filepath.Join(t.TempDir(), "data")
	key, err := json.Marshal(map[string]int{hostile: 1}) // a key this version does not know
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(data, "settings.json"), string(key))
	id = addTask(t, data, "--repo", repo, hostile+"\nsecond line "+hostile)
	wt := filepath.Join(t.TempDir(), id)
	git(t, repo, "worktree", "add", "-q", "-b", "boof-runner/"+id, wt, "main")
	writeFile(t, filepath.Join(wt, "evil.txt"), hostileFile)
	writeFile(t, filepath.Join(wt, "name\x1b[2J.txt"), "x\n")
	git(t, wt, "add", "-A")
	git(t, wt, "commit", "-qm", "task work")
	s := storeAt(t, data)
	ctx := context.Background()
	if _, err := s.Claim(ctx, id, store.ClaimInfo{Role: task.RoleDeveloper, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendLog(ctx, id, 0, task.LevelInfo, "agent says "+hostile); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddSection(ctx, task.Section{TaskID: id, Kind: task.SectionDeveloperReport, Role: task.RoleDeveloper, Iteration: 1, Body: "report " + hostile}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Transition(ctx, id, task.StatusDone, store.TransitionNote{BaseSHA: base, Branch: "boof-runner/" + id, WorktreePath: wt}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendEvent(ctx, id, task.Exported{File: "out " + hostile, Bytes: 1}); err != nil {
		t.Fatal(err)
	}
	tmpl := filepath.Join(t.TempDir(), "evil.md")
	writeFile(t, tmpl, hostile+"\nmore "+hostile+"\n")
	mustCLI(t, data, "", "commands", "add", "evil", tmpl)
	mustCLI(t, data, "", "verify", "set", "--repo", repo, `printf 'verify says \033]0;owned\007\033[2J\n'`)
	mustCLI(t, data, "", "add", "--every", "0 2 * * *", "--repo", repo, hostile)
	return data, repo, id
}

// TestTerminalGetsNothingRaw: every verb that prints stored or repository
// text (and the errors that echo it) prints it escaped when its output is
// a terminal, so no title change, screen clear, clipboard write, C1
// control or direction override reaches the terminal; the text is still
// there, escaped. A pipe and a file export keep the bytes of the
// documents (diff, export, the template, the log).
func TestTerminalGetsNothingRaw(t *testing.T) {
	data, _, id := hostileSetup(t)
	importDir := t.TempDir() // a file whose name holds an escape, and is no task file (skipped)
	writeFile(t, filepath.Join(importDir, "evil\x1b]0;owned\x07.md"), hostile+"\n")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"list"}, 0, escaped},
		{[]string{"list", "--json"}, 0, jsonEscaped},
		{[]string{"show", id}, 0, escaped},
		{[]string{"show", id, "--sections"}, 0, "report " + escaped},
		{[]string{"show", id, "--json"}, 0, jsonEscaped},
		{[]string{"export", id}, 0, escaped},
		{[]string{"export", id, "-o", "-"}, 0, escaped},
		{[]string{"diff", id}, 0, "+" + escaped},
		{[]string{"diff", id, "--file", "evil.txt"}, 0, "+" + escaped},
		{[]string{"diff", id, "--stat"}, 0, `name\x1b[2J.txt`},
		{[]string{"diff", id, "--stat", "--json"}, 0, `name\u001b[2J.txt`},
		{[]string{"log", id}, 0, "agent says " + escaped},
		{[]string{"log", id, "--events"}, 0, "out " + jsonEscaped},
		{[]string{"commands", "list"}, 0, escaped},
		{[]string{"commands", "list", "--json"}, 0, jsonEscaped},
		{[]string{"commands", "show", "evil"}, 0, "more " + escaped},
		{[]string{"verify", "list"}, 0, "verify says"},
		{[]string{"verify", id}, 0, `verify says \x1b]0;owned\x07\x1b[2J`},
		{[]string{"schedules"}, 0, escaped},
		{[]string{"schedules", "--json"}, 0, jsonEscaped},
		{[]string{"settings", "get"}, 0, "does not know"},
		// Errors that echo the user's or the repository's text.
		{[]string{"diff", id, "--file", hostile}, 1, `\x1b]0;owned`},
		{[]string{"show", hostile}, 1, "boof-runner: "},
		{[]string{"settings", "set", hostile, "1"}, 1, `\x1b]0;owned`},
		{[]string{"settings", "set", "verify.command", hostile}, 1, "boof-runner: Invalid settings"},
		{[]string{"commands", "show", hostile}, 1, "boof-runner: "},
		{[]string{hostile}, 2, "unknown command"},
		{[]string{"import", importDir}, 0, `evil\x1b]0;owned`},
	}
	for _, c := range cases {
		name := strings.Join(c.args, " ")
		name = strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(name, id, "ID"), hostile, "HOSTILE"), importDir, "DIR")
		t.Run(name, func(t *testing.T) {
			code, out := onTerminal(t, data, c.args...)
			if code != c.code {
				t.Fatalf("%q: exit %d, want %d\n%s", c.args, code, c.code, out)
			}
			if bad := rawControls(out); len(bad) > 0 {
				t.Fatalf("%q printed raw to the terminal: %s\n%q", c.args, strings.Join(bad, ", "), out)
			}
			if !strings.Contains(string(out), c.want) {
				t.Fatalf("%q: the terminal shows no %q:\n%s", c.args, c.want, out)
			}
		})
	}

	// A pipe and a file get the documents' own bytes.
	for _, args := range [][]string{{"diff", id}, {"diff", id, "--file", "evil.txt"}, {"export", id}, {"commands", "show", "evil"}, {"log", id}} {
		r := runCLI(t, data, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, hostile) {
			t.Fatalf("%q to a pipe: exit %d, the bytes were not kept:\n%q", args, r.code, r.stdout)
		}
	}
	// A list's one-line fields are escaped on a pipe too: a line break or
	// an escape there would break the line.
	if r := runCLI(t, data, "", "commands", "list"); r.code != 0 || strings.Contains(r.stdout, "\x1b") || !strings.Contains(r.stdout, "evil                 "+escaped) {
		t.Fatalf("commands list to a pipe: exit %d %q", r.code, r.stdout)
	}
	if r := runCLI(t, data, "", "diff", id, "--file", "evil.txt"); !strings.Contains(r.stdout, "+"+hostileFile) {
		t.Fatalf("diff to a pipe lost the file's bytes: %q", r.stdout)
	}
	piped := runCLI(t, data, "", "export", id).stdout
	file := filepath.Join(t.TempDir(), "task.md")
	mustCLI(t, data, "", "export", id, "-o", file)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, []byte(piped)) || !strings.Contains(string(b), hostile) {
		t.Fatalf("export -o FILE did not keep the bytes:\n%q\npiped:\n%q", b, piped)
	}
}

// TestTerminalWriterKeepsCharactersCutByAWrite: a character whose bytes
// come in two writes reaches the terminal whole (log --follow and verify
// print as bytes arrive); a cut one at the end is shown escaped.
func TestTerminalWriterKeepsCharactersCutByAWrite(t *testing.T) {
	data, repo, id := hostileSetup(t)
	// The verify command prints "é" (c3 a9) in two writes, then half of
	// "€" (e2 82) at the very end.
	mustCLI(t, data, "", "verify", "set", "--repo", repo, `printf 'caf\303'; sleep 0.2; printf '\251\n'; sleep 0.2; printf '\342\202'`)
	code, out := onTerminal(t, data, "verify", id)
	if code != 0 || !strings.Contains(string(out), "café\n") || !strings.Contains(string(out), `\xe2\x82`) {
		t.Fatalf("exit %d: %q", code, out)
	}
	if bad := rawControls(out); len(bad) > 0 {
		t.Fatalf("raw: %s in %q", strings.Join(bad, ", "), out)
	}
}
