package pullreq

import "context"

// Closed is what Close did.
type Closed struct {
	Record Record `json:"record"`
	// BranchDeleted: the pushed branch was deleted on the remote.
	BranchDeleted bool `json:"branch_deleted"`
	// WasOpen: the pull request was open and this call closed it.
	WasOpen bool `json:"was_open"`
}

// Close closes the task's open pull request, and with deleteBranch
// deletes the pushed branch on the remote while it still holds what was
// pushed (a branch someone pushed to is kept: *gitx.PushRejectedError).
// A pull request that is not open is left as it is (only the branch is
// deleted, if asked). Errors: *NotPushedError, *NoPullRequestError when
// there is no pull request and no branch to delete, *MergedError for a
// merged one, the forge's and git's.
func (s *Service) Close(ctx context.Context, taskID string, deleteBranch bool) (Closed, error) {
	rec, err := s.record(ctx, taskID)
	if err != nil {
		return Closed{}, err
	}
	if rec.State == "merged" {
		return Closed{}, &MergedError{Number: rec.Number, URL: rec.URL}
	}
	if rec.Number == 0 && !deleteBranch {
		return Closed{}, &NoPullRequestError{TaskID: taskID}
	}
	wasOpen := rec.Open()
	if wasOpen {
		p, err := project(rec, s.hosts())
		if err != nil {
			return Closed{}, err
		}
		f, err := s.client(ctx, p, false)
		if err != nil {
			return Closed{}, err
		}
		if err := s.withTimeout(ctx, p.Host, func(ctx context.Context) error { return f.Close(ctx, rec.Number) }); err != nil {
			return Closed{}, err
		}
		rec.State = "closed"
		if err := s.d.Store.SavePullRequest(ctx, rec); err != nil {
			return Closed{}, err
		}
	}
	out := Closed{Record: rec, WasOpen: wasOpen}
	if deleteBranch && rec.PushedSHA != "" {
		t, err := s.task(ctx, taskID)
		if err != nil {
			return out, err
		}
		err = s.withTimeout(ctx, rec.Remote, func(ctx context.Context) error {
			return s.d.Git.DeleteRemoteBranch(ctx, t.Repo, rec.Remote, rec.Head, rec.PushedSHA)
		})
		if err != nil {
			return out, err
		}
		out.BranchDeleted = true
	}
	return out, nil
}
