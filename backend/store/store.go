// Package store keeps Boof Runner's tasks in SQLite (WAL mode, foreign keys
// on, a busy timeout) with embedded migrations applied in order.
package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/mattn/go-sqlite3" // the SQLite driver (cgo)

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// ErrNotFound is matched by every *NotFoundError (a task, command,
// attachment or execution that does not exist) and by NextPending on an
// empty queue.
var ErrNotFound = errors.New("not found")

// ErrNotDatabase is matched by the error for a file that is not SQLite
// (every *NotDatabaseError).
var ErrNotDatabase = errors.New("not a SQLite database")

// NotDatabaseError reports a database path that holds something else: a
// file that is not SQLite, a folder, a named pipe. Open leaves it as it is.
type NotDatabaseError struct {
	Path string
	// Kind is what is there instead ("a folder", "a named pipe"), "" for a
	// file that is not SQLite.
	Kind string
}

// Error returns "not a SQLite database: <path> (refusing to open or
// overwrite it)" or "… <path> is <kind> …".
func (e *NotDatabaseError) Error() string {
	if e.Kind != "" {
		return fmt.Sprintf("%v: %s is %s (refusing to open or overwrite it)", ErrNotDatabase, e.Path, e.Kind)
	}
	return fmt.Sprintf("%v: %s (refusing to open or overwrite it)", ErrNotDatabase, e.Path)
}

// Unwrap lets errors.Is match ErrNotDatabase.
func (e *NotDatabaseError) Unwrap() error { return ErrNotDatabase }

// SchemaTooNewError reports a database written by a newer binary.
type SchemaTooNewError struct {
	Path           string
	Version, Known int
}

func (e *SchemaTooNewError) Error() string {
	return fmt.Sprintf("database %s has schema version %d, newer than this version of Boof Runner knows (%d); upgrade Boof Runner", e.Path, e.Version, e.Known)
}

// Options configure Open.
type Options struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// BusyTimeout is how long a writer waits for another; zero means 10 s.
	BusyTimeout time.Duration
	// AttachmentsDir holds attachment files as <dir>/<taskID>/<name>; empty
	// means "attachments" next to the database file.
	AttachmentsDir string
	// AttachmentLimit is the largest attachment accepted, in bytes; zero
	// means DefaultAttachmentLimit.
	AttachmentLimit int64
}

// Store is the SQLite task store. It is safe for concurrent use.
type Store struct {
	db          *sql.DB
	path        string
	now         func() time.Time
	attachDir   string
	attachLimit int64
}

var sqliteMagic = []byte("SQLite format 3\x00")

// Open opens (creating if needed) the database at path and applies pending
// migrations. It refuses, without writing anything, a file that is not SQLite
// (ErrNotDatabase) and a schema newer than it knows (*SchemaTooNewError).
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BusyTimeout == 0 {
		opts.BusyTimeout = 10 * time.Second
	}
	u := fileURL(path)
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_foreign_keys", "1")
	q.Set("_busy_timeout", fmt.Sprint(opts.BusyTimeout.Milliseconds()))
	q.Set("_txlock", "immediate")
	q.Set("_synchronous", "NORMAL")
	// Deleted and rewritten content is zeroed in the file, so text the
	// one-time scrub pass replaces (ScrubAgentText) does not linger in
	// free pages.
	q.Set("_secure_delete", "1")
	dsn := u.String() + "?" + q.Encode()
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	// Writers serialize on SQLite's lock anyway; a bounded pool keeps file
	// descriptors in check when many goroutines call at once.
	db.SetMaxOpenConns(32)
	if opts.AttachmentsDir == "" {
		opts.AttachmentsDir = filepath.Join(filepath.Dir(path), "attachments")
	}
	if opts.AttachmentLimit <= 0 {
		opts.AttachmentLimit = DefaultAttachmentLimit
	}
	s := &Store{db: db, path: path, now: opts.Now, attachDir: opts.AttachmentsDir, attachLimit: opts.AttachmentLimit}
	if err := firstConnect(ctx, db, opts.BusyTimeout); err != nil {
		db.Close()
		return nil, wrapOpenErr(path, err)
	}
	if err := migrate(ctx, db, path); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// checkHeader refuses an existing non-empty file that is not SQLite, and
// anything at path that is not a regular file (a folder, a named pipe that
// would block the open, a device), without opening it.
func checkHeader(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open database %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return &NotDatabaseError{Path: path, Kind: dataroot.FileKind(fi.Mode())}
	}
	f, err := userfile.OpenKept(path)
	if err != nil {
		return fmt.Errorf("open database %s: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	n, err := io.ReadFull(f, head)
	if n == 0 && (err == io.EOF || err == nil) {
		return nil
	}
	if !bytes.Equal(head[:n], sqliteMagic) {
		return &NotDatabaseError{Path: path}
	}
	return nil
}

func wrapOpenErr(path string, err error) error {
	var se sqlite3.Error
	switch {
	case errors.As(err, &se) && se.Code == sqlite3.ErrNotADB:
		return &NotDatabaseError{Path: path}
	case errors.As(err, &se) && se.Code == sqlite3.ErrCorrupt:
		return &DamagedError{Path: path, Problem: se.Error()}
	}
	return fmt.Errorf("open database %s: %w", path, err)
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) nowMs() int64 { return s.now().UnixMilli() }
