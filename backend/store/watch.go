package store

import (
	"context"
	"fmt"
	"time"
)

// Watch calls onChange whenever another connection or process commits to the
// database, polling SQLite's data_version every interval and, when wake is
// not nil, at once when the channel it returns closes (wake.Signal.Next:
// another process poked the runner after a change). It blocks until
// ctx ends (then it returns nil, after its last onChange and with its
// connection released, so the store can be closed), or returns at once with
// the error that kept it from watching. Run it in a goroutine of its own.
func (s *Store) Watch(ctx context.Context, interval time.Duration, wake func() <-chan struct{}, onChange func()) error {
	if wake == nil {
		wake = func() <-chan struct{} { return nil }
	}
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
	woken := wake()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-woken:
		}
		woken = wake() // taken before the look: a wake-up during it is not missed
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
