package taskmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/task"
)

// setField decodes one frontmatter value into d.
func setField(d *Doc, key, val string) error {
	t := &d.Task
	var err error
	switch key {
	case "id":
		t.ID, err = str(val)
		if err == nil && t.ID != "" && !task.ValidID(t.ID) {
			err = fmt.Errorf("id %q is not a task id", clip(t.ID))
		}
	case "title":
		t.Title, err = str(val)
	case "status":
		var s string
		if s, err = str(val); err == nil {
			t.Status, err = task.ParseStatus(s)
		}
	case "prev_status":
		var s string
		if s, err = str(val); err == nil && s != "" {
			t.PrevStatus, err = task.ParseStatus(s)
		}
	case "priority":
		t.Priority, err = integer(val)
	case "skip":
		t.Skip, err = boolean(val)
	case "labels":
		err = strictJSON(val, &t.Labels)
	case "command":
		t.Command, err = str(val)
	case "runs":
		t.Runs, err = integer(val)
	case "completed_runs":
		t.CompletedRuns, err = integer(val)
	case "base":
		t.Base, err = str(val)
	case "repo":
		t.Repo, err = str(val)
	case "questions":
		err = strictJSON(val, &t.Questions)
	case "tools":
		err = strictJSON(val, &t.Tools)
	case "attachments":
		err = strictJSON(val, &d.Attachments)
	case "usage":
		err = strictJSON(val, &t.Usage)
	case "branch":
		t.Branch, err = str(val)
	case "base_sha":
		t.BaseSHA, err = str(val)
	case "head_sha":
		t.HeadSHA, err = str(val)
	case "worktree_path":
		t.WorktreePath, err = str(val)
	case "error":
		t.Error, err = str(val)
	case "created_at":
		t.CreatedAt, err = timestamp(val)
	case "updated_at":
		t.UpdatedAt, err = timestamp(val)
	case "started_at":
		t.StartedAt, err = optTimestamp(val)
	case "finished_at":
		t.FinishedAt, err = optTimestamp(val)
	default:
		return fmt.Errorf("unknown field %q", clip(key))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}

// str accepts a JSON string or a bare word (no YAML indicator characters).
func str(val string) (string, error) {
	if strings.HasPrefix(val, `"`) {
		var s string
		if err := strictJSON(val, &s); err != nil {
			return "", err
		}
		return s, nil
	}
	if val != "" && strings.ContainsAny(val[:1], `'[{&*!|>%@#`+"`") {
		return "", fmt.Errorf("value %q must be a double-quoted string", clip(val))
	}
	if !utf8.ValidString(val) {
		// Write would turn the bytes into U+FFFD: refuse rather than rewrite.
		return "", fmt.Errorf("value %q is not valid UTF-8 text", clip(val))
	}
	return val, nil
}

func integer(val string) (int, error) {
	n, err := strconv.Atoi(val)
	if err != nil {
		return 0, fmt.Errorf("%q is not an integer", clip(val))
	}
	return n, nil
}

func boolean(val string) (bool, error) {
	switch val {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%q is not true or false", clip(val))
}

func timestamp(val string) (time.Time, error) {
	if val == "" || val == "null" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, val)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not an RFC 3339 time", clip(val))
	}
	return t.UTC(), nil
}

func optTimestamp(val string) (*time.Time, error) {
	t, err := timestamp(val)
	if err != nil || t.IsZero() {
		return nil, err
	}
	return &t, nil
}

// strictJSON decodes one JSON value, refusing unknown object fields and
// trailing data.
func strictJSON(val string, v any) error {
	dec := json.NewDecoder(bytes.NewReader([]byte(val)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("bad JSON value: %v", err)
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// validate applies the task rules to a parsed document.
func validate(d Doc) error {
	t := d.Task
	n := task.NewTask{Title: t.Title, Prompt: t.Prompt, Priority: t.Priority, Base: t.Base, Labels: t.Labels,
		Runs: t.Runs, Repo: t.Repo, Command: t.Command, Tools: t.Tools}
	if _, err := n.Normalize(); err != nil {
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if t.CompletedRuns < 0 || t.CompletedRuns > task.MaxRuns {
		return fmt.Errorf("%w: completed_runs %d out of range", ErrFormat, t.CompletedRuns)
	}
	if t.Status == task.StatusArchived {
		if err := task.CheckUnarchive(t.Status, t.PrevStatus); err != nil {
			return fmt.Errorf("%w: archived task needs prev_status it can return to: %w", ErrFormat, err)
		}
	} else if t.PrevStatus != "" {
		return fmt.Errorf("%w: prev_status is only allowed on an archived task", ErrFormat)
	}
	u := t.Usage
	if u.TokensIn < 0 || u.TokensOut < 0 || u.CacheRead < 0 || u.CacheWrite < 0 || u.CostUSD < 0 {
		return fmt.Errorf("%w: usage must not be negative", ErrFormat)
	}
	for _, s := range d.Sections {
		if err := s.Validate(); err != nil {
			return fmt.Errorf("%w: section %s: %w", ErrFormat, s.Kind, err)
		}
	}
	for _, q := range t.Questions {
		if strings.TrimSpace(q) == "" {
			return fmt.Errorf("%w: empty question", ErrFormat)
		}
	}
	return nil
}
