// Package github is the forge.Forge of GitHub (github.com and GitHub
// Enterprise Server), on github.com/google/go-github. Errors are
// package forge's (its Transport makes them); this package reads only
// what the GitHub API says in its own way: the 422 of a pull request that
// already exists, a 304 of a conditional request.
package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	gh "github.com/google/go-github/v75/github"

	"github.com/boof-runner/boof-runner/backend/forge"
)

// maxPages bounds the pages a list reads (100 items each).
const maxPages = 10

// Forge is one GitHub repository.
type Forge struct {
	c *gh.Client
	p forge.Project
}

var _ forge.Forge = (*Forge)(nil)

// New returns the Forge of project p with token, whose calls go through t.
func New(p forge.Project, token string, t *forge.Transport) (*Forge, error) {
	c := gh.NewClient(t.Client()).WithAuthToken(token)
	if !strings.EqualFold(p.Host, "github.com") || p.API != "https://api.github.com/" {
		var err error
		if c, err = c.WithEnterpriseURLs(p.API, p.API); err != nil {
			return nil, fmt.Errorf("github api url %s: %w", p.API, err)
		}
	}
	return &Forge{c: c, p: p}, nil
}

// Project returns the repository.
func (f *Forge) Project() forge.Project { return f.p }

func (f *Forge) owner() string { return f.p.Owner() }
func (f *Forge) repo() string  { return f.p.Name() }

// Open opens a pull request, then adds its labels and asks its
// reviewers; a failure of those two is returned after the pull request,
// which exists by then (a *forge.PartialError).
func (f *Forge) Open(ctx context.Context, n forge.NewPullRequest) (forge.PullRequest, error) {
	pr, resp, err := f.c.PullRequests.Create(ctx, f.owner(), f.repo(), &gh.NewPullRequest{
		Title: gh.Ptr(n.Title), Head: gh.Ptr(n.Head), Base: gh.Ptr(n.Base), Body: gh.Ptr(n.Body), Draft: gh.Ptr(n.Draft),
	})
	if resp != nil && resp.StatusCode == http.StatusUnprocessableEntity {
		if exists(err) {
			if old, ok, ferr := f.Find(ctx, n.Head); ferr == nil && ok {
				return forge.PullRequest{}, &forge.ExistsError{Number: old.Number}
			}
			return forge.PullRequest{}, &forge.ExistsError{}
		}
		return forge.PullRequest{}, &forge.HTTPError{Host: f.p.Host, Status: resp.StatusCode, Message: message(err)}
	}
	if err != nil {
		return forge.PullRequest{}, notFound(fmt.Errorf("open a pull request on %s: %w", f.p.Path, err), "the repository "+f.p.Path)
	}
	out := f.pull(pr)
	var notes []error
	if len(n.Labels) > 0 {
		if _, _, err := f.c.Issues.AddLabelsToIssue(ctx, f.owner(), f.repo(), pr.GetNumber(), n.Labels); err != nil {
			notes = append(notes, fmt.Errorf("add labels: %w", err))
		}
	}
	if len(n.Reviewers) > 0 {
		if _, _, err := f.c.PullRequests.RequestReviewers(ctx, f.owner(), f.repo(), pr.GetNumber(), gh.ReviewersRequest{Reviewers: n.Reviewers}); err != nil {
			notes = append(notes, fmt.Errorf("request reviewers: %w", err))
		}
	}
	if len(notes) > 0 {
		return out, &forge.PartialError{PR: out, Err: errors.Join(notes...)}
	}
	return out, nil
}

// exists reports GitHub's "A pull request already exists for …".
func exists(err error) bool {
	var er *gh.ErrorResponse
	if !errors.As(err, &er) {
		return false
	}
	for _, e := range er.Errors {
		if strings.Contains(e.Message, "already exists") {
			return true
		}
	}
	return strings.Contains(er.Message, "already exists")
}

func message(err error) string {
	var er *gh.ErrorResponse
	if !errors.As(err, &er) {
		return ""
	}
	parts := []string{er.Message}
	for _, e := range er.Errors {
		if e.Message != "" {
			parts = append(parts, e.Message)
		}
	}
	return strings.Join(parts, ": ")
}

