package review

import (
	"os/exec"
	"testing"
)

// TestValidBranchAgreesWithGit checks the in-process branch name rules
// against git check-ref-format --branch.
func TestValidBranchAgreesWithGit(t *testing.T) {
	t.Parallel()
	names := []string{
		"main", "feature/x", "boof-runner/01J9ZQ", "ünï", "a.b", "v1.0-rc",
		"", "-x", "a..b", "a b", "a~1", "a^", "a:b", "a?", "a*", "a[", `a\b`,
		"/a", "a/", "a//b", "a.", ".a", "a/.b", "a.lock", "a/b.lock/c", "a@{1}", "@",
		"a\tb", "a\x7fb", "x@y", "HEAD",
	}
	// git expands "@" to the current branch and "-x" would be an option;
	// both are refused here.
	refused := map[string]bool{"@": true, "-x": true, "HEAD": true}
	for _, n := range names {
		err := exec.Command("git", "check-ref-format", "--branch", n).Run()
		git := err == nil && !refused[n]
		if got := validBranch(n); got != git {
			t.Errorf("validBranch(%q) = %v, git says %v", n, got, git)
		}
	}
}
