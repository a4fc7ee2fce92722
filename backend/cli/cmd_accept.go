package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// reviewCall is what the review verbs share: the store, the task and the
// review service.
type reviewCall struct {
	store *store.Store
	task  task.Task
	svc   *review.Service
	git   *gitx.Git
	// worktrees reads the task's changes (host.Services.Worktrees).
	worktrees *worktree.Manager
}

// openReview opens the store, for a command that changes refs
// (reconcile) first reconciles the accepts and undos a crash cut short
// (so the task's status, the target ref and its checkout agree before
// anything else is done), and loads the task named by the one positional
// argument. The caller closes rc.store.
func (c *call) openReview(ctx context.Context, pos []string, reconcile bool) (*reviewCall, error) {
	return c.openReviewWith(ctx, pos, reconcile, c.openStore)
}

// openReviewWith is openReview with the store opened by open.
func (c *call) openReviewWith(ctx context.Context, pos []string, reconcile bool, open storeOpener) (*reviewCall, error) {
	if len(pos) != 1 {
		return nil, usagef("expected one task ID")
	}
	s, paths, err := open(ctx)
	if err != nil {
		return nil, err
	}
	onLog := func(taskID string, _ int64, _ task.LogLevel, text string) {
		fmt.Fprintf(c.io.Stderr, "boof-runner: task %s: %s\n", taskID, safeLine(text))
	}
	// A signal during the move of an accept or an undo: the move is
	// finished first, and the user is told why the command goes on.
	hs := host.NewServices(host.Options{Paths: paths, Store: s, Hooks: pipeline.Hooks{OnLog: onLog}})
	svc := hs.Review
	if reconcile {
		if err := host.ReconcileAccepts(ctx, svc, s, onLog); err != nil {
			s.Close()
			return nil, err
		}
	}
	t, err := s.GetTask(ctx, pos[0])
	if err != nil {
		s.Close()
		return nil, err
	}
	if t.Repo == "" {
		s.Close()
		return nil, &usererr.Edge{Kind: usererr.NoRepoRecorded, TaskID: t.ID}
	}
	return &reviewCall{store: s, task: t, svc: svc, git: hs.Git, worktrees: hs.Worktrees}, nil
}

func runAccept(ctx context.Context, c *call) error {
	fs := c.newFlags()
	strategy := fs.String("strategy", "merge", "merge, squash or rebase")
	target := fs.String("target", "", "branch to accept into (default: the task's base branch, else the branch checked out in its working directory)")
	leftovers := fs.Bool("include-leftovers", false, "include the task's leftovers branch")
	message := fs.String("message", "", "commit message for merge or squash (default: the task title and the reviewer's summary)")
	dryRun := fs.Bool("dry-run", false, "only check: show what would be done and what stands in the way")
	asJSON := fs.Bool("json", false, "print the plan or the accept record as JSON")
	var only stringList
	fs.Var(&only, "only", "accept only this file, or hunk N of it: FILE[:N] (repeatable; one squash commit)")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(only) > 0 && !flagSet(fs, "strategy") {
		*strategy = string(review.StrategySquash)
	}
	st, err := review.ParseStrategy(*strategy)
	if err != nil {
		return usagef("%v", err)
	}
	rc, err := c.openReview(ctx, pos, true)
	if err != nil {
		return err
	}
	defer rc.store.Close()
	t := rc.task
	if *target == "" {
		if *target, err = rc.svc.DefaultTarget(ctx, t.Repo, t.Base); err != nil {
			return err
		}
	}
	msg := *message
	if strings.TrimSpace(msg) == "" {
		if msg, err = review.TaskMessage(ctx, rc.store, st, t); err != nil {
			return err
		}
	}
	unverified, err := rc.store.UnverifiedReason(ctx, t.ID)
	if err != nil {
		return err
	}
	r := review.Request{Repo: t.Repo, TaskID: t.ID, Status: t.Status, Target: *target, Strategy: st,
		Message: msg, IncludeLeftovers: *leftovers, Unverified: unverified}
	if len(only) > 0 {
		if r.Base, _, err = rc.svc.DiffRange(ctx, t, false); err != nil {
			return err
		}
		changed, err := rc.svc.ChangedFiles(ctx, t)
		if err != nil {
			return err
		}
		if r.Only, err = selections(only, changed); err != nil {
			return err
		}
	}
	if *dryRun {
		p, err := rc.svc.Plan(ctx, r)
		if *asJSON && (err == nil || errors.Is(err, review.ErrConflict) || errors.Is(err, review.ErrDirty)) {
			if jerr := writeJSON(c.io.Stdout, p); jerr != nil {
				return jerr
			}
		}
		if err != nil {
			return err
		}
		if !*asJSON {
			printPlan(c, p)
		}
		return nil
	}
	a, err := rc.svc.Accept(ctx, r, review.StoreRecorder{Store: rc.store})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.io.Stdout, a)
	}
	fmt.Fprintf(c.io.Stdout, "accepted %s into %s (%s): %s -> %s\n", t.ID, safeLine(strings.TrimPrefix(a.Target, "refs/heads/")), a.Strategy, a.OldSHA, a.NewSHA)
	for _, f := range a.Only {
		if len(f.Hunks) == 0 {
			fmt.Fprintf(c.io.Stdout, "took %s (whole file)\n", safeLine(f.File))
		} else {
			fmt.Fprintf(c.io.Stdout, "took %s hunk(s) %s\n", safeLine(f.File), strings.Trim(fmt.Sprint(f.Hunks), "[]"))
		}
	}
	if a.Checkout != "" {
		fmt.Fprintf(c.io.Stdout, "checkout %s is now at %s\n", safeLine(a.Checkout), a.NewSHA)
	}
	return nil
}

