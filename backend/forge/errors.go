package forge

import (
	"errors"
	"fmt"
	"time"
)

// ErrNotFound is matched by every *NotFoundError.
var ErrNotFound = errors.New("not found on the forge")

// ErrNotModified: a conditional Get found nothing changed since its ETag.
var ErrNotModified = errors.New("not modified")

// NotFoundError is a 404 of the forge's API: the project, pull request or
// issue does not exist (or the token may not see it).
type NotFoundError struct {
	// Host is the forge host; What names what was asked ("pull request
	// #12 of owner/repo").
	Host, What string
}

// Error returns "<what> not found on <host>".
func (e *NotFoundError) Error() string { return fmt.Sprintf("%s not found on %s", e.What, e.Host) }

// Unwrap returns ErrNotFound.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// UnknownForgeError is a remote or issue URL whose host is no forge Boof
// Runner knows (add it to forge.hosts), or not a forge URL at all.
type UnknownForgeError struct {
	// URL is the address, without credentials; Host its host ("" when it
	// is no network URL: a path, a file:// remote).
	URL, Host string
	// Path: the host is known but the path names no project.
	Path bool
	// Remote names the git remote when only its name is known (URL is
	// then empty).
	Remote string
}

// Error returns "<url> is not on a known forge".
func (e *UnknownForgeError) Error() string {
	if e.Path {
		return fmt.Sprintf("%s names no project on %s", e.URL, e.Host)
	}
	if e.Remote != "" {
		return fmt.Sprintf("remote %s is not on a known forge", e.Remote)
	}
	return fmt.Sprintf("%s is not on a known forge", e.URL)
}

// BadIssueURLError is an address on a forge that names no issue.
type BadIssueURLError struct {
	URL  string
	Kind Kind
}

// Error returns "<url> is not the address of an issue".
func (e *BadIssueURLError) Error() string { return e.URL + " is not the address of an issue" }

// NoTokenError: no token for the host was found.
type NoTokenError struct {
	Host string
	Kind Kind
	// Env is the environment variable read (GITHUB_TOKEN, GITLAB_TOKEN).
	Env string
}

// Error returns "no token for <host>".
func (e *NoTokenError) Error() string {
	return fmt.Sprintf("no token for %s (%s not set)", e.Host, e.Env)
}

// AuthError is a 401 or 403 that is no rate limit: the token is missing,
// expired, revoked, or may not do this.
type AuthError struct {
	Host   string
	Status int
	// Source says where the token came from (TokenSource.String()).
	Source string
	// Message is the forge's own words, when it sent any.
	Message string
}

// Error returns "<host> refused the token (<status>)".
func (e *AuthError) Error() string {
	return fmt.Sprintf("%s refused the token from %s (HTTP %d)", e.Host, e.Source, e.Status)
}

// RateLimitError is a rate limit (403 or 429 with the forge's limit
// headers) whose reset was too far off to wait for.
type RateLimitError struct {
	Host string
	// Reset is when the forge takes requests again.
	Reset time.Time
}

// Error returns "<host> rate limit until <reset>".
func (e *RateLimitError) Error() string {
	return fmt.Sprintf("%s rate limit reached until %s", e.Host, e.Reset.UTC().Format(time.RFC3339))
}

// NotJSONError is an API answer that is a web page (or anything but
// JSON): a login page, a proxy's error page, a wrong API URL.
type NotJSONError struct {
	Host, URL   string
	Status      int
	ContentType string
}

// Error returns "<host> answered <type> instead of JSON".
func (e *NotJSONError) Error() string {
	return fmt.Sprintf("%s answered %s (HTTP %d) instead of JSON at %s", e.Host, e.ContentType, e.Status, e.URL)
}

// HTTPError is any other failed answer of the API: a 5xx, a refused
// request.
type HTTPError struct {
	Host    string
	Status  int
	Message string
}

// Error returns "<host> answered HTTP <status>: <message>".
func (e *HTTPError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("%s answered HTTP %d", e.Host, e.Status)
	}
	return fmt.Sprintf("%s answered HTTP %d: %s", e.Host, e.Status, e.Message)
}

// ExistsError: a pull request for the same head branch is already open.
type ExistsError struct {
	Number int
}

// Error returns "a pull request for this branch already exists".
func (e *ExistsError) Error() string {
	if e.Number > 0 {
		return fmt.Sprintf("pull request #%d is already open for this branch", e.Number)
	}
	return "a pull request is already open for this branch"
}

// UnreachableError: the forge could not be reached (a network error or
// the call's deadline).
type UnreachableError struct {
	Host string
	// Timeout: the deadline passed (Timeout holds it).
	Timeout time.Duration
	Err     error
}

// Error returns "cannot reach <host>: <err>".
func (e *UnreachableError) Error() string {
	if e.Timeout > 0 {
		return fmt.Sprintf("%s did not answer within %s", e.Host, e.Timeout)
	}
	return fmt.Sprintf("cannot reach %s: %v", e.Host, e.Err)
}

// Unwrap returns the network error.
func (e *UnreachableError) Unwrap() error { return e.Err }

// PartialError: the pull request was opened but a later part (labels,
// reviewers) failed.
type PartialError struct {
	PR  PullRequest
	Err error
}

// Error returns "pull request #N opened, but <err>".
func (e *PartialError) Error() string {
	return fmt.Sprintf("pull request #%d opened, but %v", e.PR.Number, e.Err)
}

// Unwrap returns the failure.
func (e *PartialError) Unwrap() error { return e.Err }
