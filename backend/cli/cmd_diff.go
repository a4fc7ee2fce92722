package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/worktree"
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
	rc, err := c.openReview(ctx, pos)
	if err != nil {
		return err
	}
	defer rc.store.Close()
	t := rc.task
	base, head, err := diffRange(ctx, rc, *leftovers)
	if err != nil {
		return err
	}
	m := worktree.NewManager(rc.git, time.Now)
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
		return fmt.Errorf("%s is not changed in task %s", quoteIfOdd(*file), t.ID)
	}
	_, err = rc.git.Exec(ctx, gitx.Cmd{Dir: t.Repo, Stdout: c.io.Stdout, Args: []string{
		"diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "--end-of-options", base, head, "--"}})
	if err != nil {
		return fmt.Errorf("diff: %w", err)
	}
	return nil
}

// diffRange returns the base and head of the task's diff, from its
// branches (so it works after the worktree directory is gone): the base
// recorded at the run, else the merge base with the default target.
func diffRange(ctx context.Context, rc *reviewCall, leftovers bool) (string, string, error) {
	t := rc.task
	head := "refs/heads/" + review.TaskBranch(t.ID)
	if _, ok, err := rc.git.RefSHA(ctx, t.Repo, head); err != nil {
		return "", "", err
	} else if !ok {
		return "", "", fmt.Errorf("task %s: %w", t.ID, review.ErrNoTaskBranch)
	}
	if leftovers {
		left := "refs/heads/" + review.LeftoversBranch(t.ID)
		if _, ok, err := rc.git.RefSHA(ctx, t.Repo, left); err != nil {
			return "", "", err
		} else if !ok {
			return "", "", fmt.Errorf("task %s has no leftovers branch", t.ID)
		}
		return head, left, nil
	}
	if t.BaseSHA != "" {
		return t.BaseSHA, head, nil
	}
	target, err := rc.svc.DefaultTarget(ctx, t.Repo, t.Base)
	if err != nil {
		return "", "", fmt.Errorf("task %s has no recorded base: %w", t.ID, err)
	}
	out, err := rc.git.Run(ctx, t.Repo, "merge-base", "--end-of-options", "refs/heads/"+target, head)
	if err != nil {
		return "", "", fmt.Errorf("task %s has no recorded base and no merge base with %s: %w", t.ID, target, err)
	}
	base := string(out)
	if n := len(base); n > 0 && base[n-1] == '\n' {
		base = base[:n-1]
	}
	if base == "" {
		return "", "", errors.New("empty merge base")
	}
	return base, head, nil
}

// quoteIfOdd Go-quotes a path holding control characters or quotes.
func quoteIfOdd(p string) string {
	q := strconv.Quote(p)
	if q[1:len(q)-1] != p {
		return q
	}
	return p
}
