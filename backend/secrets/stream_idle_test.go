package secrets_test

import (
	"bytes"
	"testing"

	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/secrets/secretstest"
)

// TestStreamIdleFlushMidSecret is a child that pauses in the middle of a
// line (the process runner flushes what is held after 500 ms of silence):
// wherever the pause falls, even inside a secret or its keyword, no
// secret reaches the output, and the text around it passes unchanged.
func TestStreamIdleFlushMidSecret(t *testing.T) {
	for _, s := range secretstest.Corpus() {
		text := "before " + s.Text + " after\n"
		for cut := 1; cut < len(text); cut++ {
			st := secrets.NewStream()
			var out bytes.Buffer
			out.Write(st.Write([]byte(text[:cut])))
			out.Write(st.FlushIdle())
			out.Write(st.Write([]byte(text[cut:])))
			out.Write(st.Flush())
			assertClean(t, out.String(), s.Secrets)
			if !bytes.HasPrefix(out.Bytes(), []byte("before ")) || !bytes.HasSuffix(out.Bytes(), []byte(" after\n")) {
				t.Fatalf("cut %d: the text around the secret changed: %q", cut, out.String())
			}
		}
	}
}

// TestStreamIdleFlushPassesAPrompt is the reason for the idle flush: a
// child that prints a question without a newline and waits shows it.
func TestStreamIdleFlushPassesAPrompt(t *testing.T) {
	st := secrets.NewStream()
	var out bytes.Buffer
	out.Write(st.Write([]byte("Proceed with the migration? [y/N] ")))
	out.Write(st.FlushIdle())
	if out.String() != "Proceed with the migration? [y/N] " {
		t.Fatalf("a prompt waiting for input was held back: %q", out.String())
	}
}

// TestStreamIdleFlushKeepsTheKeywordsContext: the name of a setting went
// on before the pause, its value comes after; the value is still seen as
// the setting's and redacted.
func TestStreamIdleFlushKeepsTheKeywordsContext(t *testing.T) {
	const value = "Zq8vLr2mXw9Tk4HsPe7N"
	whole := secrets.NewStream()
	if got := string(whole.Write([]byte("  password: " + value + "\n"))); bytes.Contains([]byte(got), []byte(value)) {
		t.Skipf("the rule set does not take this value as a secret in one piece: %q", got)
	}
	st := secrets.NewStream()
	var out bytes.Buffer
	out.Write(st.Write([]byte("  password: ")))
	out.Write(st.FlushIdle())
	if out.String() != "  password: " {
		t.Fatalf("the setting's name waited: %q", out.String())
	}
	out.Write(st.Write([]byte(value + "\n")))
	if bytes.Contains(out.Bytes(), []byte(value)) || !bytes.HasSuffix(out.Bytes(), []byte(secrets.Redacted+"\n")) {
		t.Fatalf("the value after the pause was not redacted: %q", out.String())
	}
}
