package verify

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

var procs *proc.Runner

func TestMain(m *testing.M) {
	procs = proc.NewRunner(proc.RunnerOptions{})
	code := m.Run()
	procs.Shutdown(time.Second)
	os.Exit(code)
}

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@t",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t testing.TB, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// repo makes a repository with a tracked file, an ignored cache folder and
// a verify script that fails while RED exists.
func repo(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q", "-b", "main")
	write(t, filepath.Join(dir, "a.txt"), "one\n")
	write(t, filepath.Join(dir, ".gitignore"), "cache/\n")
	write(t, filepath.Join(dir, "check.sh"), "#!/bin/sh\nif [ -e RED ]; then echo 'FAIL: the RED marker is there' >&2; exit 1; fi\necho ok\n")
	if err := os.Chmod(filepath.Join(dir, "check.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "init")
	return dir
}

func runner() *Runner { return &Runner{Procs: procs, Git: gitx.New()} }

func runIt(t *testing.T, s Spec) task.VerifyRun {
	t.Helper()
	r, err := runner().Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestPassAndFailOnAMarker(t *testing.T) {
	dir := repo(t)
	res := runIt(t, Spec{Dir: dir, Command: "./check.sh", Timeout: time.Minute})
	if res.Outcome != task.VerifyPassed || res.ExitCode != 0 || !strings.Contains(res.Tail, "ok") {
		t.Fatalf("pass: %+v", res)
	}
	write(t, filepath.Join(dir, "RED"), "x\n")
	res = runIt(t, Spec{Dir: dir, Command: "./check.sh", Timeout: time.Minute})
	if res.Outcome != task.VerifyFailed || res.ExitCode != 1 || !strings.Contains(res.Tail, "FAIL: the RED marker is there") {
		t.Fatalf("fail: %+v", res)
	}
	if got := res.FailureMessage(); got != "verification failed: ./check.sh exited 1" {
		t.Fatalf("message: %q", got)
	}
	if read(t, filepath.Join(dir, "RED")) != "x\n" {
		t.Fatal("the untracked RED marker was there before the run: it stays")
	}
}

// The tail is the last 200 lines, escapes removed.
func TestTailIsTheLast200Lines(t *testing.T) {
	dir := repo(t)
	res := runIt(t, Spec{Dir: dir, Command: `i=1; while [ $i -le 500 ]; do printf '\033[31mline %d\033[0m\n' $i; i=$((i+1)); done; exit 3`})
	lines := strings.Split(res.Tail, "\n")
	if res.ExitCode != 3 || len(lines) != TailLines || lines[0] != "line 301" || lines[len(lines)-1] != "line 500" {
		t.Fatalf("exit %d, %d lines: first %q last %q", res.ExitCode, len(lines), lines[0], lines[len(lines)-1])
	}
}

// Tracked and untracked files the command changes are put back; ignored
// files (build caches) stay; the real index is put back too.
func TestRestoresTrackedAndUntrackedKeepsIgnored(t *testing.T) {
	dir := repo(t)
	write(t, filepath.Join(dir, "a.txt"), "one, edited by the developer\n")
	write(t, filepath.Join(dir, "notes.txt"), "untracked before\n")
	git(t, dir, "add", "a.txt")
	indexBefore := read(t, filepath.Join(dir, ".git", "index"))
	cmd := `echo clobbered > a.txt; rm check.sh; echo new > made.txt; mkdir -p deep/er && echo x > deep/er/f.txt; ` +
		`echo changed > notes.txt; rm .gitignore; mkdir -p cache && echo built > cache/obj; git add made.txt`
	res := runIt(t, Spec{Dir: dir, Command: cmd})
	if res.Outcome != task.VerifyPassed {
		t.Fatalf("%+v", res)
	}
	for path, want := range map[string]string{
		"a.txt": "one, edited by the developer\n", "notes.txt": "untracked before\n", ".gitignore": "cache/\n",
		"cache/obj": "built\n",
	} {
		if got := read(t, filepath.Join(dir, path)); got != want {
			t.Errorf("%s = %q, want %q", path, got, want)
		}
	}
	if !strings.Contains(read(t, filepath.Join(dir, "check.sh")), "RED") {
		t.Error("check.sh not restored")
	}
	for _, gone := range []string{"made.txt", "deep"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is still there", gone)
		}
	}
	if read(t, filepath.Join(dir, ".git", "index")) != indexBefore {
		t.Error("the index was not put back")
	}
	if st := git(t, dir, "status", "--porcelain"); st != "M  a.txt\n?? notes.txt" && st != "M  a.txt\n?? notes.txt\n" {
		t.Errorf("status after: %q", st)
	}
	if res.Restored == 0 {
		t.Error("Restored not counted")
	}
	matches, _ := filepath.Glob(filepath.Join(dir, ".git", snapshotSuffix+"*"))
	if len(matches) > 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}

func TestEmptyDiffSkips(t *testing.T) {
	dir := repo(t)
	head := git(t, dir, "rev-parse", "HEAD")
	res := runIt(t, Spec{Dir: dir, Command: "./check.sh", Base: head})
	if res.Outcome != task.VerifySkipped || !res.Outcome.Passed() {
		t.Fatalf("%+v", res)
	}
	write(t, filepath.Join(dir, "b.txt"), "work\n") // an untracked file is work
	res = runIt(t, Spec{Dir: dir, Command: "./check.sh", Base: head})
	if res.Outcome != task.VerifyPassed {
		t.Fatalf("%+v", res)
	}
}

// survivors lists the live processes carrying tag.
func survivors(t *testing.T, tag string) []proc.Tagged {
	t.Helper()
	left, err := proc.FindTagged(tag)
	if err != nil {
		t.Fatal(err)
	}
	return left
}

func tag(t *testing.T) (string, string) {
	tg := proc.StepTag(fmt.Sprintf("vt%d", time.Now().UnixNano()), proc.OwnerRun, "task", "verify")
	return proc.StepEnv + "=" + tg, tg
}

// Bad commands: one that does not exist, one that never ends, one that
// prints without end, one that forks a daemon, one that reads stdin. Each
// ends clearly and leaves no process behind.
func TestBadCommands(t *testing.T) {
	dir := repo(t)
	env, tg := tag(t)
	cases := []struct {
		name, cmd string
		spec      func(*Spec)
		want      task.VerifyOutcome
		msg       string
	}{
		{"missing", "no-such-command-xyz --flag", nil, task.VerifyFailed, "verification failed: no-such-command-xyz --flag exited 127"},
		{"never ends", "sleep 300", func(s *Spec) { s.Timeout = 300 * time.Millisecond }, task.VerifyTimedOut, "timed out after"},
		{"prints forever", "yes 'a long line of output'", func(s *Spec) { s.MaxOutput = 256 << 10 }, task.VerifyOutputLimit, "printed too much output (it printed more than 256 KiB"},
		{"forks a daemon", "(setsid sleep 300 > /dev/null 2>&1 &); echo started", nil, task.VerifyPassed, ""},
		{"reads stdin", "cat; read line || echo 'stdin is at its end'", nil, task.VerifyPassed, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Spec{Dir: dir, Command: c.cmd, Env: []string{env}, Grace: 200 * time.Millisecond, Timeout: time.Minute}
			if c.spec != nil {
				c.spec(&s)
			}
			res := runIt(t, s)
			if res.Outcome != c.want {
				t.Fatalf("outcome %s, want %s: %+v", res.Outcome, c.want, res)
			}
			if c.msg != "" && !strings.Contains(res.FailureMessage(), c.msg) {
				t.Fatalf("message %q lacks %q", res.FailureMessage(), c.msg)
			}
			if left := survivors(t, tg); len(left) > 0 {
				t.Fatalf("processes left: %+v", left)
			}
		})
	}
}

func TestStopMidRunLeavesNoSurvivors(t *testing.T) {
	dir := repo(t)
	env, tg := tag(t)
	r, err := runner().Start(context.Background(), Spec{Dir: dir, Command: "sleep 300 & sleep 300; echo never", Env: []string{env}, Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); len(r.Pids()) < 2; {
		if time.Now().After(deadline) {
			t.Fatal("the command's tree never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.Stop(proc.ReasonStopped)
	res, err := r.Wait()
	if err != nil || res.Outcome != task.VerifyStopped {
		t.Fatalf("%+v %v", res, err)
	}
	if left := survivors(t, tg); len(left) > 0 {
		t.Fatalf("processes left: %+v", left)
	}
}

func TestRealGoTest(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go")
	}
	dir := repo(t)
	write(t, filepath.Join(dir, "go.mod"), "module example.com/tiny\n\ngo 1.22\n")
	write(t, filepath.Join(dir, "tiny_test.go"), "package tiny\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n"+
		"func TestNoRed(t *testing.T) {\n\tif _, err := os.Stat(\"RED\"); err == nil {\n\t\tt.Fatal(\"RED marker present\")\n\t}\n}\n")
	res := runIt(t, Spec{Dir: dir, Command: "go test ./...", Timeout: 5 * time.Minute})
	if res.Outcome != task.VerifyPassed {
		t.Fatalf("%+v", res)
	}
	write(t, filepath.Join(dir, "RED"), "x")
	res = runIt(t, Spec{Dir: dir, Command: "go test ./...", Timeout: 5 * time.Minute})
	if res.Outcome != task.VerifyFailed || !strings.Contains(res.Tail, "RED marker present") {
		t.Fatalf("%+v", res)
	}
}

func TestSuggest(t *testing.T) {
	dir := t.TempDir()
	if got := Suggest(dir); len(got) != 0 {
		t.Fatalf("empty folder: %+v", got)
	}
	write(t, filepath.Join(dir, "go.mod"), "module x\n")
	write(t, filepath.Join(dir, "package.json"), `{"scripts":{"test":"vitest run"}}`)
	write(t, filepath.Join(dir, "Makefile"), "build:\n\tgo build\n\ntest: build\n\tgo test ./...\n")
	write(t, filepath.Join(dir, "Cargo.toml"), "[package]\n")
	write(t, filepath.Join(dir, "pyproject.toml"), "[project]\n")
	var cmds []string
	for _, s := range Suggest(dir) {
		cmds = append(cmds, s.Command+"<"+s.Because)
	}
	if got := strings.Join(cmds, ","); got != "go test ./...<go.mod,npm test<package.json,make test<Makefile,cargo test<Cargo.toml,pytest<pyproject.toml" {
		t.Fatalf("suggestions: %s", got)
	}
	other := t.TempDir()
	write(t, filepath.Join(other, "package.json"), `{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}`)
	write(t, filepath.Join(other, "Makefile"), "TESTS := a b\nall:\n\techo test\n")
	if got := Suggest(other); len(got) != 0 {
		t.Fatalf("npm's placeholder test and a Makefile without a test target: %+v", got)
	}
}
