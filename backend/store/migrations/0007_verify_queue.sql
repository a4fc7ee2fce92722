-- The verification gate: a repository's verify command, keyed by the
-- repository's top-level path (boof-runner verify set --repo PATH CMD), and
-- a task's own choice (add --verify CMD / --no-verify).
CREATE TABLE IF NOT EXISTS repo_verify (
    path       TEXT    PRIMARY KEY,
    command    TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS task_verify (
    task_id TEXT    PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
    command TEXT    NOT NULL DEFAULT '',
    skip    INTEGER NOT NULL DEFAULT 0
);

-- The merge queue: finished tasks waiting to land on a target branch, one
-- at a time, in position order, each verified on the target's tip first.
-- A task has at most one active entry (queued, landing, blocked, returned).
CREATE TABLE IF NOT EXISTS merge_queue (
    id               INTEGER PRIMARY KEY,
    task_id          TEXT    NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    repo             TEXT    NOT NULL,
    target           TEXT    NOT NULL,
    strategy         TEXT    NOT NULL,
    position         INTEGER NOT NULL,
    state            TEXT    NOT NULL,
    reason           TEXT    NOT NULL DEFAULT '',
    files            TEXT    NOT NULL DEFAULT '[]',
    output           TEXT    NOT NULL DEFAULT '',
    base_sha         TEXT    NOT NULL DEFAULT '',
    task_head        TEXT    NOT NULL DEFAULT '',
    built            TEXT    NOT NULL DEFAULT '',
    verified         INTEGER NOT NULL DEFAULT 0,
    landed           TEXT    NOT NULL DEFAULT '',
    attempts         INTEGER NOT NULL DEFAULT 0,
    remove_requested INTEGER NOT NULL DEFAULT 0,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS merge_queue_active ON merge_queue (task_id)
    WHERE state IN ('queued', 'landing', 'blocked', 'returned');
CREATE INDEX IF NOT EXISTS merge_queue_order ON merge_queue (position, id);
