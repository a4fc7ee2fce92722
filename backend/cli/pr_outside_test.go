//go:build unix

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/forge"
)

// The forge verbs and settings attacked from outside, as a sweep found
// them: hosts and tokens that are no hosts and tokens were stored (an
// escape sequence, a URL, "../../etc", a NUL), the token file made a named
// pipe held pr login and pr logout for ever, a full ref as forge.branch
// pushed refs/heads/refs/heads/<id>, pr close without a pull request said
// nothing and exited 0, pr logout of a host never stored said it forgot
// its token. Each is refused in one line and changes nothing.
func TestForgeVerbsFromOutside(t *testing.T) {
	e := forgeSetup(t, forge.GitHub)
	tokens := filepath.Join(e.data, "forge-tokens.json")

	for _, host := range []string{"ho\x1b[2Jst", "https://github.com/x", "../../etc", strings.Repeat("a", 300), "javascript:alert(1)"} {
		fails(t, runCLI(t, e.data, "ghp_ok\n", "pr", "login", host), 1, "is not a host name")
	}
	for _, tok := range []string{"ghp_\x00abc", "tok\x1b[31m", "ghp_é", "two words"} {
		fails(t, runCLI(t, e.data, tok, "pr", "login", "github.com"), 1, "a token is one word of printable characters")
	}
	if _, err := os.Lstat(tokens); !os.IsNotExist(err) {
		t.Fatalf("a refused login wrote the token file: %v", err)
	}
	r := runCLI(t, e.data, strings.Repeat("a", 20<<10), "pr", "login", "github.com")
	fails(t, r, 1, "The token on standard input is larger than the limit of 16 KiB")

	ok(t, runCLI(t, e.data, "ghp_ok\n", "pr", "login", "github.com"), "stored the token of github.com")
	ok(t, runCLI(t, e.data, "", "pr", "logout", "github.com"), "forgot the stored token of github.com")
	ok(t, runCLI(t, e.data, "", "pr", "logout", "github.com"), "no token of github.com was stored: nothing changed")
	fails(t, runCLI(t, e.data, "", "pr", "logout", "a/b"), 1, `"a/b" is not a host name`)

	// The token file a named pipe: refused at once, left as it is.
	os.Remove(tokens)
	if err := syscall.Mkfifo(tokens, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"pr", "login", "github.com"}, {"pr", "logout", "github.com"}} {
		done := make(chan result, 1)
		go func() { r, _ := tryCLI(e.data, "ghp_ok\n", args...); done <- r }()
		select {
		case r := <-done:
			fails(t, r, 1, "is a named pipe, not a regular file")
		case <-time.After(2 * time.Minute):
			t.Fatalf("%v still waits on the named pipe after two minutes", args)
		}
	}
	if fi, err := os.Lstat(tokens); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the named pipe was changed: %v %v", fi, err)
	}
	os.Remove(tokens)

	// pr close with no pull request, then of one already closed.
	ok(t, runCLI(t, e.data, "", "push", e.id), "(new)")
	fails(t, runCLI(t, e.data, "", "pr", "close", e.id), 1, "has no open pull request")
	ok(t, runCLI(t, e.data, "", "pr", "open", e.id), "opened pull request #1")
	ok(t, runCLI(t, e.data, "", "pr", "close", e.id), "closed pull request #1")
	ok(t, runCLI(t, e.data, "", "pr", "close", e.id), "pull request #1 was already closed: left as it is")

	// Names in settings and on the command line: one rule.
	settings := dataroot.Paths{Root: e.data}.Settings()
	before, _ := os.ReadFile(settings)
	for _, kv := range [][2]string{
		{"forge.branch", "refs/heads/{id}"},
		{"forge.hosts", `[{"host":"javascript:alert(1)","kind":"gitlab"}]`},
		{"forge.reviewers", `["a b"]`},
		{"forge.labels", `["bad\u001b[31m"]`},
		{"forge.labels", `["` + strings.Repeat("a", 300) + `"]`},
	} {
		fails(t, runCLI(t, e.data, "", "settings", "set", kv[0], kv[1]), 1, "Invalid settings: "+kv[0])
	}
	if after, _ := os.ReadFile(settings); string(after) != string(before) {
		t.Fatalf("a refused setting changed the file:\n%s\nwas\n%s", after, before)
	}
	fails(t, runCLI(t, e.data, "", "push", e.id, "--branch", "refs/heads/x"), 1, `"refs/heads/x" is not a valid branch name`)
	fails(t, runCLI(t, e.data, "", "push", e.id, "--branch", "a\x1b[2Jb"), 1, "is not a valid branch name")
	fails(t, runCLI(t, e.data, "", "add", "--from-issue", ""), 2, "--from-issue needs an issue's address")
	fails(t, runCLI(t, e.data, "", "add", "--from-issue", "javascript:alert(1)"), 1, "boof-runner: javascript:alert(1) is not")
	if got := e.srv.Branch("o/r", "refs/heads/x"); got != "" {
		t.Fatalf("refs/heads/refs/heads/x pushed: %s", got)
	}

	// A task from an issue into a repository that cannot take it: refused
	// before the forge is asked for the issue, nothing stored.
	e.srv.AddIssue("o/r", 9, "Fix it", "Please.")
	asked, listed := len(e.srv.Requests()), runCLI(t, e.data, "", "list", "--json").stdout
	issue := e.srv.URL + "/o/r/issues/9"
	gone := filepath.Join(t.TempDir(), "gone")
	fails(t, runCLI(t, e.data, "", "add", "--from-issue", issue, "--repo", gone), 1, gone+" does not exist")
	fails(t, runCLI(t, e.data, "", "add", "--from-issue", issue, "--repo", "/tmp/a\x1b[2Jb\n"), 1, "")
	if got := e.srv.Requests()[asked:]; len(got) != 0 {
		t.Fatalf("the forge was asked before the repository was checked: %v", got)
	}
	if after := runCLI(t, e.data, "", "list", "--json").stdout; after != listed {
		t.Fatalf("a refused task from an issue stored something:\n%s\nwas\n%s", after, listed)
	}
}
