// Package gitlab is the forge.Forge of GitLab (gitlab.com and self-managed
// GitLab), on gitlab.com/gitlab-org/api/client-go. A pull request is a
// merge request here; its number is the merge request's iid. Errors are
// package forge's (its Transport makes them); this package reads only the
// 409 of a merge request that already exists.
package gitlab

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go/v2"

	"github.com/boof-runner/boof-runner/backend/forge"
)

// maxPages bounds the pages a list reads (100 items each).
const maxPages = 10

// Forge is one GitLab project.
type Forge struct {
	c *gl.Client
	p forge.Project
}

var _ forge.Forge = (*Forge)(nil)

// New returns the Forge of project p with token, whose calls go through t
// (the client's own retries are off: t waits rate limits out).
func New(p forge.Project, token string, t *forge.Transport) (*Forge, error) {
	c, err := gl.NewClient(token, gl.WithBaseURL(p.API), gl.WithHTTPClient(t.Client()), gl.WithoutRetries())
	if err != nil {
		return nil, fmt.Errorf("gitlab client for %s: %w", p.API, err)
	}
	return &Forge{c: c, p: p}, nil
}

// Project returns the project.
func (f *Forge) Project() forge.Project { return f.p }

// Open opens a merge request ("Draft: " before the title for a draft),
// with its labels and reviewers (user names looked up; one that does not
// exist is reported after the merge request, a *forge.PartialError).
func (f *Forge) Open(ctx context.Context, n forge.NewPullRequest) (forge.PullRequest, error) {
	title := n.Title
	if n.Draft && !strings.HasPrefix(strings.ToLower(title), "draft:") {
		title = "Draft: " + title
	}
	opt := &gl.CreateMergeRequestOptions{Title: gl.Ptr(title), Description: gl.Ptr(n.Body),
		SourceBranch: gl.Ptr(n.Head), TargetBranch: gl.Ptr(n.Base)}
	if len(n.Labels) > 0 {
		opt.Labels = gl.Ptr(gl.LabelOptions(n.Labels))
	}
	ids, missing, err := f.userIDs(ctx, n.Reviewers)
	if err != nil {
		return forge.PullRequest{}, err
	}
	if len(ids) > 0 {
		opt.ReviewerIDs = &ids
	}
	mr, resp, err := f.c.MergeRequests.CreateMergeRequest(f.p.Path, opt, gl.WithContext(ctx))
	if resp != nil && resp.StatusCode == http.StatusConflict {
		return forge.PullRequest{}, &forge.ExistsError{Number: existing(err)}
	}
	if resp != nil && resp.StatusCode == http.StatusUnprocessableEntity {
		return forge.PullRequest{}, &forge.HTTPError{Host: f.p.Host, Status: resp.StatusCode, Message: errMessage(err)}
	}
	if err != nil {
		return forge.PullRequest{}, notFound(fmt.Errorf("open a merge request on %s: %w", f.p.Path, err), "the project "+f.p.Path)
	}
	out := f.merge(&mr.BasicMergeRequest)
	if len(missing) > 0 {
		return out, &forge.PartialError{PR: out, Err: fmt.Errorf("no user named %s to ask for a review", strings.Join(missing, ", "))}
	}
	return out, nil
}

var iidMark = regexp.MustCompile(`!(\d+)`)

