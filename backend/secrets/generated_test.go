package secrets_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/secrets/secretstest"
)

// everyFormat is the corpus and a generated example of every regex rule.
func everyFormat(t *testing.T) []secretstest.Sample {
	t.Helper()
	return append(secretstest.Corpus(), generated(t)...)
}

// generated is an example of every regex rule, made from its expression.
func generated(t *testing.T) []secretstest.Sample {
	t.Helper()
	rules := secrets.Default().RegexRules()
	gen, missed := secretstest.Generate(rules)
	// The private-key rule's match holds blanks (BEGIN PRIVATE KEY); the
	// corpus's keys stand for it.
	if !slices.Equal(missed, []string{"private-key"}) {
		t.Errorf("no example generated for %v", missed)
	}
	if len(gen) < 200 || len(gen)+len(missed) != len(rules) {
		t.Fatalf("%d examples of %d rules", len(gen), len(rules))
	}
	return gen
}

// TestEveryRuleFindsItsExample: the example generated from each rule's
// expression (a line the rule as written reports, as gitleaks runs it) is
// redacted by the one-pass matcher as printed, scrubbed whole and
// streamed: the keyword automaton, the anchoring, the assignment's quick
// check and the windows find what the rule finds.
func TestEveryRuleFindsItsExample(t *testing.T) {
	for _, s := range generated(t) {
		line := "before\n" + s.Text + "after\n"
		streamed, _ := feed(line, 61)
		for how, got := range map[string]string{"scrubbed": secrets.Scrub(line), "streamed": streamed} {
			if strings.Contains(got, s.Secrets[0]) {
				t.Errorf("%s, %s: %q", s.Name, how, got)
			}
		}
	}
}
