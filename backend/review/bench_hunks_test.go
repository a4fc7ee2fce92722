package review

import (
	"bytes"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// wideTaskRepo makes a repository whose task branch changes every one of
// n files of main in one commit (two hunks each: a line near the top and
// one near the end), built with fast-import; main is checked out nowhere.
func wideTaskRepo(b *testing.B, n int) string {
	b.Helper()
	repo := b.TempDir()
	sh(b, repo, "init", "-q", "-b", "main")
	var in bytes.Buffer
	blob := func(i int, edited bool) string {
		var s bytes.Buffer
		for l := 1; l <= 40; l++ {
			if edited && (l == 3 || l == 35) {
				fmt.Fprintf(&s, "LINE %d of file %d, changed by the task\n", l, i)
			} else {
				fmt.Fprintf(&s, "line %d of file %d\n", l, i)
			}
		}
		return s.String()
	}
	commit := func(ref, msg string, from int, mark int, edited bool) {
		fmt.Fprintf(&in, "commit %s\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata %d\n%s\n", ref, mark, 1700000000+mark, len(msg), msg)
		if from > 0 {
			fmt.Fprintf(&in, "from :%d\n", from)
		}
		for i := 0; i < n; i++ {
			c := blob(i, edited)
			fmt.Fprintf(&in, "M 100644 inline src/d%02d/file%04d.txt\ndata %d\n%s\n", i%50, i, len(c), c)
		}
	}
	commit("refs/heads/main", "base", 0, 1, false)
	commit("refs/heads/"+TaskBranch("W"), "task: every file", 1, 2, true)
	cmd := exec.Command("git", "-C", repo, "fast-import", "--quiet")
	cmd.Stdin = &in
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v\n%s", err, out)
	}
	sh(b, repo, "switch", "-q", "--detach", "main")
	return repo
}

// BenchmarkAcceptHunks200Of5000 is a hunk-level accept of 200 chosen hunks
// (the first hunk of 200 files) out of a 5,000-file, 10,000-hunk diff,
// against a whole-branch squash accept of the same branch in the same
// loop; it reports both times and their ratio (issue goal ≤ 2×).
func BenchmarkAcceptHunks200Of5000(b *testing.B) {
	repo := wideTaskRepo(b, 5000)
	old := rev(b, repo, "main")
	s := New(gitx.New(gitx.WithEnv(identity...)), benchClock(), WithJournal(NewJournal(b.TempDir(), "")))
	whole := Request{Repo: repo, TaskID: "W", Target: "main", Strategy: StrategySquash, Message: "squash W\n"}
	chosen := whole
	for i := 0; i < 200; i++ {
		chosen.Only = append(chosen.Only, Selection{File: fmt.Sprintf("src/d%02d/file%04d.txt", (i*25)%50, i*25), Hunks: []int{1}})
	}
	var hunks, all time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range []struct {
			r   Request
			sum *time.Duration
		}{{chosen, &hunks}, {whole, &all}} {
			b.StopTimer()
			sh(b, repo, "update-ref", "refs/heads/main", old)
			b.StartTimer()
			t0 := time.Now()
			if _, err := s.Accept(b.Context(), c.r, nil); err != nil {
				b.Fatal(err)
			}
			*c.sum += time.Since(t0)
		}
		b.StopTimer()
		// The chosen accept took exactly the first hunk of a chosen file.
		if got := sh(b, repo, "diff", "--stat", old, "main", "--", "src/d00/file0000.txt"); got == "" {
			b.Fatal("the whole-branch accept changed nothing")
		}
		b.StartTimer()
	}
	b.StopTimer()
	sh(b, repo, "update-ref", "refs/heads/main", old)
	if _, err := s.Accept(b.Context(), chosen, nil); err != nil {
		b.Fatal(err)
	}
	if n := len(bytes.Fields([]byte(sh(b, repo, "diff", "--name-only", old, "main")))); n != 200 {
		b.Fatalf("the hunk-level accept changed %d files, want 200", n)
	}
	b.ReportMetric(float64(hunks.Milliseconds())/float64(b.N), "ms/hunks")
	b.ReportMetric(float64(all.Milliseconds())/float64(b.N), "ms/whole")
	b.ReportMetric(float64(hunks)/float64(all), "ratio")
}
