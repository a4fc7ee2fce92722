package review

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Hunk is one "@@" section of a file's patch in a task's diff, numbered
// the way the Review screen and the CLI number them.
type Hunk struct {
	// Index is its 1-based position among the file's hunks.
	Index int `json:"index"`
	// Header is its "@@" line.
	Header string `json:"header"`
	// Text runs from the "@@" line to the hunk's end, newline-terminated:
	// what the Review screen quotes in a comment or a drop.
	Text string `json:"text"`
	// NewStart is its first line in the new version (0 for a deletion).
	NewStart int `json:"new_start"`
}

// FileHunks is one changed file of a task's diff, its patch split.
type FileHunks struct {
	worktree.FileChange
	// Head is the patch up to its first hunk: "diff --git", modes, rename
	// and the ---/+++ lines (for a binary file, its whole patch).
	Head  string
	Hunks []Hunk
}

var hunkRe = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@`)

// SplitPatch splits a one-file unified patch into what precedes its first
// hunk and its hunks, as the Review screen does (a line matching the hunk
// header pattern starts a hunk; "\ No newline" lines stay with theirs).
func SplitPatch(patch string) (head string, hunks []Hunk) {
	lines := strings.SplitAfter(patch, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	var b strings.Builder
	cur := -1
	flush := func() {
		if cur >= 0 {
			t := b.String()
			if !strings.HasSuffix(t, "\n") {
				t += "\n"
			}
			hunks[cur].Text = t
		} else {
			head = b.String()
		}
		b.Reset()
	}
	for _, l := range lines {
		if m := hunkRe.FindStringSubmatch(l); m != nil {
			flush()
			n, _ := strconv.Atoi(m[1])
			cur = len(hunks)
			hunks = append(hunks, Hunk{Index: cur + 1, Header: strings.TrimRight(l, "\r\n"), NewStart: n})
		}
		b.WriteString(l)
	}
	flush()
	return head, hunks
}

// splitFile splits a file patch of worktree.Patches.
func splitFile(fp worktree.FilePatch) FileHunks {
	head, hunks := SplitPatch(fp.Patch)
	return FileHunks{FileChange: fp.FileChange, Head: head, Hunks: hunks}
}

// find returns the hunk whose text is text (the screen may have replaced
// invalid UTF-8), or false.
func (f FileHunks) find(text string) (Hunk, bool) {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	for _, h := range f.Hunks {
		if h.Text == text || strings.ToValidUTF8(h.Text, "\uFFFD") == text {
			return h, true
		}
	}
	return Hunk{}, false
}

// dropPatch is a patch of hunk h alone that reverts only its lines when
// reverse-applied: for a file that was modified (renamed, or its mode
// changed, too) the header names the new path only, so neither the
// rename nor the mode is reverted; an added or deleted file keeps its
// header (dropping the only hunk of an added file removes the file).
func (f FileHunks) dropPatch(h Hunk) string {
	switch f.Status {
	case worktree.Added, worktree.Deleted:
		return f.Head + h.Text
	}
	return plainHead(f.Head) + h.Text
}

// plainHead is a patch header of the new path alone, taken from the
// "+++" line (as git quoted it).
func plainHead(head string) string {
	for _, l := range strings.Split(head, "\n") {
		if !strings.HasPrefix(l, "+++ ") {
			continue
		}
		dst := strings.TrimPrefix(l, "+++ ")
		bare := strings.TrimSuffix(dst, "\t")
		src := "a/" + strings.TrimPrefix(bare, "b/")
		if strings.HasPrefix(bare, `"b/`) {
			src = `"a/` + strings.TrimPrefix(bare, `"b/`)
		}
		tab := strings.TrimPrefix(dst, bare)
		return "diff --git " + src + " " + bare + "\n--- " + src + tab + "\n+++ " + dst + "\n"
	}
	return head
}

// patchOf is a patch of f with only the hunks listed (1-based, ascending),
// or the whole patch when hunks is empty.
func (f FileHunks) patchOf(hunks []int) string {
	if len(hunks) == 0 {
		return f.Head + joinHunks(f.Hunks)
	}
	var b strings.Builder
	b.WriteString(f.Head)
	for _, i := range hunks {
		b.WriteString(f.Hunks[i-1].Text)
	}
	return b.String()
}

