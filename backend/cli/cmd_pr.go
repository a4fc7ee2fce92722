package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"golang.org/x/term"

	"github.com/boof-runner/boof-runner/backend/pullreq"
	"github.com/boof-runner/boof-runner/backend/task"
)

const prUsage = "pr open ID [--draft|--ready] [--label L]... [--reviewer U]... [--remote R] [--branch B] | pr show ID [--json] | pr sync ID [--fix] | pr close ID [--delete-branch] | pr login HOST (token on stdin) | pr logout HOST"

// runPR is the pull request of a task: open, show, sync, close; login and
// logout keep a forge host's token.
func runPR(ctx context.Context, c *call) error {
	if len(c.args) == 0 {
		return usagef("expected a subcommand: %s", prUsage)
	}
	sub := c.args[0]
	c.args = c.args[1:]
	switch sub {
	case "-h", "-help", "--help", "help":
		c.newFlags() // the usage Run prints for ErrHelp
		return flag.ErrHelp
	case "open":
		return prOpen(ctx, c)
	case "show":
		return prShow(ctx, c)
	case "sync":
		return prSync(ctx, c)
	case "close":
		return prClose(ctx, c)
	case "login":
		return prLogin(ctx, c)
	case "logout":
		return prLogout(ctx, c)
	}
	return usagef("unknown subcommand %q: %s", sub, prUsage)
}

func prOpen(ctx context.Context, c *call) error {
	fs := c.newFlags()
	var o pullreq.OpenOptions
	var labels, reviewers stringList
	draft := fs.Bool("draft", false, "open it as a draft (default: settings forge.draft)")
	ready := fs.Bool("ready", false, "open it ready for review")
	fs.Var(&labels, "label", "a label (repeatable; default: settings forge.labels)")
	fs.Var(&reviewers, "reviewer", "a user whose review is asked (repeatable; default: settings forge.reviewers)")
	fs.StringVar(&o.Remote, "remote", "", "the remote to push to")
	fs.StringVar(&o.Branch, "branch", "", "the branch name on the remote")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	if *draft && *ready {
		return usagef("--draft and --ready do not go together")
	}
	if *draft || *ready {
		o.Draft = draft
	}
	if len(labels) > 0 {
		o.Labels = labels
	}
	if len(reviewers) > 0 {
		o.Reviewers = reviewers
	}
	p, err := c.openPR(ctx)
	if err != nil {
		return err
	}
	defer p.store.Close()
	out, err := p.svc.Open(ctx, pos[0], o)
	if err != nil {
		return err
	}
	r := out.Record
	if out.Existing {
		fmt.Fprintf(c.io.Stdout, "pull request #%d is already open: %s\n", r.Number, safeLine(r.URL))
	} else {
		fmt.Fprintf(c.io.Stdout, "opened pull request #%d (%s): %s\n", r.Number, r.State, safeLine(r.URL))
	}
	if out.Problem != "" {
		fmt.Fprintf(c.io.Stderr, "boof-runner: warning: %s\n", safeLine(oneLine(out.Problem)))
	}
	return nil
}

