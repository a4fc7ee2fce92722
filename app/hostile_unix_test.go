//go:build unix

package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/setup"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// hostileValues are the strings the window's calls are attacked with:
// each must be refused in one sentence, changing nothing, or stored and
// read back as it was.
func hostileValues() map[string]string {
	return map[string]string{
		"empty":        "",
		"1 MB":         strings.Repeat("x", 1<<20),
		"NUL":          "a\x00b",
		"OSC escape":   "\x1b]0;pwned\x07",
		"CSI escape":   "\x1b[2J\x1b[31mred",
		"control":      "a\rb\x08c",
		"invalid UTF8": "a\xff\xfeb",
		"traversal":    "../../etc/passwd",
		"newline":      "tok\nen",
		"spaces":       "  ",
	}
}

// hostilePaths are paths that are not the folder a call expects: a named
// pipe, a symlink to /etc/passwd, a dangling symlink, a file, a folder
// without permissions, a relative path and one with "..".
func hostilePaths(t *testing.T) map[string]string {
	t.Helper()
	d := t.TempDir()
	fifo := filepath.Join(d, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	passwd, dangling, file, shut := filepath.Join(d, "passwd"), filepath.Join(d, "dangling"), filepath.Join(d, "file"), filepath.Join(d, "shut")
	os.Symlink("/etc/passwd", passwd)
	os.Symlink(filepath.Join(d, "gone"), dangling)
	os.WriteFile(file, []byte("x"), 0o000)
	os.Mkdir(shut, 0o000)
	escaped := filepath.Join(d, "\x1b]0;x\x07")
	os.Mkdir(escaped, 0o700)
	t.Cleanup(func() { os.Chmod(shut, 0o700) })
	return map[string]string{"fifo": fifo, "symlink to /etc/passwd": passwd, "dangling symlink": dangling,
		"file": file, "relative": "some/dir", "dot": ".", "dotdot traversal": d + "/../../../../etc/passwd",
		"escape in name": escaped}
}

// windowCalls is a fresh data root with a done task, and the window's
// bound services over it as app/shell builds them.
type windowCalls struct {
	*firstRun
	paths  dataroot.Paths
	review *ReviewService
	forge  *ForgeService
	task   task.Task
}

func newWindowCalls(t *testing.T) *windowCalls {
	t.Helper()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent") // no keyring: the token file
	f := newFirstRun(t, `{"ui": {"setupDismissed": false}}`)
	w := &windowCalls{firstRun: f, paths: dataroot.Paths{Root: filepath.Join(f.root, "data")}}
	h := f.h
	w.review = NewReviewService(h.Git, f.st, worktree.NewManager(h.Git, time.Now), h.Review, f.rec, context.Background)
	set := func() settings.Settings { s, _ := h.Settings.Load(); return s }
	w.forge = NewForgeService(h.PullRequests(set, func(string) string { return "" }), h.Git, f.st, f.rec, context.Background)
	w.task, _ = doneTask(t, f.st)
	return w
}

// snapshot is what the data root holds: every file's kind and content,
// the settings, and the store's tasks and drafts. The database's own
// files, the logs and lock files (settings.json.lock, made by the first
// write attempt, empty) are not data: the store's rows stand for them.
func (w *windowCalls) snapshot(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(w.paths.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || strings.HasPrefix(p, w.paths.Database()) || strings.HasSuffix(p, ".lock") || strings.Contains(p, string(filepath.Separator)+"logs") {
			return nil
		}
		fi, _ := d.Info()
		v := fi.Mode().String()
		if fi.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			sum := sha256.Sum256(b)
			v += " " + hex.EncodeToString(sum[:])
		}
		out[p] = v
		return nil
	})
	ctx := context.Background()
	tasks, err := w.st.ListTasks(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range tasks {
		d, _, err := w.st.ReviewDraft(ctx, tk.ID)
		if err != nil {
			t.Fatal(err)
		}
		out["task "+tk.ID] = fmt.Sprintf("%s %s %q %q", tk.Status, tk.Repo, tk.Title, d.Draft)
	}
	repos, _ := w.st.RecentRepos(ctx, 100)
	out["repos"] = fmt.Sprint(repos)
	return out
}

