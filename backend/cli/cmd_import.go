package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/boof-runner/boof-runner/backend/taskimport"
	"github.com/boof-runner/boof-runner/backend/taskmd"
	"github.com/boof-runner/boof-runner/backend/usererr"
)

// runImport imports task files: this app's exports and the earlier
// version's files. One FILE (or - for stdin) prints the new task's id alone
// (notes on stderr) and fails with one line; a DIR imports every task file
// of the tree and prints one line per file, going on after a bad one. The
// exit code is 1 when any file failed or was imported before (--again
// imports it as another copy).
func runImport(ctx context.Context, c *call) error {
	fs := c.newFlags()
	again := fs.Bool("again", false, "import files whose task was imported before as another copy")
	asJSON := fs.Bool("json", false, "print one JSON object per file (path, outcome, task_id, notes, error)")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("expected FILE, - (stdin) or DIR")
	}
	var dirs []bool
	for _, p := range pos {
		fi, err := os.Stat(p)
		dirs = append(dirs, err == nil && fi.IsDir())
	}
	s, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	o := taskimport.Options{Again: *again}
	var results []taskimport.Result
	for i, p := range pos {
		switch {
		case p == "-":
			data, err := readAll(ctx, c.io.Stdin, taskmd.MaxSize, "the task file on standard input")
			if err != nil {
				return err
			}
			results = append(results, taskimport.Bytes(ctx, s, "stdin", data, o))
		case dirs[i]:
			rs, err := taskimport.Dir(ctx, s, p, o)
			results = append(results, rs...)
			if err != nil {
				return err
			}
		default:
			// Through readFile: a pipe (import <(…)) is read, and a read that
			// waits gives way to a signal.
			data, err := readFile(ctx, p, taskmd.MaxSize, "the task file "+p)
			if err != nil {
				if len(pos) == 1 || errors.Is(err, errInterrupted) {
					return err
				}
				msg, _ := usererr.Describe(err)
				results = append(results, taskimport.Result{Path: p, Outcome: taskimport.Failed, Error: msg})
				continue
			}
			results = append(results, taskimport.Bytes(ctx, s, p, data, o))
		}
	}
	if *asJSON {
		if results == nil {
			results = []taskimport.Result{}
		}
		if err := writeJSON(c.io.Stdout, results); err != nil {
			return err
		}
		return importFailure(results)
	}
	if len(pos) == 1 && !dirs[0] && len(results) == 1 {
		return c.printOne(results[0])
	}
	printReport(c, results)
	return importFailure(results)
}

// printOne reports the import of one file as `add` does: the id alone.
func (c *call) printOne(r taskimport.Result) error {
	switch r.Outcome {
	case taskimport.Imported:
		for _, n := range r.Notes {
			fmt.Fprintf(c.io.Stderr, "boof-runner: note: %s\n", safeLine(n))
		}
		fmt.Fprintln(c.io.Stdout, r.TaskID)
		return nil
	case taskimport.Skipped:
		return fmt.Errorf("%s is %s", r.Path, r.Error)
	}
	return errors.New(r.Error)
}

// printReport prints one line per file, its notes indented below it, and
// a summary.
func printReport(c *call, rs []taskimport.Result) {
	w := c.io.Stdout
	count := map[taskimport.Outcome]int{}
	for _, r := range rs {
		count[r.Outcome]++
		switch r.Outcome {
		case taskimport.Imported:
			from := ""
			if r.OriginID != "" {
				from = ", from " + safeLine(r.OriginID)
			}
			fmt.Fprintf(w, "%-9s %s -> %s (%s%s; %s)\n", r.Outcome, quoteIfOdd(r.Path), r.TaskID, r.Status, from, r.Format)
		default:
			fmt.Fprintf(w, "%-9s %s: %s\n", r.Outcome, quoteIfOdd(r.Path), safeLine(oneLine(r.Error)))
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "          note: %s\n", safeLine(n))
		}
	}
	var parts []string
	for _, o := range []taskimport.Outcome{taskimport.Imported, taskimport.Duplicate, taskimport.Failed, taskimport.Skipped} {
		parts = append(parts, fmt.Sprintf("%d %s", count[o], o))
	}
	fmt.Fprintln(w, strings.Join(parts, ", "))
}

// importFailure is the command's error when a file failed or was a duplicate.
func importFailure(rs []taskimport.Result) error {
	bad := 0
	for _, r := range rs {
		if r.Outcome == taskimport.Failed || r.Outcome == taskimport.Duplicate {
			bad++
		}
	}
	if bad == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d file(s) were not imported; the others were", bad, len(rs))
}
