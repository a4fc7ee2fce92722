package worktree_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// diffRepo returns a repo with base and head commits covering every kind
// of change, including hostile names.
func diffRepo(t *testing.T) (repo, base, head string) {
	t.Helper()
	repo = newRepo(t)
	long := strings.Repeat("a line that stays the same\n", 20)
	write(t, filepath.Join(repo, "old name.txt"), long)
	write(t, filepath.Join(repo, "gone.txt"), "bye\n")
	write(t, filepath.Join(repo, "run.sh"), "#!/bin/sh\n")
	write(t, filepath.Join(repo, "link"), "target")
	base = commitAll(t, repo, "base")

	if err := os.Rename(filepath.Join(repo, "old name.txt"), filepath.Join(repo, "new\nname ✓.txt")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "a.txt"), "one\ntwo\nthree\n")
	os.Remove(filepath.Join(repo, "gone.txt"))
	if err := os.Chmod(filepath.Join(repo, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(repo, "link"))
	if err := os.Symlink("../outside", filepath.Join(repo, "link")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "-rf"), "dash\n")
	write(t, filepath.Join(repo, "*.txt"), "glob\n")
	write(t, filepath.Join(repo, "bin.dat"), "\x00\x01\x02binary\x00")
	head = commitAll(t, repo, "head")
	return repo, base, head
}

func TestFiles(t *testing.T) {
	t.Parallel()
	repo, base, head := diffRepo(t)
	files, err := newManager().Files(t.Context(), repo, base, head)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]worktree.FileChange{}
	for _, f := range files {
		got[f.Path] = f
	}
	want := map[string]worktree.FileChange{
		"-rf":             {Path: "-rf", Status: worktree.Added, OldMode: "000000", NewMode: "100644", Added: 1},
		"*.txt":           {Path: "*.txt", Status: worktree.Added, OldMode: "000000", NewMode: "100644", Added: 1},
		"a.txt":           {Path: "a.txt", Status: worktree.Modified, OldMode: "100644", NewMode: "100644", Added: 2},
		"bin.dat":         {Path: "bin.dat", Status: worktree.Added, OldMode: "000000", NewMode: "100644", Binary: true},
		"gone.txt":        {Path: "gone.txt", Status: worktree.Deleted, OldMode: "100644", NewMode: "000000", Removed: 1},
		"link":            {Path: "link", Status: worktree.TypeChanged, OldMode: "100644", NewMode: "120000", ModeChanged: true, Added: 1, Removed: 1},
		"run.sh":          {Path: "run.sh", Status: worktree.Modified, OldMode: "100644", NewMode: "100755", ModeChanged: true},
		"new\nname ✓.txt": {Path: "new\nname ✓.txt", OldPath: "old name.txt", Status: worktree.Renamed, Similarity: 100, OldMode: "100644", NewMode: "100644"},
	}
	if len(files) != len(want) {
		t.Fatalf("got %d files: %+v", len(files), files)
	}
	zero := strings.Repeat("0", 40)
	for p, w := range want {
		g := got[p]
		oldPath := p
		if w.OldPath != "" {
			oldPath = w.OldPath
		}
		// the blob ids are git's: the file at each end, zeros where absent
		w.OldBlob, w.NewBlob = blobAt(t, repo, base, oldPath, zero), blobAt(t, repo, head, p, zero)
		if g != w {
			t.Errorf("%q:\n got %+v\nwant %+v", p, g, w)
		}
		if h := g.ContentHash(); h == zero || h != map[bool]string{true: w.OldBlob, false: w.NewBlob}[w.Status == worktree.Deleted] {
			t.Errorf("%q: content hash %q", p, h)
		}
	}
	sum, err := newManager().Summary(t.Context(), repo, base, head)
	if err != nil || sum != (worktree.DiffSummary{Files: 8, Insertions: 5, Deletions: 2, Binary: 1}) {
		t.Fatalf("summary = %+v %v", sum, err)
	}
}

// blobAt is the object id of path in commit rev (git rev-parse), absent
// when it is not there.
func blobAt(t *testing.T, repo, rev, path, absent string) string {
	t.Helper()
	out, err := shErr(repo, "rev-parse", "--verify", "--quiet", rev+":"+path)
	if err != nil {
		return absent
	}
	return strings.TrimSpace(out)
}

