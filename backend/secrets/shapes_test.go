package secrets_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/secrets/secretstest"
)

// TestEveryFormatInEveryShape: every format the rule set knows (the
// corpus and an example generated from each rule's expression), in every
// form an agent's output carries it (printed, JSON-escaped in claude's and
// codex's lines, in a tool result holding a JSON document, claude's
// numbered file view), comes out redacted: scrubbed whole, streamed in
// small writes, and streamed with a pause after every write. The JSON
// lines stay JSON, at every depth.
func TestEveryFormatInEveryShape(t *testing.T) {
	for _, s := range everyFormat(t) {
		for _, sh := range secretstest.Shapes() {
			line := sh.Line("before\n"+s.Text+"\nafter") + "\n"
			check := func(how, got string) {
				t.Helper()
				for _, sec := range s.Secrets {
					if strings.Contains(got, sec) {
						t.Errorf("%s, %s, %s: %.24q… survived in %.300q", s.Name, sh.Name, how, sec, got)
						return
					}
				}
				if sh.JSON && !validAtDepth(got, sh.Depth) {
					t.Errorf("%s, %s, %s: the line is no longer JSON at every depth: %.300q", s.Name, sh.Name, how, got)
				}
			}
			check("scrubbed", secrets.Scrub(line))
			check("streamed", stream(line, 61, false))
			check("streamed with pauses", stream(line, 97, true))
		}
	}
}

// stream writes text to a Stream in writes of size bytes, with an idle
// flush after each when pause, and returns what came out.
func stream(text string, size int, pause bool) string {
	st := secrets.NewStream()
	var out bytes.Buffer
	for i := 0; i < len(text); i += size {
		out.Write(st.Write([]byte(text[i:min(len(text), i+size)])))
		if pause {
			out.Write(st.FlushIdle())
		}
	}
	out.Write(st.Flush())
	return out.String()
}

// validAtDepth reports whether line is a JSON object whose strings, down
// to depth, are still what they were: the document inside a tool result
// still parses.
func validAtDepth(line string, depth int) bool {
	var v any
	if json.Unmarshal([]byte(strings.TrimSpace(line)), &v) != nil {
		return false
	}
	if depth < 2 {
		return true
	}
	ok := false
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case string:
			if strings.HasPrefix(x, "{") && validAtDepth(x, depth-1) {
				ok = true
			}
		}
	}
	walk(v)
	return ok
}

// TestLowEntropyEnvValueInJSON is issue 38's .env line: a password of
// letters only (too plain for gitleaks' generic rule) after a line break
// that the agent's JSON escapes as \n.
func TestLowEntropyEnvValueInJSON(t *testing.T) {
	const value = "hunterhunterhunter"
	text := "APP_ENV=prod\nDATABASE_PASSWORD=" + value + "\n"
	for _, sh := range secretstest.Shapes() {
		if got := secrets.Scrub(sh.Line(text)); strings.Contains(got, value) || !strings.Contains(got, "DATABASE_PASSWORD=") {
			t.Errorf("%s: %q", sh.Name, got)
		}
	}
}

// TestEscapedTextKeepsItsEscapes: redacting inside escaped text removes
// whole escape sequences: a secret next to \n, \" and \u escapes leaves
// them as they were.
func TestEscapedTextKeepsItsEscapes(t *testing.T) {
	in := `{"text":"a\u003cb\nAPI_KEY=\"q8Xk2LmN7pR4sT9vW1yZ\"\n\u00e9"}`
	want := `{"text":"a\u003cb\nAPI_KEY=\"[REDACTED]\"\n\u00e9"}`
	if got := secrets.Scrub(in); got != want {
		t.Errorf("Scrub(%s)\n = %s\nwant %s", in, got, want)
	}
}

// TestStreamLongEscapedLine: a tool result of 300 KB (a JSON document
// inside claude's line, so escaped twice) is passed on in pieces long
// before its line ends; the .env lines spread through it, a piece's cut
// falling anywhere, are all redacted and the line is still JSON.
func TestStreamLongEscapedLine(t *testing.T) {
	const value = "hunterhunterhunter"
	var doc strings.Builder
	for doc.Len() < 300<<10 {
		doc.WriteString(strings.Repeat("lorem \"ipsum\" dolor\tsit\n", 17))
		doc.WriteString("DATABASE_PASSWORD=" + value + "\n")
	}
	line := secretstest.ClaudeToolResult("toolu_long", `{"stdout":`+secretstest.Quote(doc.String())+`}`) + "\n"
	for _, size := range []int{4096, 65536 + 7} {
		got := stream(line, size, false)
		if strings.Contains(got, value) {
			t.Errorf("writes of %d: %d of %d passwords survived", size, strings.Count(got, value), strings.Count(line, value))
		}
		if !validAtDepth(got, 2) {
			t.Errorf("writes of %d: the line is no longer JSON", size)
		}
	}
}
