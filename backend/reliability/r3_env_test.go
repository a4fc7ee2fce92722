//go:build linux && reliability

package reliability

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// biEnv is one bad-input case's world: a data root holding tasks in
// several statuses, and (when asked) a git repository as working
// directory with the mock tool for every role.
type biEnv struct {
	t    *testing.T
	bin  string
	dir  string // the data root
	repo string // the working directory ("" when the case has none)
	tmp  string // a scratch folder of the case
	// ids of the tasks made by the baseline, by status.
	pending, done, archived, ongoing, actions string
}

// biNewEnv makes the baseline: one task in each of pending, done,
// archived, ongoing and actions (waiting for answers).
func biNewEnv(t *testing.T, bin string) *biEnv {
	t.Helper()
	e := &biEnv{t: t, bin: bin, dir: filepath.Join(t.TempDir(), "data"), tmp: t.TempDir()}
	if err := dataroot.Ensure(e.dir); err != nil {
		t.Fatal(err)
	}
	st := e.store()
	defer st.Close()
	ctx := context.Background()
	mk := func(prompt string, path ...task.Status) string {
		tk, err := st.CreateTask(ctx, task.NewTask{Prompt: prompt, Title: "baseline " + prompt, Labels: []string{"base"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, to := range path {
			switch to {
			case task.StatusOngoing:
				_, err = st.Claim(ctx, tk.ID, store.ClaimInfo{Role: task.RolePlanner, Runner: "baseline"})
			case task.StatusActions:
				if err = st.SetQuestions(ctx, tk.ID, []string{"Which colour?"}); err == nil {
					_, err = st.Transition(ctx, tk.ID, to, store.TransitionNote{})
				}
			default:
				_, err = st.Transition(ctx, tk.ID, to, store.TransitionNote{})
			}
			if err != nil {
				t.Fatalf("baseline %s → %s: %v", prompt, to, err)
			}
		}
		return tk.ID
	}
	e.pending = mk("pending work")
	e.done = mk("done work", task.StatusOngoing, task.StatusDone)
	e.archived = mk("archived work", task.StatusOngoing, task.StatusDone, task.StatusArchived)
	e.ongoing = mk("ongoing work", task.StatusOngoing)
	e.actions = mk("waiting work", task.StatusOngoing, task.StatusActions)
	return e
}

func (e *biEnv) store() *store.Store {
	e.t.Helper()
	st, err := store.Open(context.Background(), dataroot.Paths{Root: e.dir}.Database(), store.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

// withRepo makes a git repository with one commit and writes settings that
// use it with the mock tool for every role; extra keys are merged in.
func (e *biEnv) withRepo(extra map[string]any) {
	e.t.Helper()
	e.repo = filepath.Join(e.tmp, "repo")
	os.MkdirAll(e.repo, 0o755)
	e.git(e.repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(e.repo, "README.md"), []byte("repo\n"), 0o644)
	e.git(e.repo, "add", "README.md")
	e.git(e.repo, "commit", "-q", "-m", "init")
	e.settings(e.repo, extra)
}

// settings writes settings.json with workingDirectory wd, mock roles,
// short retries and extra keys.
func (e *biEnv) settings(wd string, extra map[string]any) {
	e.t.Helper()
	mock := map[string]any{"tool": "mock"}
	s := map[string]any{
		"workingDirectory": wd,
		"roles":            map[string]any{"planner": mock, "refinement": mock, "developer": mock, "reviewer": mock},
		"retries":          map[string]any{"idleTimeoutMs": 60000, "backoffMs": []int{10}},
		"stop":             map[string]any{"graceMs": 500},
	}
	for k, v := range extra {
		s[k] = v
	}
	b, _ := json.MarshalIndent(s, "", "  ")
	e.write(dataroot.Paths{Root: e.dir}.Settings(), string(b))
}

func (e *biEnv) git(dir string, args ...string) string {
	e.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (e *biEnv) write(path, content string) {
	e.t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// path names a file of the data root.
func (e *biEnv) path(name string) string { return filepath.Join(e.dir, name) }

// sql runs statements on the database with a plain connection.
func (e *biEnv) sql(q string) {
	e.t.Helper()
	db, err := sql.Open("sqlite3", dataroot.Paths{Root: e.dir}.Database())
	if err != nil {
		e.t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q); err != nil {
		e.t.Fatalf("%s: %v", q, err)
	}
}

// damage overwrites the first 4 KiB of table's root page (after a
// checkpoint), as a disk or a stray write would.
func (e *biEnv) damage(table string, offset int) {
	e.t.Helper()
	path := dataroot.Paths{Root: e.dir}.Database()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		e.t.Fatal(err)
	}
	var root int
	if err := db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = ?`, table).Scan(&root); err != nil {
		e.t.Fatal(err)
	}
	db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	db.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	defer f.Close()
	f.WriteAt([]byte(strings.Repeat("\xde\xad\xbe\xef", 1024-offset/4)), int64((root-1)*4096+offset))
}

// biSnapshot is what a bad input must not change: the database's rows (or
// its bytes when it does not open), the settings file, the repository's
// refs and worktrees, and the data root's file names.
type biSnapshot struct {
	db       string
	tasks    map[string]string // id → row, for the loss check
	settings string
	repo     string
	files    string
}

func (e *biEnv) biSnapshot() biSnapshot {
	var s biSnapshot
	s.db, s.tasks = e.dumpDB()
	s.settings = biFileState(dataroot.Paths{Root: e.dir}.Settings())
	if e.repo != "" {
		if out, err := exec.Command("git", "-C", e.repo, "for-each-ref", "--format=%(refname) %(objectname)").CombinedOutput(); err == nil {
			s.repo = string(out)
		}
		if out, err := exec.Command("git", "-C", e.repo, "worktree", "list", "--porcelain").CombinedOutput(); err == nil {
			s.repo += string(out)
		}
	}
	var names []string
	filepath.WalkDir(e.dir, func(p string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(e.dir, p)
		switch {
		case err != nil, rel == ".":
		case strings.HasSuffix(rel, "-wal"), strings.HasSuffix(rel, "-shm"), strings.HasSuffix(rel, ".lock"), rel == "disk-reserve":
			// SQLite's and the locks' files come and go with every open.
		default:
			names = append(names, rel)
		}
		return nil
	})
	sort.Strings(names)
	s.files = strings.Join(names, "\n")
	return s
}

// dumpDB returns every row of every table, read-only; for a database that
// does not open it returns a hash of its bytes.
func (e *biEnv) dumpDB() (string, map[string]string) {
	path := dataroot.Paths{Root: e.dir}.Database()
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return biFileState(path), nil
	}
	u := url.URL{Scheme: "file", Path: path, RawQuery: "mode=ro"}
	db, err := sql.Open("sqlite3", u.String())
	if err != nil {
		return biFileState(path), nil
	}
	defer db.Close()
	var b strings.Builder
	tasks := map[string]string{}
	names, err := biTables(db)
	if err != nil {
		return biFileState(path), nil
	}
	for _, name := range names {
		rows, err := db.Query(`SELECT * FROM "` + name + `" ORDER BY rowid`)
		if err != nil {
			return biFileState(path), nil
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return biFileState(path), nil
			}
			line := fmt.Sprintf("%s %q", name, vals)
			b.WriteString(line + "\n")
			if name == "tasks" {
				tasks[fmt.Sprint(vals[0])] = line
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return biFileState(path), nil
		}
	}
	return b.String(), tasks
}

func biTables(db *sql.DB) ([]string, error) {
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		out = append(out, n)
	}
	return out, rows.Err()
}

// biFileState is a file's kind and content hash ("missing" when absent).
func biFileState(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return "missing"
	}
	if !fi.Mode().IsRegular() {
		return fi.Mode().Type().String()
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "unreadable"
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

// taskRow reads one task with a plain read-only connection ("" when
// missing or unreadable).
func (e *biEnv) taskRow(id string) (status, errText string) {
	u := url.URL{Scheme: "file", Path: dataroot.Paths{Root: e.dir}.Database(), RawQuery: "mode=ro"}
	db, err := sql.Open("sqlite3", u.String())
	if err != nil {
		return "", ""
	}
	defer db.Close()
	db.QueryRow(`SELECT status, error FROM tasks WHERE id = ?`, id).Scan(&status, &errText)
	return status, errText
}

// taskCount counts tasks (-1 when unreadable).
func (e *biEnv) taskCount() int {
	u := url.URL{Scheme: "file", Path: dataroot.Paths{Root: e.dir}.Database(), RawQuery: "mode=ro"}
	db, err := sql.Open("sqlite3", u.String())
	if err != nil {
		return -1
	}
	defer db.Close()
	n := -1
	db.QueryRow(`SELECT count(*) FROM tasks`).Scan(&n)
	return n
}
