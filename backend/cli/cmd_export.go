package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/taskmd"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// runExport writes a task as one markdown file to stdout (also -o -) or
// -o FILE. An existing FILE is only replaced with --force, and then
// atomically; a named pipe, a device, a folder or a symbolic link at FILE is
// never replaced.
func runExport(ctx context.Context, c *call) error {
	fs := c.newFlags()
	out := fs.String("o", "", "write to this file instead of stdout (- is stdout)")
	force := fs.Bool("force", false, "replace an existing -o file")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if flagSet(fs, "o") && strings.TrimSpace(*out) == "" {
		return usagef("-o is empty: give a file, or - for standard output")
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	s, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	d, err := taskmd.Load(ctx, s, pos[0])
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := taskmd.Write(&b, d); err != nil {
		return err
	}
	if *out == "-" {
		*out = ""
	}
	if *out == "" {
		if _, err := c.io.Stdout.Write(b.Bytes()); err != nil {
			return fmt.Errorf("write export: %w", err)
		}
	} else if err := writeFileAtomic(*out, b.Bytes(), *force); err != nil {
		return err
	}
	return s.AppendEvent(ctx, d.Task.ID, task.Exported{File: *out, Bytes: b.Len()})
}

// checkExportTarget refuses a FILE that already exists without force, and
// anything but a regular file even with it.
func checkExportTarget(path, abs string, force bool) error {
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		dir := filepath.Dir(abs)
		if di, err := os.Stat(dir); err != nil {
			return &usererr.Edge{Kind: usererr.TargetMissingDir, Path: path, Dir: dir}
		} else if !di.IsDir() {
			return &usererr.Edge{Kind: usererr.TargetNotDir, Path: path, Dir: dir}
		}
		return nil
	case err != nil:
		return fmt.Errorf("export to %s: %w", path, err)
	case !fi.Mode().IsRegular():
		return &usererr.Edge{Kind: usererr.TargetNotRegular, Path: path, FileKind: userfile.KindOf(fi.Mode())}
	case !force:
		return &usererr.Edge{Kind: usererr.TargetExists, Path: path}
	}
	return nil
}

// writeFileAtomic writes data to path atomically and durably
// (atomicfile.WriteFile), refusing to replace an existing file unless force.
func writeFileAtomic(path string, data []byte, force bool) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("export to %s: %w", path, err)
	}
	if err := checkExportTarget(path, abs, force); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(abs, data, 0o644); err != nil {
		return fmt.Errorf("export to %s: %w", path, err)
	}
	return nil
}
