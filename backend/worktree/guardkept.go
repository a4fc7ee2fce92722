package worktree

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/tmpdir"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// A worktree with uncommitted work, nothing staged, is recorded before a
// read-only step without git writing a tree: the status records are kept
// with the content of each file they list (a tracked file changed or
// deleted, an untracked file). Every other path matches HEAD's tree, so
// after the step the worktree is unchanged when git status lists the same
// records and each listed file holds the same content, mode and type. Only
// when the step changed something are the trees written (keptTree): HEAD's
// tree with the kept files hashed in at their paths (git's filters apply
// as for git add). A worktree with more than keepFiles listed files or
// keepBytes of them, staged or unmerged entries, a submodule or a nested
// repository gets the full record instead.
const (
	keepFiles = 64
	keepBytes = 4 << 20
)

// kept is a worktree's status records and the listed files' content.
type kept struct {
	records string
	files   []keptFile
}

// keptFile is one listed path as it was: its git mode ("" when it did not
// exist) and content (a symbolic link's target). mode is status's
// worktree mode for a tracked path, from lstat for an untracked one.
type keptFile struct {
	path      string
	mode      string
	data      []byte
	untracked bool
}

// keep reads the listed files of the worktree p probed; ok is false when
// it must have the full record instead.
func keep(dir string, p probe) (*kept, bool) {
	if !p.ok || p.clean || p.staged || len(p.nested) > 0 || len(p.recs) > keepFiles {
		return nil, false
	}
	k := &kept{records: strings.Join(p.recs, "\x00")}
	total := 0
	for _, rec := range p.recs {
		f := keptFile{path: recordPath(rec), untracked: rec[0] == '?'}
		if f.path == "" || (rec[0] != '1' && rec[0] != '?') {
			return nil, false
		}
		if rec[0] == '1' {
			fields := strings.Fields(rec)
			if fields[2][0] == 'S' || fields[1][1] == 'A' { // a submodule; intent to add
				return nil, false
			}
			if fields[5] != "000000" {
				f.mode = fields[5]
			}
		}
		data, mode, exists, ok := readKept(filepath.Join(dir, filepath.FromSlash(f.path)))
		if !ok || exists != (f.mode != "" || f.untracked) {
			return nil, false
		}
		if f.untracked {
			f.mode = mode
		}
		f.data = data
		if total += len(data); total > keepBytes {
			return nil, false
		}
		k.files = append(k.files, f)
	}
	return k, true
}

// readKept reads a regular file's content or a symbolic link's target and
// its git mode by lstat; ok is false for anything else (a directory).
func readKept(path string) (data []byte, mode string, exists, ok bool) {
	fi, err := os.Lstat(path)
	if os.IsNotExist(err) {
		return nil, "", false, true
	}
	if err != nil {
		return nil, "", false, false
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(path)
		return []byte(target), "120000", true, err == nil
	case fi.Mode().IsRegular():
		if fi.Size() > keepBytes {
			return nil, "", true, false
		}
		data, err := userfile.ReadKept(path)
		mode = "100644"
		if fi.Mode()&0o100 != 0 {
			mode = "100755"
		}
		return data, mode, true, err == nil
	}
	return nil, "", true, false
}

// same reports whether the worktree p probed (same HEAD) is as k kept it.
func (k *kept) same(dir string, p probe) bool {
	if strings.Join(p.recs, "\x00") != k.records {
		return false
	}
	for _, f := range k.files {
		data, mode, exists, ok := readKept(filepath.Join(dir, filepath.FromSlash(f.path)))
		if !ok || exists != (f.mode != "") || !bytes.Equal(data, f.data) {
			return false
		}
		if exists && (mode == "120000") != (f.mode == "120000") {
			return false
		}
		if f.untracked && mode != f.mode {
			return false
		}
	}
	return true
}

// keptTree writes the tree of the files as k kept them: HEAD's tree with
// each kept file hashed in at its path (through git hash-object --path,
// so the filters of git add apply; a link's target unfiltered) and each
// deleted one removed, in a temporary index.
func (m *Manager) keptTree(ctx context.Context, dir, headTree string, k *kept) (string, error) {
	fileMode := true
	if out, err := m.git.Run(ctx, dir, "config", "--type=bool", "core.fileMode"); err == nil {
		fileMode = strings.TrimSpace(string(out)) != "false"
	}
	var info strings.Builder
	for _, f := range k.files {
		if f.mode == "" {
			fmt.Fprintf(&info, "0 %s\t%s\x00", strings.Repeat("0", 40), f.path)
			continue
		}
		args := []string{"hash-object", "-w", "--stdin"}
		if f.mode == "120000" {
			args = append(args, "--no-filters")
		} else {
			args = append(args, "--path="+f.path)
		}
		out, err := m.git.Exec(ctx, gitx.Cmd{Dir: dir, Args: args, Input: f.data})
		if err != nil {
			return "", fmt.Errorf("keep %s: %w", f.path, err)
		}
		mode := f.mode
		if f.untracked && !fileMode && mode == "100755" {
			mode = "100644"
		}
		fmt.Fprintf(&info, "%s %s\t%s\x00", mode, strings.TrimSpace(string(out)), f.path)
	}
	tmp, err := tmpdir.Make("boof-guard-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	if _, err := m.git.RunEnv(ctx, dir, env, "read-tree", headTree); err != nil {
		return "", err
	}
	if _, err := m.git.Exec(ctx, gitx.Cmd{Dir: dir, Env: env, Args: []string{"update-index", "-z", "--index-info"},
		Input: []byte(info.String())}); err != nil {
		return "", err
	}
	return m.git.WriteTree(ctx, dir, env)
}
