package review

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// HumanReviewHeading starts the section RenderHumanReview writes.
const HumanReviewHeading = "## Human review"

// Limits on a request for changes.
const (
	MaxComments    = 500
	MaxCommentText = 20_000
	MaxHunkText    = 200_000
)

// ErrEmptyReview: a request for changes with no comment and no hunk to drop.
var ErrEmptyReview = errors.New("request for changes is empty")

// ErrBadReview: a request for changes with a malformed comment or hunk.
var ErrBadReview = errors.New("bad request for changes")

// Comment is a remark on a hunk or a file of the task's diff.
type Comment struct {
	// File is the path in the diff the comment is on.
	File string `json:"file"`
	// Line is the line number in the new version (0 = the whole hunk or
	// file); with Side "old", in the old version (a deleted line).
	Line int `json:"line"`
	// EndLine, when set, ends a range of lines that starts at Line (in
	// the same version).
	EndLine int `json:"end_line,omitempty"`
	// Side says which version Line and EndLine number: "new" (or "") or
	// "old".
	Side string `json:"side,omitempty"`
	// Hunk is the diff text the comment is attached to, from its "@@" line
	// ("" = none, or the hunk named by Index and Header).
	Hunk string `json:"hunk"`
	// Text is the user's comment.
	Text string `json:"text"`
	// Index and Header locate the hunk in the task's diff (its 1-based
	// position among the file's hunks and its "@@" line); the service fills
	// them in when it checks the request against the diff. A comment may
	// name its hunk by them instead of by its text (Hunk ""), as the diff
	// model numbers them (worktree.DiffHunk.Index and Header).
	Index  int    `json:"index,omitempty"`
	Header string `json:"header,omitempty"`
}

// Sides of a comment's lines.
const (
	SideNew = "new"
	SideOld = "old"
)

// checkAnchor checks where a comment is anchored: lines that are not
// negative, a range that ends after it starts, a known side, and no line
// or hunk without a file.
func (c Comment) checkAnchor() error {
	switch {
	case c.File == "" && (c.Line != 0 || c.EndLine != 0 || c.Hunk != "" || c.Index != 0):
		return errors.New("has a line or hunk but no file")
	case c.Line < 0:
		return fmt.Errorf("has line %d", c.Line)
	case c.Index < 0:
		return fmt.Errorf("names hunk %d", c.Index)
	case c.EndLine != 0 && (c.Line == 0 || c.EndLine < c.Line):
		return fmt.Errorf("has lines %d to %d, which are not a range", c.Line, c.EndLine)
	case c.Side != "" && c.Side != SideNew && c.Side != SideOld:
		return fmt.Errorf("has side %q (want %q or %q)", c.Side, SideNew, SideOld)
	}
	return nil
}

// lineLabel is ", line N", ", lines N-M", ", old line N" … for a comment
// anchored to lines, "" otherwise.
func (c Comment) lineLabel() string {
	if c.Line <= 0 {
		return ""
	}
	side := ""
	if c.Side == SideOld {
		side = "old "
	}
	if c.EndLine > c.Line {
		return fmt.Sprintf(", %slines %d-%d", side, c.Line, c.EndLine)
	}
	return fmt.Sprintf(", %sline %d", side, c.Line)
}

// Drop is a hunk the user wants reverted: the fix run reverts it before
// the developer runs, in a "Drop hunk" commit of its own.
type Drop struct {
	File string `json:"file"`
	// Hunk is the hunk's diff text, from its "@@" line.
	Hunk string `json:"hunk"`
	// Index and Header: as for Comment.
	Index  int    `json:"index,omitempty"`
	Header string `json:"header,omitempty"`
}

// ChangeRequest is the user's request for changes on a reviewed task.
type ChangeRequest struct {
	// General is the comment on the work as a whole.
	General  string    `json:"general"`
	Comments []Comment `json:"comments"`
	Drops    []Drop    `json:"drops"`
}

