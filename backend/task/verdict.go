package task

import (
	"regexp"
	"strings"
)

// Verdict is the outcome a reviewing role (observer or reviewer) gives at
// the end of its report.
type Verdict string

const (
	// VerdictApprove accepts the work.
	VerdictApprove Verdict = "APPROVE"
	// VerdictChangesRequested asks the developer to fix the listed findings.
	VerdictChangesRequested Verdict = "CHANGES_REQUESTED"
	// VerdictReject says the work should not be fixed in place.
	VerdictReject Verdict = "REJECT"
	// VerdictInvalid is a missing, malformed or conflicting verdict; it is
	// never approved.
	VerdictInvalid Verdict = "INVALID"
)

// Approved reports whether v lets the work pass.
func (v Verdict) Approved() bool { return v == VerdictApprove }

var verdictLine = regexp.MustCompile(`^VERDICT:\s*(APPROVE|CHANGES_REQUESTED|REJECT)\s*$`)

// normalizeVerdictLine drops trailing whitespace and markdown emphasis
// characters (*, _ and backticks) around a line.
func normalizeVerdictLine(line string) string {
	line = strings.TrimRight(line, " \t\r\f\v")
	line = strings.Trim(line, "*_`")
	return strings.TrimRight(line, " \t\r\f\v")
}

// ParseVerdict reads the verdict a report ends with. It fails closed: the
// last non-empty line must be an exact verdict line
// (VERDICT: APPROVE|CHANGES_REQUESTED|REJECT, case-sensitive, ignoring
// trailing whitespace and emphasis characters around it), and every other
// exact verdict line in the report must give the same verdict. Anything
// else (missing, malformed, text after the verdict, conflicting lines) is
// VerdictInvalid.
func ParseVerdict(report string) Verdict {
	lines := strings.Split(report, "\n")
	last := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if normalizeVerdictLine(lines[i]) != "" {
			last = i
			break
		}
	}
	if last < 0 {
		return VerdictInvalid
	}
	m := verdictLine.FindStringSubmatch(normalizeVerdictLine(lines[last]))
	if m == nil {
		return VerdictInvalid
	}
	v := Verdict(m[1])
	for _, l := range lines[:last] {
		if o := verdictLine.FindStringSubmatch(normalizeVerdictLine(l)); o != nil && Verdict(o[1]) != v {
			return VerdictInvalid
		}
	}
	return v
}
