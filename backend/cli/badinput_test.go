//go:build unix

package cli_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
)

// startCLI starts the binary with args against dataDir and the given
// stdin; wait returns its result.
func startCLI(t *testing.T, dataDir string, stdin *os.File, args ...string) (cmd *exec.Cmd, wait func() result) {
	t.Helper()
	cmd = exec.Command(binary, append(args, "--data-dir", dataDir)...)
	cmd.Env = append(os.Environ(), "BOOF_RUNNER_HOME=")
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		select {
		case <-done:
		default:
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return cmd, func() result {
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("%v did not exit within 30 s", args)
		}
		return result{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}
	}
}

// TestSignalEndsAWaitForInput: `add -` and `import -` reading a pipe that
// never ends exit promptly on SIGTERM or SIGINT with one line, and add
// nothing. (A named pipe given as a FILE is refused before it is opened:
// TestNamedPipesAreRefusedAtOnce.)
func TestSignalEndsAWaitForInput(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		sig  syscall.Signal
		args []string
	}{
		{"add - on an open pipe, SIGTERM", syscall.SIGTERM, []string{"add", "-"}},
		{"import - on an open pipe, SIGINT", syscall.SIGINT, []string{"import", "-"}},
		{"answer - on an open pipe, SIGINT", syscall.SIGINT, []string{"answer", "0000000000000000", "-"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close() // held open: the read never ends by itself
			defer r.Close()
			cmd, wait := startCLI(t, dir, r, c.args...)
			waitReading(t, cmd.Process.Pid)
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			res := wait()
			want := "boof-runner: Interrupted while waiting for input; nothing was changed.\n"
			if res.code != 1 || res.stderr != want || res.stdout != "" {
				t.Fatalf("exit %d stdout %q stderr %q, want exit 1 and %q", res.code, res.stdout, res.stderr, want)
			}
		})
	}
	if tasks := listJSON(t, dir); len(tasks) != 0 {
		t.Fatalf("interrupted commands added %v", tasks)
	}
}

// TestParallelSettingsSetLoseNothing: 12 processes of the real CLI set 12
// different keys at once; every key is in the file afterwards.
func TestParallelSettingsSetLoseNothing(t *testing.T) {
	dir := t.TempDir()
	keys := [][2]string{
		{"workingDirectory", "/src/app"}, {"runner.enabled", "false"}, {"runner.concurrency", "3"},
		{"review.gate", "false"}, {"review.maxFixRounds", "5"}, {"review.maxInlineDiffBytes", "4000"},
		{"worktree.onDone", "keep"}, {"worktree.onFailure", "delete"}, {"retries.transient", "4"},
		{"retries.idleTimeoutMs", "60000"}, {"stop.graceMs", "1234"}, {"ui.notifications", "false"},
	}
	var wg sync.WaitGroup
	res := make([]result, len(keys))
	for i, kv := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = runCLI(t, dir, "", "settings", "set", kv[0], kv[1])
		}()
	}
	wg.Wait()
	for i, r := range res {
		if r.code != 0 {
			t.Fatalf("set %s: %+v", keys[i][0], r)
		}
	}
	for _, kv := range keys {
		r := runCLI(t, dir, "", "settings", "get", kv[0])
		var got, want any
		json.Unmarshal([]byte(r.stdout), &got)
		if err := json.Unmarshal([]byte(kv[1]), &want); err != nil {
			want = kv[1]
		}
		if r.code != 0 || got != want {
			t.Errorf("%s = %s (exit %d), want %v: an update was lost", kv[0], strings.TrimSpace(r.stdout), r.code, want)
		}
	}
}