// Check trims c and validates it: ErrEmptyReview when there is nothing to
// ask, an error wrapping ErrBadReview naming the bad entry otherwise.
func (c ChangeRequest) Check() (ChangeRequest, error) {
	out := ChangeRequest{General: strings.TrimSpace(c.General)}
	if len(c.General) > MaxCommentText {
		return out, fmt.Errorf("%w: general comment is longer than %d bytes", ErrBadReview, MaxCommentText)
	}
	if len(c.Comments)+len(c.Drops) > MaxComments {
		return out, fmt.Errorf("%w: more than %d comments and drops", ErrBadReview, MaxComments)
	}
	for i, cm := range c.Comments {
		cm.Text = strings.TrimSpace(cm.Text)
		switch {
		case cm.Text == "":
			return out, fmt.Errorf("%w: comment %d is empty", ErrBadReview, i+1)
		case len(cm.Text) > MaxCommentText || len(cm.Hunk) > MaxHunkText:
			return out, fmt.Errorf("%w: comment %d is too long", ErrBadReview, i+1)
		}
		if err := cm.checkAnchor(); err != nil {
			return out, fmt.Errorf("%w: comment %d %v", ErrBadReview, i+1, err)
		}
		out.Comments = append(out.Comments, cm)
	}
	for i, d := range c.Drops {
		if d.File == "" || strings.TrimSpace(d.Hunk) == "" && d.Index <= 0 {
			return out, fmt.Errorf("%w: dropped hunk %d needs a file and its hunk text", ErrBadReview, i+1)
		}
		if len(d.Hunk) > MaxHunkText {
			return out, fmt.Errorf("%w: dropped hunk %d is too long", ErrBadReview, i+1)
		}
		out.Drops = append(out.Drops, d)
	}
	if out.General == "" && len(out.Comments) == 0 && len(out.Drops) == 0 {
		return out, ErrEmptyReview
	}
	return out, nil
}

// RenderHumanReview writes the "## Human review" section of a fix run:
// the general comment, each comment with its file, hunk (number and "@@"
// header), line and the quoted hunk, and the hunks that were dropped. c
// should have passed Check. Every role of the fix run reads it verbatim.
// File names are quoted so that any name, even one with a newline or
// backticks, reads unambiguously; code fences are longer than any run of
// backticks in the text they hold.
func RenderHumanReview(c ChangeRequest) string {
	var b strings.Builder
	b.WriteString(HumanReviewHeading + "\n\n")
	b.WriteString("The user reviewed the work of this task and asks for changes. They are to be made in this same worktree, keeping the rest of the work as it is.\n")
	if c.General != "" {
		b.WriteString("\n### General comment\n\n")
		b.WriteString(c.General + "\n")
	}
	if len(c.Comments) > 0 {
		b.WriteString("\n### Comments\n")
		for i, cm := range c.Comments {
			fmt.Fprintf(&b, "\n%d. ", i+1)
			if cm.File == "" {
				b.WriteString("General")
			} else {
				b.WriteString(quoteName(cm.File))
				b.WriteString(hunkLabel(cm.Index, cm.Header))
				b.WriteString(cm.lineLabel())
			}
			b.WriteString(":\n")
			if cm.Hunk != "" {
				writeFence(&b, "diff", cm.Hunk, "   ")
			}
			b.WriteString(indent(cm.Text, "   ") + "\n")
		}
	}
	if len(c.Drops) > 0 {
		b.WriteString("\n### Dropped hunks\n\nThe user dropped these hunks. Boof Runner reverted each of them before this run, in a \"Drop hunk\" commit of its own on the task branch: do not bring them back.\n")
		for i, d := range c.Drops {
			fmt.Fprintf(&b, "\n%d. %s%s:\n", i+1, quoteName(d.File), hunkLabel(d.Index, d.Header))
			writeFence(&b, "diff", d.Hunk, "   ")
		}
	}
	return b.String()
}

// hunkLabel is ", hunk N `@@ … @@`" for a located hunk, "" otherwise.
func hunkLabel(index int, header string) string {
	if index <= 0 {
		return ""
	}
	if header == "" {
		return fmt.Sprintf(", hunk %d", index)
	}
	return fmt.Sprintf(", hunk %d %s", index, codeSpan(header))
}

// codeSpan quotes text as a Markdown code span.
func codeSpan(text string) string {
	tick := strings.Repeat("`", longestRun(text, '`')+1)
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		return tick + " " + text + " " + tick
	}
	return tick + text + tick
}

// quoteName returns a file name as a code span, or Go-quoted when it holds
// control characters.
func quoteName(name string) string {
	for _, r := range name {
		if unicode.IsControl(r) {
			return strconv.Quote(name)
		}
	}
	return codeSpan(name)
}

func writeFence(b *strings.Builder, lang, text, pre string) {
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	b.WriteString(pre + fence + lang + "\n")
	b.WriteString(indent(strings.TrimRight(text, "\n"), pre) + "\n")
	b.WriteString(pre + fence + "\n")
}

func indent(text, pre string) string {
	return pre + strings.ReplaceAll(text, "\n", "\n"+pre)
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}
