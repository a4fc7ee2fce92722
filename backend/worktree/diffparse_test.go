package worktree

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseRawNumstat(t *testing.T) {
	split := func(s string) []string { return strings.Split(strings.TrimSuffix(s, "\x00"), "\x00") }
	in := ":100644 100644 aaa bbb M\x00:x\x00" +
		":100644 100644 ccc ddd R087\x00old\x00new\nname\x00" +
		":000000 100755 000 eee A\x00-bin\x00" +
		"3\t1\t:x\x00" +
		"2\t2\t\x00old\x00new\nname\x00" +
		"-\t-\t-bin\x00"
	got, err := parseRawNumstat(split(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []FileChange{
		{Path: ":x", Status: Modified, OldMode: "100644", NewMode: "100644", OldBlob: "aaa", NewBlob: "bbb", Added: 3, Removed: 1},
		{Path: "new\nname", OldPath: "old", Status: Renamed, Similarity: 87, OldMode: "100644", NewMode: "100644", OldBlob: "ccc", NewBlob: "ddd", Added: 2, Removed: 2},
		{Path: "-bin", Status: Added, OldMode: "000000", NewMode: "100755", OldBlob: "000", NewBlob: "eee", Binary: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if got, err := parseRawNumstat(nil); err != nil || len(got) != 0 {
		t.Fatalf("empty diff = %v %v", got, err)
	}
}

func TestParseRawNumstatMalformed(t *testing.T) {
	for name, in := range map[string][]string{
		"short raw":          {":100644 M", "a"},
		"raw without path":   {":100644 100644 a b M"},
		"rename short":       {":100644 100644 a b R100", "old"},
		"unknown status":     {":100644 100644 a b Z", "a", "1\t1\ta"},
		"count mismatch":     {":100644 100644 a b M", "a"},
		"bad counts":         {":100644 100644 a b M", "a", "x\t1\ta"},
		"numstat no tabs":    {":100644 100644 a b M", "a", "garbage"},
		"numstat rename cut": {":100644 100644 a b R100", "o", "n", "1\t1\t", "o"},
	} {
		if _, err := parseRawNumstat(in); !errors.Is(err, errParse) {
			t.Errorf("%s: err = %v, want errParse", name, err)
		}
	}
}

func TestCapWriter(t *testing.T) {
	w := &capWriter{limit: 5}
	w.Write([]byte("abc"))
	w.Write([]byte("defgh"))
	if string(w.buf) != "abcde" || w.total != 8 {
		t.Fatalf("buf=%q total=%d", w.buf, w.total)
	}
}

func TestEscapeIgnore(t *testing.T) {
	for in, want := range map[string]string{
		"plain":      "plain",
		"a*b?[c]":    `a\*b\?\[c\]`,
		`back\slash`: `back\\slash`,
		"trail  ":    `trail\ \ `,
		"#!x":        "#!x",
	} {
		if got := escapeIgnore(in); got != want {
			t.Errorf("escapeIgnore(%q) = %q, want %q", in, got, want)
		}
	}
}
