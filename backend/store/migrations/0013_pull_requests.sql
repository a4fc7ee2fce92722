-- A task's branch pushed to a remote and its pull request (a merge request
-- on GitLab), one per task: where it was pushed (remote, branch) and the
-- commit the remote reported after the last push (the lease of the next),
-- then what the forge last said of the pull request. number 0: pushed, no
-- pull request yet. pulled lists the review comments already pulled into a
-- fix run (ids, JSON). Self-contained: renumber freely.
CREATE TABLE pull_requests (
    task_id      TEXT    PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
    forge        TEXT    NOT NULL DEFAULT '',
    host         TEXT    NOT NULL DEFAULT '',
    project      TEXT    NOT NULL DEFAULT '',
    remote       TEXT    NOT NULL,
    head_branch  TEXT    NOT NULL,
    base_branch  TEXT    NOT NULL DEFAULT '',
    pushed_sha   TEXT    NOT NULL DEFAULT '',
    number       INTEGER NOT NULL DEFAULT 0,
    url          TEXT    NOT NULL DEFAULT '',
    state        TEXT    NOT NULL DEFAULT '',
    review       TEXT    NOT NULL DEFAULT '',
    checks       TEXT    NOT NULL DEFAULT '[]',
    merge_sha    TEXT    NOT NULL DEFAULT '',
    etag         TEXT    NOT NULL DEFAULT '',
    pulled       TEXT    NOT NULL DEFAULT '[]',
    problem      TEXT    NOT NULL DEFAULT '',
    synced_at    INTEGER NOT NULL DEFAULT 0,
    next_sync_at INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE INDEX pull_requests_state ON pull_requests (state);

-- The issue a task was made from (add --from-issue).
CREATE TABLE task_issues (
    task_id    TEXT    PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
    forge      TEXT    NOT NULL,
    host       TEXT    NOT NULL,
    project    TEXT    NOT NULL,
    number     INTEGER NOT NULL,
    url        TEXT    NOT NULL,
    title      TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
