package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// TaskEdit is the editable part of a task; UpdateTask replaces all of it.
type TaskEdit struct {
	Title    string     `json:"title"`
	Prompt   string     `json:"prompt"`
	Labels   []string   `json:"labels"`
	Priority int        `json:"priority"`
	Runs     int        `json:"runs"`
	Base     string     `json:"base"`
	Command  string     `json:"command"`
	Repo     string     `json:"repo"`
	Tools    task.Tools `json:"tools"`
}

// UpdateTask replaces the editable fields of a draft or pending task (an
// ongoing task's prompt is read-only) and keeps its prompt section in step.
// Naming another command template copies that template's text into the
// task; keeping the name keeps the task's copy, however the template
// changed since. It returns an error wrapping task.ErrInvalid for bad
// input, a *NotFoundError for a command template that does not exist, a *StatusError
// (errors.Is ErrWrongStatus) for a task in another status and ErrNotFound for
// a missing one; nothing changes on error.
func (s *Store) UpdateTask(ctx context.Context, id string, e TaskEdit) (task.Task, error) {
	n, err := task.NewTask{Title: e.Title, Prompt: e.Prompt, Labels: e.Labels, Priority: e.Priority, Runs: e.Runs,
		Base: e.Base, Command: e.Command, Repo: e.Repo, Tools: e.Tools}.Normalize()
	if err != nil {
		return task.Task{}, err
	}
	var out task.Task
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := requireStatus("edit", id, t.Status, task.StatusDraft, task.StatusPending); err != nil {
			return err
		}
		at := s.nowMs()
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET title = ?, prompt = ?, labels = ?, priority = ?, runs = ?,
			base = ?, command = ?, repo = ?, tools = ?, updated_at = ? WHERE id = ?`,
			n.Title, n.Prompt, mustJSON(n.Labels), n.Priority, n.Runs, n.Base, n.Command, n.Repo, mustJSON(n.Tools), at, id); err != nil {
			return fmt.Errorf("edit task %s: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sections SET body = ? WHERE id = (SELECT min(id) FROM sections WHERE task_id = ? AND kind = 'prompt')`, n.Prompt, id); err != nil {
			return fmt.Errorf("edit task %s: %w", id, err)
		}
		if n.Command != t.Command { // a new template is copied; the same name keeps the task's copy
			if err := copyCommandTx(ctx, tx, id, n.Command, at); err != nil {
				return err
			}
		}
		if err := appendEventTx(ctx, tx, id, at, task.Edited{}); err != nil {
			return err
		}
		// An edited task starts its run over: the steps done before are not its steps.
		if _, err := tx.ExecContext(ctx, `DELETE FROM task_resume WHERE task_id = ?`, id); err != nil {
			return fmt.Errorf("edit task %s: %w", id, err)
		}
		out, err = getTaskTx(ctx, tx, id)
		return err
	})
	return out, err
}

// DeleteTask deletes a task with its sections, log, events, executions and
// attachments. It never touches git branches or worktrees. It returns a
// *StatusError for an ongoing task and ErrNotFound for a missing one.
func (s *Store) DeleteTask(ctx context.Context, id string) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if t.Status == task.StatusOngoing {
			return &StatusError{Op: "delete", TaskID: id, Status: t.Status,
				Allowed: []task.Status{task.StatusDraft, task.StatusPending, task.StatusActions, task.StatusDone, task.StatusFailed,
					task.StatusStopped, task.StatusAccepted, task.StatusRejected, task.StatusArchived}}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM tasks WHERE id = ?`, id); err != nil {
			return fmt.Errorf("delete task %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if task.ValidID(id) { // ids are path-safe; never build a path from anything else
		if err := os.RemoveAll(filepath.Join(s.attachDir, id)); err != nil {
			return fmt.Errorf("delete attachments of %s: %w", id, err)
		}
	}
	return nil
}

// statusOp moves a task to `to` after checking it is in one of allowed.
func (s *Store) statusOp(ctx context.Context, op, id string, to task.Status, reason string, allowed ...task.Status) (task.Task, error) {
	var out task.Task
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if len(allowed) > 0 {
			if err := requireStatus(op, id, t.Status, allowed...); err != nil {
				return err
			}
		}
		if to == "" { // unarchive
			to = t.PrevStatus
			if t.Status != task.StatusArchived {
				return &StatusError{Op: op, TaskID: id, Status: t.Status, Allowed: []task.Status{task.StatusArchived}}
			}
		}
		if err := transitionTx(ctx, tx, t, to, TransitionNote{Reason: reason}, s.nowMs()); err != nil {
			return err
		}
		out, err = getTaskTx(ctx, tx, id)
		return err
	})
	return out, err
}

// Retry re-queues a failed or stopped task (keeping its worktree and branch):
// a stopped task resumes at the step that was cut short, a failed one
// restarts at the planner (RetryWith chooses otherwise). It returns a
// *StatusError for a task in another status and ErrNotFound for a missing
// one.
func (s *Store) Retry(ctx context.Context, id string) (task.Task, error) {
	return s.RetryWith(ctx, id, RetryOptions{})
}

// Archive puts a draft, done, failed, stopped, accepted or rejected task away,
// remembering its status for Unarchive. It returns a *task.TransitionError
// for any other status and ErrNotFound for a missing task.
func (s *Store) Archive(ctx context.Context, id string) (task.Task, error) {
	return s.statusOp(ctx, "archive", id, task.StatusArchived, "archive")
}

// Unarchive returns an archived task to the status it had before archiving.
// It returns a *StatusError for a task that is not archived and ErrNotFound
// for a missing one.
func (s *Store) Unarchive(ctx context.Context, id string) (task.Task, error) {
	return s.statusOp(ctx, "unarchive", id, "", "unarchive")
}

// MaxAnswers is the largest answers text accepted, in bytes.
const MaxAnswers = 1 << 20

// Answer stores the user's answers to a parked task's questions as an answers
// section, clears the open questions and re-queues the task (actions →
// pending), recording an answered event, all in one transaction. It returns an
// error wrapping task.ErrInvalid for empty answers, a *StatusError for a task
// not in actions and ErrNotFound for a missing one.
func (s *Store) Answer(ctx context.Context, id, answers string) (task.Task, error) {
	if strings.TrimSpace(answers) == "" {
		return task.Task{}, invalidf("the answer is empty")
	}
	if len(answers) > MaxAnswers {
		return task.Task{}, invalidf("the answer is longer than %d bytes", MaxAnswers)
	}
	if strings.IndexByte(answers, 0) >= 0 {
		return task.Task{}, invalidf("the answer contains a NUL byte")
	}
	var out task.Task
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := requireStatus("answer", id, t.Status, task.StatusActions); err != nil {
			return err
		}
		at := s.nowMs()
		if _, err := addSectionTx(ctx, tx, task.Section{TaskID: id, Kind: task.SectionAnswers, Body: answers}, at); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET questions = '[]' WHERE id = ?`, id); err != nil {
			return fmt.Errorf("answer %s: %w", id, err)
		}
		if err := transitionTx(ctx, tx, t, task.StatusPending, TransitionNote{Reason: "answered"}, at); err != nil {
			return err
		}
		if err := appendEventTx(ctx, tx, id, at, task.Answered{Bytes: len(answers)}); err != nil {
			return err
		}
		out, err = getTaskTx(ctx, tx, id)
		return err
	})
	return out, err
}

