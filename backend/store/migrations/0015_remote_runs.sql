-- Where a task's runs execute: '' follows settings.executor, 'local' or
-- 'kubernetes' is the task's own choice (add --executor, the New task form).
ALTER TABLE tasks ADD COLUMN executor TEXT NOT NULL DEFAULT '';

-- The run of an ongoing task in a cluster (backend/executor/kubernetes):
-- written before its Job is created, so that a restart finds the Job by
-- the task's label and follows or collects it instead of stopping the task.
-- last_seq is the last record of the pod's stream applied here (a stream
-- read again from its start skips up to it); exec_map maps the pod's
-- execution ids to this store's, refs the branches imported so far.
CREATE TABLE remote_runs (
    task_id    TEXT    PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
    iteration  INTEGER NOT NULL,
    job        TEXT    NOT NULL,
    namespace  TEXT    NOT NULL,
    context    TEXT    NOT NULL DEFAULT '',
    base_sha   TEXT    NOT NULL DEFAULT '',
    first_exec INTEGER NOT NULL DEFAULT 0,
    last_seq   INTEGER NOT NULL DEFAULT 0,
    exec_map   TEXT    NOT NULL DEFAULT '{}',
    refs       TEXT    NOT NULL DEFAULT '{}',
    stop_sent  INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
