-- Tasks: one row per task. Timestamps are Unix milliseconds (UTC).
CREATE TABLE tasks (
    id             TEXT PRIMARY KEY,
    title          TEXT    NOT NULL DEFAULT '',
    prompt         TEXT    NOT NULL,
    status         TEXT    NOT NULL,
    prev_status    TEXT    NOT NULL DEFAULT '',
    priority       INTEGER NOT NULL DEFAULT 0,
    position       INTEGER NOT NULL DEFAULT 0,
    skip           INTEGER NOT NULL DEFAULT 0,
    labels         TEXT    NOT NULL DEFAULT '[]',
    command        TEXT    NOT NULL DEFAULT '',
    runs           INTEGER NOT NULL DEFAULT 1,
    completed_runs INTEGER NOT NULL DEFAULT 0,
    base           TEXT    NOT NULL DEFAULT '',
    repo           TEXT    NOT NULL DEFAULT '',
    questions      TEXT    NOT NULL DEFAULT '[]',
    tools          TEXT    NOT NULL DEFAULT '{}',
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    started_at     INTEGER,
    finished_at    INTEGER,
    branch         TEXT    NOT NULL DEFAULT '',
    base_sha       TEXT    NOT NULL DEFAULT '',
    head_sha       TEXT    NOT NULL DEFAULT '',
    worktree_path  TEXT    NOT NULL DEFAULT '',
    error          TEXT    NOT NULL DEFAULT '',
    -- usage totals over the task's executions, kept in step by FinishExecution
    tokens_in      INTEGER NOT NULL DEFAULT 0,
    tokens_out     INTEGER NOT NULL DEFAULT 0,
    cache_read     INTEGER NOT NULL DEFAULT 0,
    cache_write    INTEGER NOT NULL DEFAULT 0,
    cost_usd       REAL    NOT NULL DEFAULT 0
);

CREATE INDEX tasks_queue ON tasks (status, skip, priority DESC, position, created_at, id);
CREATE INDEX tasks_activity ON tasks (updated_at DESC, id DESC);
CREATE INDEX tasks_status_activity ON tasks (status, updated_at DESC, id DESC);
