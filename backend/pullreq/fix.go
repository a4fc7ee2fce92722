package pullreq

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/review"
)

// FixQueued is a fix run queued from the pull request's review comments.
type FixQueued struct {
	review.Queued
	// Comments counts the review comments pulled in.
	Comments int `json:"comments"`
}

// RequestChanges pulls the pull request's review comments that were not
// pulled before into a fix run: through the same path as the user's
// Request changes (review.Service.RequestChanges), each line comment with
// its file and line, the reviews' summaries as the general comment, each
// with its author. A comment on a file the task's diff does not change is
// given with its place in the general comment. When the fix run finishes,
// Sync pushes its commits to the same pull request. Boof Runner's own
// comments are left out. Errors: *NotPushedError, *NoPullRequestError,
// *NoNewCommentsError, the forge's, and RequestChanges' (the task must be
// finished; nothing is recorded when anything is refused).
func (s *Service) RequestChanges(ctx context.Context, taskID string) (FixQueued, error) {
	rec, err := s.record(ctx, taskID)
	if err != nil {
		return FixQueued{}, err
	}
	if rec.Number == 0 || !rec.Open() {
		return FixQueued{}, &NoPullRequestError{TaskID: taskID}
	}
	p, err := project(rec, s.hosts())
	if err != nil {
		return FixQueued{}, err
	}
	f, err := s.client(ctx, p, false)
	if err != nil {
		return FixQueued{}, err
	}
	var cs []forge.Comment
	err = s.withTimeout(ctx, p.Host, func(ctx context.Context) error {
		cs, err = f.Comments(ctx, rec.Number)
		return err
	})
	if err != nil {
		return FixQueued{}, err
	}
	t, err := s.task(ctx, taskID)
	if err != nil {
		return FixQueued{}, err
	}
	changed, err := s.d.Review.ChangedFiles(ctx, t)
	if err != nil {
		return FixQueued{}, err
	}
	var req review.ChangeRequest
	var general []string
	var ids []int64
	for _, c := range cs {
		if slices.Contains(rec.Pulled, c.ID) || strings.Contains(c.Body, Marker) || strings.TrimSpace(c.Body) == "" {
			continue
		}
		ids = append(ids, c.ID)
		who := "@" + c.Author
		switch {
		case c.Path != "" && slices.Contains(changed, c.Path):
			req.Comments = append(req.Comments, review.Comment{File: c.Path, Line: max(c.Line, 0), Text: who + ": " + c.Body})
		case c.Path != "":
			general = append(general, fmt.Sprintf("%s on %s line %d: %s", who, c.Path, c.Line, c.Body))
		case c.ChangesRequested:
			general = append(general, who+" requested changes: "+c.Body)
		default:
			general = append(general, who+": "+c.Body)
		}
	}
	if len(ids) == 0 {
		return FixQueued{}, &NoNewCommentsError{Number: rec.Number}
	}
	if len(general) > 0 {
		req.General = fmt.Sprintf("From the review of pull request #%d (%s):\n\n%s", rec.Number, rec.URL, strings.Join(general, "\n\n"))
	}
	q, err := s.d.Review.RequestChanges(ctx, t, req, review.StoreRecorder{Store: s.d.Store})
	if err != nil {
		return FixQueued{}, err
	}
	rec.Pulled = append(rec.Pulled, ids...)
	if err := s.d.Store.SavePullRequest(ctx, rec); err != nil {
		return FixQueued{}, err
	}
	return FixQueued{Queued: q, Comments: len(ids)}, nil
}
