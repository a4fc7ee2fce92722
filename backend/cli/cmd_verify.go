package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"text/tabwriter"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/verify"
)

// verifyUsage is the verify command's shape.
const verifyUsage = "verify ID | verify set --repo PATH CMD | verify get --repo PATH | verify unset --repo PATH | verify list"

func runVerify(ctx context.Context, c *call) error {
	if len(c.args) == 0 {
		return usagef("expected a task ID or a subcommand: %s", verifyUsage)
	}
	switch c.args[0] {
	case "set", "get", "unset":
		sub := c.args[0]
		c.args = c.args[1:]
		return verifyRepo(ctx, c, sub)
	case "list", "ls":
		c.args = c.args[1:]
		return verifyList(ctx, c)
	}
	return verifyTask(ctx, c)
}

// verifyRepo sets, shows or removes a repository's verify command, keyed
// by the repository's top-level path.
func verifyRepo(ctx context.Context, c *call, sub string) error {
	fs := c.newFlags()
	repo := fs.String("repo", "", "any folder of the repository (required)")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if *repo == "" {
		return usagef("--repo PATH is required")
	}
	want := 0
	if sub == "set" {
		want = 1
	}
	if len(pos) != want {
		if want == 1 {
			return usagef("expected the command as one argument (quote it)")
		}
		return usagef("unexpected argument %q", pos[0])
	}
	top, err := gitx.New().TopLevel(ctx, *repo)
	if err != nil {
		return err
	}
	st, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	switch sub {
	case "set":
		rv, err := st.SetRepoVerify(ctx, top, pos[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(c.io.Stdout, "verify command of %s: %s\n", safeLine(rv.Path), safeLine(rv.Command))
	case "unset":
		if err := st.DeleteRepoVerify(ctx, top); err != nil {
			return err
		}
		fmt.Fprintf(c.io.Stdout, "removed the verify command of %s\n", safeLine(top))
	default:
		rv, err := st.GetRepoVerify(ctx, top)
		if err == nil {
			fmt.Fprintln(c.io.Stdout, safeLine(rv.Command))
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		fmt.Fprintf(c.io.Stdout, "no verify command set for %s\n", safeLine(top))
		for _, s := range verify.Suggest(top) {
			fmt.Fprintf(c.io.Stdout, "suggested (from %s): boof-runner verify set --repo %s '%s'\n", s.Because, safeLine(top), safeLine(s.Command))
		}
	}
	return nil
}

// verifyList lists every repository's command, marking paths that no
// longer exist.
func verifyList(ctx context.Context, c *call) error {
	fs := c.newFlags()
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	st, _, err := c.openStoreRead(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	rs, err := st.RepoVerifies(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.io.Stdout, rs)
	}
	tw := tabwriter.NewWriter(c.io.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REPOSITORY\tCOMMAND")
	for _, r := range rs {
		path := r.Path
		if _, err := os.Stat(r.Path); err != nil {
			path += " (no longer exists)"
		}
		fmt.Fprintf(tw, "%s\t%s\n", safeLine(path), safeLine(r.Command))
	}
	return tw.Flush()
}

// verifyTask runs the task's verify command on demand in its kept
// worktree, prints the output as it comes, records the run on the task and
// exits 1 when it did not pass.
func verifyTask(ctx context.Context, c *call) error {
	fs := c.newFlags()
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	st, paths, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	t, err := st.GetTask(ctx, pos[0])
	if err != nil {
		return err
	}
	if t.Status == task.StatusOngoing {
		return &usererr.Edge{Kind: usererr.TaskRunning, TaskID: t.ID}
	}
	if t.WorktreePath == "" {
		return &usererr.Edge{Kind: usererr.NoWorktree, TaskID: t.ID}
	}
	if fi, err := os.Stat(t.WorktreePath); err != nil || !fi.IsDir() {
		return &usererr.Edge{Kind: usererr.NoWorktree, TaskID: t.ID, Path: t.WorktreePath}
	}
	set, _ := host.SettingsFile(paths).Load()
	g := gitx.New()
	top, err := g.TopLevel(ctx, t.WorktreePath)
	if err != nil {
		return err
	}
	repo := t.Repo
	if repo == "" {
		repo = set.WorkingDirectory
	}
	repoTop := repo
	if rt, err := g.TopLevel(ctx, repo); err == nil {
		repoTop = rt
	}
	choice, err := pipeline.ResolveVerify(ctx, st, set, t.ID, repoTop)
	if err != nil {
		return err
	}
	if choice.Command == "" {
		return &usererr.Edge{Kind: usererr.NoVerifyCommand, TaskID: t.ID, Dir: repoTop}
	}
	procs := proc.NewRunner(proc.RunnerOptions{Logger: slog.New(slog.NewTextHandler(c.io.Stderr, &slog.HandlerOptions{Level: slog.LevelError})),
		NoSubreaper: true, Filter: func() proc.Filter { return secrets.NewStream() }})
	defer procs.Shutdown(time.Duration(set.Stop.GraceMs) * time.Millisecond)
	fmt.Fprintf(c.io.Stderr, "running `%s` (from %s) in %s\n", safeLine(choice.Command), choice.Source, safeLine(top))
	run, err := (&verify.Runner{Procs: procs, Git: g}).Start(ctx, verify.Spec{Dir: t.WorktreePath, Command: choice.Command,
		Timeout: time.Duration(set.Verify.TimeoutMs) * time.Millisecond, MaxOutput: set.Verify.MaxOutputBytes,
		Grace: time.Duration(set.Stop.GraceMs) * time.Millisecond, OnOutput: func(b []byte) { _, _ = c.io.Stdout.Write(b) }})
	if err != nil {
		return err
	}
	vr, werr := run.Wait()
	vr.Source, vr.Where, vr.Iteration = choice.Source, "manual", t.CompletedRuns
	wctx := context.WithoutCancel(ctx)
	if err := st.AppendEvent(wctx, t.ID, task.MapText(vr, secrets.Scrub)); err != nil {
		return err
	}
	if _, err := st.AddSection(wctx, task.Section{TaskID: t.ID, Kind: task.SectionVerification, Role: task.RoleVerify,
		Iteration: max(t.CompletedRuns, 1), Verdict: string(vr.Outcome), Step: "verify-manual", Body: secrets.Scrub(vr.Body())}); err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stderr, "\n%s\n", safeLine(vr.Summary()))
	if werr != nil {
		return werr
	}
	if !vr.Outcome.Passed() {
		return &usererr.Edge{Kind: usererr.VerifyFailed}
	}
	return nil
}
