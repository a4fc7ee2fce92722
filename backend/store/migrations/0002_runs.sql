-- Executions: one row per role step attempt. ended_at IS NULL means open
-- (running, or left open by a crash for recovery to close).
CREATE TABLE executions (
    id              INTEGER PRIMARY KEY,
    task_id         TEXT    NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    iteration       INTEGER NOT NULL DEFAULT 1,
    role            TEXT    NOT NULL,
    round           INTEGER NOT NULL DEFAULT 0,
    attempt         INTEGER NOT NULL DEFAULT 1,
    tool            TEXT    NOT NULL DEFAULT '',
    model           TEXT    NOT NULL DEFAULT '',
    transcript_path TEXT    NOT NULL DEFAULT '',
    pid             INTEGER NOT NULL DEFAULT 0,
    pgid            INTEGER NOT NULL DEFAULT 0,
    pids            TEXT    NOT NULL DEFAULT '[]',
    started_at      INTEGER NOT NULL,
    ended_at        INTEGER,
    outcome         TEXT    NOT NULL DEFAULT '',
    exit_code       INTEGER,
    tokens_in       INTEGER NOT NULL DEFAULT 0,
    tokens_out      INTEGER NOT NULL DEFAULT 0,
    cache_read      INTEGER NOT NULL DEFAULT 0,
    cache_write     INTEGER NOT NULL DEFAULT 0,
    cost_usd        REAL    NOT NULL DEFAULT 0,
    cost_estimated  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX executions_task ON executions (task_id, id);
CREATE INDEX executions_open ON executions (id) WHERE ended_at IS NULL;
CREATE INDEX executions_ended ON executions (ended_at) WHERE ended_at IS NOT NULL;

-- Body sections: typed rows.
CREATE TABLE sections (
    id         INTEGER PRIMARY KEY,
    task_id    TEXT    NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    role       TEXT    NOT NULL DEFAULT '',
    iteration  INTEGER NOT NULL DEFAULT 0,
    round      INTEGER NOT NULL DEFAULT 0,
    verdict    TEXT    NOT NULL DEFAULT '',
    step       TEXT    NOT NULL DEFAULT '',
    body       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX sections_task ON sections (task_id, id);

-- Execution log: structured lines.
CREATE TABLE log_lines (
    id      INTEGER PRIMARY KEY,
    task_id TEXT    NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    exec_id INTEGER,
    at      INTEGER NOT NULL,
    level   TEXT    NOT NULL,
    text    TEXT    NOT NULL
);
CREATE INDEX log_lines_task ON log_lines (task_id, id);

-- Events: append-only structured history with a JSON payload.
CREATE TABLE events (
    id      INTEGER PRIMARY KEY,
    task_id TEXT    NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    at      INTEGER NOT NULL,
    kind    TEXT    NOT NULL,
    payload TEXT    NOT NULL DEFAULT 'null'
);
CREATE INDEX events_task ON events (task_id, at, id);

-- Controls: durable stop requests and injected prompts, sent by any process
-- and seen by the runner. consumed_at is set when acted upon.
CREATE TABLE controls (
    id          INTEGER PRIMARY KEY,
    task_id     TEXT    NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('stop', 'inject')),
    text        TEXT    NOT NULL DEFAULT '',
    step        TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    consumed_at INTEGER
);
CREATE INDEX controls_open ON controls (task_id, kind, id) WHERE consumed_at IS NULL;

-- Command templates.
CREATE TABLE commands (
    name       TEXT PRIMARY KEY,
    text       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Attachments: the file lives at <attachments dir>/<task_id>/<name>.
CREATE TABLE attachments (
    task_id  TEXT    NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    name     TEXT    NOT NULL,
    size     INTEGER NOT NULL,
    sha256   TEXT    NOT NULL,
    added_at INTEGER NOT NULL,
    PRIMARY KEY (task_id, name)
);
