-- A task keeps its own copy of the command template it names (a 'command'
-- section, written when the task is added). Tasks added before that named
-- the template only: give each one a copy of the template's current text,
-- if the template still exists.
INSERT INTO sections (task_id, kind, body, created_at)
SELECT t.id, 'command', c.text, t.created_at
  FROM tasks t JOIN commands c ON c.name = t.command
 WHERE t.command != ''
   AND NOT EXISTS (SELECT 1 FROM sections s WHERE s.task_id = t.id AND s.kind = 'command');
