package app

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/forge/forgetest"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/pullreq"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// forgeService builds the bound service over a fake forge of kind whose
// repository o/r the done task's repository pushes to (origin). The
// settings' working directory is that repository, or workDir when given.
func forgeService(t *testing.T, kind forge.Kind, workDir ...string) (*ForgeService, *forgetest.Server, *store.Store, task.Task, *RecordingEmitter) {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	srv := forgetest.New(t, kind)
	srv.SetToken("tok-app")
	url := srv.NewRepo("o/r")
	st := newTestStore(t)
	tk, repo := doneTask(t, st)
	git(t, repo, "remote", "add", "origin", url)
	git(t, repo, "push", "-q", "origin", "main")
	h := srv.ForgeHost("APP_FORGE_TOKEN")
	set := settings.Defaults(host.Catalog())
	set.Forge.Hosts = []settings.ForgeHost{{Host: h.Name, Kind: string(h.Kind), API: h.API, TokenEnv: h.TokenEnv}}
	set.WorkingDirectory = repo
	if len(workDir) > 0 {
		set.WorkingDirectory = workDir[0]
	}
	g := gitx.New()
	env := map[string]string{"APP_FORGE_TOKEN": "tok-app"}
	svc := pullreq.New(pullreq.Deps{Store: st, Git: g, Review: review.New(g, time.Now), Settings: func() settings.Settings { return set }, Intake: intake.New(intake.Options{Store: st, Git: g, Settings: func() (settings.Settings, error) { return set, nil }}),
		Tokens: forge.Tokens{Getenv: func(k string) string { return env[k] }, File: filepath.Join(t.TempDir(), "forge-tokens.json")}})
	emit := &RecordingEmitter{}
	return NewForgeService(svc, g, st, emit, context.Background), srv, st, tk, emit
}

// The window's path through the bound service against a fake GitLab:
// not pushed yet, the remotes, push, open (once), a review's comments
// pulled into a fix run, refresh, merge, and the events the UI hears.
func TestForgeServiceJourney(t *testing.T) {
	f, srv, st, tk, emit := forgeService(t, forge.GitLab)
	v, err := f.PullRequest(tk.ID)
	if err != nil || v.Pushed || v.Number != 0 || v.Checks == nil {
		t.Fatalf("before a push: %+v %v", v, err)
	}
	rs, err := f.Remotes(tk.ID)
	if err != nil || len(rs) != 1 || rs[0].Name != "origin" || rs[0].URL != srv.URL+"/o/r.git" || rs[0].Forge != "gitlab" {
		t.Fatalf("remotes: %+v %v", rs, err)
	}
	pushed, err := f.Push(tk.ID, PushInput{})
	if err != nil || pushed.Kind != "new" || !pushed.PullRequest.Pushed || pushed.PullRequest.Forge != "gitlab" || pushed.PullRequest.Branch != "boof-runner/add-a-file-"+tk.ID {
		t.Fatalf("push: %+v %v", pushed, err)
	}
	if !slices.Contains(emit.Names(), EventPullRequestPrefix+tk.ID) {
		t.Fatalf("no %s after the push: %v", EventPullRequestPrefix+tk.ID, emit.Names())
	}
	draft := true
	opened, err := f.Open(tk.ID, OpenInput{Draft: &draft, Labels: []string{"bot"}, Reviewers: []string{"ann"}})
	if err != nil || opened.Existing || opened.PullRequest.Number != 1 || opened.PullRequest.State != "draft" {
		t.Fatalf("open: %+v %v", opened, err)
	}
	if pr, _ := srv.PR(1); !strings.HasPrefix(pr.Title, "Draft: ") || len(pr.Reviewers) != 1 || strings.Join(pr.Labels, ",") != "bot" {
		t.Fatalf("on the forge: %+v", pr)
	}
	again, err := f.Open(tk.ID, OpenInput{})
	if err != nil || !again.Existing || srv.PRs() != 1 {
		t.Fatalf("second open: %+v %v, %d pull requests", again, err, srv.PRs())
	}
	srv.SetState(1, "open")
	srv.AddReview(1, "ann", "CHANGES_REQUESTED", "Name the file better.")
	srv.AddLineComment(1, "ann", "README", 2, "Say who.")
	head := git(t, tk.Repo, "rev-parse", "boof-runner/"+tk.ID)
	srv.SetChecks(head, forge.Check{Name: "pipeline", State: forge.CheckPending})
	synced, err := f.Sync(tk.ID)
	if err != nil || synced.PullRequest.State != "open" || synced.PullRequest.Review != "changes_requested" ||
		len(synced.PullRequest.Checks) != 1 || synced.PullRequest.Checks[0].State != "pending" || synced.PullRequest.SyncedAt == "" {
		t.Fatalf("sync: %+v %v", synced, err)
	}
	fix, err := f.RequestChanges(tk.ID)
	if err != nil || fix.Fix != 1 || fix.Comments != 2 {
		t.Fatalf("request changes: %+v %v", fix, err)
	}
	if got, _ := st.GetTask(context.Background(), tk.ID); got.Status != task.StatusPending {
		t.Fatalf("status after the fix run was queued: %s", got.Status)
	}
	if _, err := f.RequestChanges(tk.ID); err == nil || err.Error() != "Nothing changed: pull request #1 has no review comment that was not pulled in before." {
		t.Fatalf("second pull: %v", err)
	}
	merge := srv.Merge(1)
	// The fix run has not finished: the merge is recorded, the task stays.
	synced, err = f.Sync(tk.ID)
	if err != nil || synced.Accepted || synced.PullRequest.State != "merged" || synced.PullRequest.MergeSHA != merge {
		t.Fatalf("sync after the merge: %+v %v", synced, err)
	}
	if got, _ := st.GetTask(context.Background(), tk.ID); got.Status != task.StatusPending {
		t.Fatalf("a merge moved a pending task: %s", got.Status)
	}
}

