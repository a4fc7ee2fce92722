package tmpdir

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
)

// TestSweep: what a sweep removes and what it keeps, by name and age.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	pid := os.Getpid()
	start := proc.StartTimes(pid)[pid]
	if start == 0 {
		t.Fatal("no start time for this process")
	}
	now := time.Now()
	cases := []struct {
		name    string
		file    bool
		age     time.Duration
		removed bool
	}{
		{name: fmt.Sprintf("boof-hunks-pid%d-%d-1", pid, start)},                        // this live process
		{name: fmt.Sprintf("boof-hunks-pid%d-%d-2", pid, start+1), removed: true},       // the pid names another process now
		{name: fmt.Sprintf("boof-guard-pid%d-%d-3", 1<<22+1, start), removed: true},     // no such pid (above the largest pid_max)
		{name: fmt.Sprintf("boof-other-pid%d-%d-4", 1<<22+1, start), removed: true},     // any prefix of ours, owned
		{name: fmt.Sprintf("boof-hunks-pid%d-0-5", 1<<22+1)},                            // no start time: never ours
		{name: "boof-accept-77", age: 2 * Unowned, removed: true},                       // unowned, old
		{name: "boof-accept-78", age: Unowned / 2},                                      // unowned, recent
		{name: "boof-notes-79", age: 2 * Unowned},                                       // not a family of ours
		{name: "boof-cli-test-80", age: 2 * Unowned},                                    // not ours
		{name: fmt.Sprintf("boof-hunks-pid%d-%d-6", 1<<22+1, start), file: true},        // a file, not a folder
		{name: fmt.Sprintf("other-hunks-pid%d-%d-7", 1<<22+1, start), age: 2 * Unowned}, // not boof-
	}
	var want []string
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		var err error
		if c.file {
			err = os.WriteFile(p, nil, 0o600)
		} else {
			err = os.Mkdir(p, 0o700)
		}
		if err != nil {
			t.Fatal(err)
		}
		at := now.Add(-c.age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		if c.removed {
			want = append(want, p)
		}
	}
	got := Sweep(dir, now)
	sort.Strings(got)
	sort.Strings(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("removed %v\nwant %v", got, want)
	}
	for _, c := range cases {
		_, err := os.Stat(filepath.Join(dir, c.name))
		if gone := os.IsNotExist(err); gone != c.removed {
			t.Errorf("%s: gone %v, want %v", c.name, gone, c.removed)
		}
	}
}

// TestMakeNamesTheOwner: a folder Make returns carries this process's pid
// and start time, so a sweep by another process keeps it.
func TestMakeNamesTheOwner(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	p, err := Make("boof-hunks-")
	if err != nil {
		t.Fatal(err)
	}
	pid := os.Getpid()
	prefix := fmt.Sprintf("boof-hunks-pid%d-%d-", pid, proc.StartTimes(pid)[pid])
	if b := filepath.Base(p); len(b) <= len(prefix) || b[:len(prefix)] != prefix {
		t.Fatalf("made %s, want %s*", b, prefix)
	}
	if removed := Sweep(filepath.Dir(p), time.Now()); len(removed) != 0 {
		t.Fatalf("a live process's folder swept: %v", removed)
	}
}
