package names

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBranchAgreesWithGit checks Branch against git check-ref-format
// --branch, except the names it refuses on purpose.
func TestBranchAgreesWithGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("no git to compare with: %v", err)
	}
	all := []string{
		"main", "feature/x", "boof-runner/01J9ZQ", "ünï", "a.b", "v1.0-rc",
		"", "-x", "a..b", "a b", "a~1", "a^", "a:b", "a?", "a*", "a[", `a\b`,
		"/a", "a/", "a//b", "a.", ".a", "a/.b", "a.lock", "a/b.lock/c", "a@{1}", "@",
		"a\tb", "a\x7fb", "x@y", "HEAD", "refs/heads/x", "a\x1b[2Jb",
	}
	// "@" is the current branch to git, "-x" an option, "refs/heads/x" a
	// branch whose name starts with refs/ (pushed as refs/heads/refs/heads/x).
	refused := map[string]bool{"@": true, "-x": true, "HEAD": true, "refs/heads/x": true}
	for _, n := range all {
		err := exec.Command("git", "check-ref-format", "--branch", n).Run()
		git := err == nil && !refused[n]
		if got := Branch(n); got != git {
			t.Errorf("Branch(%q) = %v, git says %v", n, got, git)
		}
	}
}

func TestHost(t *testing.T) {
	t.Parallel()
	good := []string{"github.com", "gitlab.example.org", "git.corp:8443", "127.0.0.1", "127.0.0.1:3000", "[::1]", "[::1]:8080", "localhost", "GitHub.COM", "a-b.c"}
	bad := []string{"", ":", "github.com:", "github.com:0", "github.com:65536", "github.com:x", "https://github.com", "github.com/x",
		"../../etc", "ho\x1bst", "javascript:alert(1)", "a b", "-a.com", "a-.com", "a..com", "[::1", "[zz]", "[::1]x", "user@host",
		strings.Repeat("a", 64) + ".com", strings.Repeat("a.", 130) + "com"}
	for _, h := range good {
		if !Host(h) {
			t.Errorf("Host(%q) = false, want true", h)
		}
	}
	for _, h := range bad {
		if Host(h) {
			t.Errorf("Host(%q) = true, want false", h)
		}
	}
}

func TestLabelAndUser(t *testing.T) {
	t.Parallel()
	for _, l := range []string{"bug", "good first issue", "prio: high", "ünï"} {
		if !Label(l) {
			t.Errorf("Label(%q) = false", l)
		}
	}
	for _, l := range []string{"", "  ", "a,b", "a\nb", "a\x1b[31m", "a\x00", strings.Repeat("a", 256), "\xff"} {
		if Label(l) {
			t.Errorf("Label(%q) = true", l)
		}
	}
	for _, u := range []string{"octocat", "@octocat", "a.b_c-d"} {
		if !User(u) {
			t.Errorf("User(%q) = false", u)
		}
	}
	for _, u := range []string{"", "@", "a b", "a\x1b", "a/b", strings.Repeat("a", 256)} {
		if User(u) {
			t.Errorf("User(%q) = true", u)
		}
	}
}