// A merge of a done task's pull request accepts it; errors reach the UI
// as one sentence; a task from an issue; tokens.
func TestForgeServiceMergeErrorsIssues(t *testing.T) {
	f, srv, st, tk, _ := forgeService(t, forge.GitHub)
	if _, err := f.Sync(tk.ID); err == nil || !strings.Contains(err.Error(), "has not been pushed") {
		t.Fatalf("sync before a push: %v", err)
	}
	srv.Fail("/pulls", 1, http.StatusOK, nil, "text/html", "<html>SSO</html>")
	if _, err := f.Open(tk.ID, OpenInput{}); err == nil || !strings.HasPrefix(err.Error(), "Nothing changed: "+srv.Host+" answered with text/html (HTTP 200) instead of its API") {
		t.Fatalf("HTML answer: %v", err)
	}
	if _, err := f.Open(tk.ID, OpenInput{}); err != nil {
		t.Fatal(err)
	}
	srv.Merge(1)
	synced, err := f.Sync(tk.ID)
	if err != nil || !synced.Accepted {
		t.Fatalf("sync of a merged one: %+v %v", synced, err)
	}
	got, _ := st.GetTask(context.Background(), tk.ID)
	if got.Status != task.StatusAccepted {
		t.Fatalf("status: %s", got.Status)
	}
	srv.AddIssue("o/r", 7, "Add a license", "MIT, please.", "docs")
	nt, err := f.CreateFromIssue(IssueTaskInput{URL: srv.URL + "/o/r/issues/7", Priority: 2})
	if err != nil || nt.Title != "Add a license" || !strings.Contains(nt.Prompt, "MIT, please.") || strings.Join(nt.Labels, ",") != "docs" || nt.Priority != 2 {
		t.Fatalf("task from an issue: %+v %v", nt, err)
	}
	v, err := f.PullRequest(nt.ID)
	if err != nil || v.Pushed || v.Issue == nil || v.Issue.Number != 7 {
		t.Fatalf("the issue of the new task: %+v %v", v, err)
	}
	if _, err := f.CreateFromIssue(IssueTaskInput{URL: "https://example.org/x/issues/1"}); err == nil || !strings.Contains(err.Error(), "is not on a forge Boof Runner knows") {
		t.Fatalf("unknown forge: %v", err)
	}
	where, err := f.SetToken(srv.Host, "tok-stored")
	if err != nil || where.Kind != "file" || !strings.HasSuffix(where.Path, "forge-tokens.json") {
		t.Fatalf("token: %+v %v", where, err)
	}
	if _, err := f.SetToken(srv.Host, "two words"); err == nil || err.Error() != "Nothing stored: a token is one word of printable characters, without spaces." {
		t.Fatalf("bad token: %v", err)
	}
	if err := f.ForgetToken(srv.Host); err != nil {
		t.Fatal(err)
	}
}

