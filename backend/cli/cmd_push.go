package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/pullreq"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
)

// prCall is a command on a task's pushed branch and pull request.
type prCall struct {
	store *store.Store
	paths dataroot.Paths
	rev   *review.Service
	svc   *pullreq.Service
}

// openPR opens the store and builds the pull request service of the data
// root, with tokens from the command's environment. The caller closes
// p.store.
func (c *call) openPR(ctx context.Context) (*prCall, error) {
	s, paths, err := c.openStore(ctx)
	if err != nil {
		return nil, err
	}
	hs := host.NewServices(host.Options{Paths: paths, Store: s})
	set := func() settings.Settings { st, _ := hs.Settings.Load(); return st }
	getenv := c.env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	return &prCall{store: s, paths: paths, rev: hs.Review, svc: hs.PullRequests(set, getenv)}, nil
}

// runPush pushes a task's branch: push ID [--remote NAME] [--branch NAME].
func runPush(ctx context.Context, c *call) error {
	fs := c.newFlags()
	var o pullreq.PushOptions
	fs.StringVar(&o.Remote, "remote", "", "the remote to push to (default: where the task was pushed before, settings forge.remote, the target branch's upstream remote)")
	fs.StringVar(&o.Branch, "branch", "", "the branch name on the remote (default: settings forge.branch, boof-runner/<slug>-<id>)")
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
	out, err := p.svc.Push(ctx, pos[0], o)
	if err != nil {
		return err
	}
	r := out.Record
	if out.Kind == "up-to-date" {
		fmt.Fprintf(c.io.Stdout, "%s already has %s at %s: nothing pushed\n", safeLine(r.Remote), safeLine(r.Head), r.PushedSHA)
	} else {
		fmt.Fprintf(c.io.Stdout, "pushed %s to %s as %s (%s)\n", r.PushedSHA, safeLine(r.Remote), safeLine(r.Head), out.Kind)
	}
	if r.Open() {
		fmt.Fprintf(c.io.Stdout, "pull request #%d: %s\n", r.Number, safeLine(r.URL))
	}
	return nil
}