func printPlan(c *call, p review.Plan) {
	w := c.io.Stdout
	target := safeLine(strings.TrimPrefix(p.TargetRef, "refs/heads/"))
	task := safeLine(strings.TrimPrefix(p.TaskRef, "refs/heads/"))
	if m := p.Makes; m != nil {
		switch m.Kind {
		case review.OutcomeMergeCommit:
			fmt.Fprintf(w, "would make a merge commit on %s at %s, bringing %d commit(s) of %s\n", target, p.TargetSHA, len(p.Commits), task)
		case review.OutcomeSquashCommit:
			what := "every change of " + task
			if m.Subset {
				what = "only the chosen changes of " + task + " (the rest stays on the task branch)"
			}
			fmt.Fprintf(w, "would make one squash commit on %s at %s, holding %s\n", target, p.TargetSHA, what)
		case review.OutcomeRebase:
			fmt.Fprintf(w, "would replay %d commit(s) of %s onto %s at %s\n", m.Commits, task, target, p.TargetSHA)
		case review.OutcomeFastForward:
			fmt.Fprintf(w, "would fast-forward %s from %s to %s (%d commit(s))\n", target, p.TargetSHA, p.Head, m.Commits)
		}
		if m.Message != "" {
			fmt.Fprintf(w, "message: %s\n", safeLine(m.Subject()))
		}
		fmt.Fprintf(w, "%d file(s) changed, %d insertion(s), %d deletion(s)\n", len(m.Files), m.Additions, m.Deletions)
		for _, f := range m.Files {
			name := quoteIfOdd(f.Path)
			if f.OldPath != "" {
				name = quoteIfOdd(f.OldPath) + " => " + name
			}
			if f.Binary {
				fmt.Fprintf(w, "  %-10s binary          %s\n", f.Change, name)
				continue
			}
			fmt.Fprintf(w, "  %-10s +%-6d -%-6d %s\n", f.Change, f.Additions, f.Deletions, name)
		}
	} else {
		fmt.Fprintf(w, "would accept %d commit(s) of %s into %s (%s) at %s\n", len(p.Commits), task, target, p.Strategy, p.TargetSHA)
	}
	if p.Leftovers != "" {
		fmt.Fprintf(w, "including leftovers %s\n", safeLine(p.Leftovers))
	}
	if p.Checkout != "" {
		fmt.Fprintf(w, "the target is checked out in %s (clean); it would move to the new commit\n", safeLine(p.Checkout))
	} else {
		fmt.Fprintln(w, "the target is checked out nowhere; only the branch would move")
	}
}

func runUndoAccept(ctx context.Context, c *call) error {
	fs := c.newFlags()
	ch := addPRChoice(fs)
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if err := ch.check(); err != nil {
		return err
	}
	rc, err := c.openReview(ctx, pos, true)
	if err != nil {
		return err
	}
	defer rc.store.Close()
	rec := review.StoreRecorder{Store: rc.store}
	a, err := rec.LastAccept(ctx, rc.task.ID)
	if err != nil {
		return err
	}
	if err := c.decidePR(ctx, ch, rc.task, "undone"); err != nil {
		return err
	}
	err = rc.svc.Undo(ctx, review.UndoRequest{Repo: rc.task.Repo, TaskID: rc.task.ID, Status: rc.task.Status, Record: a}, rec)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stdout, "undid the accept of %s: %s is back at %s\n", rc.task.ID, safeLine(strings.TrimPrefix(a.Target, "refs/heads/")), a.OldSHA)
	return nil
}

// selections reads --only FILE[:N] arguments: an argument that is a
// changed file's name takes that whole file; otherwise it is split at its
// last colon into FILE and the hunk number N. Hunks of one file merge.
func selections(args, changed []string) ([]review.Selection, error) {
	isChanged := map[string]bool{}
	for _, p := range changed {
		isChanged[p] = true
	}
	var out []review.Selection
	at, whole := map[string]int{}, map[string]bool{}
	seen := map[hunkKey]bool{}
	for _, a := range args {
		file, n := a, 0
		if !isChanged[a] {
			var err error
			if file, n, err = splitHunkID(a); err != nil {
				return nil, usagef("--only %q: name a changed file, or FILE:N for its hunk N", a)
			}
		}
		if seen[hunkKey{file, n}] { // the same file or hunk again: refused, not taken twice
			return nil, &usererr.Edge{Kind: usererr.Twice, Name: "--only", Value: a}
		}
		seen[hunkKey{file, n}] = true
		i, ok := at[file]
		if !ok {
			i = len(out)
			at[file] = i
			out = append(out, review.Selection{File: file})
		}
		if n == 0 {
			whole[file], out[i].Hunks = true, nil
		} else if !whole[file] {
			out[i].Hunks = append(out[i].Hunks, n)
		}
	}
	return out, nil
}

// hunkKey names hunk N of a file (0: the whole file) in a selection.
type hunkKey struct {
	file string
	n    int
}

// flagSet reports whether the flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