// A task from an issue runs where backend/intake resolves a task without a
// repository of its own: the settings' working directory, checked and
// named as theirs when it is missing; the service sets no repository.
func TestTaskFromAnIssueRunsInTheSettingsWorkingDirectory(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone")
	f, srv, st, _, _ := forgeService(t, forge.GitHub, missing)
	srv.AddIssue("o/r", 3, "Fix the typo", "In README.", "docs")
	before, err := st.ListTasks(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.CreateFromIssue(IssueTaskInput{URL: srv.URL + "/o/r/issues/3"})
	if want := "The working directory " + missing + " of the settings does not exist"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("task from an issue with a missing working directory: %v, want %q", err, want)
	}
	if after, err := st.ListTasks(context.Background(), store.Filter{}); err != nil || len(after) != len(before) {
		t.Fatalf("a refused task from an issue stored something: %d tasks before, %d after (%v)", len(before), len(after), err)
	}
}

// The New task form's "From an issue" takes the repository as the form
// does: with no working directory and none given it is refused before the
// forge is asked, nothing stored; given one (GitHub and GitLab issues), the
// task runs there.
func TestTaskFromAnIssueTakesTheRepository(t *testing.T) {
	for _, kind := range []forge.Kind{forge.GitHub, forge.GitLab} {
		t.Run(string(kind), func(t *testing.T) {
			f, srv, st, tk, _ := forgeService(t, kind, "")
			issue := srv.URL + "/o/r/issues/5"
			if kind == forge.GitLab {
				issue = srv.URL + "/o/r/-/issues/5"
			}
			srv.AddIssue("o/r", 5, "Name the loader", "Call it Load.", "api")
			asked := len(srv.Requests())
			_, err := f.CreateFromIssue(IssueTaskInput{URL: issue})
			if err == nil || !strings.HasPrefix(err.Error(), "Nothing was added: the task has no folder to run in") {
				t.Fatalf("from an issue with no repository and no working directory: %v", err)
			}
			if got := srv.Requests()[asked:]; len(got) != 0 {
				t.Fatalf("the forge was asked before the repository was checked: %v", got)
			}
			if all, err := st.ListTasks(context.Background(), store.Filter{}); err != nil || len(all) != 1 {
				t.Fatalf("a refused task from an issue stored something: %d tasks (%v)", len(all), err)
			}
			nt, err := f.CreateFromIssue(IssueTaskInput{URL: issue, Repo: tk.Repo})
			if err != nil || nt.Repo != tk.Repo || nt.Title != "Name the loader" {
				t.Fatalf("from an issue into %s: %+v %v", tk.Repo, nt, err)
			}
		})
	}
}

// The remotes name their forge, so the window can say "merge request" on
// GitLab before one is opened; a remote on no known forge names none.
func TestRemotesNameTheirForge(t *testing.T) {
	f, _, st, tk, _ := forgeService(t, forge.GitHub)
	got, err := st.GetTask(context.Background(), tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	git(t, got.Repo, "remote", "add", "mirror", "file://"+t.TempDir())
	rs, err := f.Remotes(tk.ID)
	if err != nil || len(rs) != 2 {
		t.Fatalf("remotes: %+v %v", rs, err)
	}
	forges := map[string]string{}
	for _, r := range rs {
		forges[r.Name] = r.Forge
	}
	if forges["origin"] != "github" || forges["mirror"] != "" {
		t.Fatalf("forges: %v", forges)
	}
}
