package gitx

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Every command that moves a ref follows one rule, so that a signal (the
// user's Ctrl-C, SIGTERM to the runner: a context that ends) never leaves
// a ref moved with nothing that knows it:
//
//   - a move whose context has ended before it starts does not start;
//   - once started it is not cut short by its context: it runs under
//     Critical, which the end of the context only bounds (InterruptGrace);
//   - when git reports a failure other than a lost compare-and-swap (it was
//     stopped, or failed after the ref moved), the refs are read back, and
//     when they hold what the command was to write, the move happened and
//     is reported as done.
//
// A caller whose own steps around a ref move must not be split either (a
// journaled accept: intent, move, checkout update, record) runs them under
// Critical as well.

// InterruptGrace is how long a critical section may still run once the
// context it was started from has ended, unless WithInterruptGrace says
// otherwise: long enough for a ref move, its checkout update and its
// record; a section that hangs (a hook that never returns) is stopped then.
const InterruptGrace = time.Minute

// readBackTimeout bounds reading a ref back after a move failed.
const readBackTimeout = 30 * time.Second

// WithInterruptGrace sets how long a critical section may still run once
// its caller's context has ended (default InterruptGrace).
func WithInterruptGrace(d time.Duration) Option {
	return func(g *Git) {
		if d > 0 {
			g.interruptGrace = d
		}
	}
}

// Critical returns a context for a critical section that must not be cut
// short by the end of ctx (a signal): it keeps ctx's values but not its
// cancellation or deadline, and ends the Git's interrupt grace after ctx
// ends, or when the returned cancel is called (which the caller must do).
func (g *Git) Critical(ctx context.Context) (context.Context, context.CancelFunc) {
	out, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() {
		t := time.AfterFunc(g.interruptGrace, cancel)
		context.AfterFunc(out, func() { t.Stop() })
	})
	return out, func() {
		stop()
		cancel()
	}
}

// moveRefs runs c, a command that moves refs, by the rule above; moved
// reads the refs back and tells whether they hold what c was to write.
func (g *Git) moveRefs(ctx context.Context, c Cmd, what string, moved func(context.Context) (bool, error)) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	cctx, cancel := g.Critical(ctx)
	defer cancel()
	_, err := g.Exec(cctx, c)
	if err == nil {
		return nil
	}
	if !errors.Is(err, ErrRefMoved) {
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), readBackTimeout)
		defer rcancel()
		if ok, rerr := moved(rctx); rerr == nil && ok {
			return nil
		}
	}
	return fmt.Errorf("%s: %w", what, err)
}

// UpdateRef points ref at newSHA only if it currently holds oldSHA; an
// empty oldSHA means the ref must not exist yet. It follows the rule of
// every ref move (see Critical): not started once ctx has ended, never cut
// short once started, its outcome read back when git fails. A lost race
// returns an error matching ErrRefMoved and leaves the ref alone; others
// are *Error, or ctx's error when it ended before the move started.
func (g *Git) UpdateRef(ctx context.Context, dir, ref, newSHA, oldSHA, reason string) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	if err := CheckRev(newSHA); err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	args := []string{"update-ref"}
	if reason != "" {
		args = append(args, "-m", reason)
	}
	c := Cmd{Dir: dir, Args: append(args, ref, newSHA, oldSHA)}
	return g.moveRefs(ctx, c, "update "+ref, func(ctx context.Context) (bool, error) {
		cur, ok, err := g.RefSHA(ctx, dir, ref)
		return ok && cur == newSHA, err
	})
}

// RefUpdate is one compare-and-swap of UpdateRefs: Ref to New if it holds
// Old ("" = it must not exist yet).
type RefUpdate struct{ Ref, New, Old string }

// UpdateRefs applies updates in one transaction (`update-ref --stdin`):
// all of them or, when any ref does not hold its Old, none (an error
// matching ErrRefMoved). It follows the rule of every ref move (see
// UpdateRef).
func (g *Git) UpdateRefs(ctx context.Context, dir, reason string, updates []RefUpdate) error {
	var in strings.Builder
	for _, u := range updates {
		if err := checkRef(u.Ref); err != nil {
			return err
		}
		old := u.Old
		if old == "" {
			old = strings.Repeat("0", 40)
		}
		if err := CheckRev(u.New); err != nil {
			return fmt.Errorf("update %s: %w", u.Ref, err)
		}
		if err := CheckRev(old); err != nil {
			return fmt.Errorf("update %s: %w", u.Ref, err)
		}
		fmt.Fprintf(&in, "update %s\x00%s\x00%s\x00", u.Ref, u.New, old)
	}
	args := []string{"update-ref"}
	if reason != "" {
		args = append(args, "-m", reason)
	}
	args = append(args, "-z", "--stdin")
	c := Cmd{Dir: dir, Args: args, Input: []byte(in.String())}
	return g.moveRefs(ctx, c, "update refs", func(ctx context.Context) (bool, error) {
		for _, u := range updates {
			cur, ok, err := g.RefSHA(ctx, dir, u.Ref)
			if err != nil || !ok || cur != u.New {
				return false, err
			}
		}
		return true, nil
	})
}

// DeleteRef deletes ref only if it currently holds oldSHA. It follows the
// rule of every ref move (see UpdateRef). A lost race returns an error
// matching ErrRefMoved; others are *Error.
func (g *Git) DeleteRef(ctx context.Context, dir, ref, oldSHA string) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	if err := CheckRev(oldSHA); err != nil {
		return fmt.Errorf("delete %s: %w", ref, err)
	}
	c := Cmd{Dir: dir, Args: []string{"update-ref", "-d", ref, oldSHA}}
	return g.moveRefs(ctx, c, "delete "+ref, func(ctx context.Context) (bool, error) {
		_, ok, err := g.RefSHA(ctx, dir, ref)
		return !ok, err
	})
}

// SetHead points HEAD of the worktree at dir at the branch ref (a full
// ref name), as `symbolic-ref` does. It follows the rule of every ref
// move (see UpdateRef). Errors are *Error.
func (g *Git) SetHead(ctx context.Context, dir, ref, reason string) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	args := []string{"symbolic-ref"}
	if reason != "" {
		args = append(args, "-m", reason)
	}
	c := Cmd{Dir: dir, Args: append(args, "HEAD", ref)}
	return g.moveRefs(ctx, c, "set HEAD", func(ctx context.Context) (bool, error) {
		out, err := g.Run(ctx, dir, "symbolic-ref", "-q", "HEAD")
		return err == nil && strings.TrimSpace(string(out)) == ref, nil
	})
}

// DetachHead points HEAD of the worktree at dir at commit sha, detached
// (`update-ref --no-deref`). It follows the rule of every ref move (see
// UpdateRef). Errors are *Error.
func (g *Git) DetachHead(ctx context.Context, dir, sha, reason string) error {
	if err := CheckRev(sha); err != nil {
		return fmt.Errorf("detach HEAD: %w", err)
	}
	args := []string{"update-ref", "--no-deref"}
	if reason != "" {
		args = append(args, "-m", reason)
	}
	c := Cmd{Dir: dir, Args: append(args, "HEAD", sha)}
	return g.moveRefs(ctx, c, "detach HEAD", func(ctx context.Context) (bool, error) {
		if _, err := g.Run(ctx, dir, "symbolic-ref", "-q", "HEAD"); err == nil {
			return false, nil // still on a branch
		}
		cur, ok, err := g.RefSHA(ctx, dir, "HEAD")
		return ok && cur == sha, err
	})
}