func TestFilesBadInput(t *testing.T) {
	t.Parallel()
	repo, base, head := diffRepo(t)
	m := newManager()
	for _, tc := range []struct {
		base, head string
		want       error
	}{
		{"-rf", head, gitx.ErrBadRev},
		{base, "--output=/tmp/x", gitx.ErrBadRev},
		{"", head, gitx.ErrBadRev},
		{"HEAD~99999", head, gitx.ErrUnknownRef},
		{base, "../x", gitx.ErrUnknownRef},
	} {
		if _, err := m.Files(t.Context(), repo, tc.base, tc.head); !errors.Is(err, tc.want) {
			t.Errorf("Files(%q, %q) = %v, want %v", tc.base, tc.head, err, tc.want)
		}
		if _, err := m.Summary(t.Context(), repo, tc.base, tc.head); !errors.Is(err, tc.want) {
			t.Errorf("Summary(%q, %q) = %v, want %v", tc.base, tc.head, err, tc.want)
		}
	}
	if _, err := m.Files(t.Context(), t.TempDir(), base, head); !errors.Is(err, gitx.ErrNotARepo) {
		t.Errorf("outside a repo: %v", err)
	}
}

func TestFilePatch(t *testing.T) {
	t.Parallel()
	repo, base, head := diffRepo(t)
	m := newManager()
	p, err := m.FilePatch(t.Context(), repo, base, head, "-rf")
	if err != nil || !strings.Contains(p, "+++ b/-rf\n@@ -0,0 +1 @@\n+dash\n") {
		t.Fatalf("patch -rf = %q %v", p, err)
	}
	// A glob character is literal: only the file named "*.txt" shows.
	p, err = m.FilePatch(t.Context(), repo, base, head, "*.txt")
	if err != nil || strings.Count(p, "diff --git") != 1 || !strings.Contains(p, "+glob") {
		t.Fatalf("patch *.txt = %q %v", p, err)
	}
	p, err = m.FilePatch(t.Context(), repo, base, head, "bin.dat")
	if err != nil || !strings.Contains(p, "Binary files /dev/null and b/bin.dat differ") {
		t.Fatalf("binary patch = %q %v", p, err)
	}
	p, err = m.FilePatch(t.Context(), repo, base, head, "nothing-here")
	if err != nil || p != "" {
		t.Fatalf("unchanged path = %q %v", p, err)
	}
	files, err := m.Files(t.Context(), repo, base, head)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Status != worktree.Renamed {
			continue
		}
		p, err := m.ChangePatch(t.Context(), repo, base, head, f)
		if err != nil || !strings.Contains(p, "similarity index 100%\nrename from old name.txt\nrename to \"new\\nname \\342\\234\\223.txt\"\n") {
			t.Fatalf("rename patch = %q %v", p, err)
		}
	}
	for _, bad := range []string{"", "/etc/passwd", "../x", "a/../../x", ".."} {
		if _, err := m.FilePatch(t.Context(), repo, base, head, bad); !errors.Is(err, worktree.ErrBadPath) {
			t.Errorf("FilePatch(%q) = %v, want ErrBadPath", bad, err)
		}
	}
	if _, err := m.FilePatch(t.Context(), repo, "-p", head, "a.txt"); !errors.Is(err, gitx.ErrBadRev) {
		t.Errorf("bad base: %v", err)
	}
}

func TestWorktreeDiffAndUntracked(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	write(t, filepath.Join(wt.Dir, "committed.txt"), "c\n")
	commitAll(t, wt.Dir, "work")
	write(t, filepath.Join(wt.Dir, "a.txt"), "one\nuncommitted\n")
	write(t, filepath.Join(wt.Dir, "new\nfile"), "u\n")
	write(t, filepath.Join(wt.Dir, "dir", "-x"), "u\n")
	write(t, filepath.Join(wt.Dir, "x.log"), "ignored\n")

	// Working tree against base: committed and uncommitted tracked changes.
	files, err := m.Files(t.Context(), wt.Dir, wt.BaseSHA, "")
	if err != nil || len(files) != 2 || files[0].Path != "a.txt" || files[1].Path != "committed.txt" {
		t.Fatalf("worktree files = %+v %v", files, err)
	}
	// Branch against base, from the main repository: committed work only.
	files, err = m.Files(t.Context(), repo, wt.BaseSHA, wt.Branch)
	if err != nil || len(files) != 1 || files[0].Path != "committed.txt" {
		t.Fatalf("branch files = %+v %v", files, err)
	}
	un, err := m.Untracked(t.Context(), wt.WorkDir)
	if err != nil || strings.Join(un, "|") != "dir/-x|new\nfile" {
		t.Fatalf("untracked = %q %v", un, err)
	}
	// After the worktree is removed, the diff still comes from the branches.
	if _, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, tlog(t)); err != nil {
		t.Fatal(err)
	}
	files, err = m.Files(t.Context(), repo, wt.BaseSHA, worktree.LeftoversBranchName("t"))
	if err != nil || len(files) != 4 {
		t.Fatalf("leftovers files = %+v %v", files, err)
	}
	if _, err := m.Untracked(t.Context(), wt.Dir); !errors.Is(err, gitx.ErrNoDir) {
		t.Fatalf("untracked of a removed worktree: %v, want gitx.ErrNoDir", err)
	}
	if _, err := m.PromptDiff(t.Context(), wt, 0, tlog(t)); !errors.Is(err, gitx.ErrNoDir) {
		t.Fatalf("prompt diff of a removed worktree: %v, want gitx.ErrNoDir", err)
	}
}

