// Package forge is what Boof Runner needs of a code forge (GitHub, GitLab):
// open a pull request (a merge request on GitLab) for a pushed branch,
// follow its state, checks and reviews, pull its review comments, comment,
// close it, and read the issues tasks are made from. One small interface,
// Forge; one package per forge (forge/github, forge/gitlab) implements it
// with that forge's client library. Which forge a repository is on is
// read from its remote's URL (ParseRemote), with the self-hosted hosts of
// settings.
//
// The HTTP side is shared (Transport): every call has a deadline, a rate
// limit is waited out when its reset is near and otherwise returned as a
// *RateLimitError, a web page where JSON was expected is a *NotJSONError,
// and the statuses that mean the same on every forge (401, 403, 404, 5xx)
// become this package's errors, so callers never read a client library's
// error types. Tokens (Tokens) come from the environment, the OS keyring or
// a 0600 file, and never reach a message.
package forge

import (
	"context"
	"time"
)

// Kind names a forge's API.
type Kind string

// The forges Boof Runner talks to.
const (
	// GitHub is github.com or a GitHub Enterprise Server.
	GitHub Kind = "github"
	// GitLab is gitlab.com or a self-managed GitLab.
	GitLab Kind = "gitlab"
)

// Kinds lists the forges in display order.
var Kinds = []Kind{GitHub, GitLab}

// State is where a pull request stands.
type State string

const (
	// StateOpen is an open pull request ready for review.
	StateOpen State = "open"
	// StateDraft is an open pull request marked as a draft.
	StateDraft State = "draft"
	// StateMerged is a pull request merged into its base.
	StateMerged State = "merged"
	// StateClosed is a pull request closed without being merged.
	StateClosed State = "closed"
)

// IsOpen reports whether s is open or draft: still waiting.
func (s State) IsOpen() bool { return s == StateOpen || s == StateDraft }

// Review decisions of a pull request (PullRequest.Review).
const (
	ReviewApproved         = "approved"
	ReviewChangesRequested = "changes_requested"
	ReviewRequired         = "review_required"
)

// Check states (Check.State), the same words for GitHub check runs and
// commit statuses and GitLab pipelines' jobs and commit statuses.
const (
	CheckPending = "pending"
	CheckSuccess = "success"
	CheckFailure = "failure"
	CheckNeutral = "neutral"
)

// PullRequest is a pull request (a merge request on GitLab) as the forge
// reports it.
type PullRequest struct {
	// Number is its number in the project (#12 on GitHub, !12 on GitLab).
	Number int    `json:"number"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	State  State  `json:"state"`
	// Head is the branch it merges; HeadSHA the commit that branch is at
	// on the forge; Base the branch it merges into.
	Head    string `json:"head"`
	HeadSHA string `json:"head_sha"`
	Base    string `json:"base"`
	// MergeSHA is the merge commit of a merged pull request.
	MergeSHA string `json:"merge_sha,omitempty"`
	// Review is the review decision ("" when the forge gives none).
	Review string `json:"review,omitempty"`
	// ETag is the forge's version of this answer, for the next
	// conditional Get ("" when it sent none).
	ETag string `json:"etag,omitempty"`
}

// Check is one CI check or commit status of a commit.
type Check struct {
	Name string `json:"name"`
	// State is CheckPending, CheckSuccess, CheckFailure or CheckNeutral.
	State string `json:"state"`
	URL   string `json:"url,omitempty"`
}

// Comment is a review comment of a pull request: a remark on a line of a
// file, or the text of a review as a whole (Path "").
type Comment struct {
	// ID is the forge's id of the comment, unique within the forge.
	ID     int64  `json:"id"`
	Author string `json:"author"`
	Body   string `json:"body"`
	// Path and Line place a line comment in the new version of the file
	// (Line 0: the file, or an outdated position).
	Path string `json:"path,omitempty"`
	Line int    `json:"line,omitempty"`
	// ChangesRequested marks a review summary that asked for changes.
	ChangesRequested bool      `json:"changes_requested,omitempty"`
	At               time.Time `json:"at"`
}

// NewPullRequest is a pull request to open.
type NewPullRequest struct {
	// Head is the pushed branch; Base the branch it merges into.
	Head, Base  string
	Title, Body string
	Draft       bool
	Labels      []string
	// Reviewers are user names whose review is requested.
	Reviewers []string
}

// Issue is an issue of the tracker a task can be made from.
type Issue struct {
	Number int      `json:"number"`
	URL    string   `json:"url"`
	Title  string   `json:"title"`
	Body   string   `json:"body"`
	Labels []string `json:"labels"`
	// State is "open" or "closed".
	State string `json:"state"`
}

// Forge is one project (repository) on a forge, with a token. Errors are
// this package's: *AuthError, *RateLimitError, *NotJSONError, *HTTPError,
// ErrNotFound (wrapped in a *NotFoundError), *ExistsError, or a network
// error wrapped with what was asked.
type Forge interface {
	// Project returns the project the Forge works on.
	Project() Project
	// Open opens a pull request. When one is already open for the same
	// head branch it returns an *ExistsError with its number.
	Open(ctx context.Context, pr NewPullRequest) (PullRequest, error)
	// Find returns the open pull request whose head is branch, and false
	// when there is none.
	Find(ctx context.Context, branch string) (PullRequest, bool, error)
	// Get returns pull request number. Given the ETag of an earlier
	// answer, it returns (that same ETag, ErrNotModified) when nothing
	// changed since. A pull request deleted on the forge gives a
	// *NotFoundError.
	Get(ctx context.Context, number int, etag string) (PullRequest, error)
	// Checks lists the checks and commit statuses of commit sha.
	Checks(ctx context.Context, sha string) ([]Check, error)
	// Comments lists the review comments of pull request number, oldest
	// first: line comments and the summaries of reviews.
	Comments(ctx context.Context, number int) ([]Comment, error)
	// Comment adds a comment to pull request number.
	Comment(ctx context.Context, number int, body string) error
	// Close closes pull request number without merging it.
	Close(ctx context.Context, number int) error
	// Issue returns issue number of the project.
	Issue(ctx context.Context, number int) (Issue, error)
	// ReviewRequests counts the open pull requests on this forge host
	// (any project) that wait for the token's user's review.
	ReviewRequests(ctx context.Context) (int, error)
}
