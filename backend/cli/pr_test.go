package cli_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/forge/forgetest"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// forgeSetup makes a fake forge of kind with a repository o/r, a clone of
// it as the working directory (origin, main tracking origin/main), and a
// finished task in a data root whose branch changes a.txt; settings list
// the fake's host with its token in TEST_FORGE_TOKEN.
type forgeEnv struct {
	srv        *forgetest.Server
	data, repo string
	id         string
}

func forgeSetup(t *testing.T, kind forge.Kind) forgeEnv {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("TEST_FORGE_TOKEN", "tok-123")
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "no-bus"))
	srv := forgetest.New(t, kind)
	srv.SetToken("tok-123")
	url := srv.NewRepo("o/r")
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(repo, "a.txt"), "one\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "first")
	git(t, repo, "remote", "add", "origin", url)
	git(t, repo, "push", "-q", "-u", "origin", "main")
	data := filepath.Join(t.TempDir(), "data")
	if err := dataroot.Ensure(data); err != nil {
		t.Fatal(err)
	}
	h := srv.ForgeHost("TEST_FORGE_TOKEN")
	hosts, _ := json.Marshal([]map[string]string{{"host": h.Name, "kind": string(h.Kind), "api": h.API, "tokenEnv": h.TokenEnv}})
	writeFile(t, dataroot.Paths{Root: data}.Settings(), `{"workingDirectory": "`+repo+`", "forge": {"hosts": `+string(hosts)+`}}`)
	id := doneTask(t, data, repo, "Shout one", "shout the first line", "a.txt", "ONE\n")
	return forgeEnv{srv: srv, data: data, repo: repo, id: id}
}

