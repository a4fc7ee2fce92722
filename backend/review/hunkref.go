package review

import (
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/worktree"
)

// locateIndex finds hunk index of f, whose "@@" line must be header when
// one is given; a hunk numbered in the diff with whitespace ignored (the
// Review screen's toggle) is found there when the plain diff's hunk of
// that number has another header. *StaleHunkError when neither has it.
func locateIndex(f FileHunks, index int, header string, ws func(string) (FileHunks, bool, error)) (FileHunks, Hunk, error) {
	if index <= len(f.Hunks) && (header == "" || f.Hunks[index-1].Header == header) {
		return f, f.Hunks[index-1], nil
	}
	if header != "" {
		wf, ok, err := ws(f.Path)
		if err != nil {
			return f, Hunk{}, err
		}
		if ok && index <= len(wf.Hunks) && wf.Hunks[index-1].Header == header {
			return wf, wf.Hunks[index-1], nil
		}
		return f, Hunk{}, &StaleHunkError{File: f.Path, Header: header}
	}
	return f, Hunk{}, &StaleHunkError{File: f.Path, Index: index, Count: len(f.Hunks)}
}

// Bounds of the hunk text a comment named by its hunk's number quotes.
const (
	// excerptWhole is the largest hunk quoted whole.
	excerptWhole = 2 << 10
	// excerptAround is how many lines around the commented ones an
	// excerpt of a larger hunk keeps; excerptHead how many of its first
	// lines a comment on the whole hunk gets.
	excerptAround = 3
	excerptHead   = 40
)

// excerpt is the diff text a comment on hunk h quotes in the developer's
// prompt: the whole hunk when it is small, else its "@@" line and the
// commented lines with a few around them (or its first lines), so that a
// comment on one line of a huge added file does not quote all of it.
func excerpt(h Hunk, c Comment) string {
	if len(h.Text) <= excerptWhole {
		return h.Text
	}
	hs, _ := worktree.ParseHunks(h.Text, worktree.Window{})
	if len(hs) != 1 {
		return h.Header + "\n"
	}
	lo, hi := c.Line-excerptAround, max(c.Line, c.EndLine)+excerptAround
	var b strings.Builder
	b.WriteString(h.Header + "\n")
	skipped := false
	for i, l := range hs[0].Lines {
		n := l.New
		if c.Side == SideOld {
			n = l.Old
		}
		keep := c.Line > 0 && n >= lo && n <= hi && n > 0
		if c.Line <= 0 {
			keep = i < excerptHead
		}
		if !keep {
			skipped = true
			continue
		}
		if skipped {
			b.WriteString("…\n")
		}
		skipped = false
		fmt.Fprintf(&b, "%s%s\n", linePrefix(l.Kind), l.Text)
	}
	if skipped {
		b.WriteString("…\n")
	}
	return b.String()
}

// linePrefix is the diff prefix of a line kind.
func linePrefix(k worktree.LineKind) string {
	switch k {
	case worktree.LineAdded:
		return "+"
	case worktree.LineDeleted:
		return "-"
	}
	return " "
}
