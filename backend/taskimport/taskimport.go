// Package taskimport brings task files into a store: one file, or every
// task file of a folder tree (the earlier version kept one folder per
// status), each in its own transaction, reporting per file what happened
// and going on after a file it could not import.
package taskimport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/taskmd"
	"github.com/boof-runner/boof-runner/backend/usererr"
)

// Outcome is what happened to one file.
type Outcome string

// The outcomes of a file.
const (
	// Imported: a new task was stored.
	Imported Outcome = "imported"
	// Duplicate: its task was imported before; nothing was stored.
	Duplicate Outcome = "duplicate"
	// Failed: the file could not be read or imported; nothing was stored.
	Failed Outcome = "failed"
	// Skipped: not a task file (or a folder that holds none).
	Skipped Outcome = "skipped"
)

// Result is the report of one file (or skipped folder).
type Result struct {
	Path    string  `json:"path"`
	Outcome Outcome `json:"outcome"`
	// TaskID is the new task (Imported) or the one imported before (Duplicate).
	TaskID   string      `json:"task_id,omitempty"`
	OriginID string      `json:"origin_id,omitempty"`
	Status   task.Status `json:"status,omitempty"`
	Format   string      `json:"format,omitempty"`
	// Notes say what was kept, mapped or left out.
	Notes []string `json:"notes,omitempty"`
	// Error is the one-line reason of a failure, a duplicate or a skip.
	Error string `json:"error,omitempty"`
}

// Options change an import.
type Options struct {
	// Again imports files whose task was imported before as further copies.
	Again bool
}

// File imports one task file.
func File(ctx context.Context, st *store.Store, path string, o Options) Result {
	return importFile(ctx, st, path, "", o)
}

// Bytes imports one task file already read (standard input); name labels it.
func Bytes(ctx context.Context, st *store.Store, name string, data []byte, o Options) Result {
	if len(data) > taskmd.MaxSize {
		return failed(name, &task.InvalidError{Reason: fmt.Sprintf("%s is larger than the import limit of %d MiB", name, taskmd.MaxSize>>20)})
	}
	return importData(ctx, st, name, "", data, taskmd.ParseOptions{}, o)
}

// Dir imports every task file (*.md) under dir, in name order: folders
// named after a status (drafts, pending, ongoing, actions, done, failed,
// archived, …) give their files that status; "assets" folders are searched
// for attachments and "commands" folders (templates) and hidden ones are
// skipped. It stops early only when ctx ends; every other problem is one
// file's failed Result.
func Dir(ctx context.Context, st *store.Store, dir string, o Options) ([]Result, error) {
	var out []Result
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			if path == dir {
				return err
			}
			out = append(out, failed(path, fmt.Errorf("cannot read %s: %w", path, unwrapPath(err))))
			if e != nil && e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := e.Name()
		if e.IsDir() {
			if path == dir {
				return nil
			}
			if strings.HasPrefix(name, ".") || name == "assets" || name == "commands" || name == "node_modules" {
				if name == "commands" {
					out = append(out, Result{Path: path, Outcome: Skipped, Error: "a folder of command templates, not tasks"})
				}
				return fs.SkipDir
			}
			return nil
		}
		if !strings.EqualFold(filepath.Ext(name), ".md") || strings.HasPrefix(name, ".") {
			return nil
		}
		if !e.Type().IsRegular() && e.Type()&fs.ModeSymlink == 0 {
			out = append(out, Result{Path: path, Outcome: Skipped, Error: "not a regular file"})
			return nil
		}
		out = append(out, importFile(ctx, st, path, dir, o))
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("import %s: %w", dir, unwrapPath(err))
	}
	return out, nil
}

func importFile(ctx context.Context, st *store.Store, path, root string, o Options) Result {
	data, err := readCapped(path)
	if err != nil {
		return failed(path, err)
	}
	po := taskmd.ParseOptions{}
	if root != "" {
		po.Status = folderStatus(path, root)
	}
	return importData(ctx, st, path, root, data, po, o)
}

