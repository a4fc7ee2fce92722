package verify

import (
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// TestRestoreSeesSameSizeEditsAtOnce: a command that rewrites files with
// the same number of bytes in the same second as the snapshot (the stat
// data git compares can then look unchanged) still has them put back,
// run after run in the same worktree (where the snapshot's location is
// remembered); a command that changes nothing restores nothing.
func TestRestoreSeesSameSizeEditsAtOnce(t *testing.T) {
	dir := repo(t)
	write(t, filepath.Join(dir, "notes.txt"), "aaaa\n")
	head := git(t, dir, "rev-parse", "HEAD")
	for i, base := range []string{"", head, head, ""} {
		res := runIt(t, Spec{Dir: dir, Command: "printf 'two\\n' > a.txt; printf 'bbbb\\n' > notes.txt", Base: base})
		if res.Outcome != task.VerifyPassed {
			t.Fatalf("run %d: %+v", i, res)
		}
		if got := read(t, filepath.Join(dir, "a.txt")); got != "one\n" {
			t.Fatalf("run %d: a.txt = %q after the run, want it put back", i, got)
		}
		if got := read(t, filepath.Join(dir, "notes.txt")); got != "aaaa\n" {
			t.Fatalf("run %d: notes.txt = %q after the run, want it put back", i, got)
		}
		if res.Restored != 2 {
			t.Fatalf("run %d: Restored = %d, want 2", i, res.Restored)
		}
		res = runIt(t, Spec{Dir: dir, Command: "true", Base: base})
		if res.Outcome != task.VerifyPassed || res.Restored != 0 {
			t.Fatalf("run %d: a command that changes nothing: %+v", i, res)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(dir, ".git", snapshotSuffix+"*"))
	if len(matches) > 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}