// call is one bound call with a hostile value; ok says it was accepted,
// and check then reads the value back.
type hostileCall struct {
	name string
	// refuse: no value may be accepted (each names no task).
	refuse bool
	run    func(v string) error
	check  func(t *testing.T, v string)
}

// The window's bound calls added this wave, each with every hostile
// value: refused in one sentence with nothing changed on disk or in the
// store, or accepted and read back as given; the data root then opens
// again with the same settings.
func TestBoundCallsFromOutside(t *testing.T) {
	w := newWindowCalls(t)
	id := w.task.ID
	draftOf := func(field string, v string) review.Draft {
		switch field {
		case "general":
			return review.Draft{General: v}
		case "comment":
			return review.Draft{Comments: []review.Comment{{File: "README", Index: 1, Line: 1, Text: v}}}
		case "file":
			return review.Draft{Viewed: []review.Viewed{{Path: v, Hash: "h"}}}
		}
		return review.Draft{Head: v}
	}
	calls := []hostileCall{
		{name: "SetToken host", run: func(v string) error { _, err := w.forge.SetToken(v, "tok"); return err }},
		{name: "SetToken token", run: func(v string) error { _, err := w.forge.SetToken("example.com", v); return err }},
		{name: "ForgetToken", run: func(v string) error { return w.forge.ForgetToken(v) }},
		{name: "SetDiffView", run: func(v string) error { _, err := w.setupSettings().SetDiffView(v); return err }},
		{name: "UseRepository", run: func(v string) error { return refused(w.setup.UseRepository(v)) },
			check: func(t *testing.T, v string) {
				if s, err := w.h.Settings.Load(); err != nil || s.WorkDir() != filepath.Clean(v) {
					t.Fatalf("the working directory read back is %q (%v), not %q", s.WorkDir(), err, v)
				}
			}},
		{name: "CheckRepository", run: func(v string) error { return refused(w.setup.CheckRepository(v)) }},
		{name: "Create repo", run: func(v string) error { _, err := w.tasks.Create(NewTaskInput{Prompt: "p", Repo: v}); return err }},
		{name: "CreateFromIssue", run: func(v string) error { _, err := w.forge.CreateFromIssue(IssueTaskInput{URL: v}); return err }},
		{name: "Draft id", refuse: true, run: func(v string) error { _, err := w.review.Draft(v); return err }},
		{name: "ClearDraft id", refuse: true, run: func(v string) error { return w.review.ClearDraft(v) }},
		{name: "SaveDraft id", refuse: true, run: func(v string) error { _, err := w.review.SaveDraft(v, review.Draft{General: "g"}); return err }},
	}
	for _, field := range []string{"general", "comment", "file", "head"} {
		calls = append(calls, hostileCall{name: "SaveDraft " + field,
			run: func(v string) error { _, err := w.review.SaveDraft(id, draftOf(field, v)); return err },
			check: func(t *testing.T, v string) {
				got, err := w.review.Draft(id)
				if err != nil {
					t.Fatal(err)
				}
				want := draftOf(field, v)
				got.UpdatedAt, got.Unviewed, got.Moved = want.UpdatedAt, want.Unviewed, false
				got.Viewed = want.Viewed // LoadDraft unviews a file that is not in the diff
				if !reflect.DeepEqual(got.General, want.General) || !reflect.DeepEqual(got.Head, want.Head) ||
					(len(want.Comments) > 0 && got.Comments[0].Text != want.Comments[0].Text) {
					t.Fatalf("read back %+v, stored %+v", got, want)
				}
			}})
	}
	values := hostileValues()
	gone, _ := doneTask(t, w.st)
	if err := w.st.DeleteTask(context.Background(), gone.ID); err != nil {
		t.Fatal(err)
	}
	values["deleted task"], values["missing task"] = gone.ID, "20261205-nosuchtask"
	for name, p := range hostilePaths(t) {
		values["path "+name] = p
	}
	for _, c := range calls {
		for vname, v := range values {
			t.Run(c.name+"/"+vname, func(t *testing.T) {
				before := w.snapshot(t)
				err := c.run(v)
				if err != nil {
					msg := err.Error()
					if msg == "" || strings.IndexFunc(msg, unicode.IsControl) >= 0 || !utf8.ValidString(msg) || len(msg) > 600 {
						t.Fatalf("not one clear sentence: %q", msg)
					}
					if after := w.snapshot(t); !reflect.DeepEqual(before, after) {
						t.Fatalf("refused (%v) but changed: %s", err, diffSnap(before, after))
					}
					return
				}
				if c.refuse {
					t.Fatalf("accepted")
				}
				if c.check != nil {
					c.check(t, v)
				}
			})
		}
	}
	w.reopens(t)
}

