package store

import (
	"context"
	"fmt"
	"time"
)

// Watch calls onChange whenever another connection or process commits to the
// database, polling SQLite's data_version every interval. It blocks until
// ctx ends (then it returns nil, after its last onChange and with its
// connection released, so the store can be closed), or returns at once with
// the error that kept it from watching. Run it in a goroutine of its own.
func (s *Store) Watch(ctx context.Context, interval time.Duration, onChange func()) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("watch database: %w", err)
	}
	var last int64
	if err := conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&last); err != nil {
		conn.Close()
		return fmt.Errorf("watch database: %w", err)
	}
	defer conn.Close()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		var v int64
		if err := conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
			continue
		}
		if v != last {
			last = v
			onChange()
		}
	}
}