func prShow(ctx context.Context, c *call) error {
	fs := c.newFlags()
	asJSON := fs.Bool("json", false, "print the record as JSON")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	p, err := c.openPR(ctx)
	if err != nil {
		return err
	}
	defer p.store.Close()
	r, err := p.svc.Show(ctx, pos[0])
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(c.io.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	printRecord(c, r)
	return nil
}

// printRecord prints a task's pull request record, one fact a line.
func printRecord(c *call, r pullreq.Record) {
	w := c.io.Stdout
	fmt.Fprintf(w, "pushed:   %s %s at %s\n", safeLine(r.Remote), safeLine(r.Head), orDash(r.PushedSHA))
	if r.Number == 0 {
		fmt.Fprintln(w, "pull request: none")
		return
	}
	fmt.Fprintf(w, "pull request: #%d %s\n", r.Number, safeLine(r.URL))
	fmt.Fprintf(w, "state:    %s\n", r.State)
	if r.Review != "" {
		fmt.Fprintf(w, "review:   %s\n", strings.ReplaceAll(r.Review, "_", " "))
	}
	if r.MergeSHA != "" {
		fmt.Fprintf(w, "merged:   %s\n", r.MergeSHA)
	}
	for _, ch := range r.Checks {
		fmt.Fprintf(w, "check:    %-8s %s\n", ch.State, safeLine(ch.Name))
	}
	if !r.SyncedAt.IsZero() {
		fmt.Fprintf(w, "synced:   %s\n", atText(r.SyncedAt, true))
	}
	if r.Problem != "" {
		fmt.Fprintf(w, "problem:  %s\n", safeLine(oneLine(r.Problem)))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func prSync(ctx context.Context, c *call) error {
	fs := c.newFlags()
	fix := fs.Bool("fix", false, "pull the review comments not pulled before into a fix run (its commits go to the same pull request)")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	p, err := c.openPR(ctx)
	if err != nil {
		return err
	}
	defer p.store.Close()
	out, err := p.svc.Sync(ctx, pos[0])
	if err != nil {
		return err
	}
	if out.Renamed != "" {
		fmt.Fprintf(c.io.Stdout, "the branch %s was renamed on the forge to %s; pushes go there now\n", safeLine(out.Renamed), safeLine(out.Record.Head))
	}
	switch {
	case out.Accepted:
		fmt.Fprintf(c.io.Stdout, "pull request #%d was merged (%s): %s is accepted\n", out.Record.Number, out.Record.MergeSHA, pos[0])
	case out.Record.State == "gone":
		fmt.Fprintf(c.io.Stdout, "pull request #%d no longer exists on %s (deleted); open a new one with 'boof-runner pr open %s'\n", out.Record.Number, out.Record.Host, pos[0])
	case out.Record.State == "closed":
		fmt.Fprintf(c.io.Stdout, "pull request #%d was closed without being merged\n", out.Record.Number)
	}
	if out.Pushed != "" {
		fmt.Fprintf(c.io.Stdout, "pushed the fix run's commits to the pull request (%s)\n", out.Pushed)
	}
	printRecord(c, out.Record)
	if !*fix {
		return nil
	}
	q, err := p.svc.RequestChanges(ctx, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stdout, "fix run %d queued for %s with %d review comment(s); its commits go to pull request #%d when it is done\n", q.Fix, pos[0], q.Comments, out.Record.Number)
	c.pokeRunner()
	return nil
}

func prClose(ctx context.Context, c *call) error {
	fs := c.newFlags()
	del := fs.Bool("delete-branch", false, "also delete the pushed branch on the remote (kept when someone pushed to it)")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	p, err := c.openPR(ctx)
	if err != nil {
		return err
	}
	defer p.store.Close()
	return closePR(ctx, c, p, pos[0], *del)
}

// closePR closes the task's pull request and says what it did.
func closePR(ctx context.Context, c *call, p *prCall, id string, deleteBranch bool) error {
	out, err := p.svc.Close(ctx, id, deleteBranch)
	if err != nil {
		return err
	}
	switch {
	case out.WasOpen:
		fmt.Fprintf(c.io.Stdout, "closed pull request #%d\n", out.Record.Number)
	case out.Record.Number > 0:
		fmt.Fprintf(c.io.Stdout, "pull request #%d was already %s: left as it is\n", out.Record.Number, safeLine(out.Record.State))
	}
	if out.BranchDeleted {
		fmt.Fprintf(c.io.Stdout, "deleted %s on %s\n", safeLine(out.Record.Head), safeLine(out.Record.Remote))
	}
	return nil
}

func prLogin(ctx context.Context, c *call) error {
	fs := c.newFlags()
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one forge HOST (github.com, gitlab.com, or a host of forge.hosts); the token is read from standard input")
	}
	b, err := readAll(ctx, c.io.Stdin, 16<<10, "token")
	if err != nil {
		return err
	}
	p, err := c.openPR(ctx)
	if err != nil {
		return err
	}
	defer p.store.Close()
	src, err := p.svc.Login(ctx, pos[0], string(b))
	if err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stdout, "stored the token of %s in %s\n", safeLine(pos[0]), safeLine(src.String()))
	return nil
}

func prLogout(ctx context.Context, c *call) error {
	fs := c.newFlags()
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one forge HOST")
	}
	p, err := c.openPR(ctx)
	if err != nil {
		return err
	}
	defer p.store.Close()
	removed, err := p.svc.Logout(ctx, pos[0])
	if err != nil {
		return err
	}
	if !removed {
		fmt.Fprintf(c.io.Stdout, "no token of %s was stored: nothing changed\n", safeLine(pos[0]))
		return nil
	}
	fmt.Fprintf(c.io.Stdout, "forgot the stored token of %s\n", safeLine(pos[0]))
	return nil
}

