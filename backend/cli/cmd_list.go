package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func absPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("path %s: %w", p, err)
	}
	return abs, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runList(ctx context.Context, c *call) error {
	fs := c.newFlags()
	status := fs.String("status", "", "only tasks in this status (comma-separated list allowed)")
	search := fs.String("search", "", "only tasks whose id, title or prompt contains this")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	var f store.Filter
	f.Search = *search
	f.Limit = 100000
	if *status != "" {
		for _, s := range strings.Split(*status, ",") {
			if strings.TrimSpace(s) == "" {
				continue
			}
			st, err := task.ParseStatus(strings.TrimSpace(s))
			if err != nil {
				return err
			}
			f.Statuses = append(f.Statuses, st)
		}
	}
	s, paths, err := c.openStoreRead(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	tasks, err := s.ListTasks(ctx, f)
	if err != nil {
		return err
	}
	w, err := waits(ctx, s, paths)
	if err != nil {
		return err
	}
	if *asJSON {
		out := make([]listedTask, len(tasks))
		for i, t := range tasks {
			out[i] = listedTask{Task: t, WaitingFor: w.of(t)}
		}
		return writeJSON(c.io.Stdout, out)
	}
	tw := tabwriter.NewWriter(c.io.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tPRIO\tUPDATED\tTITLE")
	for _, t := range tasks {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", t.ID, w.status(t), t.Priority, t.UpdatedAt.Local().Format(time.DateTime), safeLine(t.DisplayTitle()))
	}
	return tw.Flush()
}
