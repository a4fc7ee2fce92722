-- One-time passes over data written by an older version, done once per
-- database: name is the pass, done_at when it finished (unix ms).
CREATE TABLE IF NOT EXISTS upgrades (
    name    TEXT PRIMARY KEY,
    done_at INTEGER NOT NULL
);
