package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The verify and queue commands through the real binary: a repository's
// verify command, the queue landing a finished task when the runner runs,
// and bad input refused with one line.
func TestVerifyAndQueueCommands(t *testing.T) {
	data, repo, id, _ := reviewSetup(t)
	if r := runCLI(t, data, "", "verify", "get", "--repo", repo); r.code != 0 || !strings.Contains(r.stdout, "no verify command set for "+repo) {
		t.Fatalf("get before set: %d %s%s", r.code, r.stdout, r.stderr)
	}
	writeFile(t, filepath.Join(repo, "go.mod"), "module x\n")
	if r := runCLI(t, data, "", "verify", "get", "--repo", repo); !strings.Contains(r.stdout, "suggested (from go.mod): boof-runner verify set --repo "+repo+" 'go test ./...'") {
		t.Fatalf("suggestion: %s", r.stdout)
	}
	os.Remove(filepath.Join(repo, "go.mod"))
	if r := runCLI(t, data, "", "verify", "set", "--repo", filepath.Join(repo, "."), "test -f a.txt && echo verified-ok"); r.code != 0 {
		t.Fatalf("set: %d %s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, data, "", "verify", "get", "--repo", repo); r.stdout != "test -f a.txt && echo verified-ok\n" {
		t.Fatalf("get: %q", r.stdout)
	}
	if r := runCLI(t, data, "", "verify", "set", "--repo", repo, "two\nlines"); r.code != 1 || !strings.Contains(r.stderr, "Verify command contains the control character U+000A") {
		t.Fatalf("bad command: %d %s", r.code, r.stderr)
	}
	gone := filepath.Join(t.TempDir(), "gone")
	if r := runCLI(t, data, "", "verify", "get", "--repo", gone); r.code != 1 || !strings.Contains(r.stderr, "does not exist") {
		t.Fatalf("gone repo: %d %s", r.code, r.stderr)
	}
	// The task's worktree was removed: a manual run says so.
	if r := runCLI(t, data, "", "verify", id); r.code != 1 || !strings.Contains(r.stderr, "has no worktree") && !strings.Contains(r.stderr, "no longer exists") {
		t.Fatalf("verify ID without worktree: %d %s", r.code, r.stderr)
	}

	if r := runCLI(t, data, "", "queue", "add", id, "--strategy", "octopus"); r.code != 1 {
		t.Fatalf("bad strategy: %d %s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, data, "", "queue", "add", id, "--target", "main"); r.code != 0 || !strings.Contains(r.stdout, "queued "+id+" on main (merge), position 1") {
		t.Fatalf("add: %d %s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, data, "", "queue", "add", id); r.code != 1 || !strings.Contains(r.stderr, "already in the merge queue") {
		t.Fatalf("add twice: %d %s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, data, "", "queue", "list"); !strings.Contains(r.stdout, id) || !strings.Contains(r.stdout, "queued") {
		t.Fatalf("list: %s", r.stdout)
	}
	if r := runCLI(t, data, "", "settings", "set", "workingDirectory", repo); r.code != 0 {
		t.Fatalf("settings: %s", r.stderr)
	}
	if r := runCLI(t, data, "", "runner", "--until-idle"); r.code != 0 {
		t.Fatalf("runner: %d %s%s", r.code, r.stdout, r.stderr)
	}
	r := runCLI(t, data, "", "queue", "list", "--all", "--json")
	var es []struct {
		TaskID, State, Landed string
		Verified              bool
	}
	if err := json.Unmarshal([]byte(r.stdout), &es); err != nil || len(es) != 1 || es[0].State != "landed" || !es[0].Verified {
		t.Fatalf("after the runner: %v %s", err, r.stdout)
	}
	if got := git(t, repo, "log", "-1", "--format=%s", "main"); got != "Merge boof-runner/"+id+": Shout one" {
		t.Fatalf("main: %q", got)
	}
	if statusOf(t, data, id) != "accepted" {
		t.Fatal("task not accepted")
	}
	if r := runCLI(t, data, "", "queue", "remove", id); r.code != 1 {
		t.Fatalf("remove a landed entry: %d %s", r.code, r.stdout)
	}
}
