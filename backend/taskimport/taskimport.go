// Package taskimport brings task files into a store: one file, or every
// task file of a folder tree (the earlier version kept one folder per
// status), each in its own transaction, reporting per file what happened
// and going on after a file it could not import.
package taskimport

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/taskmd"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/userfile"
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
	// Err is the error Error describes.
	Err error `json:"-"`
}

// Failure is the error of an import of rs: nil when every file was
// imported or skipped, else an *intake.PartialImportError.
func Failure(rs []Result) error {
	bad := 0
	for _, r := range rs {
		if r.Outcome == Failed || r.Outcome == Duplicate {
			bad++
		}
	}
	if bad == 0 {
		return nil
	}
	return &intake.PartialImportError{NotImported: bad, Total: len(rs)}
}

// Options change an import.
type Options struct {
	// Again imports files whose task was imported before as further copies.
	Again bool
}

// File imports one task file (a regular file: a named pipe or a device is
// refused before it is opened). The files it attaches must be inside its
// folder.
func File(ctx context.Context, in *intake.Service, path string, o Options) Result {
	r := importFile(ctx, in, path, "", o)
	if r.Outcome == Skipped {
		r.Outcome, r.Err = Failed, &intake.NotTaskError{Path: path}
		r.Error, _ = usererr.Describe(r.Err)
	}
	return r
}

// Stdin is the name Bytes gives a task file read from standard input.
const Stdin = "stdin"

// Bytes imports one task file already read from standard input: it has
// no folder, so it attaches no files.
func Bytes(ctx context.Context, in *intake.Service, data []byte, o Options) Result {
	if len(data) > taskmd.MaxSize {
		return failed(Stdin, &userfile.Error{Role: userfile.TaskFile, Path: userfile.StdinPath, Problem: userfile.TooLarge, Limit: taskmd.MaxSize})
	}
	r := importData(ctx, in, Stdin, "", data, taskmd.ParseOptions{}, o)
	if r.Outcome == Skipped {
		r.Outcome, r.Err = Failed, &intake.NotTaskError{Path: Stdin}
		r.Error, _ = usererr.Describe(r.Err)
	}
	return r
}

// Dir imports every task file (*.md) under dir, in name order: folders
// named after a status (drafts, pending, ongoing, actions, done, failed,
// archived, …) give their files that status; "assets" folders are searched
// for attachments and "commands" folders (templates) and hidden ones are
// skipped. It stops early only when ctx ends, and returns an
// *intake.NoTaskFilesError for a folder without a single file to report;
// every other problem is one file's failed Result.
func Dir(ctx context.Context, in *intake.Service, dir string, o Options) ([]Result, error) {
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
		out = append(out, importFile(ctx, in, path, dir, o))
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("import %s: %w", dir, unwrapPath(err))
	}
	if len(out) == 0 {
		return nil, &intake.NoTaskFilesError{Dir: dir}
	}
	return out, nil
}

func importFile(ctx context.Context, in *intake.Service, path, root string, o Options) Result {
	data, err := userfile.Read(path, userfile.TaskFile, taskmd.MaxSize)
	if err != nil {
		return failed(path, err)
	}
	po := taskmd.ParseOptions{}
	if root != "" {
		po.Status = folderStatus(path, root)
	}
	return importData(ctx, in, path, root, data, po, o)
}

func importData(ctx context.Context, in *intake.Service, path, root string, data []byte, po taskmd.ParseOptions, o Options) Result {
	if !looksLikeTask(data) {
		return Result{Path: path, Outcome: Skipped, Error: "not a task file (no --- frontmatter)"}
	}
	d, err := taskmd.ParseWith(data, po)
	if err != nil {
		return failed(path, err)
	}
	r := Result{Path: path, OriginID: d.Origin(), Status: d.Task.Status, Format: string(d.Format), Notes: d.Notes}
	files, notes, closeFiles, err := findAttachments(path, root, d)
	defer closeFiles()
	if err != nil {
		r.Outcome, r.Err = Failed, err
		r.Error, _ = usererr.Describe(err)
		return r
	}
	t, err := in.Import(ctx, d, taskmd.Options{Again: o.Again, Files: files})
	var dup *store.DuplicateOriginError
	switch {
	case errors.As(err, &dup):
		r.Outcome, r.TaskID, r.Err = Duplicate, dup.TaskID, err
		r.Error, _ = usererr.Describe(err)
	case err != nil:
		r.Outcome, r.Err = Failed, err
		r.Error, _ = usererr.Describe(err)
	default:
		r.Outcome, r.TaskID = Imported, t.ID
		r.Notes = append(r.Notes, notes...)
	}
	return r
}

// FailedResult is the Result of a path that could not be imported for err.
func FailedResult(path string, err error) Result { return failed(path, err) }

func failed(path string, err error) Result {
	msg, _ := usererr.Describe(err)
	return Result{Path: path, Outcome: Failed, Error: msg, Err: err}
}

// looksLikeTask reports whether a file starts with a frontmatter line.
func looksLikeTask(data []byte) bool {
	s := strings.TrimPrefix(string(data[:min(len(data), 8)]), "\ufeff")
	return strings.HasPrefix(s, "---\n") || strings.HasPrefix(s, "---\r\n")
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

// findAttachments opens the files a document names: in an "assets"
// folder next to the file or above it (up to root), under the task's
// origin id, or next to the file itself. Each must lead to a regular file
// inside the imported folder (root, or the file's own folder), symbolic
// links followed: one that leads out of it, or is a named pipe or a device,
// refuses the import (an error, nothing opened). A name found nowhere is a
// note; so is each file attached. A file read from standard input attaches
// nothing.
func findAttachments(path, root string, d taskmd.Doc) ([]store.NewFile, []string, func(), error) {
	var files []store.NewFile
	var notes []string
	var opened []*os.File
	closeAll := func() {
		for _, f := range opened {
			f.Close()
		}
	}
	within := root
	if within == "" {
		within = filepath.Dir(path)
	}
	for _, name := range d.Attachments {
		if path == Stdin {
			notes = append(notes, fmt.Sprintf("attachment %q not attached: a task file read from standard input has no folder to find it in", name))
			continue
		}
		f, from, err := openAttachment(path, root, within, d.Origin(), name)
		if err != nil {
			closeAll()
			return nil, nil, func() {}, err
		}
		if f == nil {
			notes = append(notes, fmt.Sprintf("attachment %q not found next to the file: not attached", name))
			continue
		}
		opened = append(opened, f)
		files = append(files, store.NewFile{Name: name, Data: f})
		size := int64(0)
		if fi, err := f.Stat(); err == nil {
			size = fi.Size()
		}
		notes = append(notes, fmt.Sprintf("attached %q (%d bytes) from %s", name, size, from))
	}
	return files, notes, closeAll, nil
}

// openAttachment opens the first candidate path of name that exists (a
// link to nowhere does not; a pipe or a link out of the folder does, and
// is refused rather than skipped for the next one)
// and returns it with its path, nil when none exists, or the reason the
// one found cannot be attached.
func openAttachment(path, root, within, origin, name string) (*os.File, string, error) {
	if store.CheckAttachmentName(name) != nil {
		return nil, "", nil
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
		if _, err := os.Lstat(c); err != nil {
			continue
		}
		f, err := userfile.OpenWithin(c, within, userfile.Attachment)
		var fe *userfile.Error
		if errors.As(err, &fe) && fe.Problem == userfile.Missing {
			continue // a link to nowhere: not there
		}
		if err != nil {
			return nil, "", err
		}
		return f, c, nil
	}
	return nil, "", nil
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
