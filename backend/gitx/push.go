package gitx

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// PushSpec is one branch to push.
type PushSpec struct {
	// Remote is a remote's name or a URL.
	Remote string
	// SHA is the commit to push (the task branch's head, resolved by the
	// caller, so what is pushed is exactly what it recorded).
	SHA string
	// Branch is the branch name on the remote (without refs/heads/).
	Branch string
	// Lease is the commit the remote branch must point at for the push to
	// go ahead (--force-with-lease=<ref>:<Lease>); "" means the branch
	// must not exist there yet. Anything else there (a teammate's commits)
	// refuses the push with a *PushRejectedError whose Stale is set.
	Lease string
}

// PushResult is what the remote reported for a successful push.
type PushResult struct {
	// Branch is the remote branch; SHA the commit it points at now.
	Branch string
	SHA    string
	// Kind is how the branch moved: "new", "fast-forward", "forced" or
	// "up-to-date".
	Kind string
}

// PushRejectedError is a push the remote (or git, for a lease that no
// longer holds) refused: nothing moved on the remote.
type PushRejectedError struct {
	Remote, Branch string
	// Reason is git's words for it ("stale info", "non-fast-forward",
	// "pre-receive hook declined" ...).
	Reason string
	// Stale: the remote branch no longer points where the lease expected:
	// someone else pushed to it.
	Stale bool
	// ByRemote: the remote itself refused it (a hook, a protected branch).
	ByRemote bool
}

// Error returns "push to <remote> <branch> rejected: <reason>".
func (e *PushRejectedError) Error() string {
	return fmt.Sprintf("push to %s %s rejected: %s", e.Remote, e.Branch, e.Reason)
}

// Push pushes p.SHA to refs/heads/p.Branch of p.Remote with
// --force-with-lease (see PushSpec.Lease), as a network command
// (Cmd.Network). It reads git's --porcelain report: the result is what the
// remote reported. A refused update is a *PushRejectedError; a failure to
// reach or be let in by the remote is an *Error matching ErrAuthRequired,
// ErrRemoteForbidden, ErrRemoteNotFound or ErrNetwork; a context that ends
// or a Git deadline is returned wrapped as for Exec.
func (g *Git) Push(ctx context.Context, dir string, p PushSpec) (PushResult, error) {
	if err := checkRemoteArgs(p.Remote, p.Branch); err != nil {
		return PushResult{}, err
	}
	if err := CheckRev(p.SHA); err != nil {
		return PushResult{}, err
	}
	if p.Lease != "" {
		if err := CheckRev(p.Lease); err != nil {
			return PushResult{}, err
		}
	}
	ref := "refs/heads/" + p.Branch
	args := []string{"push", "--porcelain", "--no-follow-tags", "--force-with-lease=" + ref + ":" + p.Lease,
		"--end-of-options", p.Remote, p.SHA + ":" + ref}
	out, err := g.Exec(ctx, Cmd{Dir: dir, Network: true, Args: args})
	flag, summary, found := porcelainLine(string(out), ref)
	if found && flag == '!' {
		return PushResult{}, rejected(p.Remote, p.Branch, summary)
	}
	if err != nil {
		return PushResult{}, fmt.Errorf("push %s to %s: %w", p.Branch, p.Remote, err)
	}
	if !found {
		return PushResult{}, fmt.Errorf("push %s to %s: git reported nothing for %s", p.Branch, p.Remote, ref)
	}
	kind := "fast-forward"
	switch flag {
	case '*':
		kind = "new"
	case '+':
		kind = "forced"
	case '=':
		kind = "up-to-date"
	}
	return PushResult{Branch: p.Branch, SHA: p.SHA, Kind: kind}, nil
}

// DeleteRemoteBranch deletes branch on remote only while it points at
// sha (--force-with-lease), so a branch someone pushed to meanwhile is
// kept (a *PushRejectedError). A branch already gone is not an error.
func (g *Git) DeleteRemoteBranch(ctx context.Context, dir, remote, branch, sha string) error {
	if err := checkRemoteArgs(remote, branch); err != nil {
		return err
	}
	if err := CheckRev(sha); err != nil {
		return err
	}
	ref := "refs/heads/" + branch
	out, err := g.Exec(ctx, Cmd{Dir: dir, Network: true, Args: []string{"push", "--porcelain",
		"--force-with-lease=" + ref + ":" + sha, "--end-of-options", remote, ":" + ref}})
	flag, summary, found := porcelainLine(string(out), ref)
	if found && flag == '!' {
		if strings.Contains(summary, "stale info") {
			if _, exists, rerr := g.RemoteBranch(ctx, dir, remote, branch); rerr == nil && !exists {
				return nil // gone already
			}
		}
		return rejected(remote, branch, summary)
	}
	var ge *Error
	if errors.As(err, &ge) && strings.Contains(ge.Stderr, "remote ref does not exist") {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete %s on %s: %w", branch, remote, err)
	}
	return nil
}

// porcelainLine finds the line of `push --porcelain` about ref:
// "<flag>\t<from>:<to>\t<summary>".
func porcelainLine(out, ref string) (flag byte, summary string, ok bool) {
	for _, line := range strings.Split(out, "\n") {
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 || len(parts[0]) != 1 {
			continue
		}
		if _, to, _ := strings.Cut(parts[1], ":"); to == ref {
			return parts[0][0], parts[2], true
		}
	}
	return 0, "", false
}

// rejected reads a porcelain summary: "[rejected] (stale info)",
// "[remote rejected] (pre-receive hook declined)".
func rejected(remote, branch, summary string) *PushRejectedError {
	reason := strings.TrimPrefix(strings.TrimPrefix(summary, "[remote rejected]"), "[rejected]")
	return &PushRejectedError{Remote: remote, Branch: branch, Reason: strings.Trim(reason, " ()"),
		Stale: strings.Contains(summary, "stale info"), ByRemote: strings.HasPrefix(summary, "[remote rejected]")}
}
