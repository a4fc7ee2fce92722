package review

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func numberedLines(n int, upper ...int) string {
	up := map[int]bool{}
	for _, i := range upper {
		up[i] = true
	}
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if up[i] {
			fmt.Fprintf(&b, "LINE %d\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	return b.String()
}

// A hunk-level accept takes only the chosen hunk into main as one squash
// commit; the rest stays on the task branch; bad selections, merge, a
// stale diff and a conflict are refused changing nothing; undo works.
func TestAcceptChosenHunks(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	write(t, filepath.Join(repo, "lib.txt"), numberedLines(40))
	base := commitAll(t, repo, "lib")
	wt := taskWorktree(t, repo, "T1")
	write(t, filepath.Join(wt, "lib.txt"), numberedLines(40, 3, 30))
	write(t, filepath.Join(wt, "new.txt"), "new\n")
	head := commitAll(t, wt, "task work")
	sh(t, repo, "switch", "-q", "--detach", "main")
	mainBefore := rev(t, repo, "main")
	svc := newService(t)
	r := req(fixture{repo: repo}, StrategySquash)
	r.Base = base

	refuse := func(name string, r Request, want func(error) bool) {
		t.Helper()
		before := snap(t, repo)
		if _, err := svc.Accept(ctx(t), r, &recorder{}); err == nil || !want(err) {
			t.Fatalf("%s: err = %v", name, err)
		}
		before.same(t, repo)
	}
	bad := r
	bad.Only = []Selection{{File: "lib.txt", Hunks: []int{3}}}
	refuse("hunk 3", bad, func(err error) bool {
		var se *StaleHunkError
		return errors.As(err, &se) && se.Index == 3 && se.Count == 2 && strings.Contains(err.Error(), "lib.txt")
	})
	bad.Only = []Selection{{File: "nope.txt"}}
	refuse("unchanged file", bad, func(err error) bool { var se *StaleHunkError; return errors.As(err, &se) && se.NotChanged })
	bad.Only, bad.Strategy = []Selection{{File: "lib.txt", Hunks: []int{2}}}, StrategyMerge
	refuse("merge", bad, func(err error) bool { return errors.Is(err, ErrSubsetStrategy) })
	bad.Strategy, bad.ExpectHead = StrategySquash, base
	refuse("stale diff", bad, func(err error) bool { var me *MovedError; return errors.As(err, &me) })

	good := r
	good.Only, good.ExpectHead = []Selection{{File: "lib.txt", Hunks: []int{2}}}, head
	rec := &recorder{}
	out, err := svc.Accept(ctx(t), good, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got := sh(t, repo, "show", "main:lib.txt"); got != strings.TrimSuffix(numberedLines(40, 30), "\n") {
		t.Fatalf("main's lib.txt:\n%s", got)
	}
	if sh(t, repo, "rev-parse", "main^") != mainBefore || sh(t, repo, "rev-list", "--parents", "-n1", "main") != rev(t, repo, "main")+" "+mainBefore {
		t.Fatal("not one squash commit on main")
	}
	if strings.Contains(sh(t, repo, "ls-tree", "--name-only", "main"), "new.txt") {
		t.Fatal("a file that was not chosen went in")
	}
	if rev(t, repo, "refs/heads/boof-runner/T1") != head {
		t.Fatal("the task branch moved")
	}
	if len(out.Only) != 1 || out.Only[0].File != "lib.txt" || fmt.Sprint(out.Only[0].Hunks) != "[2]" || !strings.HasPrefix(out.Only[0].Headers[0], "@@ -27,") ||
		len(rec.accepts) != 1 || len(rec.accepts[0].Only) != 1 {
		t.Fatalf("record %+v", out)
	}
	if err := svc.Undo(ctx(t), UndoRequest{Repo: repo, TaskID: "T1", Record: out}, rec); err != nil {
		t.Fatal(err)
	}
	if rev(t, repo, "main") != mainBefore {
		t.Fatal("undo did not put main back")
	}

	// main changes line 3 its own way: taking hunk 1 conflicts, naming the file.
	sh(t, repo, "switch", "-q", "main")
	write(t, filepath.Join(repo, "lib.txt"), strings.Replace(numberedLines(40), "line 3\n", "line three\n", 1))
	commitAll(t, repo, "main: line three")
	sh(t, repo, "switch", "-q", "--detach", "main")
	bad = r
	bad.Only = []Selection{{File: "lib.txt", Hunks: []int{1}}, {File: "new.txt"}}
	refuse("conflict", bad, func(err error) bool {
		var ce *ConflictError
		return errors.As(err, &ce) && fmt.Sprint(ce.Files) == "[lib.txt]"
	})
}
