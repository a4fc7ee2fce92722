package runner_test

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/task"
)

// exec runs SQL on the data root's database with a plain connection, as
// another program would.
func (r *root) exec(q string) {
	r.t.Helper()
	db, err := sql.Open("sqlite3", dataroot.Paths{Root: r.dir}.Database())
	if err != nil {
		r.t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q); err != nil {
		r.t.Fatal(err)
	}
}

// TestClaimFailureIsNotSuccess: when the claim itself fails (here a
// trigger refuses the execution row, as a full or broken store would),
// `runner --once` and `--until-idle` exit 1 naming the task and the cause,
// and the task stays pending.
func TestClaimFailureIsNotSuccess(t *testing.T) {
	r := newRoot(t, nil)
	tk := r.add("Never claimed.", 1)
	r.exec(`CREATE TRIGGER refuse_claims BEFORE INSERT ON executions BEGIN SELECT RAISE(ABORT, 'no room for executions'); END`)
	for _, mode := range []string{"--once", "--until-idle"} {
		res := r.cli(context.Background(), "runner", mode)
		want := "boof-runner: The runner could not claim task " + tk.ID + " (no room for executions); it stays pending.\n"
		if res.code != 1 || !strings.HasSuffix(res.stderr, want) {
			t.Fatalf("%s: exit %d stderr %q", mode, res.code, res.stderr)
		}
	}
	if got := r.get(tk.ID); got.Status != task.StatusPending {
		t.Fatalf("task is %s", got.Status)
	}
}

// TestBrokenSettingsStopTheRunner: with a settings.json that is not JSON
// the runner says so and starts nothing, instead of failing every task
// with "no working directory".
func TestBrokenSettingsStopTheRunner(t *testing.T) {
	r := newRoot(t, nil)
	tk := r.add("Wait for good settings.", 1)
	path := dataroot.Paths{Root: r.dir}.Settings()
	good, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(`{"workingDirectory": `), 0o600)
	for _, mode := range []string{"--once", "--until-idle"} {
		res := r.cli(context.Background(), "runner", mode)
		want := "boof-runner: The settings file " + path + " is not valid JSON (unexpected EOF); the runner started no task: fix the file, or save the settings from the app.\n"
		if res.code != 1 || res.stderr != want {
			t.Fatalf("%s: exit %d stderr %q", mode, res.code, res.stderr)
		}
	}
	if got := r.get(tk.ID); got.Status != task.StatusPending || got.Error != "" {
		t.Fatalf("task %s %q", got.Status, got.Error)
	}
	os.WriteFile(path, good, 0o600)
	if res := r.cli(context.Background(), "runner", "--once"); res.code != 0 {
		t.Fatalf("after the fix: %+v", res)
	}
	if got := r.get(tk.ID); got.Status != task.StatusDone {
		t.Fatalf("after the fix the task is %s %q", got.Status, got.Error)
	}
}

// TestDamagedDatabaseRunsNothing: a database whose log table is damaged
// (a task would run and lose its log) is refused before any task runs.
func TestDamagedDatabaseRunsNothing(t *testing.T) {
	r := newRoot(t, nil)
	tk := r.add("Do not run on a damaged store.", 1)
	var root int
	db, err := sql.Open("sqlite3", dataroot.Paths{Root: r.dir}.Database())
	if err != nil {
		t.Fatal(err)
	}
	db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = 'log_lines'`).Scan(&root)
	db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	db.Close()
	r.st.Close()
	f, err := os.OpenFile(dataroot.Paths{Root: r.dir}.Database(), os.O_RDWR, 0)
	if err != nil || root == 0 {
		t.Fatal(err, root)
	}
	f.WriteAt([]byte(strings.Repeat("\xde\xad\xbe\xef", 1024)), int64((root-1)*4096))
	f.Close()
	res := r.cli(context.Background(), "runner", "--once")
	if res.code != 1 || !strings.Contains(res.stderr, "\nboof-runner: The database "+dataroot.Paths{Root: r.dir}.Database()+" is damaged (") {
		t.Fatalf("exit %d stderr %q stdout %q", res.code, res.stderr, res.stdout)
	}
	if strings.Contains(res.stdout, "Run 1 of 1 started") {
		t.Fatalf("a task ran: %s", res.stdout)
	}
	db, _ = sql.Open("sqlite3", dataroot.Paths{Root: r.dir}.Database())
	defer db.Close()
	var status string
	if err := db.QueryRow(`SELECT status FROM tasks WHERE id = ?`, tk.ID).Scan(&status); err != nil || status != "pending" {
		t.Fatalf("task %q %v", status, err)
	}
}
