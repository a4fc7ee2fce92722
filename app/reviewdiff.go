package app

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Windows of the diff model (FileDiff).
const (
	// DefaultDiffLines is how many lines of a file's hunks FileDiff returns
	// when the request does not say.
	DefaultDiffLines = 2000
	// MaxDiffLines bounds the lines one FileDiff or FileLines returns.
	MaxDiffLines = 20000
)

// FileDiffRequest asks for one changed file's diff as data, a window of
// its lines at a time.
type FileDiffRequest struct {
	// Path is the file's path in the diff (or, for a rename, its old path).
	Path string `json:"path"`
	// IgnoreWhitespace hides whitespace-only changes (git diff -w); hunks
	// are numbered in that diff then.
	IgnoreWhitespace bool `json:"ignore_whitespace"`
	// Leftovers takes the file from the leftovers branch.
	Leftovers bool `json:"leftovers"`
	// FromHunk (0-based) and FromLine (0-based, within that hunk) start
	// the window of lines returned; MaxLines bounds it (0:
	// DefaultDiffLines, at most MaxDiffLines). The window FileDiff.Next
	// names is the one after.
	FromHunk int `json:"from_hunk"`
	FromLine int `json:"from_line"`
	MaxLines int `json:"max_lines"`
}

// DiffCursor is where a window of a file's lines starts.
type DiffCursor struct {
	Hunk int `json:"hunk"`
	Line int `json:"line"`
}

// FileDiff is one changed file as the diff view draws it: what changed
// about the file (a rename, its mode) as data instead of git's header
// lines, a language hint, and its hunks with every line numbered in the
// old and new version. Every hunk is listed with its ranges and line
// count (so a view can size itself for the whole file); only the lines
// of the requested window are filled in.
type FileDiff struct {
	DiffFile
	// Base and Head are the commits of the diff: FileLines reads the
	// unchanged lines between hunks from them.
	Base string `json:"base"`
	Head string `json:"head"`
	// Hunks are every hunk of the file; Lines holds the window's part of
	// each (empty outside it, FirstLine where it starts inside it).
	Hunks []worktree.DiffHunk `json:"hunks"`
	// Lines is how many lines all hunks have together.
	Lines int `json:"lines"`
	// Next is where the next window starts; nil when this one reached the
	// end of the file.
	Next *DiffCursor `json:"next"`
	// NewTotal is how many lines the file has at the new end, so that the
	// unchanged lines after the last hunk can be expanded (FileLines). It
	// is filled in on the first window only, and is 0 for a file that is
	// not at the new end (deleted) or too large to read
	// (worktree.MaxFileLinesBytes).
	NewTotal int `json:"new_total"`
}

// FileDiff returns one changed file's diff model (see FileDiff): no git
// header lines, line numbers on every line, a window of lines at a time.
// A binary file comes back with Binary set and no hunks. Errors: the task
// is unknown or has no branch, the file is not changed.
func (r *ReviewService) FileDiff(taskID string, req FileDiffRequest) (FileDiff, error) {
	ctx := r.ctx()
	t, sum, fcs, err := r.files(ctx, taskID, req.Leftovers)
	if err != nil {
		return FileDiff{}, err
	}
	for _, f := range fcs {
		if f.Path != req.Path && f.OldPath != req.Path {
			continue
		}
		out := FileDiff{DiffFile: diffFile(f), Base: sum.Base, Head: sum.Head, Hunks: []worktree.DiffHunk{}}
		if f.Binary {
			return out, nil
		}
		p, err := r.patch(ctx, t.Repo, sum.Base, sum.Head, f, worktree.PatchOptions{IgnoreWhitespace: req.IgnoreWhitespace})
		if err != nil {
			return FileDiff{}, userError(err)
		}
		max := req.MaxLines
		if max <= 0 {
			max = DefaultDiffLines
		}
		hunks, next := worktree.ParseHunks(p, worktree.Window{Hunk: req.FromHunk, Line: req.FromLine, Max: min(max, MaxDiffLines)})
		if hunks != nil {
			out.Hunks = hunks
		}
		for _, h := range hunks {
			out.Lines += h.Count
		}
		if next != nil {
			out.Next = &DiffCursor{Hunk: next.Hunk, Line: next.Line}
		}
		if req.FromHunk == 0 && req.FromLine == 0 && f.Status != worktree.Deleted {
			out.NewTotal = r.newTotal(ctx, t.Repo, sum.Head, f.Path)
		}
		return out, nil
	}
	return FileDiff{}, userError(&usererr.Edge{Kind: usererr.NotChanged, Path: req.Path})
}