// prChoice is --close-pr / --keep-pr of reject, delete and undo-accept.
type prChoice struct{ close, keep *bool }

func addPRChoice(fs interface {
	Bool(name string, value bool, usage string) *bool
}) prChoice {
	return prChoice{
		close: fs.Bool("close-pr", false, "the task's open pull request is closed (and its pushed branch deleted)"),
		keep:  fs.Bool("keep-pr", false, "the task's open pull request stays open"),
	}
}

// check refuses both flags at once.
func (ch prChoice) check() error {
	if *ch.close && *ch.keep {
		return usagef("--close-pr and --keep-pr do not go together")
	}
	return nil
}

// decidePR asks what becomes of the task's open pull request before a
// reject, delete or undo: the flag says, else the user at a terminal,
// else the command refuses rather than guess. It closes the pull request
// (deleting its pushed branch) when so decided, before op is done.
func (c *call) decidePR(ctx context.Context, ch prChoice, t task.Task, op string) error {
	if err := ch.check(); err != nil {
		return err
	}
	p, err := c.openPR(ctx)
	if err != nil {
		return err
	}
	defer p.store.Close()
	r, err := p.svc.Show(ctx, t.ID)
	if err != nil || !r.Open() {
		return nil // nothing pushed, or no open pull request: nothing to ask
	}
	closeIt := *ch.close
	if !*ch.close && !*ch.keep {
		if !stdinTerminal(c.io.Stdin) {
			return usagef("task %s has an open pull request #%d (%s): say --close-pr or --keep-pr before it is %s", t.ID, r.Number, safeLine(r.URL), op)
		}
		fmt.Fprintf(c.io.Stderr, "task %s has an open pull request #%d (%s). Close it and delete its pushed branch? [y/N] ", t.ID, r.Number, safeLine(r.URL))
		line, _ := readLine(c.io.Stdin)
		closeIt = line == "y" || line == "yes"
	}
	if !closeIt {
		return nil
	}
	return closePR(ctx, c, p, t.ID, true)
}

// readLine reads one line byte by byte (nothing after it is consumed).
func readLine(r interface{ Read([]byte) (int, error) }) (string, error) {
	var b []byte
	one := make([]byte, 1)
	for {
		n, err := r.Read(one)
		if n == 1 {
			if one[0] == '\n' {
				break
			}
			b = append(b, one[0])
		}
		if err != nil {
			return strings.TrimSpace(string(b)), err
		}
	}
	return strings.ToLower(strings.TrimSpace(string(b))), nil
}

// stdinTerminal reports whether r is a file open on a terminal.
func stdinTerminal(r io.Reader) bool {
	f, ok := r.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// issuePrompt stands for the issue's text while add checks its flags.
const issuePrompt = "(the issue's text)"

// addFromIssue creates the task of add --from-issue URL and prints its id.
func addFromIssue(ctx context.Context, c *call, n task.NewTask, url string) error {
	p, err := c.openPR(ctx)
	if err != nil {
		return err
	}
	defer p.store.Close()
	t, err := p.svc.FromIssue(ctx, url, n)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.io.Stdout, t.ID)
	fmt.Fprintf(c.io.Stderr, "made from the issue %s: %s\n", safeLine(strings.TrimSpace(url)), safeLine(t.Title))
	return nil
}