// TestSettingsFileThatIsAPipeDoesNotHang: a settings.json that is a FIFO
// is reported at once by settings and runner, which start no task.
func TestSettingsFileThatIsAPipeDoesNotHang(t *testing.T) {
	dir := t.TempDir()
	id := addTask(t, dir, "--repo", newGitRepo(t), "stay pending")
	path := dataroot.Paths{Root: dir}.Settings()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	want := "boof-runner: The settings file " + path + " is a named pipe, not a file"
	for _, args := range [][]string{{"settings", "get"}, {"runner", "--once"}} {
		done := make(chan result, 1)
		go func() { done <- runCLI(t, dir, "", args...) }()
		select {
		case r := <-done:
			if r.code != 1 || !strings.HasPrefix(r.stderr, want) {
				t.Fatalf("%v: exit %d stderr %q", args, r.code, r.stderr)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("%v blocked on the pipe", args)
		}
	}
	if tasks := listJSON(t, dir); tasks[0].ID != id || tasks[0].Status != "pending" {
		t.Fatalf("task changed: %+v", tasks[0])
	}
}

// TestNegativeSchemaVersionIsAClearError: a database whose user_version
// is -5 gets one sentence, not a panic, and is left as it is.
func TestNegativeSchemaVersionIsAClearError(t *testing.T) {
	dir := t.TempDir()
	addTask(t, dir, "kept")
	db := dataroot.Paths{Root: dir}.Database()
	conn, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec("PRAGMA user_version = -5"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	before, _ := os.ReadFile(db)
	for _, args := range [][]string{{"list"}, {"add", "more"}, {"runner", "--once"}} {
		r := runCLI(t, dir, "", args...)
		want := "boof-runner: The database " + db + " has an invalid schema version (-5) and was left as it was; restore it from a backup.\n"
		if r.code != 1 || r.stderr != want || strings.Contains(r.stderr, "panic") {
			t.Fatalf("%v: exit %d stderr %q", args, r.code, r.stderr)
		}
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Fatal("the database changed")
	}
}

// TestExportTargets: -o - is standard output; a FIFO, a device and a
// symbolic link are never replaced, even with --force; a missing folder is
// named.
func TestExportTargets(t *testing.T) {
	dir := t.TempDir()
	id := addTask(t, dir, "export me")
	stdout := runCLI(t, dir, "", "export", id, "-o", "-")
	if stdout.code != 0 || !strings.Contains(stdout.stdout, "export me") {
		t.Fatalf("-o -: %+v", stdout)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Fatal("a file named - was written")
	}
	out := t.TempDir()
	fifo := filepath.Join(out, "pipe.md")
	syscall.Mkfifo(fifo, 0o600)
	real := filepath.Join(out, "real.md")
	os.WriteFile(real, []byte("mine\n"), 0o600)
	link := filepath.Join(out, "link.md")
	os.Symlink(real, link)
	cases := []struct{ target, want string }{
		{fifo, "it is a named pipe, not a regular file; refusing to replace it"},
		{"/dev/null", "it is a device, not a regular file; refusing to replace it"},
		{link, "it is a symbolic link, not a regular file; refusing to replace it"},
		{filepath.Join(out, "nope", "x.md"), "the folder " + filepath.Join(out, "nope") + " does not exist"},
	}
	for _, c := range cases {
		r := runCLI(t, dir, "", "export", id, "-o", c.target, "--force")
		if r.code != 1 || !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("export -o %s: exit %d stderr %q, want %q", c.target, r.code, r.stderr, c.want)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced")
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced")
	}
	if b, _ := os.ReadFile(real); string(b) != "mine\n" {
		t.Fatal("the link's target was written")
	}
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Fatal("/dev/null is no longer a device")
	}
}

// TestExportImportRoundTripIsExact: a task with non-ASCII text, fences,
// CRLF and invalid UTF-8 in its prompt comes back identical.
func TestExportImportRoundTripIsExact(t *testing.T) {
	dir := t.TempDir()
	useRepo(t, dir)
	prompt := "Fix ~~~ fences\r\n~~~~\nbytes \xff\xfe kept\n\ttabbed \x1b[31m escape\n"
	r := runCLI(t, dir, prompt, "add", "--title", "Café ✓ 日本", "--label", "ünï", "--label", "emoji-🙂", "-")
	if r.code != 0 {
		t.Fatalf("add: %+v", r)
	}
	orig := strings.TrimSpace(r.stdout)
	exp := runCLI(t, dir, "", "export", orig)
	if exp.code != 0 {
		t.Fatalf("export: %+v", exp)
	}
	imp := runCLI(t, dir, exp.stdout, "import", "-")
	if imp.code != 0 {
		t.Fatalf("import: %+v", imp)
	}
	copyID := strings.TrimSpace(imp.stdout)
	s := storeAt(t, dir)
	a, err1 := s.GetTask(t.Context(), orig)
	b, err2 := s.GetTask(t.Context(), copyID)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if a.Prompt != prompt || b.Prompt != a.Prompt || b.Title != a.Title || strings.Join(b.Labels, ",") != strings.Join(a.Labels, ",") {
		t.Fatalf("round trip changed the task:\n%q %q %q\n%q %q %q", a.Title, a.Labels, a.Prompt, b.Title, b.Labels, b.Prompt)
	}
}

// TestHostileTextIsRefusedOrEscaped: a title with a terminal escape is
// refused; a prompt (which may hold anything) shows escaped in list and
// show, never raw.
func TestHostileTextIsRefusedOrEscaped(t *testing.T) {
	dir := t.TempDir()
	for _, title := range []string{"\x1b]0;owned\x07", "\x1b[2J\x1b[Hgone", "bad\xffutf8", "a\u202eb"} {
		r := runCLI(t, dir, "", "add", "--title", title, "p")
		if r.code != 1 || !strings.HasPrefix(r.stderr, "boof-runner: Title ") || strings.ContainsAny(r.stderr, "\x1b\xff") {
			t.Fatalf("title %q: %+v", title, r)
		}
	}
	for _, label := range []string{"\x1b[31mred", "bad\xff"} {
		r := runCLI(t, dir, "", "add", "--label", label, "p")
		if r.code != 1 || !strings.HasPrefix(r.stderr, "boof-runner: Label ") || strings.ContainsAny(r.stderr, "\x1b\xff") {
			t.Fatalf("label %q: %+v", label, r)
		}
	}
	id := addTask(t, dir, "\x1b]0;owned\x07\x1b[2J clears the screen\u009b31m")
	for _, args := range [][]string{{"list"}, {"show", id}} {
		r := runCLI(t, dir, "", args...)
		if r.code != 0 || strings.ContainsAny(r.stdout, "\x1b\x07\u009b") || !strings.Contains(r.stdout, `\x1b]0;owned\x07\x1b[2J clears the screen\u009b31m`) {
			t.Fatalf("%v printed raw control characters or lost them: %q", args, r.stdout)
		}
	}
}

// TestGlobalFlagsBeforeTheCommand: `boof-runner --data-dir X list` works
// like `boof-runner list --data-dir X`.
func TestGlobalFlagsBeforeTheCommand(t *testing.T) {
	dir := t.TempDir()
	id := addTask(t, dir, "found")
	for _, args := range [][]string{{"--data-dir", dir, "list"}, {"--data-dir=" + dir, "show", id}, {"-data-dir", dir, "list", "--json"}} {
		cmd := exec.Command(binary, args...)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), id) && !strings.Contains(string(out), "found") {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	cmd := exec.Command(binary, "--data-dir")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.HasPrefix(string(out), "boof-runner: flag needs an argument") {
		t.Fatalf("missing value: %v %q", err, out)
	}
}

// TestFlagErrorSaysTheCauseFirst: the first line names the bad flag; the
// usage follows.
func TestFlagErrorSaysTheCauseFirst(t *testing.T) {
	r := runCLI(t, t.TempDir(), "", "add", "--bogus", "x")
	lines := strings.Split(r.stderr, "\n")
	if r.code != 2 || lines[0] != "boof-runner add: flag provided but not defined: -bogus" || !strings.HasPrefix(lines[1], "usage: boof-runner add") {
		t.Fatalf("exit %d stderr:\n%s", r.code, r.stderr)
	}
	h := runCLI(t, t.TempDir(), "", "add", "-h")
	if h.code != 0 || !strings.HasPrefix(h.stdout, "usage: boof-runner add") || h.stderr != "" {
		t.Fatalf("-h: %+v", h)
	}
}

// TestRepoThatIsAFile: --repo naming a file or nothing is refused in words.
func TestRepoThatIsAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(file, []byte("x"), 0o600)
	r := runCLI(t, dir, "", "add", "--repo", file, "p")
	if r.code != 1 || r.stderr != "boof-runner: The repository path "+file+" is a file, not a folder.\n" {
		t.Fatalf("file: %+v", r)
	}
	gone := filepath.Join(t.TempDir(), "gone")
	r = runCLI(t, dir, "", "add", "--repo", gone, "p")
	if r.code != 1 || r.stderr != "boof-runner: The repository folder "+gone+" does not exist.\n" {
		t.Fatalf("missing: %+v", r)
	}
}

