package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// WhatPullRequest names a task's pull request in a *NotFoundError.
const WhatPullRequest = "pull request"

// PullRequest is a task's branch pushed to a remote and its pull request
// (a merge request on GitLab), as last recorded.
type PullRequest struct {
	TaskID string `json:"task_id"`
	// Forge is "github" or "gitlab" ("" for a remote on no known forge,
	// which takes pushes but no pull request); Host and Project locate it.
	Forge   string `json:"forge"`
	Host    string `json:"host"`
	Project string `json:"project"`
	// Remote is the remote pushed to (a name, or a URL without
	// credentials); Head the branch there; Base the branch it merges into.
	Remote string `json:"remote"`
	Head   string `json:"head"`
	Base   string `json:"base"`
	// PushedSHA is what the remote reported Head at after the last push:
	// the lease of the next one.
	PushedSHA string `json:"pushed_sha"`
	// Number is 0 until a pull request is opened.
	Number int    `json:"number"`
	URL    string `json:"url"`
	// State is "open", "draft", "merged", "closed" or "gone" (deleted on
	// the forge); "" before a pull request.
	State    string    `json:"state"`
	Review   string    `json:"review"`
	Checks   []PRCheck `json:"checks"`
	MergeSHA string    `json:"merge_sha,omitempty"`
	ETag     string    `json:"-"`
	// Pulled are the ids of the review comments already pulled into a fix run.
	Pulled []int64 `json:"-"`
	// Problem is the last sync's failure, "" when it went well.
	Problem    string    `json:"problem,omitempty"`
	SyncedAt   time.Time `json:"synced_at"`
	NextSyncAt time.Time `json:"next_sync_at"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// Open reports whether the pull request is open or a draft.
func (p PullRequest) Open() bool { return p.Number > 0 && (p.State == "open" || p.State == "draft") }

// PRCheck is one CI check of the pull request's head.
type PRCheck struct {
	Name  string `json:"name"`
	State string `json:"state"`
	URL   string `json:"url,omitempty"`
}

const prColumns = `task_id, forge, host, project, remote, head_branch, base_branch, pushed_sha, number, url, state, review,
	checks, merge_sha, etag, pulled, problem, synced_at, next_sync_at, created_at, updated_at`

func scanPR(row interface{ Scan(...any) error }) (PullRequest, error) {
	var p PullRequest
	var checks, pulled string
	var synced, next, created, updated int64
	err := row.Scan(&p.TaskID, &p.Forge, &p.Host, &p.Project, &p.Remote, &p.Head, &p.Base, &p.PushedSHA, &p.Number, &p.URL,
		&p.State, &p.Review, &checks, &p.MergeSHA, &p.ETag, &pulled, &p.Problem, &synced, &next, &created, &updated)
	if err != nil {
		return p, err
	}
	_ = json.Unmarshal([]byte(checks), &p.Checks)
	_ = json.Unmarshal([]byte(pulled), &p.Pulled)
	if p.Checks == nil {
		p.Checks = []PRCheck{}
	}
	p.SyncedAt, p.NextSyncAt = msTime(synced), msTime(next)
	p.CreatedAt, p.UpdatedAt = msTime(created), msTime(updated)
	return p, nil
}

func msTime(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

func msOf(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// PullRequest returns the task's pull request record, or an error wrapping
// ErrNotFound when its branch was never pushed.
func (s *Store) PullRequest(ctx context.Context, taskID string) (PullRequest, error) {
	p, err := scanPR(s.db.QueryRowContext(ctx, `SELECT `+prColumns+` FROM pull_requests WHERE task_id = ?`, taskID))
	if errors.Is(err, sql.ErrNoRows) {
		return p, notFound(WhatPullRequest, taskID)
	}
	if err != nil {
		return p, fmt.Errorf("read the pull request of %s: %w", taskID, err)
	}
	return p, nil
}

// SavePullRequest writes the record (insert or replace; the task must
// exist: an error wrapping ErrNotFound otherwise).
func (s *Store) SavePullRequest(ctx context.Context, p PullRequest) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := getTaskTx(ctx, tx, p.TaskID); err != nil {
			return err
		}
		return savePRTx(ctx, tx, p, s.nowMs())
	})
}

func savePRTx(ctx context.Context, tx *sql.Tx, p PullRequest, now int64) error {
	if p.Checks == nil {
		p.Checks = []PRCheck{}
	}
	if p.Pulled == nil {
		p.Pulled = []int64{}
	}
	checks, _ := json.Marshal(p.Checks)
	pulled, _ := json.Marshal(p.Pulled)
	created := msOf(p.CreatedAt)
	if created == 0 {
		created = now
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO pull_requests (`+prColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(task_id) DO UPDATE SET forge = excluded.forge, host = excluded.host, project = excluded.project,
		remote = excluded.remote, head_branch = excluded.head_branch, base_branch = excluded.base_branch,
		pushed_sha = excluded.pushed_sha, number = excluded.number, url = excluded.url, state = excluded.state,
		review = excluded.review, checks = excluded.checks, merge_sha = excluded.merge_sha, etag = excluded.etag,
		pulled = excluded.pulled, problem = excluded.problem, synced_at = excluded.synced_at,
		next_sync_at = excluded.next_sync_at, updated_at = excluded.updated_at`,
		p.TaskID, p.Forge, p.Host, p.Project, p.Remote, p.Head, p.Base, p.PushedSHA, p.Number, p.URL, p.State, p.Review,
		string(checks), p.MergeSHA, p.ETag, string(pulled), p.Problem, msOf(p.SyncedAt), msOf(p.NextSyncAt), created, now)
	if err != nil {
		return fmt.Errorf("save the pull request of %s: %w", p.TaskID, err)
	}
	return nil
}

// MergedPR records the pull request merged (p holds what the forge said)
// and, in the same transaction, moves a done task to accepted through the
// state machine, with the merge commit as its reason. A task in another
// status keeps it (the merge is recorded all the same); accepted reports
// whether it moved.
func (s *Store) MergedPR(ctx context.Context, p PullRequest) (accepted bool, err error) {
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		t, err := getTaskTx(ctx, tx, p.TaskID)
		if err != nil {
			return err
		}
		p.State = "merged"
		now := s.nowMs()
		if err := savePRTx(ctx, tx, p, now); err != nil {
			return err
		}
		if t.Status != task.StatusDone {
			return nil
		}
		note := TransitionNote{Reason: "pull request merged (merge commit " + p.MergeSHA + ")"}
		if err := transitionTx(ctx, tx, t, task.StatusAccepted, note, now); err != nil {
			return err
		}
		accepted = true
		return nil
	})
	return accepted, err
}

// OpenPullRequests returns the records of open and draft pull requests,
// the least recently synced first.
func (s *Store) OpenPullRequests(ctx context.Context) ([]PullRequest, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+prColumns+` FROM pull_requests WHERE number > 0 AND state IN ('open', 'draft') ORDER BY synced_at, task_id`)
	if err != nil {
		return nil, fmt.Errorf("open pull requests: %w", err)
	}
	defer rows.Close()
	out := []PullRequest{}
	for rows.Next() {
		p, err := scanPR(rows)
		if err != nil {
			return nil, fmt.Errorf("open pull requests: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// IssueLink is the issue a task was made from.
type IssueLink struct {
	TaskID  string    `json:"task_id"`
	Forge   string    `json:"forge"`
	Host    string    `json:"host"`
	Project string    `json:"project"`
	Number  int       `json:"number"`
	URL     string    `json:"url"`
	Title   string    `json:"title"`
	At      time.Time `json:"at"`
}

// CreateTaskFromIssue creates a task and links it to its issue in one
// transaction (CreateTask's checks and errors).
func (s *Store) CreateTaskFromIssue(ctx context.Context, n task.NewTask, l IssueLink) (task.Task, error) {
	t, err := s.CreateTask(ctx, n)
	if err != nil {
		return t, err
	}
	l.TaskID = t.ID
	if _, err := s.db.ExecContext(ctx, `INSERT INTO task_issues (task_id, forge, host, project, number, url, title, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, l.TaskID, l.Forge, l.Host, l.Project, l.Number, l.URL, l.Title, s.nowMs()); err != nil {
		derr := s.DeleteTask(ctx, t.ID)
		return task.Task{}, errors.Join(fmt.Errorf("link %s to its issue: %w", t.ID, err), derr)
	}
	return t, nil
}

// Issue returns the issue the task was made from, and false for none.
func (s *Store) Issue(ctx context.Context, taskID string) (IssueLink, bool, error) {
	var l IssueLink
	var at int64
	err := s.db.QueryRowContext(ctx, `SELECT task_id, forge, host, project, number, url, title, created_at FROM task_issues WHERE task_id = ?`, taskID).
		Scan(&l.TaskID, &l.Forge, &l.Host, &l.Project, &l.Number, &l.URL, &l.Title, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return l, false, nil
	}
	if err != nil {
		return l, false, fmt.Errorf("read the issue of %s: %w", taskID, err)
	}
	l.At = msTime(at)
	return l, true, nil
}
