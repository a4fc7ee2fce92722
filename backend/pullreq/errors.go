package pullreq

import "fmt"

// NotPushedError: the task's branch was never pushed (no pull request).
type NotPushedError struct{ TaskID string }

// Error returns "task <id> has not been pushed".
func (e *NotPushedError) Error() string { return "task " + e.TaskID + " has not been pushed" }

// NoPullRequestError: the task was pushed but has no pull request.
type NoPullRequestError struct{ TaskID string }

// Error returns "task <id> has no pull request".
func (e *NoPullRequestError) Error() string { return "task " + e.TaskID + " has no pull request" }

// NoBranchError: the task has no branch to push yet (it never ran).
type NoBranchError struct{ TaskID, Branch string }

// Error returns "task <id> has no branch <branch>".
func (e *NoBranchError) Error() string {
	return fmt.Sprintf("task %s has no branch %s to push", e.TaskID, e.Branch)
}

// NoRemoteError: the repository has no remote to push to, several and
// none chosen, or not the one named.
type NoRemoteError struct {
	Repo string
	// Name is the remote asked for ("" when none was).
	Name string
	// Remotes are the repository's remotes.
	Remotes []string
	// Target is the branch whose upstream was looked for.
	Target string
}

// Error returns "no remote to push to in <repo>".
func (e *NoRemoteError) Error() string {
	if e.Name != "" {
		return fmt.Sprintf("%s has no remote named %q", e.Repo, e.Name)
	}
	return fmt.Sprintf("no remote to push to in %s", e.Repo)
}

// ForeignCommitsError: the remote branch holds commits that are not the
// task's (someone pushed to it): nothing was pushed.
type ForeignCommitsError struct {
	Remote, Branch, SHA string
}

// Error returns "<remote> <branch> holds commits that are not the task's".
func (e *ForeignCommitsError) Error() string {
	return fmt.Sprintf("%s %s is at %s, which holds commits that are not the task's", e.Remote, e.Branch, short(e.SHA))
}

// PushedElsewhereError: the task's open pull request is on another remote
// or branch than the push asked for.
type PushedElsewhereError struct {
	Remote, Branch string
	Number         int
}

// Error returns "the task's pull request is on <remote> <branch>".
func (e *PushedElsewhereError) Error() string {
	return fmt.Sprintf("pull request #%d is open for %s %s", e.Number, e.Remote, e.Branch)
}

// MergedError: the pull request was merged already; nothing to open,
// push or close.
type MergedError struct {
	Number int
	URL    string
}

// Error returns "pull request #N was merged".
func (e *MergedError) Error() string { return fmt.Sprintf("pull request #%d was merged", e.Number) }

// NoNewCommentsError: the pull request has no review comment that was not
// pulled before.
type NoNewCommentsError struct{ Number int }

// Error returns "no new review comments on #N".
func (e *NoNewCommentsError) Error() string {
	return fmt.Sprintf("no new review comments on pull request #%d", e.Number)
}
