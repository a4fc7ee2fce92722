package app

import (
	"github.com/boof-runner/boof-runner/backend/review"
)

// Draft returns the task's unsent review (an empty one when it has none):
// comments, drops, hunk choices and viewed marks, checked against the
// task's diff now (a file that changed since it was viewed is unviewed and
// listed in unviewed; moved says the task branch moved since). The
// Review screen calls it when it opens a task, after a reload or a
// restart.
func (r *ReviewService) Draft(taskID string) (review.Draft, error) {
	ctx := r.ctx()
	t, err := r.store.GetTask(ctx, taskID)
	if err != nil {
		return review.Draft{}, userError(err)
	}
	d, err := r.rev.LoadDraft(ctx, r.store, t)
	return d, userError(err)
}

// SaveDraft stores the task's unsent review as the screen holds it now,
// replacing the one before (the screen saves it as it changes). It is
// deleted when the review is sent (RequestChanges) or the task is
// accepted (whole or hunks, from here, the CLI or the merge queue).
// Errors: the task is unknown, the draft breaks a limit (nothing saved).
func (r *ReviewService) SaveDraft(taskID string, d review.Draft) (review.Draft, error) {
	saved, err := review.SaveDraft(r.ctx(), r.store, taskID, d)
	return saved, userError(err)
}

// ClearDraft deletes the task's unsent review (the screen's Discard).
func (r *ReviewService) ClearDraft(taskID string) error {
	return userError(r.store.ClearReviewDraft(r.ctx(), taskID))
}
