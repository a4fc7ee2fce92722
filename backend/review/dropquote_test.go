package review

import (
	"strings"
	"testing"
)

// A drop named by its hunk's number and "@@" line (no hunk text, as the
// diff view sends it) quotes that hunk in the developer's review, as a drop
// sent with its text does; the fence was empty.
func TestDropNamedByIndexQuotesItsHunk(t *testing.T) {
	t.Parallel()
	_, st, tk := storeFixture(t)
	q, err := newService(t).RequestChanges(ctx(t), tk, ChangeRequest{Drops: []Drop{{File: "c.txt", Index: 1, Header: "@@ -0,0 +1 @@"}}}, StoreRecorder{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(q.Body, "`c.txt`, hunk 1 `@@ -0,0 +1 @@`:\n   ```diff\n   @@ -0,0 +1 @@\n   +sea\n") {
		t.Fatalf("the dropped hunk is not quoted:\n%s", q.Body)
	}
}
