// Package bundle moves a task's commits between the desktop's repository
// and a pod's as git bundles: the base shipped to the pod, the task's refs
// handed back at each step's end. Every git call goes through gitx.
package bundle

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// Refs lists the refs of repo matching patterns (for-each-ref patterns)
// with the commit each names.
func Refs(ctx context.Context, g *gitx.Git, repo string, patterns ...string) (map[string]string, error) {
	out, err := g.Run(ctx, repo, append([]string{"for-each-ref", "--format=%(refname) %(objectname)"}, patterns...)...)
	if err != nil {
		return nil, fmt.Errorf("list refs: %w", err)
	}
	refs := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if name, sha, ok := strings.Cut(line, " "); ok {
			refs[name] = sha
		}
	}
	return refs, nil
}

// Create writes a bundle of refs (full names) to path, without the
// commits reachable from any of have. It returns false, writing nothing,
// when the refs add no commit to have (git refuses an empty bundle).
func Create(ctx context.Context, g *gitx.Git, repo, path string, refs []string, have []string) (bool, error) {
	if len(refs) == 0 {
		return false, nil
	}
	sort.Strings(refs)
	not := []string{}
	for _, h := range have {
		if h != "" {
			not = append(not, "^"+h)
		}
	}
	count, err := g.Run(ctx, repo, append(append([]string{"rev-list", "--count"}, refs...), not...)...)
	if err != nil {
		return false, fmt.Errorf("count bundle commits: %w", err)
	}
	if n, _ := strconv.Atoi(strings.TrimSpace(string(count))); n == 0 {
		return false, nil
	}
	args := append([]string{"bundle", "create", "-q", path}, refs...)
	if len(not) > 0 {
		args = append(append(args, "--not"), trimCarets(not)...)
	}
	if _, err := g.Run(ctx, repo, args...); err != nil {
		return false, fmt.Errorf("create bundle: %w", err)
	}
	return true, nil
}

func trimCarets(not []string) []string {
	out := make([]string, len(not))
	for i, n := range not {
		out[i] = strings.TrimPrefix(n, "^")
	}
	return out
}

// Heads returns the refs a bundle file holds (full name → sha); repo is
// any repository (git needs one to read a bundle).
func Heads(ctx context.Context, g *gitx.Git, repo, path string) (map[string]string, error) {
	out, err := g.Run(ctx, repo, "bundle", "list-heads", path)
	if err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	heads := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if sha, name, ok := strings.Cut(line, " "); ok {
			heads[name] = sha
		}
	}
	return heads, nil
}

// Verify checks that repo has every commit the bundle at path needs.
func Verify(ctx context.Context, g *gitx.Git, repo, path string) error {
	if _, err := g.Run(ctx, repo, "bundle", "verify", "-q", path); err != nil {
		return fmt.Errorf("verify bundle: %w", err)
	}
	return nil
}

// Fetch copies the objects of the bundle's refs into repo under
// prefix (refs/<name> → <prefix><name>); nothing else of repo changes.
func Fetch(ctx context.Context, g *gitx.Git, repo, path, prefix string) error {
	if _, err := g.Run(ctx, repo, "fetch", "-q", "--no-tags", "--no-write-fetch-head", path, "+refs/*:"+prefix+"*"); err != nil {
		return fmt.Errorf("fetch bundle: %w", err)
	}
	return nil
}

// IsAncestor reports whether commit a is an ancestor of (or is) b.
func IsAncestor(ctx context.Context, g *gitx.Git, repo, a, b string) bool {
	_, err := g.Run(ctx, repo, "merge-base", "--is-ancestor", a, b)
	return err == nil
}

// Update moves refs atomically (git update-ref --stdin with a
// transaction): each ref to its new sha ("" deletes it) if it is still at
// old ("" for a ref that must not exist yet, absent for no check).
func Update(ctx context.Context, g *gitx.Git, repo string, next map[string]string, old map[string]string) error {
	var in bytes.Buffer
	in.WriteString("start\n")
	names := make([]string, 0, len(next))
	for n := range next {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		o, check := old[n]
		if check && o == "" {
			o = strings.Repeat("0", max(len(next[n]), 40)) // the zero id of the repository's hash
		}
		switch {
		case next[n] == "" && check:
			fmt.Fprintf(&in, "delete %s %s\n", n, o)
		case next[n] == "":
			fmt.Fprintf(&in, "delete %s\n", n)
		case check:
			fmt.Fprintf(&in, "update %s %s %s\n", n, next[n], o)
		default:
			fmt.Fprintf(&in, "update %s %s\n", n, next[n])
		}
	}
	in.WriteString("prepare\ncommit\n")
	if _, err := g.Exec(ctx, gitx.Cmd{Dir: repo, Args: []string{"update-ref", "--stdin"}, Input: in.Bytes()}); err != nil {
		return fmt.Errorf("update refs: %w", err)
	}
	return nil
}

// WriteTemp writes data to a new file in dir (created if missing) and
// returns its path.
func WriteTemp(dir, pattern string, data []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), f.Close()
}
