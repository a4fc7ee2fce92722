-- A task keeps its own copy of the command template it names (a 'command'
-- section, written when the task is added). Tasks added before that named
-- the template only: give each one a copy of the template's current text,
-- if the template still exists.
INSERT INTO sections (task_id, kind, body, created_at)
SELECT t.id, 'command', c.text, t.created_at
  FROM tasks t JOIN commands c ON c.name = t.command
 WHERE t.command != ''
   AND NOT EXISTS (SELECT 1 FROM sections s WHERE s.task_id = t.id AND s.kind = 'command');

-- An imported task keeps the id it had where it came from (its file's id),
-- so the same file is not imported twice by mistake, and whatever that file
-- held that this version does not know (a JSON object; '' when nothing), so
-- an export gives it back.
ALTER TABLE tasks ADD COLUMN origin_id TEXT NOT NULL DEFAULT '';
ALTER TABLE tasks ADD COLUMN extra TEXT NOT NULL DEFAULT '';
CREATE INDEX tasks_origin ON tasks (origin_id) WHERE origin_id != '';
