// Package cli implements the headless subcommands of boof-runner. They work
// without a display on the same data root as the desktop app.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/wake"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitUser  = 1
	ExitUsage = 2
)

// IO is the command's standard streams.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Env is what a command may read from its process.
type Env struct {
	Getenv func(string) string
}

// usageError is a mistake in how the command was called (exit 2); flags
// is set for a flag the command could not parse, whose usage then follows
// the message.
type usageError struct {
	msg   string
	flags bool
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, c *call) error
}

// call is one invocation of a subcommand.
type call struct {
	name    string
	args    []string
	io      IO
	env     Env
	dataDir string
	// summary is the command's line of the help.
	summary string
	// usage prints the command's flags; set by newFlags.
	usage func(w io.Writer)
}

// goos is the operating system whose data directory is the default one.
var goos = runtime.GOOS

// commands is the table of subcommands.
var commands = map[string]command{
	"add":             {"add a task to the queue: add [--command NAME] [--attach FILE]... [--at TIME] [--every CRON [--tz ZONE] [--name NAME]] PROMPT | add --from-issue URL", runAdd},
	"list":            {"list tasks", runList},
	"show":            {"show one task", runShow},
	"runner":          {"run the queue headless: runner [--once | --until-idle]", runRunner},
	"stop":            {"stop a running task: stop ID", runStop},
	"inject":          {"inject a prompt into a task: inject ID TEXT", runInject},
	"settings":        {"read or change settings: settings get [KEY] | settings set KEY VALUE | settings reset (moves the file aside)", runSettings},
	"diff":            {"show a task's diff: diff ID [--stat] [--file PATH] [--leftovers]", runDiff},
	"accept":          {"accept a task's work: accept ID [--strategy merge|squash|rebase] [--target BRANCH] [--include-leftovers] [--only FILE[:N]]... [--dry-run]", runAccept},
	"undo-accept":     {"undo a task's accept: undo-accept ID [--close-pr|--keep-pr]", runUndoAccept},
	"reject":          {"reject a task's work: reject ID [--delete-branches [--yes]] [--close-pr|--keep-pr]", runReject},
	"answer":          {"answer a parked task's questions: answer ID TEXT (- reads stdin)", runAnswer},
	"retry":           {"re-queue a failed or stopped task: retry ID [--from planner|developer] (a stopped task resumes where it stopped)", runRetry},
	"request-changes": {"send a finished task back to its developer: request-changes ID [-m TEXT] [--comment FILE:N=TEXT]... [--drop FILE:N]...", runRequestChanges},
	"archive":         {"archive a task: archive ID", runArchive},
	"unarchive":       {"unarchive a task (back to its previous status): unarchive ID", runUnarchive},
	"delete":          {"delete a task (never an ongoing one; git branches are kept): delete ID [--close-pr|--keep-pr]", runDelete},
	"export":          {"export a task as markdown: export ID [-o FILE [--force]]", runExport},
	"import":          {"import task files (this app's exports and the earlier version's): import [--again] [--json] FILE|-|DIR...", runImport},
	"doctor":          {"check the agent tools: doctor [--json]", runDoctor},
	"commands":        {"command templates: commands list [--json] | show NAME | add NAME FILE|- [--replace] | rm NAME", runCommands},
	"log":             {"print a task's log: log ID [--follow] [--events]", runLog},
	"edit":            {"change a task: edit ID [--priority N] [--skip|--no-skip] [--title T] [--label L]...", runEdit},
	"queue":           {"the merge queue: " + queueUsage, runQueue},
	"verify":          {"the verification gate: " + verifyUsage, runVerify},
	"budget":          {"print spend against each budget: budget [--json] | budget retry (re-queue the tasks a cap no longer holds)", runBudget},
	"schedules":       {"recurring tasks: schedules [list] | schedules pause|resume|delete|log ID [--json]", runSchedules},
	"limits":          {"tools paused by a usage limit: limits [--json] | limits resume TOOL", runLimits},
	"push":            {"push a task's branch to its remote: push ID [--remote NAME] [--branch NAME] (never over someone else's commits)", runPush},
	"pr":              {"a task's pull request (merge request): " + prUsage, runPR},
	"exec-task":       {"run one task's pipeline as a cluster's pod does: exec-task --in DIR --work DIR [--listen ADDR] | exec-task --fetch URL --to FILE", runExecTask},
}

