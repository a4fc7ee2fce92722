package app

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkFileDiffPages pages through a 200,000-line added file as the
// diff view does (2,000 lines a call, following Next): "kept" reads the
// patch once per file and pair of commits, "read-each-page" forgets it
// before every page, as FileDiff did before (one git diff of the whole
// file per page). The ratio of the two is the figure.
func BenchmarkFileDiffPages(b *testing.B) {
	var big strings.Builder
	for i := range 200_000 {
		big.WriteString("line " + strconv.Itoa(i) + " of a file an agent generated\n")
	}
	svc, id := benchDiffTask(b, big.String())
	for _, bc := range []struct {
		name   string
		forget bool
	}{{"kept", false}, {"read-each-page", true}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				pages := 0
				req := FileDiffRequest{Path: "gen/big.txt"}
				for {
					if bc.forget {
						svc.patches = recent[string]{max: maxPatches}
					}
					d, err := svc.FileDiff(id, req)
					if err != nil {
						b.Fatal(err)
					}
					pages++
					if d.Next == nil {
						break
					}
					req.FromHunk, req.FromLine = d.Next.Hunk, d.Next.Line
				}
				if pages != 100 {
					b.Fatalf("%d pages, want 100", pages)
				}
			}
		})
	}
}

func benchDiffTask(b *testing.B, content string) (*ReviewService, string) {
	s := newTestStore(b)
	tk, _ := reviewedTaskOn(b, s, "Generate", map[string]string{"README": "hi\n"}, map[string]string{"gen/big.txt": content})
	return newReviewSvc(b, s), tk.ID
}