// newTotal is how many lines path has at commit head; 0 when it cannot
// be read there (FileDiff.NewTotal: the view then offers no tail to
// expand, and FileLines says why when asked).
func (r *ReviewService) newTotal(ctx context.Context, repo, head, path string) int {
	_, total, err := r.diff.FileLines(ctx, repo, head, path, 1, 1)
	if err != nil {
		return 0
	}
	return total
}

// FileLinesRequest asks for lines of a changed file as it is at one end
// of the task's diff: the unchanged lines between hunks that the diff
// view expands on click.
type FileLinesRequest struct {
	// Path is the file's path at that end (a renamed file's old path at
	// the old end).
	Path string `json:"path"`
	// Side is "old" (the diff's base) or "new" (its head).
	Side string `json:"side"`
	// From and To are the first and last line (1-based, inclusive); To 0
	// means the end of the file. At most MaxDiffLines lines come back.
	From int `json:"from"`
	To   int `json:"to"`
	// Leftovers reads the ends of the leftovers diff.
	Leftovers bool `json:"leftovers"`
}

// FileLines is a range of a file's lines at one end of the diff.
type FileLines struct {
	Path string `json:"path"`
	Side string `json:"side"`
	// From and To are the lines returned (To < From when none are).
	From int `json:"from"`
	To   int `json:"to"`
	// Total is how many lines the file has at that end.
	Total int      `json:"total"`
	Lines []string `json:"lines"`
}

// FileLines returns lines of a changed file at the old or new end of the
// task's diff. Errors: the task is unknown or has no branch, the file is
// not changed, or it is not at that end (*worktree.FileAtError), or it
// is too large to read.
func (r *ReviewService) FileLines(taskID string, req FileLinesRequest) (FileLines, error) {
	ctx := r.ctx()
	t, sum, fcs, err := r.files(ctx, taskID, req.Leftovers)
	if err != nil {
		return FileLines{}, err
	}
	changed := false
	for _, f := range fcs {
		changed = changed || f.Path == req.Path || f.OldPath == req.Path
	}
	if !changed {
		return FileLines{}, userError(&usererr.Edge{Kind: usererr.NotChanged, Path: req.Path})
	}
	rev := sum.Head
	switch req.Side {
	case "old":
		rev = sum.Base
	case "new":
	default:
		return FileLines{}, userError(&usererr.Edge{Kind: usererr.BadSide, Value: req.Side})
	}
	from := max(req.From, 1)
	to := req.To
	if to <= 0 || to-from+1 > MaxDiffLines {
		to = from + MaxDiffLines - 1
		if req.To > 0 {
			to = min(req.To, to)
		}
	}
	lines, total, err := r.diff.FileLines(ctx, t.Repo, rev, req.Path, from, to)
	if err != nil {
		return FileLines{}, userError(err)
	}
	return FileLines{Path: req.Path, Side: req.Side, From: from, To: from + len(lines) - 1, Total: total, Lines: lines}, nil
}

// maxFileLists is how many diffs' file lists are kept; maxPatches how
// many files' patches (the diff view pages through one file at a time).
const (
	maxFileLists = 4
	maxPatches   = 2
)

// listFiles returns the changed files from base to head, listed once per
// pair of commits (base and head must be commit ids to be kept): a diff of
// 5,000 files costs a git diff of all of them each time.
func (r *ReviewService) listFiles(ctx context.Context, repo, base, head string) ([]worktree.FileChange, error) {
	key := repo + "\x00" + base + "\x00" + head
	if fcs, ok := r.lists.get(key); ok {
		return fcs, nil
	}
	fcs, err := r.diff.Files(ctx, repo, base, head)
	if err == nil && isCommitID(base) && isCommitID(head) {
		r.lists.put(key, fcs)
	}
	return fcs, err
}

// patch returns f's patch from base to head, read once per file and pair
// of commits: each page of a 500,000-line file was a git diff of all of it.
func (r *ReviewService) patch(ctx context.Context, repo, base, head string, f worktree.FileChange, o worktree.PatchOptions) (string, error) {
	key := fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%s\x00%t", repo, base, head, f.OldPath, f.Path, o.IgnoreWhitespace)
	if p, ok := r.patches.get(key); ok {
		return p, nil
	}
	p, err := r.diff.ChangePatchWith(ctx, repo, base, head, f, o)
	if err == nil && isCommitID(base) && isCommitID(head) {
		r.patches.put(key, p)
	}
	return p, err
}

// isCommitID reports whether s is a full hexadecimal object id.
func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
