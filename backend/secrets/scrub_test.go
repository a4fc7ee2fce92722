package secrets_test

import (
	"testing"

	"github.com/boof-runner/boof-runner/backend/secrets"
)

// The cases the pipeline's first hand-written rules covered still hold.
func TestScrubKnownShapes(t *testing.T) {
	cases := map[string]string{
		"key sk-ant-api03-abcdefghijklmnopqrstuv end":                       "key [REDACTED] end",
		"token ghp_q8Xk2LmN7pR4sT9vW1yZ3bC6dF0hJ5gK x":                      "token [REDACTED] x",
		"Authorization: Bearer q8Xk2LmN7pR4sT9vW1yZ3bC6":                    "Authorization: Bearer [REDACTED]",
		"OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrst":                       "OPENAI_API_KEY=[REDACTED]",
		`"api_key": "hunter2hunter2"`:                                       `"api_key": "[REDACTED]"`,
		"AKIAABCDEFGHIJKLMNOP":                                              "[REDACTED]",
		"nothing secret here, skip-this":                                    "nothing secret here, skip-this",
		`line\nAuthorization: Basic YWRtaW46T3UxRzYzcjl4V2lNWkpBamZmTzg=\n`: `line\nAuthorization: Basic [REDACTED]\n`,
		`"x\\nghp_q8Xk2LmN7pR4sT9vW1yZ3bC6dF0hJ5g"`:                         `"x\\n[REDACTED]"`,
		"VERDICT: APPROVE":                                                  "VERDICT: APPROVE",
		"Transient failure in reviewer-1 (attempt 1/3): API Error: 529":     "Transient failure in reviewer-1 (attempt 1/3): API Error: 529",
		"PWD=/work/repo":                                                    "PWD=/work/repo",
		"token = makeToken()":                                               "token = makeToken()",
		`"input_tokens":12`:                                                 `"input_tokens":12`,
		"https://github.com/a/b":                                            "https://github.com/a/b",
		"password: hunter2":                                                 "password: [REDACTED]",
		"ftp://bob:s3cr3tpw@h/x":                                            "ftp://bob:[REDACTED]@h/x",
		"a base64 blob QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9w is not a key": "a base64 blob QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9w is not a key",
	}
	for in, want := range cases {
		if got := secrets.Scrub(in); got != want {
			t.Errorf("Scrub(%q) = %q, want %q", in, got, want)
		}
	}
}

// Placeholders (gitleaks' global allowlist: the alphabet, $VARS) are not
// secrets.
func TestScrubKeepsPlaceholders(t *testing.T) {
	for _, s := range []string{"token ghp_abcdefghijklmnopqrstuvwxyz0123", "API_KEY=$API_KEY", "password: ${DB_PASSWORD}"} {
		if got := secrets.Scrub(s); got != s {
			t.Errorf("Scrub(%q) = %q", s, got)
		}
	}
}
