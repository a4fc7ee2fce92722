//go:build slow

package runner_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// smallDisk mounts an 8 MiB tmpfs for the test, or skips the test where
// this process may not mount.
func smallDisk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fill writes a file until the disk is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil && !errors.Is(err, syscall.ENOSPC) {
		t.Fatal(err)
	}
	if f == nil {
		return
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// TestDiskFullMidRunFailsClearly: the data root's disk fills up while a
// task runs. The runner frees its disk reserve, records the task as failed
// saying the disk filled up (never leaves it ongoing), stops and exits 1
// with that sentence; once space is back the reserve is written again and
// a retry finishes the task.
func TestDiskFullMidRunFailsClearly(t *testing.T) {
	disk := smallDisk(t)
	base := newRoot(t, nil)
	r := &root{t: t, dir: filepath.Join(disk, "data"), repo: base.repo}
	os.MkdirAll(r.dir, 0o700)
	settingsJSON, _ := os.ReadFile(dataroot.Paths{Root: base.dir}.Settings())
	os.WriteFile(dataroot.Paths{Root: r.dir}.Settings(), settingsJSON, 0o600)
	st, err := store.Open(context.Background(), dataroot.Paths{Root: r.dir}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r.st = st
	tk := r.add("Fill the disk.\n[[mock-delay planner=200 refinement=200 developer=200 reviewer=200]]", 1)
	done := make(chan result, 1)
	go func() { done <- r.cli(context.Background(), "runner", "--once") }()
	waitExec(t, r, tk.ID, task.RoleRefinement)
	filler := filepath.Join(disk, "filler")
	fill(t, filler)
	res := <-done
	want := "boof-runner: The disk filled up while task " + tk.ID + " ran, so its outcome could not be saved; it was recorded as failed and the runner stopped: free some space or repair the database, then retry the task.\n"
	if res.code != 1 || !strings.HasSuffix(res.stderr, want) {
		t.Fatalf("exit %d stderr:\n%s\nwant the last line %q", res.code, res.stderr, want)
	}
	got := r.get(tk.ID)
	if got.Status != task.StatusFailed || !strings.HasPrefix(got.Error, "the disk filled up while this task ran") {
		t.Fatalf("task %s %q", got.Status, got.Error)
	}
	if _, err := os.Stat(dataroot.Paths{Root: r.dir}.DiskReserve()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the reserve was not used: %v", err)
	}
	os.Remove(filler)
	if _, err := r.st.Retry(context.Background(), tk.ID); err != nil {
		t.Fatal(err)
	}
	if res := r.cli(context.Background(), "runner", "--once"); res.code != 0 {
		t.Fatalf("retry: %+v", res)
	}
	if got := r.get(tk.ID); got.Status != task.StatusDone {
		t.Fatalf("after retry %s %q", got.Status, got.Error)
	}
	if fi, err := os.Stat(dataroot.Paths{Root: r.dir}.DiskReserve()); err != nil || fi.Size() != 1<<20 {
		t.Fatalf("reserve not written again: %v", err)
	}
}
