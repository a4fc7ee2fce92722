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
