package worktree

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseRawNumstat feeds the parser of `git diff --raw --numstat -z`
// arbitrary NUL-separated fields: it never panics, every error wraps
// errParse, and every file it returns has a path, a known status and
// counts that are not negative (none for a binary file).
func FuzzParseRawNumstat(f *testing.F) {
	f.Add(":100644 100644 aaa bbb M\x00:x\x00:100644 100644 ccc ddd R087\x00old\x00new\nname\x00:000000 100755 000 eee A\x00-bin\x003\t1\t:x\x002\t2\t\x00old\x00new\nname\x00-\t-\t-bin\x00")
	f.Add(":100644 100644 a b Z\x00a\x001\t1\ta\x00")
	f.Add(":100644 100644 a b C50\x00a\x00b\x00-5\t3\t\x00a\x00b\x00")
	f.Add("")
	known := map[Status]bool{Added: true, Modified: true, Deleted: true, Renamed: true, Copied: true, TypeChanged: true, Unmerged: true}
	f.Fuzz(func(t *testing.T, in string) {
		files, err := parseRawNumstat(strings.Split(strings.TrimSuffix(in, "\x00"), "\x00"))
		if err != nil {
			if !errors.Is(err, errParse) {
				t.Fatalf("error does not wrap errParse: %v", err)
			}
			return
		}
		for _, c := range files {
			if c.Path == "" || !known[c.Status] || c.Added < 0 || c.Removed < 0 || c.Binary && c.Added+c.Removed != 0 {
				t.Fatalf("accepted a bad file change %+v from %q", c, in)
			}
			if c.OldPath != "" && c.Status != Renamed && c.Status != Copied {
				t.Fatalf("old path on a %s: %+v", c.Status, c)
			}
		}
	})
}

// FuzzParseHunks feeds the hunk reader arbitrary text and windows: it
// never panics, numbers hunks from 1, returns no more lines than the
// window holds, and never more lines of a hunk than it counted.
func FuzzParseHunks(f *testing.F) {
	f.Add("@@ -1,2 +1,2 @@ x\n a\n-b\n+c\n\\ No newline at end of file\n", 0, 0, 2)
	f.Add("diff --git a/x b/x\n@@ -0,0 +1 @@\n+x\n@@ -5 +5 @@\n-y\n", 1, 0, 1)
	f.Add("@@ -1 +1 @@\n\n\n", 0, 5, 0)
	f.Fuzz(func(t *testing.T, patch string, hunk, line, max int) {
		hs, next := ParseHunks(patch, Window{Hunk: hunk, Line: line, Max: max})
		n := 0
		for i, h := range hs {
			if h.Index != i+1 || len(h.Lines) > h.Count || h.FirstLine+len(h.Lines) > h.Count {
				t.Fatalf("hunk %d: %+v", i+1, h)
			}
			n += len(h.Lines)
		}
		if max > 0 && n > max {
			t.Fatalf("%d lines in a window of %d", n, max)
		}
		if next != nil && (next.Hunk < 0 || next.Hunk >= len(hs)) {
			t.Fatalf("next %+v of %d hunks", next, len(hs))
		}
	})
}