// doneTask adds a task whose branch boof-runner/<id> has one commit
// writing file, and moves it to done as a run would.
func doneTask(t *testing.T, data, repo, title, prompt, file, content string) string {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dataroot.Paths{Root: data}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tk, err := st.CreateTask(ctx, task.NewTask{Title: title, Prompt: prompt, Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	base := git(t, repo, "rev-parse", "main")
	wt := filepath.Join(t.TempDir(), tk.ID)
	git(t, repo, "worktree", "add", "-q", "-b", "boof-runner/"+tk.ID, wt, "main")
	writeFile(t, filepath.Join(wt, file), content)
	git(t, wt, "add", "-A")
	git(t, wt, "commit", "-qm", "task work")
	git(t, repo, "worktree", "remove", "--force", wt)
	finish(t, st, tk.ID, base)
	return tk.ID
}

// finish claims the task and moves it to done, as a run (or a fix run) ends.
func finish(t *testing.T, st *store.Store, id, base string) {
	t.Helper()
	ctx := context.Background()
	if _, err := st.Claim(ctx, id, store.ClaimInfo{Role: task.RoleDeveloper, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Transition(ctx, id, task.StatusDone, store.TransitionNote{BaseSHA: base, Branch: "boof-runner/" + id}); err != nil {
		t.Fatal(err)
	}
}

// commitOnTask adds a commit to the task branch (a fix run's work).
func commitOnTask(t *testing.T, repo, id, file, content string) string {
	t.Helper()
	wt := filepath.Join(t.TempDir(), "fix")
	git(t, repo, "worktree", "add", "-q", wt, "boof-runner/"+id)
	writeFile(t, filepath.Join(wt, file), content)
	git(t, wt, "add", "-A")
	git(t, wt, "commit", "-qm", "fix run work")
	git(t, repo, "worktree", "remove", "--force", wt)
	return git(t, repo, "rev-parse", "boof-runner/"+id)
}

func prRecord(t *testing.T, data, id string) store.PullRequest {
	t.Helper()
	r := runCLI(t, data, "", "pr", "show", id, "--json")
	if r.code != 0 {
		t.Fatalf("pr show: %+v", r)
	}
	var p store.PullRequest
	if err := json.Unmarshal([]byte(r.stdout), &p); err != nil {
		t.Fatalf("pr show --json: %v\n%s", err, r.stdout)
	}
	return p
}

func ok(t *testing.T, r result, want ...string) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stdout, w) {
			t.Fatalf("stdout lacks %q:\n%s\nstderr: %s", w, r.stdout, r.stderr)
		}
	}
}

func fails(t *testing.T, r result, code int, want string) {
	t.Helper()
	if r.code != code || !strings.Contains(r.stderr, want) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 && code == 1 {
		t.Fatalf("want exit %d and one line with %q, got %d\nstdout: %s\nstderr: %s", code, want, r.code, r.stdout, r.stderr)
	}
}

// The whole journey through the CLI against a fake GitHub and a real git
// remote over HTTP: push, push again (nothing sent), open a pull request
// (once, whatever is asked after), its review comments pulled into a fix
// run, the fix run's commits pushed to the same pull request, the merge
// accepting the task, and undo refused with the reason.
func TestPullRequestJourneyCLI(t *testing.T) {
	e := forgeSetup(t, forge.GitHub)
	head := git(t, e.repo, "rev-parse", "boof-runner/"+e.id)
	branch := "boof-runner/shout-one-" + e.id
	ok(t, runCLI(t, e.data, "", "push", e.id), "pushed "+head+" to origin as "+branch+" (new)")
	if got := e.srv.Branch("o/r", branch); got != head {
		t.Fatalf("remote branch at %q, want %s", got, head)
	}
	ok(t, runCLI(t, e.data, "", "push", e.id), "origin already has "+branch+" at "+head+": nothing pushed")

	ok(t, runCLI(t, e.data, "", "pr", "open", e.id, "--label", "bot"), "opened pull request #1 (open): "+e.srv.URL+"/o/r/pull/1")
	pr, _ := e.srv.PR(1)
	if pr.Title != "Shout one" || pr.Head != branch || pr.Base != "main" || !strings.Contains(pr.Body, "> shout the first line") ||
		!strings.Contains(pr.Body, "Made by Boof Runner (task "+e.id) || strings.Join(pr.Labels, ",") != "bot" {
		t.Fatalf("pull request on the forge: %+v", pr)
	}
	ok(t, runCLI(t, e.data, "", "pr", "open", e.id), "pull request #1 is already open")
	if e.srv.PRs() != 1 {
		t.Fatalf("%d pull requests", e.srv.PRs())
	}
	rec := prRecord(t, e.data, e.id)
	if rec.Number != 1 || rec.State != "open" || rec.PushedSHA != head || rec.Remote != "origin" || rec.Forge != "github" {
		t.Fatalf("record: %+v", rec)
	}

	e.srv.AddReview(1, "ann", "CHANGES_REQUESTED", "Shout every line.")
	e.srv.AddLineComment(1, "bob", "a.txt", 1, "Add an exclamation mark.")
	e.srv.SetChecks(head, forge.Check{Name: "build", State: forge.CheckFailure})
	r := runCLI(t, e.data, "", "pr", "sync", e.id, "--fix")
	ok(t, r, "review:   changes requested", "check:    failure  build", "fix run 1 queued for "+e.id+" with 2 review comment(s)")
	if s := statusOf(t, e.data, e.id); s != "pending" {
		t.Fatalf("status after --fix: %s", s)
	}
	body := humanReview(t, e.data, e.id)
	for _, want := range []string{"`a.txt`, line 1", "@bob: Add an exclamation mark.", "@ann requested changes: Shout every line."} {
		if !strings.Contains(body, want) {
			t.Fatalf("the fix run's review lacks %q:\n%s", want, body)
		}
	}
	fails(t, runCLI(t, e.data, "", "pr", "sync", e.id, "--fix"), 1, "no review comment that was not pulled in before")

	// The fix run ends (its commit on the task branch, the task done);
	// the next sync pushes it to the same pull request.
	fixed := commitOnTask(t, e.repo, e.id, "a.txt", "ONE!\n")
	st, err := store.Open(context.Background(), dataroot.Paths{Root: e.data}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	finish(t, st, e.id, "")
	st.Close()
	ok(t, runCLI(t, e.data, "", "pr", "sync", e.id), "pushed the fix run's commits to the pull request (fast-forward)")
	if got := e.srv.Branch("o/r", branch); got != fixed || e.srv.PRs() != 1 {
		t.Fatalf("after the fix run: remote at %s (want %s), %d pull requests", got, fixed, e.srv.PRs())
	}
	if notes := e.srv.Notes(1); len(notes) == 0 || !strings.Contains(notes[len(notes)-1], "Boof Runner pushed") {
		t.Fatalf("no comment on the pull request after the push: %q", notes)
	}

	merge := e.srv.Merge(1)
	ok(t, runCLI(t, e.data, "", "pr", "sync", e.id), "pull request #1 was merged ("+merge+"): "+e.id+" is accepted")
	if s := statusOf(t, e.data, e.id); s != "accepted" {
		t.Fatalf("status after the merge: %s", s)
	}
	fails(t, runCLI(t, e.data, "", "undo-accept", e.id), 1, "landed through pull request #1, merged on its forge")
	fails(t, runCLI(t, e.data, "", "push", e.id), 1, "pull request #1 was merged already")
}

// humanReview returns the task's last human_review section.
func humanReview(t *testing.T, data, id string) string {
	t.Helper()
	st, err := store.Open(context.Background(), dataroot.Paths{Root: data}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	secs, err := st.Sections(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(secs) - 1; i >= 0; i-- {
		if secs[i].Kind == task.SectionHumanReview {
			return secs[i].Body
		}
	}
	t.Fatal("no human_review section")
	return ""
}

// A teammate's commits on the pushed branch are never overwritten: the
// push is refused with the reason and the remote keeps them.
func TestPushNeverOverwritesATeammate(t *testing.T) {
	e := forgeSetup(t, forge.GitHub)
	ok(t, runCLI(t, e.data, "", "push", e.id))
	branch := prRecord(t, e.data, e.id).Head
	mate := t.TempDir()
	git(t, mate, "clone", "-q", e.srv.URL+"/o/r.git", ".")
	git(t, mate, "checkout", "-q", branch)
	writeFile(t, filepath.Join(mate, "mate.txt"), "mine\n")
	git(t, mate, "add", "-A")
	git(t, mate, "commit", "-qm", "teammate")
	git(t, mate, "push", "-q", "origin", branch)
	theirs := git(t, mate, "rev-parse", "HEAD")
	commitOnTask(t, e.repo, e.id, "a.txt", "ONE ONE\n")
	fails(t, runCLI(t, e.data, "", "push", e.id), 1, "holds commits that are not this task's")
	if got := e.srv.Branch("o/r", branch); got != theirs {
		t.Fatalf("remote at %s, want the teammate's %s", got, theirs)
	}
	// Under another name it goes.
	ok(t, runCLI(t, e.data, "", "push", e.id, "--branch", "shout-one-v2"), "as shout-one-v2 (new)")
}

// A push cut short by Ctrl-C after the remote took the commit (its
// post-receive hook still running) leaves nothing recorded; the next push
// reads what the remote has and sends nothing twice.
func TestPushInterruptedIsUnderstoodNext(t *testing.T) {
	e := forgeSetup(t, forge.GitHub)
	bare := filepath.Join(t.TempDir(), "bare.git")
	git(t, e.repo, "init", "-q", "--bare", bare)
	git(t, e.repo, "remote", "add", "slow", "file://"+bare)
	marker := filepath.Join(t.TempDir(), "received")
	writeFile(t, filepath.Join(bare, "hooks", "post-receive"), "#!/bin/sh\ntouch '"+marker+"'\nsleep 60\n")
	if err := os.Chmod(filepath.Join(bare, "hooks", "post-receive"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "push", e.id, "--remote", "slow", "--data-dir", e.data)
	cmd.Env = append(os.Environ(), "BOOF_RUNNER_HOME=")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the push never reached the remote's hook")
		}
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err == nil {
		t.Fatal("the interrupted push exited 0")
	}
	if r := runCLI(t, e.data, "", "pr", "show", e.id); r.code == 0 {
		t.Fatalf("a push cut short was recorded: %s", r.stdout)
	}
	head := git(t, e.repo, "rev-parse", "boof-runner/"+e.id)
	os.Remove(filepath.Join(bare, "hooks", "post-receive"))
	ok(t, runCLI(t, e.data, "", "push", e.id, "--remote", "slow"), "slow already has boof-runner/shout-one-"+e.id+" at "+head+": nothing pushed")
	if rec := prRecord(t, e.data, e.id); rec.PushedSHA != head || rec.Remote != "slow" {
		t.Fatalf("record after the second push: %+v", rec)
	}
}

// Bad input: one clear line, the task unchanged, nothing pushed twice.
func TestPullRequestBadInputCLI(t *testing.T) {
	e := forgeSetup(t, forge.GitHub)
	noRemote := t.TempDir()
	git(t, noRemote, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(noRemote, "x.txt"), "x\n")
	git(t, noRemote, "add", "-A")
	git(t, noRemote, "commit", "-qm", "x")
	lonely := doneTask(t, e.data, noRemote, "Lonely", "no remote here", "x.txt", "y\n")
	fails(t, runCLI(t, e.data, "", "push", lonely), 1, "has no remote; add one with 'git remote add origin URL'")
	fails(t, runCLI(t, e.data, "", "push", e.id, "--remote", "upstream"), 1, `has no remote named "upstream" (its remotes: origin)`)
	fails(t, runCLI(t, e.data, "", "pr", "show", e.id), 1, "has not been pushed")
	fails(t, runCLI(t, e.data, "", "pr", "sync", e.id), 1, "has not been pushed")

	// A remote on no forge takes the push but no pull request.
	plain := filepath.Join(t.TempDir(), "plain.git")
	git(t, e.repo, "init", "-q", "--bare", plain)
	git(t, e.repo, "remote", "add", "plain", "file://"+plain)
	other := doneTask(t, e.data, e.repo, "Other", "other work", "b.txt", "b\n")
	ok(t, runCLI(t, e.data, "", "push", other, "--remote", "plain"), "(new)")
	fails(t, runCLI(t, e.data, "", "pr", "open", other), 1, "is not on a forge Boof Runner knows")

	// The remote refuses pushes (403).
	e.srv.ReadOnly(true)
	fails(t, runCLI(t, e.data, "", "push", e.id), 1, "refused access (HTTP 403)")
	e.srv.ReadOnly(false)

	// The token: missing, then refused.
	t.Setenv("TEST_FORGE_TOKEN", "")
	fails(t, runCLI(t, e.data, "", "pr", "open", e.id), 1, "No token for "+e.srv.Host+": set TEST_FORGE_TOKEN")
	if e.srv.PRs() != 0 {
		t.Fatal("a pull request was opened without a token")
	}
	t.Setenv("TEST_FORGE_TOKEN", "expired-token")
	r := runCLI(t, e.data, "", "pr", "open", e.id)
	fails(t, r, 1, "refused the token from TEST_FORGE_TOKEN (HTTP 401")
	if strings.Contains(r.stderr, "expired-token") {
		t.Fatalf("the token is in the message: %s", r.stderr)
	}
	t.Setenv("TEST_FORGE_TOKEN", "tok-123")

	// A web page instead of JSON, a 5xx, a far rate limit: nothing opened.
	e.srv.Fail("/pulls", 1, http.StatusOK, nil, "text/html", "<html>login</html>")
	fails(t, runCLI(t, e.data, "", "pr", "open", e.id), 1, "answered with text/html (HTTP 200) instead of its API")
	e.srv.Fail("/pulls", 1, http.StatusServiceUnavailable, nil, "", `{"message":"maintenance"}`)
	fails(t, runCLI(t, e.data, "", "pr", "open", e.id), 1, "answered HTTP 503: maintenance; try again later")
	far := time.Now().Add(2 * time.Hour).Unix()
	e.srv.Fail("/pulls", 1, http.StatusForbidden, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {itoa64(far)}}, "", `{"message":"API rate limit exceeded"}`)
	fails(t, runCLI(t, e.data, "", "pr", "open", e.id), 1, "rate limit is reached until")
	if e.srv.PRs() != 0 || statusOf(t, e.data, e.id) != "done" {
		t.Fatalf("after the failures: %d pull requests, status %s", e.srv.PRs(), statusOf(t, e.data, e.id))
	}
	ok(t, runCLI(t, e.data, "", "pr", "open", e.id), "opened pull request #1")

	// The branch renamed on the forge: followed, and pushes go there.
	e.srv.RenameHead(1, "renamed-on-forge")
	ok(t, runCLI(t, e.data, "", "pr", "sync", e.id), "was renamed on the forge to renamed-on-forge")
	next := commitOnTask(t, e.repo, e.id, "a.txt", "ONE again\n")
	ok(t, runCLI(t, e.data, "", "push", e.id), "as renamed-on-forge (fast-forward)")
	if got := e.srv.Branch("o/r", "renamed-on-forge"); got != next {
		t.Fatalf("renamed branch at %s, want %s", got, next)
	}
	// The pull request deleted on the forge.
	e.srv.DeletePR(1)
	ok(t, runCLI(t, e.data, "", "pr", "sync", e.id), "pull request #1 no longer exists on "+e.srv.Host+" (deleted)")

	// Issues: an unknown forge, an address that is no issue, a missing one.
	fails(t, runCLI(t, e.data, "", "add", "--from-issue", "https://example.org/o/r/issues/1"), 1, "is not on a forge Boof Runner knows")
	fails(t, runCLI(t, e.data, "", "add", "--from-issue", e.srv.URL+"/o/r/pulls"), 1, "is not the address of an issue")
	fails(t, runCLI(t, e.data, "", "add", "--from-issue", e.srv.URL+"/o/r/issues/99"), 1, "Issue #99 of o/r was not found on "+e.srv.Host)
	fails(t, runCLI(t, e.data, "", "add", "--from-issue", e.srv.URL+"/o/r/issues/99", "a prompt"), 2, "--from-issue takes no PROMPT")
	if n := len(listJSON(t, e.data)); n != 3 {
		t.Fatalf("%d tasks after the refused adds, want 3", n)
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// Reject, delete and undo with an open pull request: refused without a
// terminal to ask at unless --close-pr or --keep-pr says; --close-pr closes
// it and deletes the pushed branch.
func TestOpenPullRequestAsksBeforeRejectDeleteUndo(t *testing.T) {
	e := forgeSetup(t, forge.GitLab)
	ok(t, runCLI(t, e.data, "", "pr", "open", e.id, "--draft"), "opened pull request #1 (draft)")
	branch := prRecord(t, e.data, e.id).Head
	fails(t, runCLI(t, e.data, "", "reject", e.id), 2, "has an open pull request #1")
	if statusOf(t, e.data, e.id) != "done" {
		t.Fatal("the refused reject changed the task")
	}
	fails(t, runCLI(t, e.data, "", "delete", e.id), 2, "say --close-pr or --keep-pr before it is deleted")
	ok(t, runCLI(t, e.data, "", "reject", e.id, "--close-pr"), "closed pull request #1", "deleted "+branch+" on origin", "rejected "+e.id)
	if pr, _ := e.srv.PR(1); pr.State != "closed" || e.srv.Branch("o/r", branch) != "" {
		t.Fatalf("after reject --close-pr: %+v, branch %q", pr, e.srv.Branch("o/r", branch))
	}
	other := doneTask(t, e.data, e.repo, "Other", "other work", "b.txt", "b\n")
	ok(t, runCLI(t, e.data, "", "pr", "open", other), "opened pull request #2")
	ok(t, runCLI(t, e.data, "", "delete", other, "--keep-pr"), "deleted")
	if pr, _ := e.srv.PR(2); pr.State != "open" {
		t.Fatalf("delete --keep-pr closed it: %+v", pr)
	}
	fails(t, runCLI(t, e.data, "", "reject", e.id, "--close-pr", "--keep-pr"), 2, "do not go together")
}

// add --from-issue makes a task of a GitHub or GitLab issue, linked: its
// pull request closes the issue.
func TestTaskFromIssueCLI(t *testing.T) {
	for _, kind := range forge.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			e := forgeSetup(t, kind)
			e.srv.AddIssue("o/r", 40, "Crash on start", "It crashes when the config is empty.", "bug", "p1")
			url := e.srv.URL + "/o/r/issues/40"
			if kind == forge.GitLab {
				url = e.srv.URL + "/o/r/-/issues/40"
			}
			// A task from an issue passes the checks every new task does
			// (backend/intake): a repository that is not there is refused
			// and nothing is stored.
			gone := filepath.Join(t.TempDir(), "gone")
			fails(t, runCLI(t, e.data, "", "add", "--from-issue", url, "--repo", gone), 1, gone)
			if l := runCLI(t, e.data, "", "list", "--json"); strings.Contains(l.stdout, "Crash on start") {
				t.Fatalf("a refused task from an issue was stored: %s", l.stdout)
			}
			r := runCLI(t, e.data, "", "add", "--from-issue", url, "--priority", "3")
			ok(t, r)
			id := strings.TrimSpace(r.stdout)
			tk := readTask(t, e.data, id)
			if tk.Title != "Crash on start" || !strings.Contains(tk.Prompt, "It crashes when the config is empty.") || !strings.Contains(tk.Prompt, url) ||
				strings.Join(tk.Labels, ",") != "bug,p1" || tk.Priority != 3 || tk.Status != task.StatusPending {
				t.Fatalf("task from the issue: %+v", tk)
			}
			// Run it to done by hand, then open its pull request.
			base := git(t, e.repo, "rev-parse", "main")
			wt := filepath.Join(t.TempDir(), "wt")
			git(t, e.repo, "worktree", "add", "-q", "-b", "boof-runner/"+id, wt, "main")
			writeFile(t, filepath.Join(wt, "fix.txt"), "fixed\n")
			git(t, wt, "add", "-A")
			git(t, wt, "commit", "-qm", "fix")
			git(t, e.repo, "worktree", "remove", "--force", wt)
			st, err := store.Open(context.Background(), dataroot.Paths{Root: e.data}.Database(), store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			finish(t, st, id, base)
			st.Close()
			ok(t, runCLI(t, e.data, "", "pr", "open", id), "opened pull request")
			pr, _ := e.srv.PR(41)
			if !strings.Contains(pr.Body, "Closes #40") {
				t.Fatalf("the pull request does not close the issue: %q", pr.Body)
			}
		})
	}
}

// A remote that takes the connection and never answers: the push ends at
// settings.forge.timeoutSeconds with one line, nothing recorded.
func TestPushTimesOut(t *testing.T) {
	e := forgeSetup(t, forge.GitHub)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	git(t, e.repo, "remote", "add", "mute", "http://"+l.Addr().String()+"/o/r.git")
	ok(t, runCLI(t, e.data, "", "settings", "set", "forge.timeoutSeconds", "5"))
	fails(t, runCLI(t, e.data, "", "push", e.id, "--remote", "mute"), 1, "mute did not answer within 5s")
	fails(t, runCLI(t, e.data, "", "pr", "show", e.id), 1, "has not been pushed")
}
