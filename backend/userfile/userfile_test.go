//go:build unix

package userfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Every kind of path a user may name is looked at before it is opened: a
// named pipe is refused without waiting for a writer.
func TestOpenRefusesAllButARegularFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("notes"), 0o600)
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(dir, "loop")
	os.Symlink(loop, loop)
	link := filepath.Join(dir, "link")
	os.Symlink(file, link)
	cases := []struct {
		path    string
		problem Problem
		kind    Kind
	}{
		{file, "", ""},
		{link, "", ""},
		{dir, NotRegular, Folder},
		{fifo, NotRegular, NamedPipe},
		{"/dev/null", NotRegular, Device},
		{filepath.Join(dir, "gone"), Missing, ""},
		{filepath.Join(file, "below"), Missing, ""},
		{loop, Loop, ""},
	}
	for _, c := range cases {
		f, err := Open(c.path, Attachment)
		var fe *Error
		switch {
		case c.problem == "" && err != nil:
			t.Errorf("%s: %v", c.path, err)
		case c.problem == "":
			f.Close()
		case !errors.As(err, &fe) || fe.Problem != c.problem || fe.Kind != c.kind || fe.Path != c.path || fe.Role != Attachment:
			t.Errorf("%s: %#v, want %s %s", c.path, err, c.problem, c.kind)
		}
	}
}

func TestReadStopsAtTheLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	os.WriteFile(p, make([]byte, 11), 0o600)
	if b, err := Read(p, TaskFile, 11); err != nil || len(b) != 11 {
		t.Fatalf("at the limit: %d %v", len(b), err)
	}
	var fe *Error
	if _, err := Read(p, TaskFile, 10); !errors.As(err, &fe) || fe.Problem != TooLarge || fe.Limit != 10 {
		t.Fatalf("over the limit: %v", err)
	}
}

// OpenWithin follows links but only to files inside its folder.
func TestOpenWithinStaysInItsFolder(t *testing.T) {
	dir := t.TempDir()
	inside := filepath.Join(dir, "spec.txt")
	os.WriteFile(inside, []byte("spec"), 0o600)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("secret"), 0o600)
	os.Symlink("spec.txt", filepath.Join(dir, "in"))
	os.Symlink(outside, filepath.Join(dir, "out"))
	os.Symlink("..", filepath.Join(dir, "up"))
	for _, name := range []string{"spec.txt", "in"} {
		f, err := OpenWithin(filepath.Join(dir, name), dir, Attachment)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f.Close()
	}
	real, _ := filepath.EvalSymlinks(outside)
	var fe *Error
	if _, err := OpenWithin(filepath.Join(dir, "out"), dir, Attachment); !errors.As(err, &fe) || fe.Problem != Outside || fe.Target != real || fe.Within != dir {
		t.Fatalf("link out: %#v", err)
	}
	if _, err := OpenWithin(filepath.Join(dir, "up", filepath.Base(dir), "spec.txt"), dir, Attachment); err != nil {
		t.Fatalf("a path that comes back in: %v", err)
	}
}
