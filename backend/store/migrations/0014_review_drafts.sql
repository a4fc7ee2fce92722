-- The review a user has not sent yet on a task (review.Draft as JSON:
-- comments, drops, hunk choices, viewed marks), saved as the Review screen
-- changes it so that it survives a reload and a restart. Deleted when the
-- review is sent (a request for changes from the review) or the task is
-- accepted, and with the task.
CREATE TABLE review_drafts (
    task_id    TEXT    PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
    draft      TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
);
