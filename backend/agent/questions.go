package agent

import "strings"

// QuestionsHeading is the exact heading line that starts the questions section
// of a report.
const QuestionsHeading = "## Questions for the user"

// ExtractQuestions returns the questions of a report: the "- " bullets of the
// section whose heading line is exactly QuestionsHeading, when that section is
// the last one of the report (no later "#" heading). It returns nil when the
// section is absent or holds no bullets. Lines that are not bullets continue
// the previous question.
func ExtractQuestions(report string) []string {
	lines := strings.Split(strings.ReplaceAll(report, "\r\n", "\n"), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimRight(l, " \t") == QuestionsHeading {
			start = i
		}
	}
	if start < 0 {
		return nil
	}
	var qs []string
	for _, l := range lines[start+1:] {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "#"):
			return nil // a later section: the questions section is not the last one
		case strings.HasPrefix(t, "- "):
			if q := strings.TrimSpace(t[2:]); q != "" {
				qs = append(qs, q)
			}
		case t != "" && len(qs) > 0:
			qs[len(qs)-1] += " " + t
		}
	}
	if len(qs) == 0 {
		return nil
	}
	return qs
}
