-- Where a task's next run begins (task.RunStart as JSON: a fix run from the
-- developer for a review, a resumed run, a restart from the developer), and
-- how many fix runs completed (iterations are completed_runs + fix_runs + 1).
ALTER TABLE tasks ADD COLUMN run_start TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tasks ADD COLUMN fix_runs INTEGER NOT NULL DEFAULT 0;

-- A decided outcome that counted a fix run instead of a planned run.
ALTER TABLE decided_outcomes ADD COLUMN count_fix INTEGER NOT NULL DEFAULT 0;

-- The user's requests for changes, each resolved against the task's diff
-- when it was made: the structured request (review.ChangeRequest as JSON),
-- the hunks to drop with their patches (task.HunkDrop as JSON), the
-- human_review section it rendered, and its ordinal on the task.
CREATE TABLE change_requests (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    task_id    TEXT    NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    section_id INTEGER NOT NULL,
    request    TEXT    NOT NULL DEFAULT '{}',
    drops      TEXT    NOT NULL DEFAULT '[]',
    source     TEXT    NOT NULL DEFAULT 'review',
    created_at INTEGER NOT NULL
);
CREATE INDEX change_requests_task ON change_requests (task_id, id);