// SetQuestions records the planner's open questions on an ongoing task: the
// questions field, a questions section and a question_asked event. Moving the
// task to actions is a separate Transition. It returns an error wrapping
// task.ErrInvalid for no or empty questions, a *StatusError for a task that is
// not ongoing and ErrNotFound for a missing one.
func (s *Store) SetQuestions(ctx context.Context, id string, questions []string) error {
	var qs []string
	for _, q := range questions {
		if q = strings.TrimSpace(q); q != "" {
			qs = append(qs, q)
		}
	}
	if len(qs) == 0 {
		return invalidf("no questions")
	}
	var body strings.Builder
	for i, q := range qs {
		fmt.Fprintf(&body, "%d. %s\n", i+1, q)
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := requireStatus("ask questions on", id, t.Status, task.StatusOngoing); err != nil {
			return err
		}
		at := s.nowMs()
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET questions = ?, updated_at = ? WHERE id = ?`, mustJSON(qs), at, id); err != nil {
			return fmt.Errorf("set questions %s: %w", id, err)
		}
		if _, err := addSectionTx(ctx, tx, task.Section{TaskID: id, Kind: task.SectionQuestions, Role: task.RolePlanner, Body: body.String()}, at); err != nil {
			return err
		}
		return appendEventTx(ctx, tx, id, at, task.QuestionsAsked{Count: len(qs)})
	})
}

// IncrementCompletedRuns adds one to a task's completed runs and returns the
// new count, or an error wrapping ErrNotFound.
func (s *Store) IncrementCompletedRuns(ctx context.Context, id string) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `UPDATE tasks SET completed_runs = completed_runs + 1, updated_at = ? WHERE id = ? RETURNING completed_runs`,
		s.nowMs(), id).Scan(&n)
	if err == sql.ErrNoRows {
		return 0, notFound(WhatTask, id)
	}
	if err != nil {
		return 0, fmt.Errorf("increment completed runs %s: %w", id, err)
	}
	return n, nil
}

// RunOutcome is the git result of a run; empty fields leave values unchanged.
type RunOutcome struct {
	Branch       string `json:"branch"`
	BaseSHA      string `json:"base_sha"`
	HeadSHA      string `json:"head_sha"`
	WorktreePath string `json:"worktree_path"`
	Error        string `json:"error"`
}

// SetRunOutcome records a task's branch, base and head commits, worktree path
// and error message without changing its status. It returns an error wrapping
// ErrNotFound for a missing task.
func (s *Store) SetRunOutcome(ctx context.Context, id string, o RunOutcome) error {
	res, err := s.db.ExecContext(ctx, `UPDATE tasks SET
		branch = CASE WHEN ? != '' THEN ? ELSE branch END,
		base_sha = CASE WHEN ? != '' THEN ? ELSE base_sha END,
		head_sha = CASE WHEN ? != '' THEN ? ELSE head_sha END,
		worktree_path = CASE WHEN ? != '' THEN ? ELSE worktree_path END,
		error = CASE WHEN ? != '' THEN ? ELSE error END,
		updated_at = ? WHERE id = ?`,
		o.Branch, o.Branch, o.BaseSHA, o.BaseSHA, o.HeadSHA, o.HeadSHA, o.WorktreePath, o.WorktreePath, o.Error, o.Error, s.nowMs(), id)
	if err != nil {
		return fmt.Errorf("set run outcome %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return notFound(WhatTask, id)
	}
	return nil
}
