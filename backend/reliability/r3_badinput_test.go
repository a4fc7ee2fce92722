//go:build linux && reliability

package reliability

import (
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// R3 runs every class of bad input the project knows, each against a
// fresh data root with tasks in five statuses, through the real binary,
// and counts what must never happen:
//
//   - crash: a panic, a Go runtime error or death by a signal it was not sent;
//   - hang: still running at the case's limit (after the signal, when the
//     case sends SIGINT or SIGTERM to end a wait);
//   - silent change: the input was refused (or should have been) but the
//     database, the settings file, the repository's refs and worktrees or
//     the data root's files changed, or a case's own check found a change
//     nobody asked for;
//   - loss: a task that existed before is gone or altered by a command
//     that was not meant to change it;
//   - unclear message: the error is not one line in the vocabulary's form
//     (`boof-runner: <Sentence.>`, `boof-runner CMD: <problem>`), names a
//     Go type or raw SQLite/git text, holds raw control characters, or does
//     not say what the case expects.

// biCase is one class of bad input.
type biCase struct {
	name string
	// short: run in the short version too.
	short bool
	// setup prepares the world; args may then use e's paths and ids.
	setup func(e *biEnv)
	// args builds the command line (--data-dir is appended unless noDir).
	args  func(e *biEnv) []string
	noDir bool
	call  biCall
	// code is the exit code wanted; msg a text the error line must hold
	// ("" with code 0: no error line).
	code int
	msg  string
	// changes is true when the command is meant to change the data root
	// (then check decides what is right instead of the unchanged check).
	changes bool
	// check returns problems beyond the generic checks: "silent: …",
	// "loss: …" or "unclear: …".
	check func(e *biEnv, r biResult) []string
}

// biTally counts the outcomes of the cases.
type biTally struct {
	classes                                      int
	crashes, hangs, silent, losses, unclear, bad int
	notes                                        []string
}

func (t *biTally) figure() string {
	return fmt.Sprintf("%d classes: crashes %d, hangs %d, silent changes %d, losses %d, unclear messages %d",
		t.classes, t.crashes, t.hangs, t.silent, t.losses, t.unclear)
}

func (t *biTally) zero() bool {
	return t.crashes+t.hangs+t.silent+t.losses+t.unclear+t.bad == 0
}

// biGoisms are texts a user must never see.
var biGoisms = regexp.MustCompile(`%!|<nil>|\bsettings\.[A-Z]|\*[a-z]+\.[A-Z]|(^|[^.\w])sql: |sqlite3|exit status|goroutine|runtime error|\bcontext canceled\b`)

// biSentence is the vocabulary's form of a user error.
var biSentence = regexp.MustCompile(`^boof-runner: [A-Z"].*[.?!)]$`)

// biUsageLine is the form of a usage error.
var biUsageLine = regexp.MustCompile(`^boof-runner( [a-z-]+)?: \S.*$`)

// biRunCase runs one case and adds its outcome to the tally.
func biRunCase(t *testing.T, bin string, c biCase, tally *biTally) {
	e := biNewEnv(t, bin)
	if c.setup != nil {
		c.setup(e)
	}
	before := e.biSnapshot()
	call := c.call
	call.dir = e.tmp
	call.args = c.args(e)
	if !c.noDir {
		call.args = append(call.args, "--data-dir", e.dir)
	}
	r := biExec(t, bin, call)
	after := e.biSnapshot()
	var problems []string
	if r.crashed() {
		tally.crashes++
		problems = append(problems, fmt.Sprintf("crash: exit %d signal %q stderr %q", r.code, r.signaled, biClip(r.stderr)))
	}
	if r.hung {
		tally.hangs++
		problems = append(problems, fmt.Sprintf("hang: still running after %s", r.elapsed.Round(time.Millisecond)))
	}
	for id, row := range before.tasks {
		if after.tasks != nil && after.tasks[id] == "" {
			tally.losses++
			problems = append(problems, "loss: task "+id+" is gone")
		} else if !c.changes && after.tasks != nil && after.tasks[id] != row {
			tally.losses++
			problems = append(problems, "loss: task "+id+" was altered")
		}
	}
	if !c.changes {
		for _, d := range []struct{ what, a, b string }{
			{"database", before.db, after.db}, {"settings file", before.settings, after.settings},
			{"repository", before.repo, after.repo}, {"data root files", before.files, after.files},
		} {
			if d.a != d.b {
				tally.silent++
				problems = append(problems, "silent: the "+d.what+" changed")
			}
		}
	}
	if !r.hung && !r.crashed() {
		if msg := biClarity(c, r); msg != "" {
			tally.unclear++
			problems = append(problems, "unclear: "+msg)
		}
	}
	if c.check != nil {
		for _, p := range c.check(e, r) {
			switch {
			case strings.HasPrefix(p, "silent:"):
				tally.silent++
			case strings.HasPrefix(p, "loss:"):
				tally.losses++
			case strings.HasPrefix(p, "unclear:"):
				tally.unclear++
			default:
				tally.bad++
			}
			problems = append(problems, p)
		}
	}
	tally.classes++
	if len(problems) > 0 {
		tally.notes = append(tally.notes, c.name+": "+strings.Join(problems, "; "))
		t.Errorf("%s:\n  %s\n  stdout %q\n  stderr %q", c.name, strings.Join(problems, "\n  "), biClip(r.stdout), biClip(r.stderr))
	}
}

// biClarity checks the exit code and the error line; "" when both are right.
func biClarity(c biCase, r biResult) string {
	if r.code != c.code {
		return fmt.Sprintf("exit %d, want %d (stderr %q)", r.code, c.code, biClip(r.stderr))
	}
	if r.code == 0 {
		if c.msg != "" && !strings.Contains(r.stderr+r.stdout, c.msg) {
			return fmt.Sprintf("output lacks %q", c.msg)
		}
		return ""
	}
	line := biLastLine(r.stderr)
	if r.code == 2 {
		line = strings.SplitN(r.stderr, "\n", 2)[0]
	}
	switch {
	case strings.ContainsAny(line, "\x1b\x07\x00\r") || strings.ContainsRune(line, '\u009b'):
		return fmt.Sprintf("raw control characters in %q", line)
	case biGoisms.MatchString(line):
		return fmt.Sprintf("internal words in %q", line)
	case r.code == 1 && !biSentence.MatchString(line):
		return fmt.Sprintf("not one sentence: %q", line)
	case r.code == 2 && !biUsageLine.MatchString(line):
		return fmt.Sprintf("not a usage line: %q", line)
	case c.msg != "" && !strings.Contains(strings.ToLower(line), strings.ToLower(c.msg)):
		return fmt.Sprintf("%q lacks %q", line, c.msg)
	}
	return ""
}

func biClip(s string) string {
	if len(s) > 600 {
		return s[:300] + " … " + s[len(s)-300:]
	}
	return s
}

// biCases is every class, in groups.
func biCases() []biCase {
	var all []biCase
	for _, group := range [][]biCase{usageCases(), taskInputCases(), idCases(), statusCases(), waitCases(),
		importCases(), exportCases(), settingsCases(), runnerCases(), databaseCases(), repoCases()} {
		all = append(all, group...)
	}
	return all
}

// TestR3BadInput is row R3.
func TestR3BadInput(t *testing.T) {
	bin := biBuild(t)
	cases := biCases()
	tally := &biTally{}
	run := 0
	for _, c := range cases {
		if !Full() && !c.short {
			continue
		}
		run++
		t.Run(c.name, func(t *testing.T) { biRunCase(t, bin, c, tally) })
	}
	if run < 80 && Full() {
		t.Errorf("only %d classes, want at least 80", run)
	}
	test := fmt.Sprintf("every class of bad input (%d known; CLI usage, task fields, hostile ids, status rules, waits ended by SIGINT/SIGTERM, import, export targets, settings files and keys, runner refusals, damaged/foreign databases, git repositories and hooks) through the real binary on a data root with tasks in 5 statuses", len(cases))
	if !Full() {
		test += "; short version: a sample of each group"
	}
	row := Row{ID: "R3", Test: test, Figure: tally.figure(), Goal: "crashes, hangs, silent changes, losses 0 (and unclear messages 0)", Holds: tally.zero() && (run >= 80 || !Full())}
	if err := Record(row); err != nil {
		t.Fatal(err)
	}
	t.Logf("R3: %s", tally.figure())
	for _, n := range tally.notes {
		t.Log(n)
	}
}

// biSignal is a case that ends a wait with a signal after a moment.
func biSignal(s syscall.Signal) biCall {
	return biCall{holdStdin: true, signal: s, waitRead: true, limit: 20 * time.Second}
}

// biArgs returns args that do not depend on the env.
func biArgs(args ...string) func(*biEnv) []string { return func(*biEnv) []string { return args } }
