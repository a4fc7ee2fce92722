-- Tasks: one row per task. Timestamps are Unix milliseconds (UTC).
CREATE TABLE tasks (
    id             TEXT PRIMARY KEY,
    title          TEXT    NOT NULL DEFAULT '',
    prompt         TEXT    NOT NULL,
    status         TEXT    NOT NULL,
    prev_status    TEXT    NOT NULL DEFAULT '',
    priority       INTEGER NOT NULL DEFAULT 0,
    skip           INTEGER NOT NULL DEFAULT 0,
    labels         TEXT    NOT NULL DEFAULT '[]',
    command        TEXT    NOT NULL DEFAULT '',
    runs           INTEGER NOT NULL DEFAULT 1,
    completed_runs INTEGER NOT NULL DEFAULT 0,
    base           TEXT    NOT NULL DEFAULT '',
    repo           TEXT    NOT NULL DEFAULT '',
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    started_at     INTEGER,
    finished_at    INTEGER,
    branch         TEXT    NOT NULL DEFAULT '',
    error          TEXT    NOT NULL DEFAULT ''
);

CREATE INDEX tasks_queue ON tasks (status, skip, priority DESC, created_at);
CREATE INDEX tasks_activity ON tasks (updated_at DESC);
