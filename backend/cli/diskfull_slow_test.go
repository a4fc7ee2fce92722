//go:build slow

package cli_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// smallDisk mounts a 4 MiB tmpfs for the test, or skips the test where
// this process may not mount (it needs root).
func smallDisk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs here (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fillDisk writes a file in dir until the disk is full.
func fillDisk(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
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

// readVerbs are the commands (and subcommands) that only read.
func readVerbs(id string) [][]string {
	return [][]string{
		{"list"}, {"list", "--json"}, {"show", id}, {"show", "--json", id}, {"log", id},
		{"commands", "list"}, {"commands", "show", "tpl"}, {"schedules"}, {"limits"},
		{"queue", "list"}, {"verify", "list"}, {"budget"},
	}
}

// TestReadVerbsWorkOnAFullDisk: with the data root's disk full, every
// command that only reads works and shows what is stored, whether the
// database was closed (no write-ahead log: SQLite's shared-memory index
// cannot be made) or another process holds it open with commits still in
// its log; a command that writes says the disk is full. The reads change
// nothing but what SQLite leaves of a refused open (an empty log).
func TestReadVerbsWorkOnAFullDisk(t *testing.T) {
	for _, held := range []bool{false, true} {
		name := "closed"
		if held {
			name = "held open with commits in the log"
		}
		t.Run(name, func(t *testing.T) {
			// A done task with a branch to diff, its database moved onto
			// the small disk.
			seed, _, done, _ := reviewSetup(t)
			disk := smallDisk(t)
			data := filepath.Join(disk, "data")
			if err := os.Mkdir(data, 0o700); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(dataroot.Paths{Root: seed}.Database())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dataroot.Paths{Root: data}.Database(), b, 0o600); err != nil {
				t.Fatal(err)
			}
			useRepo(t, data)
			id := strings.TrimSpace(runCLI(t, data, "", "add", "--title", "Read me", "Stored before the disk filled.").stdout)
			if r := runCLI(t, data, "Template text.\n", "commands", "add", "tpl", "-"); r.code != 0 {
				t.Fatalf("commands add: %+v", r)
			}
			want := []string{done, id}
			if held {
				st, err := store.Open(context.Background(), dataroot.Paths{Root: data}.Database(), store.Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer st.Close()
				tk, err := st.CreateTask(context.Background(), task.NewTask{Title: "In the log", Prompt: "Only in the log."})
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, tk.ID)
				if fi, err := os.Stat(dataroot.Paths{Root: data}.Database() + "-wal"); err != nil || fi.Size() == 0 {
					t.Fatalf("no commits in the log: %v", err)
				}
			} else if _, err := os.Stat(dataroot.Paths{Root: data}.Database() + "-shm"); !os.IsNotExist(err) {
				t.Fatalf("the shared-memory file is there: %v", err)
			}
			fillDisk(t, disk)
			db := dataroot.Paths{Root: data}.Database()
			// When it was closed, SQLite's refused read-write open leaves an
			// empty log and a 3-byte index beside the database, as any
			// refused open does: they are left out (and checked below).
			// Held open, a read may move the log's commits into the
			// database file as SQLite does when its last connection closes.
			skip := []string{db + "-wal", db + "-shm"}
			before := dirState(t, data, skip...)
			for _, args := range append(readVerbs(id), []string{"diff", done}, []string{"diff", "--stat", done}) {
				r := runCLI(t, data, "", args...)
				if r.code != 0 {
					t.Errorf("%v on a full disk: exit %d %s", args, r.code, r.stderr)
				}
				if now := dirState(t, data, skip...); now != before && !held {
					t.Fatalf("%v changed the data root:\n%s\nwas\n%s", args, now, before)
				}
			}
			var ids []string
			for _, l := range listJSON(t, data) {
				ids = append(ids, l.ID)
			}
			sort.Strings(ids)
			sort.Strings(want)
			if strings.Join(ids, " ") != strings.Join(want, " ") {
				t.Fatalf("listed %v, want %v", ids, want)
			}
			if r := runCLI(t, data, "", "show", id); !strings.Contains(r.stdout, "Stored before the disk filled.") {
				t.Fatalf("show: %+v", r)
			}
			r := runCLI(t, data, "", "add", "No room.")
			if r.code != 1 || r.stderr != "boof-runner: The disk is full, so nothing was saved; free some space and try again.\n" {
				t.Fatalf("add on a full disk: %+v", r)
			}
			if got := listJSON(t, data); len(got) != len(want) {
				t.Fatalf("after add on a full disk: %+v", got)
			}
			for _, f := range []string{db + "-wal", db + "-shm"} {
				if fi, err := os.Stat(f); err == nil && !held && fi.Size() > 3 {
					t.Fatalf("%s holds %d bytes", f, fi.Size())
				}
			}
		})
	}
}

// dirState lists a folder's files with their sizes and the database's
// content, leaving out the files named in skip.
func dirState(t *testing.T, dir string, skip ...string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if slices.Contains(skip, p) {
			return nil
		}
		if strings.HasSuffix(p, ".db") {
			sum, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.WriteString(fmt.Sprintf("%s sha256 %x\n", p, sha256.Sum256(sum)))
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		b.WriteString(p + " " + fi.Mode().String())
		if !d.IsDir() {
			b.WriteString(" " + strconv.FormatInt(fi.Size(), 10))
		}
		b.WriteString("\n")
		return nil
	})
	return b.String()
}
