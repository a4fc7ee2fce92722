-- The role and tool of a task's next step, kept by triggers wherever they
-- change (self-contained: renumber freely), so the claim filter skips the
-- tasks whose next step needs a paused tool by index instead of reading
-- each one's tools JSON and resume point.
--
-- next_role: the role of the resume point, else 'planner'.
-- next_tool: the task's own tool for that role, '' when settings decide.
ALTER TABLE tasks ADD COLUMN next_role TEXT NOT NULL DEFAULT 'planner';
ALTER TABLE tasks ADD COLUMN next_tool TEXT NOT NULL DEFAULT '';

UPDATE tasks SET
    next_role = COALESCE((SELECT role FROM task_resume WHERE task_id = tasks.id), 'planner'),
    next_tool = CASE WHEN tools = '{}' THEN '' ELSE IFNULL(json_extract(tools, '$.' ||
        COALESCE((SELECT role FROM task_resume WHERE task_id = tasks.id), 'planner') || '.tool'), '') END;

CREATE INDEX tasks_next_tool ON tasks (status, next_tool, priority DESC, position, created_at, id);
CREATE INDEX tasks_next_role ON tasks (status, next_tool, next_role, priority DESC, position, created_at, id);
-- The tasks that switch tools on a usage limit, picked while their tool is paused.
CREATE INDEX tasks_next_tool_switch ON tasks (status, next_tool, on_limit, priority DESC, position, created_at, id);
CREATE INDEX tasks_next_role_switch ON tasks (status, next_tool, next_role, on_limit, priority DESC, position, created_at, id);

CREATE TRIGGER tasks_next_step_insert AFTER INSERT ON tasks BEGIN
    UPDATE tasks SET
        next_role = COALESCE((SELECT role FROM task_resume WHERE task_id = NEW.id), 'planner'),
        next_tool = CASE WHEN NEW.tools = '{}' THEN '' ELSE IFNULL(json_extract(NEW.tools, '$.' ||
            COALESCE((SELECT role FROM task_resume WHERE task_id = NEW.id), 'planner') || '.tool'), '') END
    WHERE id = NEW.id;
END;

CREATE TRIGGER tasks_next_step_tools AFTER UPDATE OF tools ON tasks BEGIN
    UPDATE tasks SET
        next_tool = CASE WHEN NEW.tools = '{}' THEN '' ELSE IFNULL(json_extract(NEW.tools, '$.' || next_role || '.tool'), '') END
    WHERE id = NEW.id;
END;

CREATE TRIGGER task_resume_next_step_insert AFTER INSERT ON task_resume BEGIN
    UPDATE tasks SET
        next_role = NEW.role,
        next_tool = CASE WHEN tools = '{}' THEN '' ELSE IFNULL(json_extract(tools, '$.' || NEW.role || '.tool'), '') END
    WHERE id = NEW.task_id;
END;

CREATE TRIGGER task_resume_next_step_update AFTER UPDATE OF role ON task_resume BEGIN
    UPDATE tasks SET
        next_role = NEW.role,
        next_tool = CASE WHEN tools = '{}' THEN '' ELSE IFNULL(json_extract(tools, '$.' || NEW.role || '.tool'), '') END
    WHERE id = NEW.task_id;
END;

CREATE TRIGGER task_resume_next_step_delete AFTER DELETE ON task_resume BEGIN
    UPDATE tasks SET
        next_role = 'planner',
        next_tool = CASE WHEN tools = '{}' THEN '' ELSE IFNULL(json_extract(tools, '$.planner.tool'), '') END
    WHERE id = OLD.task_id;
END;