func TestPromptDiff(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	write(t, filepath.Join(wt.Dir, "committed.txt"), "c\n")
	commitAll(t, wt.Dir, "work")
	write(t, filepath.Join(wt.Dir, "a.txt"), "one\nuncommitted\n")
	write(t, filepath.Join(wt.Dir, "notes ✓.md"), "u\n")

	var rec recorder
	inline, err := m.PromptDiff(t.Context(), wt, 0, rec.log)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"+++ b/committed.txt", "+uncommitted", "Untracked files", `"notes ✓.md"`} {
		if !strings.Contains(inline, want) {
			t.Errorf("inline diff lacks %q:\n%s", want, inline)
		}
	}
	if rec.has("Diff exceeds inline limit") {
		t.Fatal("small diff logged as over the limit")
	}

	big, err := m.PromptDiff(t.Context(), wt, 100, rec.log)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"git diff " + wt.BaseSHA + "`",
		"git diff " + wt.BaseSHA + " -- <path>",
		"committed.txt | 1 +",
		"2 files changed",
		`"notes ✓.md"`,
	} {
		if !strings.Contains(big, want) {
			t.Errorf("summary lacks %q:\n%s", want, big)
		}
	}
	if strings.Contains(big, "+uncommitted") || !rec.has("Diff exceeds inline limit") {
		t.Fatalf("over-limit prompt inlined the diff or did not log:\n%s\n%s", big, rec.String())
	}

	clean := provision(t, m, repo, "clean")
	none, err := m.PromptDiff(t.Context(), clean, 0, rec.log)
	if err != nil || !strings.Contains(none, "No changes to tracked files") {
		t.Fatalf("clean diff = %q %v", none, err)
	}
	un, err := m.PromptDiff(t.Context(), worktree.Worktree{Dir: t.TempDir()}, 0, rec.log)
	if err != nil || !strings.Contains(un, "without worktree isolation") {
		t.Fatalf("unisolated = %q %v", un, err)
	}
}

func TestRefsAfterWorktreeRemoved(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt := provision(t, m, repo, "t")
	write(t, filepath.Join(wt.Dir, "c.txt"), "c\n")
	head := commitAll(t, wt.Dir, "work")
	write(t, filepath.Join(wt.Dir, "u.txt"), "u\n")
	rep, err := m.Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, tlog(t))
	if err != nil || !rep.DirRemoved {
		t.Fatalf("finish = %+v %v", rep, err)
	}
	refs, err := m.Refs(t.Context(), repo, "", "t")
	want := worktree.TaskRefs{BaseSHA: wt.BaseSHA, Branch: "boof-runner/t", HeadSHA: head,
		LeftoversBranch: "boof-runner/t--leftovers", LeftoversSHA: rep.LeftoversSHA}
	if err != nil || refs != want {
		t.Fatalf("refs = %+v %v\nwant %+v", refs, err, want)
	}
	files, err := m.Files(t.Context(), repo, refs.HeadSHA, refs.LeftoversSHA)
	if err != nil || len(files) != 1 || files[0].Path != "u.txt" {
		t.Fatalf("leftovers diff = %+v %v", files, err)
	}
	if _, err := m.Refs(t.Context(), repo, "", "other"); !errors.Is(err, worktree.ErrNoMeta) {
		t.Fatalf("unknown task: %v", err)
	}
	if _, err := m.Refs(t.Context(), repo, "", "../t"); !errors.Is(err, worktree.ErrBadTaskID) {
		t.Fatalf("bad id: %v", err)
	}
}
