package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Command is a named prompt template whose text is injected into the prompt
// of tasks that name it.
type Command struct {
	Name      string    `json:"name"`
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// MaxCommandText is the largest command template accepted, in bytes.
const MaxCommandText = 1 << 20

// CommandExistsError refuses to create a command template under a name
// another template has.
type CommandExistsError struct {
	Name string
}

// Error names the template.
func (e *CommandExistsError) Error() string { return fmt.Sprintf("command %q already exists", e.Name) }

// Unwrap lets errors.Is match ErrExists.
func (e *CommandExistsError) Unwrap() error { return ErrExists }

// CheckCommandName refuses a name that cannot name a command template (see
// task.ValidCommandName) with an error wrapping task.ErrInvalid.
func CheckCommandName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return invalidf("the command needs a name")
	case !task.ValidCommandName(name):
		return invalidf("command name %q must be 1-64 letters, digits, '-', '_' or '.'", name)
	}
	return nil
}

// checkCommandText refuses empty, oversized, non-UTF-8 text and text with
// a NUL byte (as prompts do).
func checkCommandText(text string) error {
	switch {
	case strings.TrimSpace(text) == "":
		return invalidf("the command text is empty")
	case len(text) > MaxCommandText:
		return invalidf("the command text is longer than %d bytes", MaxCommandText)
	case !utf8.ValidString(text):
		return invalidf("the command text is not valid UTF-8")
	case strings.IndexByte(text, 0) >= 0:
		return invalidf("the command text contains a NUL byte")
	}
	return nil
}

// SaveCommand creates or replaces the command template name. It returns an
// error wrapping task.ErrInvalid for a bad name (CheckCommandName) or
// empty, oversized, non-UTF-8 text or text holding a NUL byte.
func (s *Store) SaveCommand(ctx context.Context, name, text string) (Command, error) {
	return s.saveCommand(ctx, name, text, true)
}

// CreateCommand is SaveCommand for a name no template has: it returns a
// *CommandExistsError, changing nothing, when one has it.
func (s *Store) CreateCommand(ctx context.Context, name, text string) (Command, error) {
	return s.saveCommand(ctx, name, text, false)
}

func (s *Store) saveCommand(ctx context.Context, name, text string, replace bool) (Command, error) {
	if err := CheckCommandName(name); err != nil {
		return Command{}, err
	}
	if err := checkCommandText(text); err != nil {
		return Command{}, err
	}
	at := s.nowMs()
	q := `INSERT INTO commands (name, text, created_at, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`
	if !replace {
		q = `INSERT INTO commands (name, text, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`
	}
	res, err := s.db.ExecContext(ctx, q, name, text, at, at)
	if err != nil {
		return Command{}, fmt.Errorf("save command %s: %w", name, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 && !replace {
		return Command{}, &CommandExistsError{Name: name}
	}
	return s.GetCommand(ctx, name)
}

// GetCommand returns the command template name, or an error wrapping ErrNotFound.
func (s *Store) GetCommand(ctx context.Context, name string) (Command, error) {
	var c Command
	var created, updated int64
	err := s.db.QueryRowContext(ctx, `SELECT name, text, created_at, updated_at FROM commands WHERE name = ?`, name).
		Scan(&c.Name, &c.Text, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return Command{}, notFound(WhatCommand, name)
	}
	if err != nil {
		return Command{}, fmt.Errorf("get command %s: %w", name, err)
	}
	c.CreatedAt, c.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	return c, nil
}

// ListCommands returns every command template by name.
func (s *Store) ListCommands(ctx context.Context) ([]Command, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, text, created_at, updated_at FROM commands ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list commands: %w", err)
	}
	defer rows.Close()
	out := []Command{}
	for rows.Next() {
		var c Command
		var created, updated int64
		if err := rows.Scan(&c.Name, &c.Text, &created, &updated); err != nil {
			return nil, fmt.Errorf("list commands: %w", err)
		}
		c.CreatedAt, c.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}

// DeleteCommand deletes the command template name, or returns an error
// wrapping ErrNotFound. Tasks naming it keep the name.
func (s *Store) DeleteCommand(ctx context.Context, name string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM commands WHERE name = ?`, name)
	if err != nil {
		return fmt.Errorf("delete command %s: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return notFound(WhatCommand, name)
	}
	return nil
}
