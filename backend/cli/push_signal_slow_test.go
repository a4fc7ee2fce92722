//go:build slow && unix

package cli_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/pullreq"
	"github.com/boof-runner/boof-runner/backend/store"
)

// pushRecord reads what the store says was pushed of the task.
func pushRecord(t *testing.T, data, id string) store.PullRequest {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dataroot.Paths{Root: data}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec, err := st.PullRequest(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// push hit by SIGTERM, SIGINT and SIGHUP from outside, paused before the
// push and once the remote took the commit (before the record says so),
// against the fake forge's git over loopback HTTP (git http-backend):
// the task branch is as it was, the remote's branch is the old commit or
// the new one, the recorded push agrees with the remote, and a second
// push finishes the job, sending nothing the remote does not lack.
func TestPushSignalledFromOutside(t *testing.T) {
	e := forgeSetup(t, forge.GitHub)
	ok(t, runCLI(t, e.data, "", "push", e.id), "(new)")
	head := pushRecord(t, e.data, e.id).Head
	branch := "boof-runner/" + e.id
	n := 0
	for _, point := range []string{pullreq.FailBeforePush, pullreq.FailPushed} {
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
			t.Run(point+"/"+sig.String(), func(t *testing.T) {
				n++
				// A new commit on the task branch (a fix run's).
				tip := git(t, e.repo, "rev-parse", branch)
				tree := git(t, e.repo, "rev-parse", tip+"^{tree}")
				next := git(t, e.repo, "commit-tree", tree, "-p", tip, "-m", "fix "+strings.Repeat("i", n))
				git(t, e.repo, "update-ref", "refs/heads/"+branch, next, tip)
				old := e.srv.Branch("o/r", head)

				pause := filepath.Join(t.TempDir(), "paused")
				cmd := exec.Command(binary, "push", e.id, "--data-dir", e.data)
				cmd.Env = append(os.Environ(), "BOOF_RUNNER_HOME=", failpoint.EnvVar+"="+point+"=pause:"+pause)
				var out strings.Builder
				cmd.Stdout, cmd.Stderr = &out, &out
				signalWhilePaused(t, cmd, pause, sig)

				if got := git(t, e.repo, "rev-parse", branch); got != next {
					t.Fatalf("the task branch moved to %s", got)
				}
				there := e.srv.Branch("o/r", head)
				if there != old && there != next {
					t.Fatalf("the remote's branch is %s, neither the old %s nor the new %s", there, old, next)
				}
				if rec := pushRecord(t, e.data, e.id); rec.PushedSHA != there {
					t.Fatalf("after %v at %s the record says %s was pushed, the remote has %s; output: %s", sig, point, rec.PushedSHA, there, out.String())
				}
				ok(t, runCLI(t, e.data, "", "push", e.id))
				if there := e.srv.Branch("o/r", head); there != next {
					t.Fatalf("the second push left the remote at %s, not %s", there, next)
				}
				if rec := pushRecord(t, e.data, e.id); rec.PushedSHA != next {
					t.Fatalf("after the second push the record says %s", rec.PushedSHA)
				}
			})
		}
	}
}