// wakes are the commands whose change the data root's runner must act on
// (a task to claim, a control, a setting): when they succeed the runner's
// wake-up socket is poked, so a runner in another process acts at once
// instead of at its next poll.
var wakes = map[string]bool{"add": true, "stop": true, "inject": true, "answer": true, "retry": true,
	"settings": true, "unarchive": true, "import": true}

// pokeRunner rings the wake-up socket of the call's data root. Nothing
// listening (no runner, a crashed one's stale socket) is not an error: the
// change is in the store, and the next runner or poll picks it up.
func (c *call) pokeRunner() {
	getenv := c.env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if root, err := dataroot.Resolve(c.dataDir, getenv, goos); err == nil {
		_ = wake.Poke(dataroot.Paths{Root: root}.WakeSocket())
	}
}

// Commands returns the subcommand names, sorted.
func Commands() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// IsCommand reports whether name is a subcommand.
func IsCommand(name string) bool {
	_, ok := commands[name]
	return ok
}

// globalFlags splits the flags every command takes that may also come
// before the command (`boof-runner --data-dir X list`) off the front of
// args. It returns them (as the command's own flags) and the rest, or a
// usage error for a global flag without its value.
func globalFlags(args []string) (global, rest []string, err error) {
	for len(args) > 0 {
		a := args[0]
		if a == "--" { // ends the global flags: `boof-runner -- list`
			return global, args[1:], nil
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" || name != "data-dir" {
			break
		}
		if hasValue {
			global, args = append(global, a), args[1:]
			continue
		}
		if len(args) < 2 {
			return nil, nil, usagef("flag needs an argument: %s", a)
		}
		global, args = append(global, a, args[1]), args[2:]
	}
	return global, args, nil
}

// IsHeadless reports whether args ask for a headless command (after any
// global flags) rather than the window: a command name or help.
func IsHeadless(args []string) bool {
	_, rest, err := globalFlags(args)
	if err != nil || len(rest) == 0 {
		return false
	}
	return IsCommand(rest[0]) || rest[0] == "help" || rest[0] == "-h" || rest[0] == "--help"
}

// Run executes the subcommand in args[0] (after any global flags, which
// apply to it) and returns the process exit code: ExitUsage with
// "boof-runner COMMAND: <problem>" on stderr for a mistake in how it was
// called (a flag error is followed by the command's flags), ExitUser with
// "boof-runner: <message>" (the message of backend/usererr, the same the
// desktop app shows) for any other error, and 128 + the signal's number
// for a runner that SIGINT, SIGTERM or SIGHUP stopped (130, 143, 129). Everything
// printed from the message on is escaped for the terminal, and a stdout or
// stderr that is a terminal gets every byte through one escaping path
// (terminalSafe).
func Run(ctx context.Context, args []string, stdio IO, env Env) int {
	stdio, flush := terminalSafe(stdio)
	defer flush()
	global, args, err := globalFlags(args)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "boof-runner: %s (run 'boof-runner help')\n", err)
		return ExitUsage
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(stdio.Stdout)
		return ExitOK
	}
	name := args[0]
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stdio.Stderr, "boof-runner: unknown command %q (run 'boof-runner help')\n", name)
		return ExitUsage
	}
	c := &call{name: name, summary: cmd.summary, args: append(global, args[1:]...), io: stdio, env: env}
	err = cmd.run(ctx, c)
	if err == nil {
		if wakes[name] {
			c.pokeRunner()
		}
		return ExitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		if c.usage != nil {
			c.usage(stdio.Stdout)
		}
		return ExitOK
	}
	var code exitCode
	if errors.As(err, &code) {
		return int(code)
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stdio.Stderr, "boof-runner %s: %s\n", name, safeLine(oneLine(err.Error())))
		if ue.flags && c.usage != nil {
			c.usage(stdio.Stderr)
		}
		return ExitUsage
	}
	msg, _ := usererr.Describe(err)
	fmt.Fprintf(stdio.Stderr, "boof-runner: %s\n", safeLine(msg))
	return ExitUser
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: boof-runner [--data-dir DIR]             open the desktop app")
	fmt.Fprintln(w, "       boof-runner COMMAND [flags] [args]       run a headless command")
	fmt.Fprintln(w, "\ncommands:")
	for _, n := range Commands() {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nEvery command takes --data-dir DIR (default $BOOF_RUNNER_HOME or the OS data dir).")
}

