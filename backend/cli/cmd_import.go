package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/taskimport"
	"github.com/boof-runner/boof-runner/backend/taskmd"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// runImport imports task files: this app's exports and the earlier
// version's files, through the same checks as add (backend/intake). One
// FILE (or - for stdin) prints the new task's id alone (notes, such as the
// files attached, on stderr) and fails with one line; a DIR imports every
// task file of the tree and prints one line per file, going on after a bad
// one. A FILE must be a regular file: a named pipe is refused before it is
// opened (pipe it to - instead). The exit code is 1 when any file failed or
// was imported before (--again imports it as another copy).
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
	s, paths, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	in := host.NewServices(host.Options{Paths: paths, Store: s}).Intake
	o := taskimport.Options{Again: *again}
	var results []taskimport.Result
	for i, p := range pos {
		switch {
		case p == "-":
			data, err := readAll(ctx, c.io.Stdin, taskmd.MaxSize, userfile.TaskFile)
			if err != nil {
				return err
			}
			results = append(results, taskimport.Bytes(ctx, in, data, o))
		case dirs[i]:
			rs, err := taskimport.Dir(ctx, in, p, o)
			results = append(results, rs...)
			var none *intake.NoTaskFilesError
			if errors.As(err, &none) && len(pos) > 1 {
				results = append(results, taskimport.FailedResult(p, err)) // the other arguments go on
				continue
			}
			if err != nil {
				return err
			}
		default:
			results = append(results, taskimport.File(ctx, in, p, o))
		}
	}
	if *asJSON {
		if results == nil {
			results = []taskimport.Result{}
		}
		if err := writeJSON(c.io.Stdout, results); err != nil {
			return err
		}
		return taskimport.Failure(results)
	}
	if len(pos) == 1 && !dirs[0] && len(results) == 1 {
		return c.printOne(results[0])
	}
	printReport(c, results)
	return taskimport.Failure(results)
}

// printOne reports the import of one file as `add` does: the id alone,
// or the file's error.
func (c *call) printOne(r taskimport.Result) error {
	if r.Outcome != taskimport.Imported {
		return r.Err
	}
	for _, n := range r.Notes {
		fmt.Fprintf(c.io.Stderr, "boof-runner: note: %s\n", safeLine(n))
	}
	fmt.Fprintln(c.io.Stdout, r.TaskID)
	return nil
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
