package gitx

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// RefSHAs returns the commits the given full refs under refs/heads/ point
// at; a ref that does not exist is left out. It reads the ref files of the
// repository whose common git directory is common (dir is a directory
// inside it) the way git resolves a branch — the loose ref file first,
// then packed-refs — without running git (git writes both by renaming a
// complete file into place, so a read never sees half a write). A layout
// it does not read itself (the reftable ref store, a config with includes
// or a ref storage extension, a symbolic or unparsable ref) is answered by
// `git for-each-ref`.
func (g *Git) RefSHAs(ctx context.Context, dir, common string, refs ...string) (map[string]string, error) {
	if got, ok := readBranchFiles(common, refs); ok {
		return got, nil
	}
	args := append([]string{"for-each-ref", "--format=%(objectname) %(refname)", "--"}, refs...)
	out, err := g.Run(ctx, dir, args...)
	if err != nil {
		return nil, fmt.Errorf("read refs: %w", err)
	}
	want := map[string]bool{}
	for _, r := range refs {
		want[r] = true
	}
	got := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if sha, ref, ok := strings.Cut(line, " "); ok && want[ref] {
			got[ref] = sha
		}
	}
	return got, nil
}

// RefsUnder returns the refs whose names start with prefix (ending in
// "/") and their object ids, read from the ref files when it can be
// (readRefsUnder), else by `git for-each-ref`.
func (g *Git) RefsUnder(ctx context.Context, dir, common, prefix string) (map[string]string, error) {
	if got, ok := readRefsUnder(common, prefix); ok {
		return got, nil
	}
	out, err := g.Run(ctx, dir, "for-each-ref", "--format=%(objectname) %(refname)", "--", prefix)
	if err != nil {
		return nil, fmt.Errorf("read refs: %w", err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if sha, ref, ok := strings.Cut(line, " "); ok && strings.HasPrefix(ref, prefix) {
			got[ref] = sha
		}
	}
	return got, nil
}

// readRefsUnder is RefsUnder without git: the loose ref files under
// common/prefix (lock files aside) over the packed-refs lines with that
// prefix. ok is false when git must be asked.
func readRefsUnder(common, prefix string) (map[string]string, bool) {
	if common == "" || !strings.HasPrefix(prefix, "refs/") || !strings.HasSuffix(prefix, "/") ||
		checkRef(strings.TrimSuffix(prefix, "/")) != nil || !plainRefStore(common) {
		return nil, false
	}
	got := map[string]string{}
	ok := true
	err := filepath.WalkDir(filepath.Join(common, filepath.FromSlash(prefix)), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".lock") {
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				ok = false
			}
			return nil
		}
		rel, rerr := filepath.Rel(common, path)
		b, ferr := userfile.ReadKept(path)
		sha := strings.TrimSpace(string(b))
		ref := filepath.ToSlash(rel)
		if rerr != nil || ferr != nil || !d.Type().IsRegular() || !isObjectID(sha) || checkRef(ref) != nil {
			ok = false
			return filepath.SkipAll
		}
		got[ref] = sha
		return nil
	})
	if err != nil || !ok {
		return nil, false
	}
	ok = eachPackedRef(common, func(sha, ref string) {
		if _, loose := got[ref]; strings.HasPrefix(ref, prefix) && !loose {
			got[ref] = sha
		}
	})
	if !ok {
		return nil, false
	}
	return got, true
}

// eachPackedRef calls fn with each ref line of common/packed-refs (peeled
// lines and comments aside); a missing file has none. ok is false when the
// file cannot be read or holds a line git would have to judge.
func eachPackedRef(common string, fn func(sha, ref string)) bool {
	f, err := userfile.OpenKept(filepath.Join(common, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return true
	}
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		sha, ref, found := strings.Cut(line, " ")
		if !found || !isObjectID(sha) {
			return false
		}
		fn(sha, ref)
	}
	return sc.Err() == nil
}

// readBranchFiles is RefSHAs without git; ok is false when git must be asked.
func readBranchFiles(common string, refs []string) (map[string]string, bool) {
	if common == "" || !plainRefStore(common) {
		return nil, false
	}
	got := map[string]string{}
	var packed []string
	for _, ref := range refs {
		if !strings.HasPrefix(ref, "refs/heads/") || checkRef(ref) != nil {
			return nil, false
		}
		b, err := userfile.ReadKept(filepath.Join(common, filepath.FromSlash(ref)))
		switch {
		case err == nil:
			sha := strings.TrimSpace(string(b))
			if !isObjectID(sha) {
				return nil, false // a symbolic ref, or something git would have to judge
			}
			got[ref] = sha
		case errors.Is(err, os.ErrNotExist) || isDirErr(err):
			packed = append(packed, ref)
		default:
			return nil, false
		}
	}
	if len(packed) == 0 {
		return got, true
	}
	want := map[string]bool{}
	for _, r := range packed {
		want[r] = true
	}
	if !eachPackedRef(common, func(sha, ref string) {
		if want[ref] {
			got[ref] = sha
		}
	}) {
		return nil, false
	}
	return got, true
}

// isDirErr reports a read of a directory (refs/heads/a when refs/heads/a/b
// exists: a is then no branch).
func isDirErr(err error) bool { return errors.Is(err, syscall.EISDIR) }

func isObjectID(s string) bool { return (len(s) == 40 || len(s) == 64) && isHex(s) }

// plainRefStore reports whether the repository keeps its refs in files
// git's own way: no reftable directory and a config that does not say
// otherwise (configAllows).
func plainRefStore(common string) bool {
	if _, err := os.Stat(filepath.Join(common, "reftable")); err == nil {
		return false
	}
	return configAllows(common, "refstorage")
}

// configAllows reports whether the repository's config can be read and
// holds neither an include (which could hold anything) nor any of the
// given words (lower case). It errs towards false: git is asked then.
func configAllows(common string, words ...string) bool {
	b, err := userfile.ReadKept(filepath.Join(common, "config"))
	if err != nil {
		return false
	}
	c := strings.ToLower(string(b))
	for _, w := range append(words, "[include") {
		if strings.Contains(c, w) {
			return false
		}
	}
	return true
}