// setupSettings is the settings service over the data root's file.
func (w *windowCalls) setupSettings() *SettingsService {
	return NewSettingsService(w.h.Settings, w.st, w.h.Tools.Tools, w.rec, context.Background, w.picker, nil)
}

// reopens checks that the data root opens again: the settings load and a
// new host starts over them.
func (w *windowCalls) reopens(t *testing.T) {
	t.Helper()
	if _, err := settings.NewFile(w.paths.Settings(), host.Catalog()).Load(); err != nil {
		t.Fatalf("the settings no longer load: %v", err)
	}
	b, _ := os.ReadFile(w.paths.Settings())
	if !json.Valid(b) {
		t.Fatalf("settings.json is not JSON:\n%s", b)
	}
}

// refused makes a repository check's refusal an error.
func refused(c setup.RepoCheck, err error) error {
	if err != nil {
		return err
	}
	if !c.Usable {
		return errors.New(c.Problem)
	}
	return nil
}

func diffSnap(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, fmt.Sprintf("%s: %.120q -> %.120q", k, v, b[k]))
		}
	}
	for k, v := range b {
		if _, ok := a[k]; !ok {
			out = append(out, fmt.Sprintf("%s: new %.120q", k, v))
		}
	}
	return strings.Join(out, "; ")
}

// The window's settings writes (Dismiss, SetDiffView, UseRepository) with
// settings.json replaced by a named pipe, a symlink to /etc/passwd or a
// folder: each refused in one sentence, without hanging, and the thing in
// its place left as it was. A settings.json linked to a file elsewhere (a
// dotfiles folder; a link to a file not made yet) is written there and
// stays a link.
func TestSettingsWritesOverAHostileFile(t *testing.T) {
	w := newWindowCalls(t)
	repo := t.TempDir()
	writes := map[string]func() error{
		"Dismiss":       func() error { return w.setup.Dismiss() },
		"SetDiffView":   func() error { _, err := w.setupSettings().SetDiffView("split"); return err },
		"UseRepository": func() error { return refused(w.setup.UseRepository(repo)) },
	}
	path, dotfile := w.paths.Settings(), filepath.Join(t.TempDir(), "settings.json")
	makers := map[string]func() error{
		"fifo":     func() error { return syscall.Mkfifo(path, 0o600) },
		"passwd":   func() error { return os.Symlink("/etc/passwd", path) },
		"folder":   func() error { return os.Mkdir(path, 0o700) },
		"dangling": func() error { return os.Symlink(dotfile, path) },
		"dotfile": func() error {
			os.WriteFile(dotfile, []byte(`{"ui": {"setupDismissed": false}}`), 0o600)
			return os.Symlink(dotfile, path)
		},
	}
	for kind, make := range makers {
		for name, write := range writes {
			t.Run(kind+"/"+name, func(t *testing.T) {
				os.RemoveAll(path)
				os.RemoveAll(dotfile)
				if err := make(); err != nil {
					t.Fatal(err)
				}
				before, _ := os.Lstat(path)
				err := write()
				after, lerr := os.Lstat(path)
				if lerr != nil || after.Mode() != before.Mode() {
					t.Fatalf("settings.json was %v, now %v (%v)", before.Mode(), after, lerr)
				}
				if kind == "dangling" || kind == "dotfile" {
					// Written where the link leads, the link kept.
					if err != nil {
						t.Fatal(err)
					}
					if _, err := settings.NewFile(dotfile, host.Catalog()).Load(); err != nil {
						t.Fatalf("the linked settings no longer load: %v", err)
					}
					return
				}
				if err == nil {
					t.Fatal("accepted")
				}
				if msg := err.Error(); strings.IndexFunc(msg, unicode.IsControl) >= 0 || len(msg) > 600 {
					t.Fatalf("not one clear sentence: %q", msg)
				}
			})
		}
	}
	b, _ := os.ReadFile("/etc/passwd")
	if !strings.Contains(string(b), "root:") {
		t.Fatal("/etc/passwd changed")
	}
}
