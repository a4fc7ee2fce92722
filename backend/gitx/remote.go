package gitx

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/boof-runner/boof-runner/backend/names"
)

// Remote is one configured remote of a repository.
type Remote struct {
	// Name is the remote's name ("origin").
	Name string `json:"name"`
	// URL is where it fetches from; PushURL where it pushes to ("" = URL).
	URL     string `json:"url"`
	PushURL string `json:"push_url,omitempty"`
}

// Push returns the URL a push to r goes to.
func (r Remote) Push() string {
	if r.PushURL != "" {
		return r.PushURL
	}
	return r.URL
}

// Remotes lists the repository's remotes by name (from its configuration;
// no network). A repository without any gives none and no error.
func (g *Git) Remotes(ctx context.Context, dir string) ([]Remote, error) {
	out, err := g.Run(ctx, dir, "config", "--null", "--get-regexp", `^remote\..*\.(url|pushurl)$`)
	var ge *Error
	if errors.As(err, &ge) && ge.ExitCode == 1 && ge.Stderr == "" {
		return []Remote{}, nil // no key matched
	}
	if err != nil {
		return nil, fmt.Errorf("list remotes: %w", err)
	}
	byName := map[string]*Remote{}
	for _, entry := range strings.Split(string(out), "\x00") {
		key, value, ok := strings.Cut(entry, "\n")
		if !ok {
			continue
		}
		name := strings.TrimPrefix(key, "remote.")
		field := name[strings.LastIndexByte(name, '.')+1:]
		name = name[:strings.LastIndexByte(name, '.')]
		r := byName[name]
		if r == nil {
			r = &Remote{Name: name}
			byName[name] = r
		}
		switch field {
		case "url":
			if r.URL == "" { // the first url is the one git uses
				r.URL = value
			}
		case "pushurl":
			if r.PushURL == "" {
				r.PushURL = value
			}
		}
	}
	out2 := make([]Remote, 0, len(byName))
	for _, r := range byName {
		out2 = append(out2, *r)
	}
	sort.Slice(out2, func(i, j int) bool { return out2[i].Name < out2[j].Name })
	return out2, nil
}

// UpstreamRemote returns the remote branch's upstream is on
// (branch.<branch>.remote), "" when it has none or it is the repository
// itself (".").
func (g *Git) UpstreamRemote(ctx context.Context, dir, branch string) (string, error) {
	if err := CheckRev(branch); err != nil {
		return "", err
	}
	out, err := g.Run(ctx, dir, "config", "--get", "branch."+branch+".remote")
	var ge *Error
	if errors.As(err, &ge) && ge.ExitCode == 1 {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the upstream of %s: %w", branch, err)
	}
	name := strings.TrimSpace(string(out))
	if name == "." {
		return "", nil
	}
	return name, nil
}

// RemoteBranch returns the commit branch points at on remote (a name or a
// URL), asked over the network (`ls-remote`), and false when the remote
// has no such branch. Failures are *Error matching ErrAuthRequired,
// ErrRemoteNotFound, ErrRemoteForbidden, ErrNetwork ... (see Push).
func (g *Git) RemoteBranch(ctx context.Context, dir, remote, branch string) (string, bool, error) {
	if err := checkRemoteArgs(remote, branch); err != nil {
		return "", false, err
	}
	ref := "refs/heads/" + branch
	out, err := g.Exec(ctx, Cmd{Dir: dir, Network: true, Args: []string{"ls-remote", "--refs", "--end-of-options", remote, ref}})
	if err != nil {
		return "", false, fmt.Errorf("read %s on %s: %w", branch, remote, err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		sha, name, ok := strings.Cut(line, "\t")
		if ok && name == ref {
			return sha, true, nil
		}
	}
	return "", false, nil
}

// IsAncestor reports whether commit a is an ancestor of (or equal to)
// commit b. A commit the repository does not have is not an ancestor.
func (g *Git) IsAncestor(ctx context.Context, dir, a, b string) (bool, error) {
	if err := CheckRev(a); err != nil {
		return false, err
	}
	if err := CheckRev(b); err != nil {
		return false, err
	}
	_, err := g.Run(ctx, dir, "merge-base", "--is-ancestor", "--end-of-options", a, b)
	var ge *Error
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ge) && ge.ExitCode == 1:
		return false, nil
	case errors.Is(err, ErrUnknownRef) || errors.As(err, &ge) && strings.Contains(strings.ToLower(ge.Stderr), "not a valid commit"):
		return false, nil
	}
	return false, fmt.Errorf("compare %s with %s: %w", a, b, err)
}

// HasCommit reports whether the repository holds commit sha.
func (g *Git) HasCommit(ctx context.Context, dir, sha string) (bool, error) {
	if _, err := g.ResolveCommit(ctx, dir, sha); err != nil {
		if errors.Is(err, ErrUnknownRef) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// checkRemoteArgs refuses a remote or branch that git could take as an
// option, or that holds characters no name or URL has.
func checkRemoteArgs(remote, branch string) error {
	if err := CheckRev(remote); err != nil {
		return fmt.Errorf("remote: %w", err)
	}
	if !names.Branch(branch) {
		return fmt.Errorf("branch %q is not a valid branch name: %w", branch, ErrBadRev)
	}
	return nil
}

// netEnv is what a network command adds to env: ssh never asks through an
// askpass program (it has no terminal either: Cmd.Network), and an HTTP
// transfer that stalls ends (unless the user set these).
func netEnv(env []string) []string {
	var out []string
	set := func(k, v string) {
		for _, kv := range env {
			if strings.HasPrefix(kv, k+"=") {
				return
			}
		}
		out = append(out, k+"="+v)
	}
	set("SSH_ASKPASS_REQUIRE", "never")
	set("GIT_HTTP_LOW_SPEED_LIMIT", "1000")
	set("GIT_HTTP_LOW_SPEED_TIME", "60")
	return out
}
