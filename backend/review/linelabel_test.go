package review

import (
	"errors"
	"strings"
	"testing"
)

func TestCommentAnchors(t *testing.T) {
	ok := []Comment{
		{File: "a", Line: 3, Text: "x"},
		{File: "a", Line: 3, EndLine: 3, Text: "x"},
		{File: "a", Line: 3, EndLine: 9, Side: SideOld, Text: "x"},
		{File: "a", Index: 2, Header: "@@ -1 +1 @@", Text: "x"},
		{Text: "general"},
	}
	for _, c := range ok {
		if _, err := (ChangeRequest{Comments: []Comment{c}}).Check(); err != nil {
			t.Fatalf("%+v refused: %v", c, err)
		}
	}
	bad := []Comment{
		{Line: 3, Text: "x"},
		{Index: 1, Text: "x"},
		{File: "a", Line: -1, Text: "x"},
		{File: "a", Index: -1, Text: "x"},
		{File: "a", EndLine: 4, Text: "x"},
		{File: "a", Line: 5, EndLine: 4, Text: "x"},
		{File: "a", Line: 5, Side: "left", Text: "x"},
	}
	for _, c := range bad {
		if _, err := (ChangeRequest{Comments: []Comment{c}}).Check(); !errors.Is(err, ErrBadReview) {
			t.Fatalf("%+v: %v", c, err)
		}
	}
}

func TestRenderNamesLinesAndRanges(t *testing.T) {
	out := RenderHumanReview(ChangeRequest{Comments: []Comment{
		{File: "a.go", Index: 1, Header: "@@ -1 +1 @@", Line: 7, Text: "one"},
		{File: "a.go", Index: 1, Header: "@@ -1 +1 @@", Line: 7, EndLine: 9, Text: "range"},
		{File: "a.go", Index: 2, Line: 4, EndLine: 5, Side: SideOld, Text: "old range"},
		{File: "a.go", Index: 2, Line: 4, Side: SideOld, Text: "old"},
	}})
	for _, want := range []string{
		"1. `a.go`, hunk 1 `@@ -1 +1 @@`, line 7:\n",
		"2. `a.go`, hunk 1 `@@ -1 +1 @@`, lines 7-9:\n",
		"3. `a.go`, hunk 2, old lines 4-5:\n",
		"4. `a.go`, hunk 2, old line 4:\n",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("lacks %q:\n%s", want, out)
		}
	}
}

// A comment on one line of a big hunk quotes that line with a few around
// it, not the whole hunk; a small hunk is quoted whole.
func TestExcerpt(t *testing.T) {
	var b strings.Builder
	b.WriteString("@@ -0,0 +1,500 @@\n")
	for i := 1; i <= 500; i++ {
		b.WriteString("+added line number " + strings.Repeat("x", 3) + "\n")
	}
	big := Hunk{Index: 1, Header: "@@ -0,0 +1,500 @@", Text: b.String()}
	ex := excerpt(big, Comment{Line: 250, EndLine: 251})
	if n := strings.Count(ex, "+added"); n != 2+2*excerptAround {
		t.Fatalf("%d lines quoted:\n%s", n, ex)
	}
	if !strings.HasPrefix(ex, big.Header+"\n…\n") || !strings.HasSuffix(ex, "…\n") {
		t.Fatalf("excerpt:\n%s", ex)
	}
	if whole := excerpt(big, Comment{}); strings.Count(whole, "+added") != excerptHead {
		t.Fatalf("a comment on the whole hunk quotes %d lines", strings.Count(whole, "+added"))
	}
	small := Hunk{Header: "@@ -1 +1 @@", Text: "@@ -1 +1 @@\n-a\n+b\n"}
	if excerpt(small, Comment{Line: 1}) != small.Text {
		t.Fatal("a small hunk is not quoted whole")
	}
}