// newFlags returns a flag set with the shared --data-dir flag. Parsing
// prints nothing: Run prints the cause of a flag error first, then the
// usage (c.usage); -h prints the usage to stdout.
func (c *call) newFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("boof-runner "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	c.usage = func(w io.Writer) {
		fmt.Fprintf(w, "usage: boof-runner %s [flags]\n", c.name)
		if c.summary != "" {
			fmt.Fprintf(w, "  %s\n", c.summary)
		}
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	fs.StringVar(&c.dataDir, "data-dir", "", "data root directory")
	return fs
}

// parse parses flags that may appear before, between or after positional
// arguments ("--" ends flags) and returns the positional arguments. A
// negative number ("-1", "-5.5") where a flag would start is an argument,
// not an unknown flag: `settings set runner.concurrency -1` and
// `queue move ID -5` reach the command, which says what is wrong with the
// value. A --data-dir given empty is refused rather than taken for the
// default data root.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		head, num, rest := splitAtNumber(fs, args)
		if err := fs.Parse(head); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &usageError{msg: err.Error(), flags: true}
		}
		left := fs.Args() // what follows the first positional argument of head, or "--"
		after := rest
		if num != "" {
			after = append([]string{num}, rest...)
		}
		if len(left) < len(head) && head[len(head)-len(left)-1] == "--" {
			return append(append(pos, left...), after...), checkDataDir(fs)
		}
		if len(left) == 0 && len(after) == 0 {
			return pos, checkDataDir(fs)
		}
		if len(left) == 0 { // head was all flags: the number is an argument
			pos = append(pos, num)
			args = rest
			continue
		}
		pos = append(pos, left[0])
		args = append(append([]string{}, left[1:]...), after...)
	}
}

// splitAtNumber splits args at the first negative number that stands where
// a flag could start (not the value of the flag before it, not after
// "--"): the arguments before it, the number, and the rest. num is ""
// when there is none.
func splitAtNumber(fs *flag.FlagSet, args []string) (head []string, num string, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			return args, "", nil
		}
		if isNegativeNumber(a) {
			return args[:i], a, args[i+1:]
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f := fs.Lookup(name); f != nil && !hasValue && !isBoolFlag(f) {
			i++ // the flag's value, whatever it looks like
		}
	}
	return args, "", nil
}

// isNegativeNumber reports whether s is "-" then a decimal number.
func isNegativeNumber(s string) bool {
	if len(s) < 2 || s[0] != '-' || (s[1] < '0' || s[1] > '9') && s[1] != '.' {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// checkDataDir refuses a --data-dir flag given an empty value.
func checkDataDir(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "data-dir" && strings.TrimSpace(f.Value.String()) == "" {
			err = usagef("--data-dir is empty: give the data root's folder, or leave the flag out for the default")
		}
	})
	return err
}

// openStore resolves and prepares the data root and opens its database.
func (c *call) openStore(ctx context.Context) (*store.Store, dataroot.Paths, error) {
	getenv := c.env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	root, err := dataroot.Resolve(c.dataDir, getenv, goos)
	if err != nil {
		return nil, dataroot.Paths{}, err
	}
	if err := dataroot.Ensure(root); err != nil {
		return nil, dataroot.Paths{}, err
	}
	paths := dataroot.Paths{Root: root}
	s, err := store.Open(ctx, paths.Database(), store.Options{AttachmentsDir: paths.Attachments()})
	if err != nil {
		return nil, paths, err
	}
	if fixed, err := host.NewServices(host.Options{Paths: paths, Store: s}).RepairRepos(ctx); err != nil {
		fmt.Fprintf(c.io.Stderr, "boof-runner: warning: could not record the working directory of older tasks: %s\n", safeLine(oneLine(err.Error())))
	} else if len(fixed) > 0 {
		fmt.Fprintf(c.io.Stderr, "boof-runner: recorded the working directory of %d older task(s)\n", len(fixed))
	}
	return s, paths, nil
}
