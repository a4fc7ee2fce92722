package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/mattn/go-sqlite3"
)

// SchemaInvalidError reports a database whose schema version
// (PRAGMA user_version) no version of Boof Runner writes, such as a
// negative one. Open leaves such a file as it is.
type SchemaInvalidError struct {
	Path    string
	Version int
}

// Error returns "database <path> has an invalid schema version <n>".
func (e *SchemaInvalidError) Error() string {
	return fmt.Sprintf("database %s has an invalid schema version %d", e.Path, e.Version)
}

// MigrationError reports a schema migration that failed; the migration's
// transaction was rolled back, so the database is as it was before it.
type MigrationError struct {
	Path string
	// Name is the migration's file name, e.g. "0002_runs.sql".
	Name string
	Err  error
}

// Error returns "migrate <path> (<name>): <cause>".
func (e *MigrationError) Error() string {
	return fmt.Sprintf("migrate %s (%s): %v", e.Path, e.Name, e.Err)
}

// Unwrap returns the cause.
func (e *MigrationError) Unwrap() error { return e.Err }

// DamagedError reports a database file that SQLite finds damaged
// (Check's integrity check failed). Nothing was written to it.
type DamagedError struct {
	Path string
	// Problem is SQLite's first finding, e.g. "database disk image is
	// malformed" or "Tree 2 page 2: btreeInitPage() returns error code 11".
	Problem string
}

// Error returns "database <path> is damaged: <problem>".
func (e *DamagedError) Error() string {
	return fmt.Sprintf("database %s is damaged: %s", e.Path, e.Problem)
}

// Damaged reports whether err comes from a damaged database: a
// *DamagedError, or SQLite's "database disk image is malformed" or "file is
// not a database" from any query.
func Damaged(err error) bool {
	var de *DamagedError
	if errors.As(err, &de) {
		return true
	}
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB)
}

// Busy reports whether err is SQLite's "database is locked" (or "table is
// locked"): another connection, of another program perhaps, held the lock
// past the busy timeout.
func Busy(err error) bool { return busy(err) }

// DiskFull reports whether err comes from a write that found no space left:
// SQLite's "database or disk is full", or ENOSPC from any file write.
func DiskFull(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrFull || se.SystemErrno == syscall.ENOSPC) {
		return true
	}
	return errors.Is(err, syscall.ENOSPC)
}

// Check runs SQLite's quick integrity check over the whole database. It
// returns a *DamagedError naming the first problem found, or the error of
// the check itself (a damaged file can also fail to be read at all, which
// is reported as a *DamagedError as well). It reads only; a long-running
// process calls it once before it starts work.
func (s *Store) Check(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA quick_check(1)")
	if err != nil {
		return s.checkErr(err)
	}
	defer rows.Close()
	var first string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return s.checkErr(err)
		}
		if first == "" {
			first = line
		}
	}
	if err := rows.Err(); err != nil {
		return s.checkErr(err)
	}
	if first != "ok" {
		return &DamagedError{Path: s.path, Problem: strings.TrimSpace(first)}
	}
	return nil
}

func (s *Store) checkErr(err error) error {
	if Damaged(err) {
		var se sqlite3.Error
		errors.As(err, &se)
		return &DamagedError{Path: s.path, Problem: se.Error()}
	}
	return fmt.Errorf("check database %s: %w", s.path, err)
}