// TestMistypedSettingsKeyIsNamed: a key of the file this version does not
// know gets a warning naming the closest known key; set of such a key
// names it too.
func TestMistypedSettingsKeyIsNamed(t *testing.T) {
	dir := t.TempDir()
	path := dataroot.Paths{Root: dir}.Settings()
	os.WriteFile(path, []byte(`{"runner":{"concurency":4}}`), 0o600)
	r := runCLI(t, dir, "", "settings", "get", "runner.concurrency")
	want := "boof-runner settings: warning: " + path + " has a key runner.concurency that this version does not know; it is kept but has no effect (did you mean runner.concurrency?)\n"
	if r.code != 0 || r.stderr != want || strings.TrimSpace(r.stdout) != "1" {
		t.Fatalf("get: %+v", r)
	}
	r = runCLI(t, dir, "", "settings", "set", "review.maxFixRound", "3")
	if r.code != 1 || !strings.Contains(r.stderr, "boof-runner: Unknown setting review.maxFixRound (did you mean review.maxFixRounds?).\n") {
		t.Fatalf("set: %+v", r)
	}
}

// TestLongSearchIsNoSQLiteError: a 60,000-byte search is a search, not
// "LIKE or GLOB pattern too complex".
func TestLongSearchIsNoSQLiteError(t *testing.T) {
	dir := t.TempDir()
	addTask(t, dir, "short")
	r := runCLI(t, dir, "", "list", "--search", strings.Repeat("ab", 30000))
	if r.code != 0 || strings.Contains(r.stderr, "pattern") || strings.Contains(r.stdout, "short") {
		t.Fatalf("%+v", r)
	}
}

// waitReading waits until a thread of pid is blocked reading a pipe or
// opening a FIFO (Linux wchan), so a signal sent next finds the command
// waiting for input rather than still starting up.
func waitReading(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/wchan", pid))
		for _, w := range tasks {
			b, _ := os.ReadFile(w)
			if s := string(b); strings.Contains(s, "pipe") || strings.Contains(s, "fifo") || strings.Contains(s, "wait_for_partner") {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("process %d never waited for input", pid)
}
