package forges_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/forge/forges"
	"github.com/boof-runner/boof-runner/backend/forge/forgetest"
)

// setup starts a fake forge of kind with one repository o/r whose main
// and topic branches exist, and returns the Forge of it with the real
// client library and the sleeps the transport made.
func setup(t *testing.T, kind forge.Kind) (*forgetest.Server, forge.Forge, *[]time.Duration, string) {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	srv := forgetest.New(t, kind)
	url := srv.NewRepo("o/r")
	repo := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@e")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644)
	run("add", "-A")
	run("commit", "-qm", "first")
	run("checkout", "-qb", "topic")
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("b\n"), 0o644)
	run("commit", "-qam", "topic")
	run("push", "-q", url, "main", "topic")
	head := run("rev-parse", "topic")
	srv.SetToken("tok-123")
	p, err := forge.ParseRemote(url, []forge.Host{srv.ForgeHost("")})
	if err != nil {
		t.Fatal(err)
	}
	var slept []time.Duration
	tr := &forge.Transport{Source: "TEST_TOKEN", Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}
	f, err := forges.Open(p, "tok-123", tr)
	if err != nil {
		t.Fatal(err)
	}
	return srv, f, &slept, head
}

// Every forge through its real client library against the fake: open,
// the "already exists" answer, states, the conditional read, reviews and
// their decision, checks, comments, close, issues, review requests.
func TestForgeConformance(t *testing.T) {
	for _, kind := range forge.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			srv, f, _, head := setup(t, kind)
			ctx := t.Context()
			pr, err := f.Open(ctx, forge.NewPullRequest{Head: "topic", Base: "main", Title: "Shout", Body: "Closes #3", Labels: []string{"bot"}, Reviewers: []string{"ann"}})
			if err != nil || pr.Number < 1 || pr.State != forge.StateOpen || pr.Head != "topic" || pr.HeadSHA != head || pr.Base != "main" {
				t.Fatalf("open: %+v %v", pr, err)
			}
			got, _ := srv.PR(pr.Number)
			if got.Body != "Closes #3" || strings.Join(got.Labels, ",") != "bot" || len(got.Reviewers) != 1 {
				t.Fatalf("on the forge: %+v", got)
			}
			var ex *forge.ExistsError
			if _, err := f.Open(ctx, forge.NewPullRequest{Head: "topic", Base: "main", Title: "again"}); !errors.As(err, &ex) || ex.Number != pr.Number {
				t.Fatalf("second open: %v", err)
			}
			if srv.PRs() != 1 {
				t.Fatalf("%d pull requests on the forge", srv.PRs())
			}
			if found, ok, err := f.Find(ctx, "topic"); err != nil || !ok || found.Number != pr.Number {
				t.Fatalf("find: %+v %v %v", found, ok, err)
			}
			if _, ok, err := f.Find(ctx, "nope"); err != nil || ok {
				t.Fatalf("find nothing: %v %v", ok, err)
			}
			first, err := f.Get(ctx, pr.Number, "")
			if err != nil || first.ETag == "" || first.State != forge.StateOpen || first.Review != forge.ReviewRequired {
				t.Fatalf("get: %+v %v", first, err)
			}
			if _, err := f.Get(ctx, pr.Number, first.ETag); !errors.Is(err, forge.ErrNotModified) {
				t.Fatalf("conditional get of an unchanged one: %v", err)
			}
			srv.AddReview(pr.Number, "ann", "CHANGES_REQUESTED", "Please shout louder.")
			srv.AddLineComment(pr.Number, "ann", "a.txt", 1, "Upper case here.")
			g, err := f.Get(ctx, pr.Number, first.ETag)
			if err != nil || g.Review != forge.ReviewChangesRequested {
				t.Fatalf("get after a review: %+v %v", g, err)
			}
			cs, err := f.Comments(ctx, pr.Number)
			if err != nil || len(cs) != 2 || cs[0].Body != "Please shout louder." || cs[0].Author != "ann" ||
				cs[1].Path != "a.txt" || cs[1].Line != 1 || cs[1].Body != "Upper case here." {
				t.Fatalf("comments: %+v %v", cs, err)
			}
			if kind == forge.GitHub && !cs[0].ChangesRequested {
				t.Fatalf("the review summary does not say it requested changes: %+v", cs[0])
			}
			srv.AddReview(pr.Number, "ann", "APPROVED", "")
			if kind == forge.GitHub {
				if g, _ := f.Get(ctx, pr.Number, ""); g.Review != forge.ReviewApproved {
					t.Fatalf("after an approval: %+v", g)
				}
			}
			srv.SetChecks(head, forge.Check{Name: "build", State: forge.CheckSuccess}, forge.Check{Name: "status/lint", State: forge.CheckFailure}, forge.Check{Name: "test", State: forge.CheckPending})
			checks, err := f.Checks(ctx, head)
			if err != nil || len(checks) != 3 || checks[0].Name != "build" || checks[0].State != forge.CheckSuccess ||
				checks[1].Name != "lint" || checks[1].State != forge.CheckFailure || checks[2].State != forge.CheckPending {
				t.Fatalf("checks: %+v %v", checks, err)
			}
			if err := f.Comment(ctx, pr.Number, "Pushed the fix."); err != nil || strings.Join(srv.Notes(pr.Number), "|") != "Pushed the fix." {
				t.Fatalf("comment: %v %q", err, srv.Notes(pr.Number))
			}
			srv.SetState(pr.Number, "draft")
			if g, err := f.Get(ctx, pr.Number, ""); err != nil || g.State != forge.StateDraft {
				t.Fatalf("draft: %+v %v", g, err)
			}
			srv.SetState(pr.Number, "open")
			merge := srv.Merge(pr.Number)
			if g, err := f.Get(ctx, pr.Number, ""); err != nil || g.State != forge.StateMerged || g.MergeSHA != merge {
				t.Fatalf("merged: %+v %v (merge %s)", g, err, merge)
			}
			pr2 := openAnother(t, srv, f)
			if err := f.Close(ctx, pr2); err != nil {
				t.Fatal(err)
			}
			if g, err := f.Get(ctx, pr2, ""); err != nil || g.State != forge.StateClosed {
				t.Fatalf("closed: %+v %v", g, err)
			}
			srv.DeletePR(pr2)
			var nf *forge.NotFoundError
			if _, err := f.Get(ctx, pr2, ""); !errors.As(err, &nf) || !strings.Contains(nf.What, "#") && !strings.Contains(nf.What, "!") {
				t.Fatalf("deleted: %v", err)
			}
			srv.AddIssue("o/r", 40, "Crash on start", "It crashes.\n\nSteps: run it.", "bug", "p1")
			is, err := f.Issue(ctx, 40)
			if err != nil || is.Title != "Crash on start" || is.Body != "It crashes.\n\nSteps: run it." || strings.Join(is.Labels, ",") != "bug,p1" || is.State != "open" || is.URL == "" {
				t.Fatalf("issue: %+v %v", is, err)
			}
			srv.SetReviewRequests(4)
			if n, err := f.ReviewRequests(ctx); err != nil || n != 4 {
				t.Fatalf("review requests: %d %v", n, err)
			}
		})
	}
}

