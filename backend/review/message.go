package review

import (
	"context"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// SectionReader reads a task's stored reports; *store.Store implements it.
type SectionReader interface {
	Sections(ctx context.Context, taskID string) ([]task.Section, error)
}

// maxSummary bounds the reviewer's summary in a default message, in runes.
const maxSummary = 1000

// DefaultMessage returns the commit message of a merge or squash from its
// parts: the title (the merge's subject names the task branch too), then
// the reviewer's summary, then the Boof-Runner-Task trailer. An empty
// title names the task by its id.
func DefaultMessage(st Strategy, taskID, title, summary string) string {
	title = strings.TrimSpace(title)
	if title == "" {
		title = "task " + taskID
	}
	var b strings.Builder
	if st == StrategyMerge {
		fmt.Fprintf(&b, "Merge %s: %s\n", TaskBranch(taskID), title)
	} else {
		fmt.Fprintf(&b, "%s\n", title)
	}
	if summary = strings.TrimSpace(summary); summary != "" {
		fmt.Fprintf(&b, "\n%s\n", summary)
	}
	fmt.Fprintf(&b, "\nBoof-Runner-Task: %s\n", taskID)
	return b.String()
}

// TaskMessage is the commit message an accept of t with st makes when the
// user gives none, the same for the window, the CLI and the merge queue:
// the task's title (or its prompt's first line) and the summary of its
// last reviewer report (ReviewerSummary). A rebase keeps the task's own
// messages: "". Errors are the reader's.
func TaskMessage(ctx context.Context, sections SectionReader, st Strategy, t task.Task) (string, error) {
	if st == StrategyRebase {
		return "", nil
	}
	secs, err := sections.Sections(ctx, t.ID)
	if err != nil {
		return "", fmt.Errorf("default message: %w", err)
	}
	return DefaultMessage(st, t.ID, t.DisplayTitle(), ReviewerSummary(secs)), nil
}

// ReviewerSummary returns the summary of the last reviewer report among
// secs: its first paragraph of prose, without Markdown headings, verdict
// lines or code fences, at most maxSummary runes; "" when there is none.
func ReviewerSummary(secs []task.Section) string {
	body := ""
	for _, s := range secs {
		if s.Kind == task.SectionReviewerReport {
			body = s.Body
		}
	}
	var para []string
	fenced := false
	for _, line := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		line = strings.TrimRight(line, " \t")
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fenced = !fenced
			continue
		case fenced || isHeading(trimmed) || isVerdictLine(trimmed):
			continue
		case trimmed == "":
			if len(para) > 0 {
				return clip(strings.Join(para, "\n"))
			}
			continue
		}
		para = append(para, line)
	}
	return clip(strings.Join(para, "\n"))
}

// isHeading reports whether line is a Markdown ATX heading ("## Review").
func isHeading(line string) bool {
	n := len(line) - len(strings.TrimLeft(line, "#"))
	return n >= 1 && n <= 6 && (len(line) == n || line[n] == ' ' || line[n] == '\t')
}

// isVerdictLine reports whether line is a reviewer's verdict line
// ("VERDICT: APPROVE", "**Verdict:** APPROVE").
func isVerdictLine(line string) bool {
	l := strings.ToUpper(strings.TrimLeft(line, "*_> "))
	return strings.HasPrefix(l, "VERDICT")
}

// clip bounds a summary to maxSummary runes.
func clip(s string) string {
	if r := []rune(s); len(r) > maxSummary {
		return string(r[:maxSummary]) + "…"
	}
	return s
}
