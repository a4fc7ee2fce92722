package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migration is one numbered schema change.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the embedded migrations sorted by version. File names
// are NNNN_name.sql; the number is the schema version the file produces.
func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %q: name must start with a number", e.Name())
		}
		body, err := migrationFS.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", e.Name(), err)
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", m.name, i+1)
		}
	}
	return out, nil
}

// LatestSchema is the schema version this binary writes.
func LatestSchema() int {
	ms, err := loadMigrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// migrate applies every migration newer than the database's user_version, each
// in its own IMMEDIATE transaction that re-reads the version, so two processes
// opening a new database at once apply each migration exactly once.
func migrate(ctx context.Context, db *sql.DB, path string) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	var current int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return wrapOpenErr(path, err)
	}
	if current < 0 {
		return &SchemaInvalidError{Path: path, Version: current}
	}
	if current > len(ms) {
		return &SchemaTooNewError{Path: path, Version: current, Known: len(ms)}
	}
	for _, m := range ms[current:] {
		if err := applyMigration(ctx, db, path, m, len(ms)); err != nil {
			return err
		}
	}
	return nil
}

func applyMigration(ctx context.Context, db *sql.DB, path string, m migration, known int) error {
	fail := func(err error) error { return &MigrationError{Path: path, Name: m.name, Err: err} }
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fail(err)
	}
	switch {
	case v < 0:
		return &SchemaInvalidError{Path: path, Version: v}
	case v > known:
		return &SchemaTooNewError{Path: path, Version: v, Known: known}
	case v >= m.version:
		return nil // another process applied it first
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fail(err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
		return fail(fmt.Errorf("set version: %w", err))
	}
	if err := tx.Commit(); err != nil {
		return fail(fmt.Errorf("commit: %w", err))
	}
	return nil
}
