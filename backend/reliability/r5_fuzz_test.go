//go:build linux && reliability

package reliability

import (
	"bufio"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// R5 runs Go's native fuzzing on every parser of outside input, one
// target at a time, each as `go test -run '^$' -fuzz=^FuzzX$
// -fuzztime=<box>` in its package, and reads the executions from the
// fuzzer's own progress lines. The full version stops a target (SIGINT,
// which ends a fuzz run cleanly) once it passed its goal of executions;
// the time box bounds it either way. A crash is a failing fuzz run: its
// input is written by Go to the package's testdata/fuzz, as a reproducer.

// fuzzTarget is one fuzz test.
type fuzzTarget struct {
	name, pkg, fn string
}

var fuzzTargets = []fuzzTarget{
	{"verdict parser", "./backend/task", "FuzzParseVerdict"},
	{"task import", "./backend/taskmd", "FuzzParse"},
	{"claude stream parser", "./backend/agent/claude", "FuzzParser"},
	{"codex stream parser", "./backend/agent/codex", "FuzzParser"},
	{"diff parser", "./backend/worktree", "FuzzParseRawNumstat"},
	{"settings loader", "./backend/settings", "FuzzLoad"},
}

var execsLine = regexp.MustCompile(`execs: ([0-9]+)`)

// fuzzResult is what one target's run did.
type fuzzResult struct {
	execs   int64
	crashed bool
	elapsed time.Duration
	detail  string
}

// runFuzz fuzzes t for at most box, stopping early once it ran goal
// executions (goal 0: run the whole box).
func runFuzz(t *testing.T, root string, ft fuzzTarget, box time.Duration, goal int64) fuzzResult {
	cmd := exec.Command("go", "test", "-run", "^$", "-fuzz", "^"+ft.fn+"$",
		"-fuzztime", fmt.Sprintf("%ds", int(box.Seconds())), "-fuzzminimizetime", "2s", ft.pkg)
	cmd.Dir = root
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var res fuzzResult
	var log strings.Builder
	var once sync.Once
	stopped := false
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		log.WriteString(line + "\n")
		if m := execsLine.FindStringSubmatch(line); m != nil {
			res.execs, _ = strconv.ParseInt(m[1], 10, 64)
			if goal > 0 && res.execs >= goal {
				// Goal reached: end the fuzz run as Ctrl-C would (the whole
				// group of go test, the test binary and its workers).
				once.Do(func() { stopped = true; syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) })
			}
		}
	}
	err = cmd.Wait()
	res.elapsed = time.Since(start)
	text := log.String()
	// Stopped by our SIGINT, the go command exits by that signal after the
	// test binary reported PASS; anything else non-zero is a failure.
	failed := strings.Contains(text, "--- FAIL") || strings.Contains(text, "\nFAIL")
	// The fuzz engine itself may fail with "context deadline exceeded" when
	// the time box ends while it handles a new input (no input failed: a
	// crash always writes "Failing input written to"); that is not a crash
	// of the target.
	if failed && !strings.Contains(text, "Failing input written to") && strings.Contains(text, "context deadline exceeded") {
		t.Logf("%s: the fuzz engine stopped at the end of its time box with %q; not a crash of the target", ft.name, "context deadline exceeded")
		failed, err = false, nil
	}
	if failed || err != nil && !(stopped && strings.Contains(text, "\nPASS")) {
		res.crashed = true
		res.detail = lastLines(text, 12)
	}
	return res
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func millions(n int64) string {
	if n >= 100_000 {
		return fmt.Sprintf("%.2f M", float64(n)/1e6)
	}
	return fmt.Sprintf("%d", n)
}

// TestR5Fuzz is row R5.
func TestR5Fuzz(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		Record(Row{ID: "R5", Test: "Go native fuzzing of the parsers", Goal: "≥ 1 M executions per target, crashes 0", NotRun: "no go command on this machine"})
		t.Skip("no go command")
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	box, goal := 2*time.Second, int64(0)
	if Full() {
		box, goal = 300*time.Second, 1_000_000
	}
	var parts []string
	crashes, short := 0, 0
	for _, ft := range fuzzTargets {
		res := runFuzz(t, root, ft, box, goal)
		if res.execs == 0 && !res.crashed && !Full() {
			// On a loaded machine the engine's first pass over the seed corpus
			// can take the whole short box: give it one longer box.
			t.Logf("%s ran no executions in %s; once more with %s", ft.name, box, 8*box)
			res = runFuzz(t, root, ft, 8*box, goal)
		}
		parts = append(parts, fmt.Sprintf("%s %s in %s", ft.name, millions(res.execs), res.elapsed.Round(time.Second)))
		if res.crashed {
			crashes++
			t.Errorf("%s (%s %s) crashed:\n%s", ft.name, ft.pkg, ft.fn, res.detail)
		}
		if goal > 0 && res.execs < goal {
			short++
			t.Errorf("%s ran %d executions in its %s box, want %d", ft.name, res.execs, box, goal)
		}
		if res.execs == 0 && !res.crashed {
			short++
			t.Errorf("%s ran no executions", ft.name)
		}
	}
	figure := fmt.Sprintf("executions: %s; crashes %d", strings.Join(parts, ", "), crashes)
	goalText := "≥ 1 M executions per target in the full run, crashes 0"
	test := fmt.Sprintf("go test -fuzz per target (%d targets: verdict parser, task import, claude and codex stream parsers, diff parser, settings loader), time box %s each", len(fuzzTargets), box)
	if goal > 0 {
		test += ", stopped once past 1 M executions"
	}
	row := Row{ID: "R5", Test: test, Figure: figure, Goal: goalText, Holds: crashes == 0 && short == 0}
	if err := Record(row); err != nil {
		t.Fatal(err)
	}
	t.Log("R5: " + figure)
}
