package worktree

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// maxPathArgs is how many paths Patches names on git's command line; more
// are taken from the whole diff and filtered.
const maxPathArgs = 1000

// FilePatch is one file of a diff with its unified patch: the same patch
// ChangePatch returns (and the Review screen shows), so its hunks are the
// hunks the user saw.
type FilePatch struct {
	FileChange
	Patch string
}

// Patches returns the changed files among paths (a path matches a file's
// path or its rename source; none means every file) from base to head in
// repo, each with its patch, in one diff. binary asks for binary patches
// that git apply can apply (text hunks are the same either way). Errors as
// for Files; a patch git printed in another shape than its file list gives
// an error.
func (m *Manager) Patches(ctx context.Context, repo, base, head string, binary bool, paths ...string) ([]FilePatch, error) {
	for _, p := range paths {
		if err := checkPath(p); err != nil {
			return nil, fmt.Errorf("file patches: %w", err)
		}
	}
	revs, err := revArgs(base, head)
	if err != nil {
		return nil, fmt.Errorf("file patches: %w", err)
	}
	return m.patches(ctx, repo, revs, binary, paths)
}

// PatchesSince is Patches from the merge base of target and head to head
// (`git diff target...head`): the work of a branch that target has not
// seen, with the merge base found by the same git command.
func (m *Manager) PatchesSince(ctx context.Context, repo, target, head string, binary bool, paths ...string) ([]FilePatch, error) {
	for _, r := range []string{target, head} {
		if err := gitx.CheckRev(r); err != nil || strings.Contains(r, "..") {
			return nil, fmt.Errorf("file patches: revision %q: %w", r, gitx.ErrBadRev)
		}
	}
	for _, p := range paths {
		if err := checkPath(p); err != nil {
			return nil, fmt.Errorf("file patches: %w", err)
		}
	}
	return m.patches(ctx, repo, []string{"--end-of-options", target + "..." + head}, binary, paths)
}

func (m *Manager) patches(ctx context.Context, repo string, revs []string, binary bool, paths []string) ([]FilePatch, error) {
	var spec []string
	if len(paths) > 0 && len(paths) <= maxPathArgs {
		spec = paths
	}
	// One diff prints the file list (raw and numstat, NUL-separated),
	// then an empty field, then the patch: the list and the patches come
	// from the same computation (one pass over the trees, one rename
	// detection).
	env := []string{"GIT_LITERAL_PATHSPECS=1"}
	args := append(append([]string{}, diffArgs...), "--raw", "--no-abbrev", "--numstat", "-z", "--patch", "--src-prefix=a/", "--dst-prefix=b/")
	if binary {
		args = append(args, "--binary")
	}
	args = append(append(append(args, revs...), "--"), spec...)
	out, err := m.git.RunEnv(ctx, repo, env, args...)
	if err != nil {
		return nil, fmt.Errorf("file patches: %w", err)
	}
	list, patch := splitListPatch(out)
	files, err := parseRawNumstat(gitx.SplitNUL(list))
	if err != nil {
		return nil, fmt.Errorf("file patches: %w", err)
	}
	chunks := splitFiles(patch)
	if len(chunks) != len(files) {
		return nil, fmt.Errorf("file patches: %d patches for %d files: %w", len(chunks), len(files), errParse)
	}
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	outp := make([]FilePatch, 0, len(files))
	for i, f := range files {
		if len(want) > 0 && !want[f.Path] && !want[f.OldPath] {
			continue
		}
		outp = append(outp, FilePatch{FileChange: f, Patch: chunks[i]})
	}
	return outp, nil
}

// splitListPatch cuts the output of `git diff --raw --numstat -z --patch`
// into the NUL-separated file list and the patch text. The patch follows
// an empty field ("\0\0"), which the list never holds (no path is empty).
func splitListPatch(out []byte) (list []byte, patch string) {
	i := bytes.Index(out, []byte("\x00\x00diff --git "))
	if i < 0 {
		return out, ""
	}
	return out[:i+1], string(out[i+2:])
}

// splitFiles cuts a multi-file patch at its "diff --git " lines (no line
// of a hunk starts that way: hunk lines start with ' ', '+', '-' or '\').
func splitFiles(patch string) []string {
	var out []string
	start := -1
	for i := 0; i < len(patch); {
		end := strings.IndexByte(patch[i:], '\n')
		next := len(patch)
		if end >= 0 {
			next = i + end + 1
		}
		if strings.HasPrefix(patch[i:], "diff --git ") {
			if start >= 0 {
				out = append(out, patch[start:i])
			}
			start = i
		}
		i = next
	}
	if start >= 0 {
		out = append(out, patch[start:])
	}
	return out
}
