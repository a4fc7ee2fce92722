package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

type listed struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Prompt   string   `json:"prompt"`
	Status   string   `json:"status"`
	Priority int      `json:"priority"`
	Runs     int      `json:"runs"`
	Labels   []string `json:"labels"`
	Base     string   `json:"base"`
}

func listJSON(t *testing.T, dir string, extra ...string) []listed {
	t.Helper()
	r := runCLI(t, dir, "", append([]string{"list", "--json"}, extra...)...)
	if r.code != 0 {
		t.Fatalf("list: %d %s", r.code, r.stderr)
	}
	var out []listed
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("list --json is not JSON: %v\n%s", err, r.stdout)
	}
	return out
}

var idLine = regexp.MustCompile(`^[0-9a-z]{16}\n$`)

func TestAddPrintsIDAndListShowsIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	useRepo(t, dir)
	r := runCLI(t, dir, "", "add", "--title", "Fix it", "--priority", "5", "--runs", "2", "--label", "ui", "--label", "docs", "--base", "main", "make the tests pass")
	if r.code != 0 || !idLine.MatchString(r.stdout) {
		t.Fatalf("add: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	id := strings.TrimSpace(r.stdout)
	tasks := listJSON(t, dir)
	if len(tasks) != 1 {
		t.Fatalf("want 1 task, got %v", tasks)
	}
	got := tasks[0]
	if got.ID != id || got.Title != "Fix it" || got.Prompt != "make the tests pass" || got.Status != "pending" ||
		got.Priority != 5 || got.Runs != 2 || strings.Join(got.Labels, ",") != "ui,docs" || got.Base != "main" {
		t.Fatalf("listed %+v", got)
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("data dir mode %v, %v", fi.Mode(), err)
	}
	show := runCLI(t, dir, "", "show", id, "--json")
	if show.code != 0 || !strings.Contains(show.stdout, `"id": "`+id+`"`) {
		t.Fatalf("show: %+v", show)
	}
	if pend := listJSON(t, dir, "--status", "pending"); len(pend) != 1 {
		t.Fatalf("--status pending: %v", pend)
	}
	if done := listJSON(t, dir, "--status", "done"); len(done) != 0 {
		t.Fatalf("--status done: %v", done)
	}
}

func TestAddPromptFromStdin(t *testing.T) {
	dir := t.TempDir()
	useRepo(t, dir)
	prompt := "line one\nline two with 'quotes' and ünïcode\n"
	r := runCLI(t, dir, prompt, "add", "-")
	if r.code != 0 {
		t.Fatalf("add -: %+v", r)
	}
	if tasks := listJSON(t, dir); len(tasks) != 1 || tasks[0].Prompt != prompt {
		t.Fatalf("stored %+v", tasks)
	}
}

func TestEnvVarSetsDataRoot(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("BOOF_RUNNER_HOME", dir)
	r := runCLI(t, "", "", "add", "--repo", newGitRepo(t), "via the environment")
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "boof-runner.db")); err != nil {
		t.Fatalf("database not in the data root: %v", err)
	}
}

// TestBadInputChangesNothing covers each bad input of the foundation issue:
// one line on stderr, exit 1, and the store unchanged.
func TestBadInputChangesNothing(t *testing.T) {
	dir := t.TempDir()
	useRepo(t, dir)
	if r := runCLI(t, dir, "", "add", "keep me"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	cases := map[string][]string{
		"empty prompt":      {"add", ""},
		"blank prompt":      {"add", "  \n\t "},
		"priority not int":  {"add", "--priority", "high", "p"},
		"priority overflow": {"add", "--priority", "99999999999999999999", "p"},
		"runs zero":         {"add", "--runs", "0", "p"},
		"bad status":        {"list", "--status", "running"},
		"unknown task":      {"show", "0000000000000000"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			r := runCLI(t, dir, "", args...)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1 (stderr %q)", r.code, r.stderr)
			}
			if lines := strings.Count(strings.TrimRight(r.stderr, "\n"), "\n"); lines != 0 || r.stderr == "" {
				t.Fatalf("want one line on stderr, got %q", r.stderr)
			}
			if r.stdout != "" {
				t.Fatalf("stdout %q", r.stdout)
			}
		})
	}
	if tasks := listJSON(t, dir); len(tasks) != 1 || tasks[0].Prompt != "keep me" {
		t.Fatalf("store changed: %+v", tasks)
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"add"}, {"add", "a", "b"}, {"list", "--nope"}, {"frobnicate"}} {
		if r := runCLI(t, dir, "", args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (%q)", args, r.code, r.stderr)
		}
	}
}

func TestDataDirNotCreatable(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(parent, []byte("x"), 0o600)
	r := runCLI(t, filepath.Join(parent, "data"), "", "add", "p")
	if r.code != 1 || !strings.Contains(r.stderr, "data dir") || strings.Count(r.stderr, "\n") != 1 {
		t.Fatalf("got %+v", r)
	}
	r = runCLI(t, "/proc/boof-runner-test", "", "add", "p")
	if r.code != 1 || !strings.Contains(r.stderr, "/proc/boof-runner-test") {
		t.Fatalf("read-only parent: %+v", r)
	}
}

func TestDatabaseNotSQLiteIsRefused(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "boof-runner.db")
	notes := "my notes\n"
	os.WriteFile(db, []byte(notes), 0o600)
	r := runCLI(t, dir, "", "add", "p")
	if r.code != 1 || !strings.Contains(r.stderr, db) {
		t.Fatalf("got %+v", r)
	}
	if b, _ := os.ReadFile(db); string(b) != notes {
		t.Fatal("the file was overwritten")
	}
}

func TestConcurrentAddsAllSucceed(t *testing.T) {
	dir := t.TempDir()
	useRepo(t, dir)
	const n = 12
	var wg sync.WaitGroup
	results := make([]result, n)
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i], errs[i] = tryCLI(dir, "", "add", "concurrent task")
		}(i)
	}
	wg.Wait()
	for i, r := range results {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if r.code != 0 || strings.Contains(r.stderr, "locked") {
			t.Fatalf("add %d: %+v", i, r)
		}
	}
	if tasks := listJSON(t, dir); len(tasks) != n {
		t.Fatalf("got %d tasks, want %d", len(tasks), n)
	}
}
