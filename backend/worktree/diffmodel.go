package worktree

import (
	"regexp"
	"strconv"
	"strings"
)

// LineKind is what a line of a hunk is.
type LineKind string

// Line kinds.
const (
	// LineContext is a line both versions have.
	LineContext LineKind = "context"
	// LineAdded is a line only the new version has.
	LineAdded LineKind = "add"
	// LineDeleted is a line only the old version has.
	LineDeleted LineKind = "del"
)

// DiffLine is one line of a hunk with its line numbers.
type DiffLine struct {
	Kind LineKind `json:"kind"`
	// Old and New are the line's 1-based numbers in the old and the new
	// version; 0 where it has none (an added line has no Old).
	Old int `json:"old"`
	New int `json:"new"`
	// Text is the line without its +, - or space and its newline.
	Text string `json:"text"`
	// NoNewline is set when the line ends its file without a newline
	// (git's "\ No newline at end of file" followed it).
	NoNewline bool `json:"no_newline,omitempty"`
}

// DiffHunk is one "@@" section of a file's patch: its ranges, the
// function context git found, and its lines.
type DiffHunk struct {
	// Index is its 1-based position among the file's hunks: the number
	// the CLI's FILE:N, a request for changes and a hunk accept use.
	Index int `json:"index"`
	// Header is its "@@" line; Section what follows the second "@@" (the
	// enclosing function or heading, "" when git found none).
	Header  string `json:"header"`
	Section string `json:"section"`
	// OldStart, OldLines, NewStart and NewLines are the header's ranges.
	OldStart int `json:"old_start"`
	OldLines int `json:"old_lines"`
	NewStart int `json:"new_start"`
	NewLines int `json:"new_lines"`
	// Count is how many lines the hunk has.
	Count int `json:"count"`
	// FirstLine is the position (0-based) within the hunk of Lines[0];
	// Lines may hold only part of the hunk (a window, ParseHunks).
	FirstLine int        `json:"first_line"`
	Lines     []DiffLine `json:"lines"`
}

// hunkHeader matches a hunk's "@@" line as review.SplitPatch does, with
// every range and the section.
var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$`)

// headerOf returns hunkHeader's submatches for a hunk's "@@" line, else nil.
func headerOf(line string) []string {
	if !strings.HasPrefix(line, "@@ ") {
		return nil
	}
	return hunkHeader.FindStringSubmatch(line)
}

// Window selects which lines of a patch ParseHunks returns: from line
// Line (0-based) of hunk Hunk (0-based), at most Max lines (Max <= 0:
// every line from there on).
type Window struct {
	Hunk, Line, Max int
}

// ParseHunks reads a one-file unified patch (git diff of one path) into
// its hunks with every line numbered in both versions. Every hunk is
// listed with its ranges and Count; only the lines inside w are returned
// (Lines and FirstLine), so a caller can page through a file of any size.
// next is where the following window starts, or nil when w reached the
// end. Hunks are found as review.SplitPatch finds them, so their indexes
// agree with every other hunk number of the app.
func ParseHunks(patch string, w Window) (hunks []DiffHunk, next *Window) {
	budget := w.Max
	var cur *DiffHunk
	var oldN, newN, pos int
	for len(patch) > 0 {
		line, rest, _ := strings.Cut(patch, "\n")
		patch = rest
		// Only a header starts with "@@" (every body line has its ' ', '+', '-'
		// or '\' line): the pattern runs on those alone, not on each of 500,000 lines.
		if m := headerOf(line); m != nil {
			h := DiffHunk{Index: len(hunks) + 1, Header: line, Section: strings.TrimSpace(m[5]),
				OldStart: atoi(m[1]), OldLines: rangeLen(m[2]), NewStart: atoi(m[3]), NewLines: rangeLen(m[4]), Lines: []DiffLine{}}
			hunks = append(hunks, h)
			cur = &hunks[len(hunks)-1]
			oldN, newN, pos = h.OldStart, h.NewStart, 0
			continue
		}
		if cur == nil {
			continue // the header lines before the first hunk
		}
		if strings.HasPrefix(line, `\`) { // "\ No newline at end of file"
			if n := len(cur.Lines); n > 0 && pos == cur.FirstLine+n {
				cur.Lines[n-1].NoNewline = true
			}
			continue
		}
		dl := DiffLine{Kind: LineContext, Text: line}
		switch {
		case strings.HasPrefix(line, "+"):
			dl.Kind, dl.New, dl.Text = LineAdded, newN, line[1:]
			newN++
		case strings.HasPrefix(line, "-"):
			dl.Kind, dl.Old, dl.Text = LineDeleted, oldN, line[1:]
			oldN++
		default:
			if strings.HasPrefix(line, " ") {
				dl.Text = line[1:]
			}
			dl.Old, dl.New = oldN, newN
			oldN++
			newN++
		}
		idx := len(hunks) - 1
		inside := idx > w.Hunk || idx == w.Hunk && pos >= w.Line
		switch {
		case !inside:
		case w.Max > 0 && budget == 0:
			if next == nil {
				next = &Window{Hunk: idx, Line: pos, Max: w.Max}
			}
		default:
			if len(cur.Lines) == 0 {
				cur.FirstLine = pos
			}
			cur.Lines = append(cur.Lines, dl)
			budget--
		}
		pos++
		cur.Count = pos
	}
	return hunks, next
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// rangeLen is a hunk range's length: 1 when the header leaves it out.
func rangeLen(s string) int {
	if s == "" {
		return 1
	}
	return atoi(s)
}
