package secrets_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/secrets/secretstest"
)

// feed writes text to a new Stream in pieces of the given sizes (cycled)
// and returns everything it put out.
func feed(text string, sizes ...int) (string, *secrets.Stream) {
	s := secrets.NewStream()
	var out bytes.Buffer
	for i, k := 0, 0; i < len(text); k++ {
		n := min(sizes[k%len(sizes)], len(text)-i)
		out.Write(s.Write([]byte(text[i : i+n])))
		i += n
	}
	out.Write(s.Flush())
	return out.String(), s
}

func assertClean(t *testing.T, got string, secrets []string) {
	t.Helper()
	for _, sec := range secrets {
		if strings.Contains(got, sec) {
			t.Fatalf("secret %.20q… survived:\n%s", sec, got)
		}
	}
}

func TestStreamSecretSplitAtEveryOffset(t *testing.T) {
	for _, s := range secretstest.Corpus() {
		text := "before " + s.Text + " after\n"
		for cut := 1; cut < len(text); cut += 7 {
			got, _ := feed(text, cut, len(text))
			assertClean(t, got, s.Secrets)
		}
	}
}

func TestStreamWholeCorpusInSmallChunks(t *testing.T) {
	text := secretstest.Text()
	for _, size := range []int{1, 3, 64, 4096} {
		got, st := feed(text, size)
		assertClean(t, got, secretstest.Secrets())
		if st.Count() < len(secretstest.Corpus()) {
			t.Errorf("chunks of %d: %d redactions, want at least one per sample", size, st.Count())
		}
		// What was not a secret passes unchanged.
		if !strings.Contains(got, "AccountName=acmeprod;") || !strings.Contains(got, "\nDATABASE_PASSWORD=") {
			t.Errorf("chunks of %d: text other than secrets changed", size)
		}
	}
}

func TestStreamTenMegabyteLineWithKeyAtItsEnd(t *testing.T) {
	key := secretstest.Corpus()[0].Secrets[0]
	line := strings.Repeat("lorem ipsum dolor sit amet ", 10<<20/27) + "ANTHROPIC_API_KEY=" + key + "\n"
	s := secrets.NewStream()
	var out bytes.Buffer
	maxHeld := 0
	for i := 0; i < len(line); i += 65536 {
		out.Write(s.Write([]byte(line[i:min(len(line), i+65536)])))
		maxHeld = max(maxHeld, s.Held())
	}
	out.Write(s.Flush())
	got := out.String()
	if strings.Contains(got, key) || !strings.HasSuffix(got, "ANTHROPIC_API_KEY="+secrets.Redacted+"\n") {
		t.Fatalf("key not redacted at the end of a 10 MB line: …%q", got[len(got)-120:])
	}
	if len(got) != len(line)-len(key)+len(secrets.Redacted) {
		t.Errorf("output is %d bytes, want the line with only the key replaced", len(got))
	}
	if maxHeld > 2*65536 {
		t.Errorf("held %d bytes of one line; memory is not bounded", maxHeld)
	}
}

func TestStreamPrivateKeyOverManyWrites(t *testing.T) {
	var pem string
	var body []string
	for _, s := range secretstest.Corpus() {
		if s.Name == "PEM private key" {
			pem, body = s.Text, s.Secrets
		}
	}
	text := "cat id_rsa\n" + pem + "\ndone: the key above is loaded\n"
	for _, size := range []int{5, 65, 200} {
		got, _ := feed(text, size)
		assertClean(t, got, body)
		if !strings.Contains(got, "done: the key above is loaded\n") || !strings.HasPrefix(got, "cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----") {
			t.Errorf("chunks of %d: text around the key changed:\n%s", size, got)
		}
	}
}

func TestStreamHoldsOnlyAnIncompleteLine(t *testing.T) {
	s := secrets.NewStream()
	if got := string(s.Write([]byte("one\ntwo\nthr"))); got != "one\ntwo\n" {
		t.Fatalf("ready %q", got)
	}
	if s.Held() != 3 {
		t.Fatalf("held %d", s.Held())
	}
	if got := string(s.Flush()); got != "thr" {
		t.Fatalf("flush %q", got)
	}
}
