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

// SaveCommand creates or replaces the command template name. It returns an
// error wrapping task.ErrInvalid for a bad name (see task.ValidCommandName)
// or empty, oversized or non-UTF-8 text.
func (s *Store) SaveCommand(ctx context.Context, name, text string) (Command, error) {
	if !task.ValidCommandName(name) {
		return Command{}, invalidf("command name %q must be 1-64 letters, digits, '-', '_' or '.'", name)
	}
	if strings.TrimSpace(text) == "" {
		return Command{}, invalidf("command text is empty")
	}
	if len(text) > MaxCommandText {
		return Command{}, invalidf("command text is longer than %d bytes", MaxCommandText)
	}
	if !utf8.ValidString(text) {
		return Command{}, invalidf("command text is not valid UTF-8")
	}
	at := s.nowMs()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO commands (name, text, created_at, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`, name, text, at, at); err != nil {
		return Command{}, fmt.Errorf("save command %s: %w", name, err)
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
