package review

import (
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

func TestReviewerSummary(t *testing.T) {
	rep := func(body string) task.Section { return task.Section{Kind: task.SectionReviewerReport, Body: body} }
	long := ""
	for range 1200 {
		long += "é"
	}
	cases := []struct {
		name string
		secs []task.Section
		want string
	}{
		{"none", nil, ""},
		{"only other reports", []task.Section{{Kind: task.SectionDeveloperReport, Body: "I did it."}}, ""},
		{"heading then prose", []task.Section{rep("## Review\n\nLooks right.\nTests pass.\n\nMore.")}, "Looks right.\nTests pass."},
		{"heading glued to prose", []task.Section{rep("## Review\nChecked the working tree.")}, "Checked the working tree."},
		{"last report wins", []task.Section{rep("First round."), rep("Second round.\n\nVERDICT: APPROVE")}, "Second round."},
		{"verdict only", []task.Section{rep("VERDICT: APPROVE\n")}, ""},
		{"bold verdict skipped", []task.Section{rep("**Verdict:** APPROVE\n\nAll good.")}, "All good."},
		{"fence skipped", []task.Section{rep("```\ngo test\n```\n\nRan the tests.")}, "Ran the tests."},
		{"crlf", []task.Section{rep("# R\r\n\r\nFine.\r\n")}, "Fine."},
		{"hashtag is prose", []task.Section{rep("#123 is fixed.")}, "#123 is fixed."},
		{"clipped", []task.Section{rep(long)}, string([]rune(long)[:maxSummary]) + "…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ReviewerSummary(c.secs); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestDefaultMessage(t *testing.T) {
	if got := DefaultMessage(StrategySquash, "x1", "  Title ", " Sum. "); got != "Title\n\nSum.\n\nBoof-Runner-Task: x1\n" {
		t.Fatalf("squash: %q", got)
	}
	if got := DefaultMessage(StrategyMerge, "x1", "", ""); got != "Merge boof-runner/x1: task x1\n\nBoof-Runner-Task: x1\n" {
		t.Fatalf("merge without title: %q", got)
	}
}
