package proc

import (
	"bytes"
	"strings"
	"testing"
)

func split(chunks ...string) []string {
	var lines []string
	s := NewLineSplitter(func(l []byte) { lines = append(lines, string(l)) })
	for _, c := range chunks {
		if n, err := s.Write([]byte(c)); n != len(c) || err != nil {
			panic("short write")
		}
	}
	s.Flush()
	return lines
}

func TestLineSplitter(t *testing.T) {
	cases := []struct {
		name   string
		chunks []string
		want   []string
	}{
		{"whole-lines", []string{"a\nb\n"}, []string{"a", "b"}},
		{"partial-across-chunks", []string{`{"ty`, `pe":1}`, "\n{", "}\n"}, []string{`{"type":1}`, "{}"}},
		{"byte-by-byte", strings.Split("ab\ncd\n", ""), []string{"ab", "cd"}},
		{"crlf", []string{"a\r\nb\r", "\n"}, []string{"a", "b"}},
		{"final-line-without-newline", []string{"a\nlast"}, []string{"a", "last"}},
		{"empty-lines-skipped", []string{"\n\r\n\na\n\n"}, []string{"a"}},
		{"reset-blob-after-last-line", []string{"{\"a\":1}\n\x1b[?25h\x1b[0m\x1b]0;title\x07\x1b(B"}, []string{`{"a":1}`}},
		{"escapes-before-json", []string{"\x1b[2J\x1b[H{\"a\":1}\n"}, []string{`{"a":1}`}},
		{"escapes-after-json", []string{"{\"a\":1}\x1b[0m\r\n"}, []string{`{"a":1}`}},
		{"osc-with-st", []string{"\x1b]8;;http://x\x1b\\text\n"}, []string{"text"}},
		{"escape-split-across-chunks", []string{"\x1b[", "0m{}\n"}, []string{"{}"}},
		{"escape-inside-kept", []string{"a\x1b[1mb\x1b[0mc\n"}, []string{"a\x1b[1mb\x1b[0mc"}},
		{"unterminated-escape-kept", []string{"x\x1b[12\n"}, []string{"x\x1b[12"}},
		{"invalid-utf8-raw", []string{"\xff\xfe\n"}, []string{"\xff\xfe"}},
		{"only-escapes", []string{"\x1b[?1049l\r\n\x1b=\n"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := split(tc.chunks...)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestLineSplitterHugeLine(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 10<<20+1)
	var got []string
	s := NewLineSplitter(func(l []byte) {
		if len(l) == len(big) && bytes.Equal(l, big) {
			got = append(got, "big")
			return
		}
		got = append(got, string(l))
	})
	for i := 0; i < len(big); i += 4096 {
		_, _ = s.Write(big[i:min(i+4096, len(big))])
	}
	_, _ = s.Write([]byte("\nnext\n"))
	if strings.Join(got, ",") != "big,next" {
		t.Fatalf("got %d lines", len(got))
	}
	if cap(s.buf) > shrinkAbove {
		t.Fatalf("buffer of %d bytes kept after a huge line", cap(s.buf))
	}
}

func TestForDisplay(t *testing.T) {
	cases := map[string]string{
		"plain":         "plain",
		"caf\xc3\xa9":   "café",
		"a\xffb":        "a\uFFFDb",
		"trunc\xe2\x82": "trunc\uFFFD",
		"":              "",
	}
	for in, want := range cases {
		if got := ForDisplay([]byte(in)); got != want {
			t.Errorf("ForDisplay(%q) = %q, want %q", in, got, want)
		}
	}
}
