package task

import (
	"strings"
	"testing"
)

func TestParseVerdict(t *testing.T) {
	cases := []struct {
		name, report string
		want         Verdict
	}{
		{"approve", "Looks good.\n\nVERDICT: APPROVE", VerdictApprove},
		{"changes", "- fix x\nVERDICT: CHANGES_REQUESTED\n", VerdictChangesRequested},
		{"reject", "no\nVERDICT: REJECT", VerdictReject},
		{"no space", "VERDICT:APPROVE", VerdictApprove},
		{"trailing whitespace and blank lines", "ok\nVERDICT: APPROVE  \t\r\n\n  \n", VerdictApprove},
		{"crlf", "ok\r\nVERDICT: APPROVE\r\n", VerdictApprove},
		{"bold", "ok\n**VERDICT: APPROVE**", VerdictApprove},
		{"code", "ok\n`VERDICT: REJECT`", VerdictReject},
		{"underscores", "ok\n__VERDICT: CHANGES_REQUESTED__", VerdictChangesRequested},
		{"mixed emphasis", "ok\n*_`VERDICT: APPROVE`_*  ", VerdictApprove},
		{"repeated identical", "VERDICT: APPROVE\nmore text\n\nVERDICT: APPROVE", VerdictApprove},
		{"repeated identical emphasised", "**VERDICT: APPROVE**\n\nVERDICT: APPROVE", VerdictApprove},
		{"empty", "", VerdictInvalid},
		{"blank", " \n\t\n", VerdictInvalid},
		{"missing", "All good, ship it.", VerdictInvalid},
		{"lowercase", "ok\nverdict: approve", VerdictInvalid},
		{"lowercase value", "ok\nVERDICT: Approve", VerdictInvalid},
		{"garbled", "ok\nVERDICT: MAYBE", VerdictInvalid},
		{"text after", "VERDICT: APPROVE\nbut actually one more thing", VerdictInvalid},
		{"text on same line", "VERDICT: APPROVE because it is fine", VerdictInvalid},
		{"leading text", "Final VERDICT: APPROVE", VerdictInvalid},
		{"leading space", "  VERDICT: APPROVE", VerdictInvalid},
		{"conflict adjacent", "VERDICT: REJECT\nVERDICT: APPROVE", VerdictInvalid},
		{"conflict across blanks", "VERDICT: CHANGES_REQUESTED\n\n\n\nVERDICT: APPROVE", VerdictInvalid},
		{"conflict emphasised", "**VERDICT: REJECT**\nfindings\nVERDICT: APPROVE", VerdictInvalid},
		{"inexact other line ignored", "I will end with VERDICT: REJECT if bad\nVERDICT: APPROVE", VerdictApprove},
		{"only emphasis after", "VERDICT: APPROVE\n**", VerdictApprove},
		{"heading", "ok\n## VERDICT: APPROVE", VerdictInvalid},
		{"non utf8", "\xff\xfe\nVERDICT: APPROVE", VerdictApprove},
		{"colon missing", "VERDICT APPROVE", VerdictInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ParseVerdict(c.report); got != c.want {
				t.Fatalf("ParseVerdict(%q) = %s, want %s", c.report, got, c.want)
			}
		})
	}
}

func TestVerdictApproved(t *testing.T) {
	for _, v := range []Verdict{VerdictChangesRequested, VerdictReject, VerdictInvalid, ""} {
		if v.Approved() {
			t.Errorf("%q approved", v)
		}
	}
	if !VerdictApprove.Approved() {
		t.Error("APPROVE not approved")
	}
}

func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{"VERDICT: APPROVE", "x\nVERDICT: REJECT\n", "**VERDICT: CHANGES_REQUESTED**", "VERDICT: APPROVE\nVERDICT: REJECT", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, report string) {
		v := ParseVerdict(report)
		switch v {
		case VerdictApprove, VerdictChangesRequested, VerdictReject, VerdictInvalid:
		default:
			t.Fatalf("unexpected verdict %q", v)
		}
		if v == VerdictInvalid {
			return
		}
		// A valid verdict must be the last non-empty line, and appending
		// text must never keep it valid.
		if ParseVerdict(report+"\ntrailing words") != VerdictInvalid {
			t.Fatalf("text after the verdict kept it valid: %q", report)
		}
		// Appending a conflicting verdict line is always invalid.
		other := VerdictApprove
		if v == VerdictApprove {
			other = VerdictReject
		}
		if got := ParseVerdict(report + "\nVERDICT: " + string(other)); got != VerdictInvalid {
			t.Fatalf("conflict not detected: %q → %s", report, got)
		}
		if !strings.Contains(report, string(v)) {
			t.Fatalf("verdict %s not in report %q", v, report)
		}
	})
}
