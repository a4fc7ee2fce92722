package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"
)

// ErrNeedsWrite is matched by OpenReadOnly's error for a database that
// cannot be read as it is: it does not exist yet, or its schema is older
// than this version's. Open creates or upgrades it.
var ErrNeedsWrite = errors.New("database must be created or upgraded first")

// OpenReadOnly opens the database at path for reading only, so that the
// commands that only read work when nothing can be written (a full disk, a
// read-only file system). It writes nothing: SQLite's shared-memory index
// is used as it is, and when it cannot be made (it needs disk space) while
// no write-ahead log is waiting, the database file is read as it stands.
// Every write through the returned store fails. It returns an error
// wrapping ErrNeedsWrite for a missing database or an older schema (Open
// them instead), and Open's errors for a file that is not SQLite, a schema
// newer than this version knows or an invalid one.
func OpenReadOnly(ctx context.Context, path string, opts Options) (*Store, error) {
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return nil, fmt.Errorf("open database %s: %w", path, ErrNeedsWrite)
	}
	s, err := openRO(ctx, path, opts, false)
	if err != nil && !walWaiting(path) {
		// Without a log to read, the file is the whole database: read it
		// without the shared-memory index (and without locks).
		if s2, err2 := openRO(ctx, path, opts, true); err2 == nil {
			s, err = s2, nil
		}
	}
	if err != nil {
		return nil, wrapOpenErr(path, err)
	}
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		s.Close()
		return nil, wrapOpenErr(path, err)
	}
	known := LatestSchema()
	switch {
	case v < 0:
		s.Close()
		return nil, &SchemaInvalidError{Path: path, Version: v}
	case v > known:
		s.Close()
		return nil, &SchemaTooNewError{Path: path, Version: v, Known: known}
	case v < known:
		s.Close()
		return nil, fmt.Errorf("open database %s (schema %d of %d): %w", path, v, known, ErrNeedsWrite)
	}
	return s, nil
}

// openRO opens path read-only (immutable: without locks and without the
// write-ahead log) and checks that it can be read.
func openRO(ctx context.Context, path string, opts Options, immutable bool) (*Store, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BusyTimeout == 0 {
		opts.BusyTimeout = 10 * time.Second
	}
	u := fileURL(path)
	q := url.Values{}
	q.Set("mode", "ro")
	if immutable {
		q.Set("immutable", "1")
	}
	q.Set("_busy_timeout", fmt.Sprint(opts.BusyTimeout.Milliseconds()))
	db, err := sql.Open("sqlite3", u.String()+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.SetMaxOpenConns(32)
	if opts.AttachmentsDir == "" {
		opts.AttachmentsDir = filepath.Join(filepath.Dir(path), "attachments")
	}
	if opts.AttachmentLimit <= 0 {
		opts.AttachmentLimit = DefaultAttachmentLimit
	}
	s := &Store{db: db, path: path, now: opts.Now, attachDir: opts.AttachmentsDir, attachLimit: opts.AttachmentLimit}
	// A read, not a ping: a ping opens the file, the first read opens the
	// log and its index.
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// walWaiting reports whether path's write-ahead log may hold commits the
// database file does not: it exists and is not empty (or cannot be looked
// at).
func walWaiting(path string) bool {
	fi, err := os.Stat(path + "-wal")
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	return err != nil || fi.Size() > 0
}
