package review

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// bigTaskRepo makes a repository whose main has 200 files and moved on by
// one commit since the task branch left it, and whose task branch holds
// n commits (each adds a file or edits one of main's), built with
// fast-import.
func bigTaskRepo(b *testing.B, n int) string {
	b.Helper()
	repo := b.TempDir()
	sh(b, repo, "init", "-q", "-b", "main")
	var in bytes.Buffer
	mark := 0
	commit := func(ref, msg string, from int, files map[string]string) int {
		mark++
		fmt.Fprintf(&in, "commit %s\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata %d\n%s\n", ref, mark, 1700000000+mark, len(msg), msg)
		if from > 0 {
			fmt.Fprintf(&in, "from :%d\n", from)
		}
		for p, c := range files {
			fmt.Fprintf(&in, "M 100644 inline %s\ndata %d\n%s\n", p, len(c), c)
		}
		return mark
	}
	base := map[string]string{}
	for i := 0; i < 200; i++ {
		base[fmt.Sprintf("src/file%03d.txt", i)] = strings.Repeat(fmt.Sprintf("line of file %d\n", i), 30)
	}
	root := commit("refs/heads/main", "base", 0, base)
	prev := root
	for i := 0; i < n; i++ {
		files := map[string]string{fmt.Sprintf("task/new%04d.txt", i): fmt.Sprintf("task file %d\n", i)}
		if i%3 == 0 {
			files[fmt.Sprintf("src/file%03d.txt", i%100)] = strings.Repeat(fmt.Sprintf("task edit %d\n", i), 30)
		}
		prev = commit("refs/heads/"+TaskBranch("B"), fmt.Sprintf("task commit %d", i), prev, files)
	}
	commit("refs/heads/main", "main moved", root, map[string]string{"src/file199.txt": "main moved\n"})
	cmd := exec.Command("git", "-C", repo, "fast-import", "--quiet")
	cmd.Stdin = &in
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v\n%s", err, out)
	}
	sh(b, repo, "reset", "-q", "--hard", "main")
	return repo
}

// BenchmarkAcceptSquash1000 accepts (squash) a 1,000-commit task branch
// and, in the same loop, does the same with raw git commands, reporting
// both times and their ratio. "unchecked" moves a target checked out
// nowhere (raw: merge-tree, commit-tree, update-ref); "checkout" moves
// the target checked out in the repository (raw: merge --squash, commit).
func BenchmarkAcceptSquash1000(b *testing.B) {
	for _, mode := range []string{"unchecked", "checkout"} {
		b.Run(mode, func(b *testing.B) {
			repo := bigTaskRepo(b, 1000)
			if mode == "unchecked" {
				sh(b, repo, "switch", "-q", "--detach", "main")
			}
			old := rev(b, repo, "main")
			// The user's identity is configured, as it is for the raw commands.
			s := New(gitx.New(gitx.WithEnv(identity...)), benchClock(), WithJournal(NewJournal(b.TempDir(), "")))
			r := Request{Repo: repo, TaskID: "B", Target: "main", Strategy: StrategySquash, Message: "squash B\n"}
			reset := func() {
				if mode == "checkout" {
					sh(b, repo, "reset", "-q", "--hard", old)
				} else {
					sh(b, repo, "update-ref", "refs/heads/main", old)
				}
			}
			var ours, raw time.Duration
			rawClock := benchClock()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				reset()
				b.StartTimer()
				t0 := time.Now()
				if _, err := s.Accept(b.Context(), r, nil); err != nil {
					b.Fatal(err)
				}
				ours += time.Since(t0)
				b.StopTimer()
				reset()
				t0 = time.Now()
				rawSquash(b, repo, mode, old, rawClock())
				raw += time.Since(t0)
				b.StartTimer()
			}
			b.ReportMetric(float64(ours.Milliseconds())/float64(b.N), "ms/accept")
			b.ReportMetric(float64(raw.Milliseconds())/float64(b.N), "ms/raw")
			b.ReportMetric(float64(ours)/float64(raw), "ratio")
		})
	}
}

// benchClock is a clock a second later at every call: each accept, ours
// and the raw one, makes a new commit, as in use. With a fixed clock (ours)
// or within the same second (raw) a round made the same commit object as
// the round before, whose write git then skipped.
func benchClock() func() time.Time {
	t := fixedNow
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

func rawSquash(b *testing.B, repo, mode, old string, at time.Time) {
	date := at.UTC().Format(time.RFC3339)
	run := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(append(os.Environ(), identity...), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	if mode == "checkout" {
		run("merge", "--squash", "-q", TaskBranch("B"))
		run("commit", "-q", "-m", "squash B")
		return
	}
	tree := strings.Fields(run("merge-tree", "--write-tree", "main", TaskBranch("B")))[0]
	sha := run("commit-tree", tree, "-p", old, "-m", "squash B")
	run("update-ref", "refs/heads/main", sha, old)
	if _, err := os.Stat(filepath.Join(repo, ".git", "MERGE_HEAD")); err == nil {
		b.Fatal("raw squash left MERGE_HEAD")
	}
}
