package secrets_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/secrets/secretstest"
)

func TestCorpusEveryFormatScrubbed(t *testing.T) {
	corpus := secretstest.Corpus()
	if len(corpus) < 20 {
		t.Fatalf("corpus has %d formats, want at least 20", len(corpus))
	}
	for _, s := range corpus {
		t.Run(s.Name, func(t *testing.T) {
			// As printed, and as it appears inside an agent's JSON line.
			js, _ := json.Marshal(map[string]string{"type": "tool_result", "content": s.Text})
			for _, text := range []string{s.Text, string(js)} {
				got := secrets.Scrub(text)
				for _, sec := range s.Secrets {
					if strings.Contains(got, sec) {
						t.Errorf("secret survived in %q", got)
					}
				}
				if !strings.Contains(got, secrets.Redacted) {
					t.Errorf("nothing redacted in %q", got)
				}
			}
			// Scrubbed JSON still parses: redaction never eats a quote or an escape.
			var v map[string]string
			if err := json.Unmarshal([]byte(secrets.Scrub(string(js))), &v); err != nil {
				t.Errorf("scrubbed JSON does not parse: %v", err)
			}
		})
	}
}
