-- The worktree clean-up of a finished run that could not be completed (its
-- leftovers could not be saved or its directory not removed: a full disk).
-- It is written with the task's final status, in the same transaction; the
-- runner tries the clean-up again at its next start and after each task it
-- finishes, and deletes the row once the clean-up is done or when a new run
-- of the task takes the worktree over (its claim).
CREATE TABLE cleanups_left (
    task_id    TEXT    PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
    cleanup    TEXT    NOT NULL,
    worktree   TEXT    NOT NULL,
    reason     TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
