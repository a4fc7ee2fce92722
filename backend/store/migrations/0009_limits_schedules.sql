-- Usage limits, schedules and handoff (self-contained: renumber freely).

-- A task's earliest start (Unix ms, NULL: any time), what it does on a usage
-- limit ('' = settings, 'wait', 'switch') and the schedule that queued it.
ALTER TABLE tasks ADD COLUMN not_before INTEGER;
ALTER TABLE tasks ADD COLUMN on_limit TEXT NOT NULL DEFAULT '';
ALTER TABLE tasks ADD COLUMN schedule_id TEXT NOT NULL DEFAULT '';

-- The tool's native session id of a step attempt, for --resume.
ALTER TABLE executions ADD COLUMN session_id TEXT NOT NULL DEFAULT '';

-- Tools paused until their usage limit resets; a row whose until_at passed
-- is no pause (rows are replaced, never needed once passed).
CREATE TABLE tool_pauses (
    tool       TEXT    PRIMARY KEY,
    until_at   INTEGER NOT NULL,
    paused_at  INTEGER NOT NULL,
    reason     TEXT    NOT NULL DEFAULT '',
    message    TEXT    NOT NULL DEFAULT '',
    task_id    TEXT    NOT NULL DEFAULT '',
    warning    TEXT    NOT NULL DEFAULT ''
);

-- Where a task released mid-run goes on (the step a usage limit cut short).
CREATE TABLE task_resume (
    task_id       TEXT    PRIMARY KEY REFERENCES tasks(id) ON DELETE CASCADE,
    iteration     INTEGER NOT NULL,
    step          TEXT    NOT NULL,
    role          TEXT    NOT NULL,
    round         INTEGER NOT NULL DEFAULT 0,
    attempt       INTEGER NOT NULL DEFAULT 0,
    tool          TEXT    NOT NULL DEFAULT '',
    model         TEXT    NOT NULL DEFAULT '',
    session_id    TEXT    NOT NULL DEFAULT '',
    reason        TEXT    NOT NULL DEFAULT '',
    after_section INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL
);

-- Recurring tasks: a cron expression in a time zone and the task each fire
-- queues (template: a task.NewTask as JSON).
CREATE TABLE schedules (
    id           TEXT    PRIMARY KEY,
    name         TEXT    NOT NULL DEFAULT '',
    cron         TEXT    NOT NULL,
    tz           TEXT    NOT NULL DEFAULT 'UTC',
    template     TEXT    NOT NULL,
    paused       INTEGER NOT NULL DEFAULT 0,
    next_fire    INTEGER,
    last_fire    INTEGER,
    last_task_id TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE INDEX schedules_due ON schedules (next_fire) WHERE paused = 0;

-- Each schedule's log: fires, skips and catch-ups.
CREATE TABLE schedule_runs (
    id          INTEGER PRIMARY KEY,
    schedule_id TEXT    NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
    at          INTEGER NOT NULL,
    due         INTEGER NOT NULL,
    outcome     TEXT    NOT NULL,
    task_id     TEXT    NOT NULL DEFAULT '',
    note        TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX schedule_runs_schedule ON schedule_runs (schedule_id, id);

