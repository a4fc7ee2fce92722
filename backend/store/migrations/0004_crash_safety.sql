-- Start times (clock ticks since boot, from /proc/<pid>/stat) of an
-- execution's recorded pids, as a JSON object {"pid": start}: recovery
-- signals a recorded pid only while it still names the same process.
ALTER TABLE executions ADD COLUMN pid_starts TEXT NOT NULL DEFAULT '{}';

-- A run's decided outcome, written before the worktree clean-up and
-- deleted with the final status change in one transaction: a crash during
-- the clean-up leaves the row, and the next start finishes the clean-up and
-- moves the task to the decided status.
CREATE TABLE decided_outcomes (
    task_id    TEXT    PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
    status     TEXT    NOT NULL,
    note       TEXT    NOT NULL DEFAULT '{}',
    count_run  INTEGER NOT NULL DEFAULT 0,
    cleanup    TEXT    NOT NULL DEFAULT '',
    worktree   TEXT    NOT NULL DEFAULT 'null',
    created_at INTEGER NOT NULL
);
