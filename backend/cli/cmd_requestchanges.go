package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
)

// runRequestChanges sends a finished task back to its developer:
// request-changes ID [-m TEXT] [--comment FILE:N=TEXT]... [--drop FILE:N]...
// N is the 1-based hunk of FILE in the task's diff against its base.
func runRequestChanges(ctx context.Context, c *call) error {
	fs := c.newFlags()
	general := fs.String("m", "", "the general comment")
	var comments, drops stringList
	fs.Var(&comments, "comment", "a comment on a hunk: FILE:N=TEXT (repeatable)")
	fs.Var(&drops, "drop", "a hunk to drop: FILE:N (repeatable)")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if *general == "" && len(comments) == 0 && len(drops) == 0 {
		return usagef("give a general comment (-m), a --comment or a --drop")
	}
	rc, err := c.openReview(ctx, pos, false)
	if err != nil {
		return err
	}
	defer rc.store.Close()
	t := rc.task
	req := review.ChangeRequest{General: *general}
	var changed []string
	for _, arg := range comments {
		if changed == nil {
			if changed, err = rc.svc.ChangedFiles(ctx, t); err != nil {
				return err
			}
		}
		file, n, text, err := splitComment(arg, changed)
		if err != nil {
			return err
		}
		h, err := cliHunk(ctx, rc, t, file, n)
		if err != nil {
			return err
		}
		req.Comments = append(req.Comments, review.Comment{File: file, Hunk: h.Text, Line: h.NewStart, Text: text})
	}
	dropped := map[hunkKey]bool{}
	for _, arg := range drops {
		file, n, err := splitHunkID(arg)
		if err != nil {
			return err
		}
		if dropped[hunkKey{file, n}] {
			return &usererr.Edge{Kind: usererr.Twice, Name: "--drop", Value: arg}
		}
		dropped[hunkKey{file, n}] = true
		h, err := cliHunk(ctx, rc, t, file, n)
		if err != nil {
			return err
		}
		req.Drops = append(req.Drops, review.Drop{File: file, Hunk: h.Text})
	}
	q, err := rc.svc.RequestChanges(ctx, t, req, review.StoreRecorder{Store: rc.store})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stdout, "fix run %d queued for %s: %d comment(s), %d dropped hunk(s); the developer starts it with your review\n",
		q.Fix, t.ID, len(req.Comments), len(req.Drops))
	return nil
}

// cliHunk returns hunk n of file in the task's diff, or a
// *review.StaleHunkError naming what the diff has.
func cliHunk(ctx context.Context, rc *reviewCall, t task.Task, file string, n int) (review.Hunk, error) {
	f, err := rc.svc.TaskHunks(ctx, t, file)
	if err != nil {
		return review.Hunk{}, err
	}
	if n < 1 || n > len(f.Hunks) {
		return review.Hunk{}, &review.StaleHunkError{File: file, Index: n, Count: len(f.Hunks)}
	}
	return f.Hunks[n-1], nil
}

// splitHunkID splits FILE:N at its last colon.
func splitHunkID(arg string) (string, int, error) {
	i := strings.LastIndexByte(arg, ':')
	if i <= 0 {
		return "", 0, usagef("%q: a hunk is FILE:N (N is the hunk's number in that file, from 1)", arg)
	}
	n, err := strconv.Atoi(arg[i+1:])
	if err != nil || n < 1 {
		return "", 0, usagef("%q: a hunk is FILE:N (N is the hunk's number in that file, from 1)", arg)
	}
	return arg[:i], n, nil
}

// splitComment splits FILE:N=TEXT, where FILE is one of the changed files
// (the longest that fits, since a name and a text may both hold ":N=").
func splitComment(arg string, changed []string) (file string, n int, text string, err error) {
	best := -1
	for _, p := range changed {
		rest, ok := strings.CutPrefix(arg, p+":")
		if !ok || len(p) <= best {
			continue
		}
		num, txt, ok := strings.Cut(rest, "=")
		if v, err := strconv.Atoi(num); ok && err == nil && v >= 1 {
			file, n, text, best = p, v, txt, len(p)
		}
	}
	if best < 0 {
		return "", 0, "", usagef("%q: a comment is FILE:N=TEXT, with FILE a file the task's diff changes", arg)
	}
	return file, n, text, nil
}
