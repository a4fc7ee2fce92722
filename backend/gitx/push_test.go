package gitx_test

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/forge/forgetest"
	"github.com/boof-runner/boof-runner/backend/gitx"
)

// commit adds a commit on branch of repo (checked out there) and returns it.
func commit(t *testing.T, repo, file, content string) string {
	t.Helper()
	write(t, filepath.Join(repo, file), content)
	sh(t, repo, "add", "-A")
	sh(t, repo, "commit", "-qm", "change "+file)
	return sh(t, repo, "rev-parse", "HEAD")
}

// pushes runs the same checks over a file:// remote and over git's smart
// HTTP (git http-backend on loopback): a new branch, a fast-forward under
// the lease, and a teammate's push that the lease refuses without
// touching the remote.
func TestPushWithLease(t *testing.T) {
	srv := forgetest.New(t, forge.GitHub)
	bare := t.TempDir()
	sh(t, bare, "init", "-q", "--bare", "-b", "main")
	for name, url := range map[string]string{"file": "file://" + bare, "http": srv.NewRepo("o/r")} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
			g := gitx.New()
			repo := newRepo(t)
			sh(t, repo, "remote", "add", "origin", url)
			first := sh(t, repo, "rev-parse", "HEAD")
			res, err := g.Push(ctx(t), repo, gitx.PushSpec{Remote: "origin", SHA: first, Branch: "boof-runner/x-1"})
			if err != nil || res.Kind != "new" || res.SHA != first {
				t.Fatalf("first push: %+v %v", res, err)
			}
			if sha, ok, err := g.RemoteBranch(ctx(t), repo, "origin", "boof-runner/x-1"); err != nil || !ok || sha != first {
				t.Fatalf("remote branch = %s %v %v", sha, ok, err)
			}
			second := commit(t, repo, "b.txt", "two\n")
			if res, err = g.Push(ctx(t), repo, gitx.PushSpec{Remote: "origin", SHA: second, Branch: "boof-runner/x-1", Lease: first}); err != nil || res.Kind != "fast-forward" {
				t.Fatalf("second push: %+v %v", res, err)
			}
			// A teammate pushes to the branch; our next push, leased on
			// what we pushed, is refused and their commit stays.
			mate := t.TempDir()
			sh(t, mate, "clone", "-q", url, ".")
			sh(t, mate, "checkout", "-q", "boof-runner/x-1")
			theirs := commit(t, mate, "mate.txt", "mine\n")
			sh(t, mate, "push", "-q", "origin", "boof-runner/x-1")
			third := commit(t, repo, "c.txt", "three\n")
			_, err = g.Push(ctx(t), repo, gitx.PushSpec{Remote: "origin", SHA: third, Branch: "boof-runner/x-1", Lease: second})
			var rej *gitx.PushRejectedError
			if !errors.As(err, &rej) || !rej.Stale {
				t.Fatalf("push over a teammate's commit: %v, want a stale lease", err)
			}
			if sha, _, _ := g.RemoteBranch(ctx(t), repo, "origin", "boof-runner/x-1"); sha != theirs {
				t.Fatalf("remote branch = %s, want the teammate's %s", sha, theirs)
			}
			// A lease of "" (the branch must be new) is refused as well.
			if _, err = g.Push(ctx(t), repo, gitx.PushSpec{Remote: "origin", SHA: third, Branch: "boof-runner/x-1"}); !errors.As(err, &rej) || !rej.Stale {
				t.Fatalf("push of a new branch that exists: %v", err)
			}
			if err := g.DeleteRemoteBranch(ctx(t), repo, "origin", "boof-runner/x-1", second); !errors.As(err, &rej) {
				t.Fatalf("delete under a stale lease: %v", err)
			}
			if err := g.DeleteRemoteBranch(ctx(t), repo, "origin", "boof-runner/x-1", theirs); err != nil {
				t.Fatalf("delete: %v", err)
			}
			if _, ok, _ := g.RemoteBranch(ctx(t), repo, "origin", "boof-runner/x-1"); ok {
				t.Fatal("branch still on the remote after its delete")
			}
			if err := g.DeleteRemoteBranch(ctx(t), repo, "origin", "boof-runner/x-1", theirs); err != nil {
				t.Fatalf("delete of a branch already gone: %v", err)
			}
		})
	}
}

// Remotes that refuse or cannot be reached fail at once with the kind of
// failure, and git never waits for a password (no terminal, no askpass).
func TestPushFailures(t *testing.T) {
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	srv := forgetest.New(t, forge.GitHub)
	url := srv.NewRepo("o/r")
	g := gitx.New()
	repo := newRepo(t)
	head := sh(t, repo, "rev-parse", "HEAD")
	push := func(remote string) error {
		_, err := g.Push(ctx(t), repo, gitx.PushSpec{Remote: remote, SHA: head, Branch: "b"})
		return err
	}
	srv.ReadOnly(true)
	if err := push(url); !errors.Is(err, gitx.ErrRemoteForbidden) {
		t.Fatalf("read-only remote: %v", err)
	}
	srv.ReadOnly(false)
	srv.RequireAuth("u", "secret-pw")
	if err := push(url); !errors.Is(err, gitx.ErrAuthRequired) {
		t.Fatalf("remote that wants credentials, none given: %v", err)
	}
	// A credential helper git runs itself is used.
	creds := filepath.Join(t.TempDir(), "creds")
	write(t, creds, strings.Replace(url, "http://", "http://u:secret-pw@", 1)+"\n")
	sh(t, repo, "config", "credential.helper", "store --file="+creds)
	if err := push(url); err != nil {
		t.Fatalf("push with a credential helper: %v", err)
	}
	if err := push(srv.URL + "/o/missing.git"); !errors.Is(err, gitx.ErrRemoteNotFound) {
		t.Fatalf("no such repository: %v", err)
	}
	if err := push(filepath.Join(t.TempDir(), "nothing")); !errors.Is(err, gitx.ErrRemoteNotFound) {
		t.Fatalf("no such path: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/o/r.git"
	l.Close()
	if err := push(closed); !errors.Is(err, gitx.ErrNetwork) {
		t.Fatalf("nothing listening: %v", err)
	}
	if err := push("--upload-pack=touch /tmp/x"); !errors.Is(err, gitx.ErrBadRev) {
		t.Fatalf("option-like remote: %v", err)
	}
}

func TestRemotesAndUpstream(t *testing.T) {
	g := gitx.New()
	repo := newRepo(t)
	if rs, err := g.Remotes(ctx(t), repo); err != nil || len(rs) != 0 {
		t.Fatalf("no remotes: %v %v", rs, err)
	}
	sh(t, repo, "remote", "add", "origin", "https://github.com/o/r.git")
	sh(t, repo, "remote", "add", "my.fork", "git@github.com:me/r.git")
	sh(t, repo, "remote", "set-url", "--push", "my.fork", "git@github.com:me/r-push.git")
	rs, err := g.Remotes(ctx(t), repo)
	if err != nil || len(rs) != 2 || rs[0].Name != "my.fork" || rs[0].Push() != "git@github.com:me/r-push.git" || rs[1].URL != "https://github.com/o/r.git" {
		t.Fatalf("remotes = %+v %v", rs, err)
	}
	if up, err := g.UpstreamRemote(ctx(t), repo, "main"); err != nil || up != "" {
		t.Fatalf("no upstream: %q %v", up, err)
	}
	sh(t, repo, "config", "branch.main.remote", "my.fork")
	if up, err := g.UpstreamRemote(ctx(t), repo, "main"); err != nil || up != "my.fork" {
		t.Fatalf("upstream: %q %v", up, err)
	}
}
