-- Spend: one row per increase of a step's usage (a usage event of a running
-- step, or the step's end), written in the transaction that records the
-- usage on the execution and on the task. Budgets sum it per task, per tool
-- and per day or month. A row outlives its task (deleting a task does not
-- give today's budget back), so task_id is not a foreign key. Tokens are
-- input + output + cache writes; cost_usd is the tool's figure or, with
-- estimated = 1, the tool's list price (a correction of an estimate by the
-- tool's own figure may be negative).
CREATE TABLE IF NOT EXISTS spend (
    id        INTEGER PRIMARY KEY,
    task_id   TEXT    NOT NULL,
    exec_id   INTEGER NOT NULL,
    tool      TEXT    NOT NULL,
    at        INTEGER NOT NULL,
    tokens    INTEGER NOT NULL,
    cost_usd  REAL    NOT NULL,
    estimated INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS spend_at ON spend (at);
CREATE INDEX IF NOT EXISTS spend_task ON spend (task_id, tool);