// openAnother pushes nothing new: a second branch at main's commit.
func openAnother(t *testing.T, srv *forgetest.Server, f forge.Forge) int {
	t.Helper()
	dir := srv.RepoDir("o/r")
	out, err := exec.Command("git", "-C", dir, "branch", "other", "topic").CombinedOutput()
	if err != nil {
		t.Fatalf("%v %s", err, out)
	}
	pr, err := f.Open(t.Context(), forge.NewPullRequest{Head: "other", Base: "main", Title: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	return pr.Number
}

// The answers that mean the same on every forge become forge's errors:
// a refused token, a rate limit waited out or reported, a 5xx, a web page
// instead of JSON; the token never shows in them.
func TestForgeFailures(t *testing.T) {
	for _, kind := range forge.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			srv, f, slept, _ := setup(t, kind)
			ctx := t.Context()
			pr, err := f.Open(ctx, forge.NewPullRequest{Head: "topic", Base: "main", Title: "T"})
			if err != nil {
				t.Fatal(err)
			}
			reset := time.Now().Add(20 * time.Second).Unix()
			srv.Fail("/", 1, http.StatusTooManyRequests, http.Header{"Retry-After": {"7"}}, "", `{"message":"slow down"}`)
			if _, err := f.Get(ctx, pr.Number, ""); err != nil || len(*slept) != 1 || (*slept)[0] != 7*time.Second {
				t.Fatalf("429 with a near reset: %v, slept %v", err, *slept)
			}
			srv.Fail("/", 1, http.StatusForbidden, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {itoa(reset)}}, "", `{"message":"API rate limit exceeded"}`)
			if _, err := f.Get(ctx, pr.Number, ""); err != nil || len(*slept) != 2 || (*slept)[1] > 21*time.Second || (*slept)[1] < 15*time.Second {
				t.Fatalf("403 rate limit with a near reset: %v, slept %v", err, *slept)
			}
			far := time.Now().Add(time.Hour).Unix()
			srv.Fail("/", 1, http.StatusForbidden, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {itoa(far)}}, "", `{"message":"API rate limit exceeded"}`)
			var rl *forge.RateLimitError
			if _, err := f.Get(ctx, pr.Number, ""); !errors.As(err, &rl) || rl.Reset.Unix() != far || len(*slept) != 2 {
				t.Fatalf("403 rate limit with a far reset: %v, slept %v", err, *slept)
			}
			srv.Fail("/", 1, http.StatusBadGateway, nil, "", `{"message":"upstream down"}`)
			var he *forge.HTTPError
			if _, err := f.Get(ctx, pr.Number, ""); !errors.As(err, &he) || he.Status != 502 {
				t.Fatalf("5xx: %v", err)
			}
			srv.Fail("/", 1, http.StatusOK, nil, "text/html; charset=utf-8", "<html><body>Sign in</body></html>")
			var nj *forge.NotJSONError
			if _, err := f.Get(ctx, pr.Number, ""); !errors.As(err, &nj) || !strings.HasPrefix(nj.ContentType, "text/html") {
				t.Fatalf("HTML: %v", err)
			}
			srv.SetToken("another")
			var ae *forge.AuthError
			_, err = f.Get(ctx, pr.Number, "")
			if !errors.As(err, &ae) || ae.Status != 401 || ae.Source != "TEST_TOKEN" {
				t.Fatalf("refused token: %v", err)
			}
			if strings.Contains(err.Error(), "tok-123") {
				t.Fatalf("the token is in the error: %v", err)
			}
		})
	}
}

func itoa(n int64) string { return strconvItoa(n) }

// A project the forge does not have is named in the error.
func TestForgeMissingProject(t *testing.T) {
	for _, kind := range forge.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			srv := forgetest.New(t, kind)
			p, err := forge.ParseRemote(srv.URL+"/o/missing.git", []forge.Host{srv.ForgeHost("")})
			if err != nil {
				t.Fatal(err)
			}
			f, err := forges.Open(p, "tok", &forge.Transport{})
			if err != nil {
				t.Fatal(err)
			}
			var nf *forge.NotFoundError
			_, err = f.Open(t.Context(), forge.NewPullRequest{Head: "b", Base: "main", Title: "T"})
			if !errors.As(err, &nf) || !strings.HasSuffix(nf.What, " o/missing") || nf.Host != srv.Host {
				t.Fatalf("open on a missing project: %v (%+v)", err, nf)
			}
		})
	}
}