// existing reads the iid from "Another open merge request already exists
// for this source branch: !12".
func existing(err error) int {
	if m := iidMark.FindStringSubmatch(errMessage(err)); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

func errMessage(err error) string {
	var er *gl.ErrorResponse
	if errors.As(err, &er) {
		return strings.TrimSpace(er.Message + " " + string(er.Body))
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

func (f *Forge) userIDs(ctx context.Context, names []string) ([]int64, []string, error) {
	var ids []int64
	var missing []string
	for _, n := range names {
		us, _, err := f.c.Users.ListUsers(&gl.ListUsersOptions{Username: gl.Ptr(n)}, gl.WithContext(ctx))
		if err != nil {
			return nil, nil, fmt.Errorf("look up reviewer %s: %w", n, err)
		}
		if len(us) == 0 {
			missing = append(missing, n)
			continue
		}
		ids = append(ids, us[0].ID)
	}
	return ids, missing, nil
}

// Find returns the open merge request whose source branch is branch.
func (f *Forge) Find(ctx context.Context, branch string) (forge.PullRequest, bool, error) {
	mrs, _, err := f.c.MergeRequests.ListProjectMergeRequests(f.p.Path, &gl.ListProjectMergeRequestsOptions{
		State: gl.Ptr("opened"), SourceBranch: gl.Ptr(branch)}, gl.WithContext(ctx))
	if err != nil {
		return forge.PullRequest{}, false, notFound(fmt.Errorf("find the merge request of %s: %w", branch, err), "the project "+f.p.Path)
	}
	for _, mr := range mrs {
		if mr.SourceBranch == branch {
			return f.merge(mr), true, nil
		}
	}
	return forge.PullRequest{}, false, nil
}

// Get returns merge request number with its review decision.
func (f *Forge) Get(ctx context.Context, number int, etag string) (forge.PullRequest, error) {
	opts := []gl.RequestOptionFunc{gl.WithContext(ctx)}
	if etag != "" {
		opts = append(opts, gl.WithHeader("If-None-Match", etag))
	}
	mr, resp, err := f.c.MergeRequests.GetMergeRequest(f.p.Path, int64(number), nil, opts...)
	if resp != nil && resp.StatusCode == http.StatusNotModified {
		return forge.PullRequest{Number: number, ETag: etag}, forge.ErrNotModified
	}
	if err != nil {
		return forge.PullRequest{}, notFound(fmt.Errorf("read merge request !%d: %w", number, err), fmt.Sprintf("merge request !%d of %s", number, f.p.Path))
	}
	out := f.merge(&mr.BasicMergeRequest)
	out.ETag = resp.Header.Get("ETag")
	if out.State.IsOpen() {
		switch mr.DetailedMergeStatus {
		case "requested_changes":
			out.Review = forge.ReviewChangesRequested
		case "not_approved":
			out.Review = forge.ReviewRequired
		default:
			ap, _, err := f.c.MergeRequests.GetMergeRequestApprovals(f.p.Path, int64(number), gl.WithContext(ctx))
			if err != nil {
				return forge.PullRequest{}, fmt.Errorf("read the approvals of !%d: %w", number, err)
			}
			if ap.Approved && len(ap.ApprovedBy) > 0 {
				out.Review = forge.ReviewApproved
			}
		}
	}
	return out, nil
}

func (f *Forge) merge(mr *gl.BasicMergeRequest) forge.PullRequest {
	out := forge.PullRequest{Number: int(mr.IID), URL: mr.WebURL, Title: mr.Title, Head: mr.SourceBranch,
		HeadSHA: mr.SHA, Base: mr.TargetBranch}
	switch mr.State {
	case "merged":
		out.State, out.MergeSHA = forge.StateMerged, mr.MergeCommitSHA
		if out.MergeSHA == "" {
			out.MergeSHA = mr.SquashCommitSHA
		}
	case "closed", "locked":
		out.State = forge.StateClosed
	default:
		out.State = forge.StateOpen
		if mr.Draft {
			out.State = forge.StateDraft
		}
	}
	return out
}

// Checks lists the commit statuses of sha (CI jobs report there too).
func (f *Forge) Checks(ctx context.Context, sha string) ([]forge.Check, error) {
	sts, _, err := f.c.Commits.GetCommitStatuses(f.p.Path, sha, &gl.GetCommitStatusesOptions{ListOptions: gl.ListOptions{PerPage: 100}}, gl.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("read the statuses of %s: %w", sha, err)
	}
	out := []forge.Check{}
	for _, s := range sts {
		state := forge.CheckPending
		switch s.Status {
		case "success":
			state = forge.CheckSuccess
		case "failed":
			state = forge.CheckFailure
		case "canceled", "skipped", "manual":
			state = forge.CheckNeutral
		}
		out = append(out, forge.Check{Name: s.Name, State: state, URL: s.TargetURL})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Comments lists the merge request's notes that are no system notes:
// diff notes with their file and new line, and the others as general
// remarks, oldest first.
func (f *Forge) Comments(ctx context.Context, number int) ([]forge.Comment, error) {
	var out []forge.Comment
	opt := &gl.ListMergeRequestDiscussionsOptions{ListOptions: gl.ListOptions{PerPage: 100}}
	for page := 0; page < maxPages; page++ {
		ds, resp, err := f.c.Discussions.ListMergeRequestDiscussions(f.p.Path, int64(number), opt, gl.WithContext(ctx))
		if err != nil {
			return nil, notFound(fmt.Errorf("read the discussions of !%d: %w", number, err), fmt.Sprintf("merge request !%d of %s", number, f.p.Path))
		}
		for _, d := range ds {
			for _, n := range d.Notes {
				if n.System {
					continue
				}
				c := forge.Comment{ID: n.ID, Author: n.Author.Username, Body: n.Body}
				if n.CreatedAt != nil {
					c.At = *n.CreatedAt
				}
				if p := n.Position; p != nil {
					c.Path, c.Line = p.NewPath, int(p.NewLine)
					if c.Path == "" {
						c.Path = p.OldPath
					}
				}
				out = append(out, c)
			}
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out, nil
}

// Comment adds a note to the merge request.
func (f *Forge) Comment(ctx context.Context, number int, body string) error {
	_, _, err := f.c.Notes.CreateMergeRequestNote(f.p.Path, int64(number), &gl.CreateMergeRequestNoteOptions{Body: gl.Ptr(body)}, gl.WithContext(ctx))
	if err != nil {
		return notFound(fmt.Errorf("comment on !%d: %w", number, err), fmt.Sprintf("merge request !%d of %s", number, f.p.Path))
	}
	return nil
}

// Close closes the merge request.
func (f *Forge) Close(ctx context.Context, number int) error {
	_, _, err := f.c.MergeRequests.UpdateMergeRequest(f.p.Path, int64(number), &gl.UpdateMergeRequestOptions{StateEvent: gl.Ptr("close")}, gl.WithContext(ctx))
	if err != nil {
		return notFound(fmt.Errorf("close !%d: %w", number, err), fmt.Sprintf("merge request !%d of %s", number, f.p.Path))
	}
	return nil
}

// Issue returns issue number (its iid).
func (f *Forge) Issue(ctx context.Context, number int) (forge.Issue, error) {
	is, _, err := f.c.Issues.GetIssue(f.p.Path, int64(number), gl.WithContext(ctx))
	if err != nil {
		return forge.Issue{}, notFound(fmt.Errorf("read issue #%d: %w", number, err), fmt.Sprintf("issue #%d of %s", number, f.p.Path))
	}
	state := is.State
	if state == "opened" {
		state = "open"
	}
	return forge.Issue{Number: int(is.IID), URL: is.WebURL, Title: is.Title, Body: is.Description,
		Labels: append([]string{}, is.Labels...), State: state}, nil
}

// ReviewRequests counts the open merge requests whose reviewers include
// the token's user.
func (f *Forge) ReviewRequests(ctx context.Context) (int, error) {
	me, _, err := f.c.Users.CurrentUser(gl.WithContext(ctx))
	if err != nil {
		return 0, fmt.Errorf("read the token's user on %s: %w", f.p.Host, err)
	}
	mrs, resp, err := f.c.MergeRequests.ListMergeRequests(&gl.ListMergeRequestsOptions{State: gl.Ptr("opened"), Scope: gl.Ptr("all"),
		ReviewerID: gl.ReviewerID(me.ID), ListOptions: gl.ListOptions{PerPage: 100}}, gl.WithContext(ctx))
	if err != nil {
		return 0, fmt.Errorf("count review requests on %s: %w", f.p.Host, err)
	}
	if resp.TotalItems > 0 {
		return int(resp.TotalItems), nil
	}
	return len(mrs), nil
}

func notFound(err error, what string) error {
	var nf *forge.NotFoundError
	if errors.As(err, &nf) {
		nf.What = what
	}
	return err
}
