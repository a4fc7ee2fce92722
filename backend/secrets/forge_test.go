package secrets_test

import (
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/secrets"
)

// What the forge clients and git print with a token in it: GitLab's token
// prefixes (gitleaks' fixed-length rules left a tail of some, and knew
// none of gloas-, glimt-, glagent-), its token headers in a dumped
// request, GitHub's installation tokens, tokens in remote URLs.
func TestForgeTokenForms(t *testing.T) {
	const tok = "k9Qx7Lm2Pz4Rt8Vb1Nc5Wd3Fg6Hj0Kl"
	for _, line := range []string{
		"glpat-" + tok, "glcbt-64_" + tok, "glsoat-" + tok, "gloas-" + tok, "glimt-" + tok, "glagent-" + tok + tok,
		"glffct-" + tok, "glft-" + tok, "glrt-" + tok, "gldt-" + tok,
		"PRIVATE-TOKEN: " + tok, "Private-Token: " + tok, "JOB-TOKEN: " + tok, `"private-token":"` + tok + `"`,
		"Authorization: Bearer " + tok, "Authorization: token ghp_" + tok,
		"ghs_" + tok, "github_pat_11ABCDE_" + tok,
		"https://oauth2:" + tok + "@gitlab.com/g/p.git", "https://x-access-token:ghs_" + tok + "@github.com/o/r",
		"https://" + tok + "@github.com/o/r.git",
	} {
		got := secrets.Scrub("push failed: " + line + " (exit 1)")
		if strings.Contains(got, tok) || !strings.Contains(got, secrets.Redacted) || !strings.HasSuffix(got, " (exit 1)") {
			t.Errorf("Scrub(%q) = %q", line, got)
		}
	}
	for _, keep := range []string{"private-token: see the docs", "gloas-short", "the glab tool"} {
		if got := secrets.Scrub(keep); got != keep {
			t.Errorf("Scrub(%q) = %q, want it unchanged", keep, got)
		}
	}
}
