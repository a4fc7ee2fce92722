package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
)

// WriteTree writes the index (GIT_INDEX_FILE in env, if given) as a tree
// and returns its sha. Errors are *Error.
func (g *Git) WriteTree(ctx context.Context, dir string, env []string) (string, error) {
	out, err := g.RunEnv(ctx, dir, env, "write-tree")
	if err != nil {
		return "", fmt.Errorf("write tree: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Commit describes a commit object for CommitTree.
type Commit struct {
	// Tree is the tree object the commit records.
	Tree string
	// Parents are the parent commits, first parent first (none for a root).
	Parents []string
	// Message is the full commit message.
	Message string
	// Env adds identity and date variables (GIT_AUTHOR_NAME, GIT_COMMITTER_DATE ...).
	Env []string
}

// CommitTree creates a commit object with `commit-tree` (no ref moves) and
// returns its sha. The message goes through stdin, so it may hold anything.
// A bad tree or parent gives an error matching ErrUnknownRef; others are *Error.
func (g *Git) CommitTree(ctx context.Context, dir string, c Commit) (string, error) {
	if err := CheckRev(c.Tree); err != nil {
		return "", fmt.Errorf("commit tree: %w", err)
	}
	args := []string{"commit-tree"}
	for _, p := range c.Parents {
		if err := CheckRev(p); err != nil {
			return "", fmt.Errorf("commit tree: %w", err)
		}
		args = append(args, "-p", p)
	}
	args = append(args, "-F", "-", c.Tree)
	out, err := g.Exec(ctx, Cmd{Dir: dir, Args: args, Env: c.Env, Input: []byte(c.Message)})
	if err != nil {
		return "", fmt.Errorf("commit tree: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// UpdateRef points ref at newSHA only if it currently holds oldSHA; an
// empty oldSHA means the ref must not exist yet. A lost race returns an
// error matching ErrRefMoved and leaves the ref alone; others are *Error.
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
	if _, err := g.Run(ctx, dir, append(args, ref, newSHA, oldSHA)...); err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	return nil
}

// RefUpdate is one compare-and-swap of UpdateRefs: Ref to New if it holds
// Old ("" = it must not exist yet).
type RefUpdate struct{ Ref, New, Old string }

// UpdateRefs applies updates in one transaction (`update-ref --stdin`):
// all of them or, when any ref does not hold its Old, none (an error
// matching ErrRefMoved).
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
	if _, err := g.Exec(ctx, Cmd{Dir: dir, Args: args, Input: []byte(in.String())}); err != nil {
		return fmt.Errorf("update refs: %w", err)
	}
	return nil
}

// DeleteRef deletes ref only if it currently holds oldSHA. A lost race
// returns an error matching ErrRefMoved; others are *Error.
func (g *Git) DeleteRef(ctx context.Context, dir, ref, oldSHA string) error {
	if err := checkRef(ref); err != nil {
		return err
	}
	if err := CheckRev(oldSHA); err != nil {
		return fmt.Errorf("delete %s: %w", ref, err)
	}
	if _, err := g.Run(ctx, dir, "update-ref", "-d", ref, oldSHA); err != nil {
		return fmt.Errorf("delete %s: %w", ref, err)
	}
	return nil
}

func checkRef(ref string) error {
	if !strings.HasPrefix(ref, "refs/") {
		return fmt.Errorf("ref %q is not a full ref name: %w", ref, ErrBadRev)
	}
	return CheckRev(ref)
}

// MergeResult is the outcome of MergeTree.
type MergeResult struct {
	// Tree is the merged tree; with conflicts it holds conflict markers.
	Tree string
	// Conflicts lists the conflicted paths (empty for a clean merge).
	Conflicts []string
}

// MergeTree merges two commits without touching any index or working tree
// (`merge-tree --write-tree`, git 2.38+). A conflicted merge returns the
// result with its Conflicts and an error matching ErrConflict; unrelated
// or unknown commits give *Error.
func (g *Git) MergeTree(ctx context.Context, dir, ours, theirs string) (MergeResult, error) {
	for _, r := range []string{ours, theirs} {
		if err := CheckRev(r); err != nil {
			return MergeResult{}, fmt.Errorf("merge-tree: %w", err)
		}
	}
	out, err := g.Run(ctx, dir, "merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", ours, theirs)
	var ge *Error
	if err != nil && !(errors.As(err, &ge) && ge.ExitCode == 1) {
		return MergeResult{}, fmt.Errorf("merge-tree: %w", err)
	}
	fields := SplitNUL(out)
	if len(fields) == 0 {
		return MergeResult{}, fmt.Errorf("merge-tree: empty output")
	}
	res := MergeResult{Tree: fields[0]}
	for _, f := range fields[1:] {
		if f == "" {
			break
		}
		if n := len(res.Conflicts); n == 0 || res.Conflicts[n-1] != f {
			res.Conflicts = append(res.Conflicts, f)
		}
	}
	if err != nil {
		return res, fmt.Errorf("merge-tree: %d conflicted files: %w", len(res.Conflicts), ErrConflict)
	}
	return res, nil
}

// SplitNUL splits -z output into its NUL-terminated fields. A trailing
// NUL does not produce an empty last field; empty fields inside are kept.
func SplitNUL(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	b = bytes.TrimSuffix(b, []byte{0})
	parts := bytes.Split(b, []byte{0})
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = string(p)
	}
	return out
}
