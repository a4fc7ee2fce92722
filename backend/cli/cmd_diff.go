package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/usererr"
)

func runDiff(ctx context.Context, c *call) error {
	fs := c.newFlags()
	stat := fs.Bool("stat", false, "list the changed files with their line counts")
	file := fs.String("file", "", "show the patch of this one file")
	leftovers := fs.Bool("leftovers", false, "show the leftovers branch against the task branch instead")
	asJSON := fs.Bool("json", false, "with --stat: print the file list as JSON")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	rc, err := c.openReviewWith(ctx, pos, false, c.openStoreRead)
	if err != nil {
		return err
	}
	defer rc.store.Close()
	t := rc.task
	base, head, err := rc.svc.DiffRange(ctx, rc.task, *leftovers)
	if err != nil {
		return err
	}
	m := rc.worktrees
	switch {
	case *stat:
		files, err := m.Files(ctx, t.Repo, base, head)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(c.io.Stdout, files)
		}
		var add, del int
		for _, f := range files {
			name := quoteIfOdd(f.Path)
			if f.OldPath != "" {
				name = quoteIfOdd(f.OldPath) + " => " + name
			}
			if f.Binary {
				fmt.Fprintf(c.io.Stdout, "%-10s binary          %s\n", f.Status, name)
				continue
			}
			add, del = add+f.Added, del+f.Removed
			fmt.Fprintf(c.io.Stdout, "%-10s +%-6d -%-6d %s\n", f.Status, f.Added, f.Removed, name)
		}
		fmt.Fprintf(c.io.Stdout, "%d file(s) changed, %d insertion(s), %d deletion(s)\n", len(files), add, del)
		return nil
	case *file != "":
		files, err := m.Files(ctx, t.Repo, base, head)
		if err != nil {
			return err
		}
		for _, f := range files {
			if f.Path == *file || f.OldPath == *file {
				p, err := m.ChangePatch(ctx, t.Repo, base, head, f)
				if err != nil {
					return err
				}
				_, err = fmt.Fprint(c.io.Stdout, p)
				return err
			}
		}
		return &usererr.Edge{Kind: usererr.NotChanged, Path: *file, TaskID: t.ID}
	}
	_, err = rc.git.Exec(ctx, gitx.Cmd{Dir: t.Repo, Stdout: c.io.Stdout, Args: []string{
		"diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "--end-of-options", base, head, "--"}})
	if err != nil {
		return fmt.Errorf("diff: %w", err)
	}
	return nil
}

// quoteIfOdd Go-quotes a path holding control characters or quotes.
func quoteIfOdd(p string) string {
	q := strconv.Quote(p)
	if q[1:len(q)-1] != p {
		return q
	}
	return p
}
