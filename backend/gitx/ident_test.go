package gitx_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

func TestIsNoIdentity(t *testing.T) {
	dir := newRepo(t)
	// No identity anywhere: no config files, no environment, and no
	// usable host name for git to guess an address from.
	g := gitx.New(gitx.WithEnv("GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+t.TempDir(),
		"EMAIL=", "GIT_AUTHOR_NAME=", "GIT_COMMITTER_NAME=", "GIT_AUTHOR_EMAIL=", "GIT_COMMITTER_EMAIL="))
	tree := strings.TrimSpace(sh(t, dir, "rev-parse", "HEAD^{tree}"))
	_, err := g.CommitTree(ctx(t), dir, gitx.Commit{Tree: tree, Message: "x"})
	if err == nil {
		t.Skip("git guessed an identity on this host")
	}
	if !gitx.IsNoIdentity(err) {
		t.Fatalf("IsNoIdentity(%v) = false", err)
	}
	_, err = g.Run(ctx(t), filepath.Join(dir, "missing"), "status")
	if gitx.IsNoIdentity(err) || gitx.IsNoIdentity(errors.New("Please tell me who you are")) || gitx.IsNoIdentity(os.ErrNotExist) {
		t.Fatal("IsNoIdentity matched an unrelated error")
	}
}
