package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/mattn/go-sqlite3"
)

// firstConnect opens the pool's first connection, which sets the journal
// mode to WAL. While several processes create the same new database at once,
// SQLite answers that switch with SQLITE_BUSY at once, without waiting in
// its busy handler; such a connection is tried again until busyTimeout has
// passed, so concurrent first opens all succeed.
func firstConnect(ctx context.Context, db *sql.DB, busyTimeout time.Duration) error {
	deadline := time.Now().Add(busyTimeout)
	wait := 5 * time.Millisecond
	for {
		err := db.PingContext(ctx)
		if err == nil || !busy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		if wait < 100*time.Millisecond {
			wait *= 2
		}
	}
}

// busy reports SQLite's "database is locked" or "database table is locked".
func busy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}