func importData(ctx context.Context, st *store.Store, path, root string, data []byte, po taskmd.ParseOptions, o Options) Result {
	if !looksLikeTask(data) {
		return Result{Path: path, Outcome: Skipped, Error: "not a task file (no --- frontmatter)"}
	}
	d, err := taskmd.ParseWith(data, po)
	if err != nil {
		return failed(path, err)
	}
	r := Result{Path: path, OriginID: d.Origin(), Status: d.Task.Status, Format: string(d.Format), Notes: d.Notes}
	files, notes, closeFiles := findAttachments(path, root, d)
	defer closeFiles()
	r.Notes = append(r.Notes, notes...)
	t, err := taskmd.Import(ctx, st, d, taskmd.Options{Again: o.Again, Files: files})
	var dup *store.DuplicateOriginError
	switch {
	case errors.As(err, &dup):
		r.Outcome, r.TaskID = Duplicate, dup.TaskID
		r.Error, _ = usererr.Describe(err)
	case err != nil:
		r.Outcome = Failed
		r.Error, _ = usererr.Describe(err)
	default:
		r.Outcome, r.TaskID = Imported, t.ID
	}
	return r
}

func failed(path string, err error) Result {
	msg, _ := usererr.Describe(err)
	return Result{Path: path, Outcome: Failed, Error: msg}
}

// looksLikeTask reports whether a file starts with a frontmatter line.
func looksLikeTask(data []byte) bool {
	s := strings.TrimPrefix(string(data[:min(len(data), 8)]), "\ufeff")
	return strings.HasPrefix(s, "---\n") || strings.HasPrefix(s, "---\r\n")
}

// readCapped reads a file of at most taskmd.MaxSize bytes.
func readCapped(path string) ([]byte, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, &task.InvalidError{Reason: fmt.Sprintf("%s is not a regular file", path)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, taskmd.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, unwrapPath(err))
	}
	if len(data) > taskmd.MaxSize {
		return nil, &task.InvalidError{Reason: fmt.Sprintf("%s is larger than the import limit of %d MiB", path, taskmd.MaxSize>>20)}
	}
	return data, nil
}

// folderStatus is the status the nearest status-named folder between the
// file and root names ("" when none): the earlier version's layout,
// tasks/<status>/<file>.md and tasks/ongoing/<id>/<file>.md.
func folderStatus(path, root string) task.Status {
	dir := filepath.Dir(path)
	for i := 0; i < 2 && dir != root && len(dir) > len(root); i++ {
		if st, err := taskmd.ParseStatusWord(filepath.Base(dir)); err == nil {
			return st
		}
		dir = filepath.Dir(dir)
	}
	return ""
}

// findAttachments looks for the files a document names: in an "assets"
// folder next to the file or above it (up to root), under the task's
// origin id, or next to the file itself.
func findAttachments(path, root string, d taskmd.Doc) ([]store.NewFile, []string, func()) {
	var files []store.NewFile
	var notes []string
	var opened []*os.File
	closeAll := func() {
		for _, f := range opened {
			f.Close()
		}
	}
	for _, name := range d.Attachments {
		f := openAttachment(path, root, d.Origin(), name)
		if f == nil {
			notes = append(notes, fmt.Sprintf("attachment %q not found next to the file: not attached", name))
			continue
		}
		opened = append(opened, f)
		files = append(files, store.NewFile{Name: name, Data: f})
	}
	return files, notes, closeAll
}

func openAttachment(path, root, origin, name string) *os.File {
	if store.CheckAttachmentName(name) != nil {
		return nil
	}
	var candidates []string
	dir := filepath.Dir(path)
	for i := 0; i < 4; i++ {
		if origin != "" && filepath.Base(origin) == origin {
			candidates = append(candidates, filepath.Join(dir, "assets", origin, name))
		}
		if root == "" || dir == root || len(dir) <= len(root) {
			break
		}
		dir = filepath.Dir(dir)
	}
	candidates = append(candidates, filepath.Join(filepath.Dir(path), name))
	for _, c := range candidates {
		f, err := os.Open(c)
		if err != nil {
			continue
		}
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return f
		}
		f.Close()
	}
	return nil
}

// unwrapPath drops the path of an *fs.PathError (the message names it).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, fs.ErrPermission) {
			return errors.New("permission denied")
		}
		return pe.Err
	}
	return err
}