func joinHunks(hs []Hunk) string {
	var b strings.Builder
	for _, h := range hs {
		b.WriteString(h.Text)
	}
	return b.String()
}

// StaleHunkError refuses a review or a selection that names a file or a
// hunk the task's diff does not have (the branch moved since the user
// looked, or a mistyped name or number); nothing was changed.
type StaleHunkError struct {
	File string
	// Index is the hunk asked for by number (0 when named by its text);
	// Count how many hunks the file has.
	Index, Count int
	// Header is the "@@" line of a hunk named by its text.
	Header string
	// NotChanged is set when the file is not in the diff at all.
	NotChanged bool
}

func (e *StaleHunkError) Error() string {
	switch {
	case e.NotChanged:
		return fmt.Sprintf("%q is not changed in the task's diff", e.File)
	case e.Index > 0:
		return fmt.Sprintf("%q has %d hunk(s) in the task's diff: no hunk %d", e.File, e.Count, e.Index)
	}
	return fmt.Sprintf("the diff of %q no longer has the hunk %q", e.File, e.Header)
}

// Unwrap lets errors.Is match ErrBadReview.
func (e *StaleHunkError) Unwrap() error { return ErrBadReview }

// diffFiles returns the task's changed files among paths (all when none),
// with their patches split into hunks, from its base to its branch head
// (binary asks for patches git apply can apply to binary files), and the
// two commits.
func (s *Service) diffFiles(ctx context.Context, t task.Task, binary bool, paths ...string) (files []FileHunks, base, head string, err error) {
	base, headRef, err := s.DiffRange(ctx, t, false)
	if err != nil {
		return nil, "", "", err
	}
	if head, err = s.git.ResolveCommit(ctx, t.Repo, headRef); err != nil {
		return nil, "", "", fmt.Errorf("task head: %w", err)
	}
	if base, err = s.git.ResolveCommit(ctx, t.Repo, base); err != nil {
		return nil, "", "", fmt.Errorf("task base: %w", err)
	}
	fps, err := worktree.NewManager(s.git, s.now).Patches(ctx, t.Repo, base, head, binary, paths...)
	if err != nil {
		return nil, "", "", err
	}
	files = make([]FileHunks, 0, len(fps))
	for _, fp := range fps {
		files = append(files, splitFile(fp))
	}
	return files, base, head, nil
}

// fileOf returns the entry of files for path (its path or rename source).
func fileOf(files []FileHunks, path string) (FileHunks, bool) {
	for _, f := range files {
		if f.Path == path {
			return f, true
		}
	}
	for _, f := range files {
		if f.OldPath == path {
			return f, true
		}
	}
	return FileHunks{}, false
}

// TaskHunks returns the hunks of one file of the task's diff against its
// base, numbered from 1 as the CLI's FILE:N and the Review screen number
// them. A file the diff does not change gives *StaleHunkError; other
// errors are DiffRange's or wrapped gitx errors.
func (s *Service) TaskHunks(ctx context.Context, t task.Task, file string) (FileHunks, error) {
	files, _, _, err := s.diffFiles(ctx, t, false, file)
	if err != nil {
		return FileHunks{}, err
	}
	f, ok := fileOf(files, file)
	if !ok {
		return FileHunks{}, &StaleHunkError{File: file, NotChanged: true}
	}
	return f, nil
}

// ChangedFiles lists the paths the task's diff changes (for the CLI's
// FILE:N=TEXT, whose FILE may itself hold ":N=").
func (s *Service) ChangedFiles(ctx context.Context, t task.Task) ([]string, error) {
	base, head, err := s.DiffRange(ctx, t, false)
	if err != nil {
		return nil, err
	}
	fcs, err := worktree.NewManager(s.git, s.now).Files(ctx, t.Repo, base, head)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(fcs))
	for _, f := range fcs {
		out = append(out, f.Path)
	}
	return out, nil
}
