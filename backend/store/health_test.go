package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// setUserVersion writes PRAGMA user_version with a plain connection, as a
// user poking at the file with the sqlite3 shell would.
func setUserVersion(t *testing.T, path string, v int) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
		t.Fatal(err)
	}
}

func TestOpenRefusesNegativeSchemaVersion(t *testing.T) {
	s, path := openTemp(t)
	mustCreate(t, s, task.NewTask{Prompt: "kept"})
	s.Close()
	setUserVersion(t, path, -5)
	before, _ := os.ReadFile(path)
	_, err := Open(context.Background(), path, Options{})
	var bad *SchemaInvalidError
	if !errors.As(err, &bad) || bad.Version != -5 || bad.Path != path {
		t.Fatalf("want *SchemaInvalidError for -5, got %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("the database file changed")
	}
	if v := userVersion(t, path); v != -5 {
		t.Fatalf("user_version is now %d", v)
	}
}

func TestMigrationErrorIsTypedAndRolledBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "boof.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	// A database at version 0 that already has a table the first
	// migration creates: the migration fails inside its transaction.
	if _, err := db.Exec("CREATE TABLE tasks (x INTEGER)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(context.Background(), path, Options{})
	var me *MigrationError
	if !errors.As(err, &me) || me.Name != "0001_tasks.sql" || me.Path != path || me.Err == nil {
		t.Fatalf("want *MigrationError for 0001_tasks.sql, got %v", err)
	}
	if v := userVersion(t, path); v != 0 {
		t.Fatalf("user_version is %d after a failed migration", v)
	}
}

// damage overwrites 64 bytes of page pg (1-based, 4096-byte pages) at off.
func damage(t *testing.T, path string, pg, off int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef}, 16), int64((pg-1)*4096+off)); err != nil {
		t.Fatal(err)
	}
}

// countTasks counts rows with a plain connection.
func countTasks(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM tasks").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCreateOnDamagedTableWritesNothing: with the tasks table's root page
// damaged so that the insert succeeds but reading the row back fails, the
// create fails and no row is left behind (it used to be committed first).
func TestCreateOnDamagedTableWritesNothing(t *testing.T) {
	s, path := openTemp(t)
	for i := 0; i < 3; i++ {
		mustCreate(t, s, task.NewTask{})
	}
	var root int
	if err := s.db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = 'tasks'`).Scan(&root); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	damage(t, path, root, 8)
	s2, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	_, err = s2.CreateTask(context.Background(), task.NewTask{Prompt: "new"})
	if err == nil || !Damaged(err) {
		t.Fatalf("create on a damaged table: want a damaged-database error, got %v", err)
	}
	s2.Close()
	if n := countTasks(t, path); n != 3 {
		t.Fatalf("%d rows after a failed create, want 3", n)
	}
	s3, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	var de *DamagedError
	if err := s3.Check(context.Background()); !errors.As(err, &de) || de.Path != path || de.Problem == "" {
		t.Fatalf("Check: want *DamagedError, got %v", err)
	}
}

func TestCheckPassesAHealthyDatabase(t *testing.T) {
	s, _ := openTemp(t)
	mustCreate(t, s, task.NewTask{})
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestSearchLongerThanALikePattern: a search of 60,000 bytes (over
// SQLite's LIKE pattern limit) finds the task whose prompt holds it.
func TestSearchLongerThanALikePattern(t *testing.T) {
	s, _ := openTemp(t)
	long := strings.Repeat("abc%_", 12000)
	want := mustCreate(t, s, task.NewTask{Prompt: "x" + long + "y"})
	mustCreate(t, s, task.NewTask{Prompt: "other"})
	got, err := s.ListTasks(context.Background(), Filter{Search: strings.ToUpper(long)})
	if err != nil || len(got) != 1 || got[0].ID != want.ID {
		t.Fatalf("search = %v, %v", got, err)
	}
}