// Find returns the open pull request whose head is branch.
func (f *Forge) Find(ctx context.Context, branch string) (forge.PullRequest, bool, error) {
	prs, _, err := f.c.PullRequests.List(ctx, f.owner(), f.repo(), &gh.PullRequestListOptions{
		State: "open", Head: strings.SplitN(f.owner(), "/", 2)[0] + ":" + branch, ListOptions: gh.ListOptions{PerPage: 10},
	})
	if err != nil {
		return forge.PullRequest{}, false, notFound(fmt.Errorf("find the pull request of %s: %w", branch, err), "the repository "+f.p.Path)
	}
	for _, pr := range prs {
		if pr.GetHead().GetRef() == branch {
			return f.pull(pr), true, nil
		}
	}
	return forge.PullRequest{}, false, nil
}

// Get returns pull request number with its review decision; see forge.Forge.
func (f *Forge) Get(ctx context.Context, number int, etag string) (forge.PullRequest, error) {
	req, err := f.c.NewRequest(http.MethodGet, fmt.Sprintf("repos/%s/%s/pulls/%d", f.owner(), f.repo(), number), nil)
	if err != nil {
		return forge.PullRequest{}, err
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	var pr gh.PullRequest
	resp, err := f.c.Do(ctx, req, &pr)
	if resp != nil && resp.StatusCode == http.StatusNotModified {
		return forge.PullRequest{Number: number, ETag: etag}, forge.ErrNotModified
	}
	if err != nil {
		return forge.PullRequest{}, notFound(fmt.Errorf("read pull request #%d: %w", number, err), fmt.Sprintf("pull request #%d of %s", number, f.p.Path))
	}
	out := f.pull(&pr)
	out.ETag = resp.Header.Get("ETag")
	if out.State.IsOpen() {
		if out.Review, err = f.decision(ctx, &pr); err != nil {
			return forge.PullRequest{}, err
		}
	}
	return out, nil
}

// decision is the review decision from each reviewer's latest verdict.
func (f *Forge) decision(ctx context.Context, pr *gh.PullRequest) (string, error) {
	reviews, err := f.reviews(ctx, pr.GetNumber())
	if err != nil {
		return "", err
	}
	latest := map[string]string{}
	for _, r := range reviews {
		switch s := r.GetState(); s {
		case "APPROVED", "CHANGES_REQUESTED", "DISMISSED":
			latest[r.GetUser().GetLogin()] = s
		}
	}
	approved := false
	for _, s := range latest {
		if s == "CHANGES_REQUESTED" {
			return forge.ReviewChangesRequested, nil
		}
		approved = approved || s == "APPROVED"
	}
	switch {
	case approved:
		return forge.ReviewApproved, nil
	case len(pr.RequestedReviewers) > 0 || len(pr.RequestedTeams) > 0:
		return forge.ReviewRequired, nil
	}
	return "", nil
}

func (f *Forge) reviews(ctx context.Context, number int) ([]*gh.PullRequestReview, error) {
	var all []*gh.PullRequestReview
	opt := &gh.ListOptions{PerPage: 100}
	for page := 0; page < maxPages; page++ {
		rs, resp, err := f.c.PullRequests.ListReviews(ctx, f.owner(), f.repo(), number, opt)
		if err != nil {
			return nil, fmt.Errorf("read the reviews of #%d: %w", number, err)
		}
		all = append(all, rs...)
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	return all, nil
}

// pull converts a pull request.
func (f *Forge) pull(pr *gh.PullRequest) forge.PullRequest {
	out := forge.PullRequest{Number: pr.GetNumber(), URL: pr.GetHTMLURL(), Title: pr.GetTitle(),
		Head: pr.GetHead().GetRef(), HeadSHA: pr.GetHead().GetSHA(), Base: pr.GetBase().GetRef()}
	switch {
	case pr.GetMerged() || pr.MergedAt != nil:
		out.State, out.MergeSHA = forge.StateMerged, pr.GetMergeCommitSHA()
	case pr.GetState() == "closed":
		out.State = forge.StateClosed
	case pr.GetDraft():
		out.State = forge.StateDraft
	default:
		out.State = forge.StateOpen
	}
	return out
}

// Checks lists the check runs and the commit statuses of sha.
func (f *Forge) Checks(ctx context.Context, sha string) ([]forge.Check, error) {
	var out []forge.Check
	runs, _, err := f.c.Checks.ListCheckRunsForRef(ctx, f.owner(), f.repo(), sha, &gh.ListCheckRunsOptions{ListOptions: gh.ListOptions{PerPage: 100}})
	if err != nil {
		return nil, fmt.Errorf("read the checks of %s: %w", short(sha), err)
	}
	for _, r := range runs.CheckRuns {
		out = append(out, forge.Check{Name: r.GetName(), State: runState(r), URL: r.GetHTMLURL()})
	}
	st, _, err := f.c.Repositories.GetCombinedStatus(ctx, f.owner(), f.repo(), sha, &gh.ListOptions{PerPage: 100})
	if err != nil {
		return nil, fmt.Errorf("read the statuses of %s: %w", short(sha), err)
	}
	for _, s := range st.Statuses {
		state := forge.CheckPending
		switch s.GetState() {
		case "success":
			state = forge.CheckSuccess
		case "failure", "error":
			state = forge.CheckFailure
		}
		out = append(out, forge.Check{Name: s.GetContext(), State: state, URL: s.GetTargetURL()})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func runState(r *gh.CheckRun) string {
	if r.GetStatus() != "completed" {
		return forge.CheckPending
	}
	switch r.GetConclusion() {
	case "success":
		return forge.CheckSuccess
	case "neutral", "skipped", "stale":
		return forge.CheckNeutral
	}
	return forge.CheckFailure
}

// Comments lists the line comments and the review summaries, oldest first.
func (f *Forge) Comments(ctx context.Context, number int) ([]forge.Comment, error) {
	var out []forge.Comment
	opt := &gh.PullRequestListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	for page := 0; page < maxPages; page++ {
		cs, resp, err := f.c.PullRequests.ListComments(ctx, f.owner(), f.repo(), number, opt)
		if err != nil {
			return nil, notFound(fmt.Errorf("read the comments of #%d: %w", number, err), fmt.Sprintf("pull request #%d of %s", number, f.p.Path))
		}
		for _, c := range cs {
			out = append(out, forge.Comment{ID: c.GetID(), Author: c.GetUser().GetLogin(), Body: c.GetBody(),
				Path: c.GetPath(), Line: c.GetLine(), At: c.GetCreatedAt().Time})
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	reviews, err := f.reviews(ctx, number)
	if err != nil {
		return nil, err
	}
	for _, r := range reviews {
		if strings.TrimSpace(r.GetBody()) == "" {
			continue
		}
		out = append(out, forge.Comment{ID: r.GetID(), Author: r.GetUser().GetLogin(), Body: r.GetBody(),
			ChangesRequested: r.GetState() == "CHANGES_REQUESTED", At: r.GetSubmittedAt().Time})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out, nil
}

// Comment adds a comment to the pull request's conversation.
func (f *Forge) Comment(ctx context.Context, number int, body string) error {
	if _, _, err := f.c.Issues.CreateComment(ctx, f.owner(), f.repo(), number, &gh.IssueComment{Body: gh.Ptr(body)}); err != nil {
		return notFound(fmt.Errorf("comment on #%d: %w", number, err), fmt.Sprintf("pull request #%d of %s", number, f.p.Path))
	}
	return nil
}

// Close closes the pull request.
func (f *Forge) Close(ctx context.Context, number int) error {
	if _, _, err := f.c.PullRequests.Edit(ctx, f.owner(), f.repo(), number, &gh.PullRequest{State: gh.Ptr("closed")}); err != nil {
		return notFound(fmt.Errorf("close #%d: %w", number, err), fmt.Sprintf("pull request #%d of %s", number, f.p.Path))
	}
	return nil
}

// Issue returns issue number.
func (f *Forge) Issue(ctx context.Context, number int) (forge.Issue, error) {
	is, _, err := f.c.Issues.Get(ctx, f.owner(), f.repo(), number)
	if err != nil {
		return forge.Issue{}, notFound(fmt.Errorf("read issue #%d: %w", number, err), fmt.Sprintf("issue #%d of %s", number, f.p.Path))
	}
	out := forge.Issue{Number: is.GetNumber(), URL: is.GetHTMLURL(), Title: is.GetTitle(), Body: is.GetBody(), State: is.GetState(), Labels: []string{}}
	for _, l := range is.Labels {
		out.Labels = append(out.Labels, l.GetName())
	}
	return out, nil
}

// ReviewRequests counts the open pull requests that request the token's
// user's review (GitHub's search, review-requested:@me).
func (f *Forge) ReviewRequests(ctx context.Context) (int, error) {
	res, _, err := f.c.Search.Issues(ctx, "is:pr is:open archived:false review-requested:@me", &gh.SearchOptions{ListOptions: gh.ListOptions{PerPage: 1}})
	if err != nil {
		return 0, fmt.Errorf("count review requests on %s: %w", f.p.Host, err)
	}
	return res.GetTotal(), nil
}

// notFound names what a 404 was about.
func notFound(err error, what string) error {
	var nf *forge.NotFoundError
	if errors.As(err, &nf) {
		nf.What = what
	}
	return err
}

func short(sha string) string {
	if len(sha) > 10 {
		return sha[:10]
	}
	return sha
}
