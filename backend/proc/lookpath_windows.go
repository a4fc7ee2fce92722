package proc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// lookPath resolves file like cmd.exe would, but with the child's PATH:
// a name without an extension is tried with each of PATHEXT's (an npm
// agent CLI is a claude.cmd shim), a name with a separator is taken
// relative to dir.
func lookPath(file, dir, path string) (string, error) {
	exts := pathExts()
	if strings.ContainsAny(file, `/\:`) {
		p := file
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if q, err := withExt(p, exts); err == nil {
			return q, nil
		}
		return "", fmt.Errorf("executable %s: %w", file, exec.ErrNotFound)
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			continue
		}
		p := filepath.Join(d, file)
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if q, err := withExt(p, exts); err == nil {
			return q, nil
		}
	}
	return "", fmt.Errorf("executable %s: %w", file, exec.ErrNotFound)
}

func pathExts() []string {
	v := os.Getenv("PATHEXT")
	if v == "" {
		v = ".COM;.EXE;.BAT;.CMD"
	}
	var out []string
	for _, e := range strings.Split(strings.ToLower(v), ";") {
		if e != "" && e[0] == '.' {
			out = append(out, e)
		}
	}
	return out
}

// withExt returns p when it names a file with an executable extension,
// else p plus the first extension that names a file.
func withExt(p string, exts []string) (string, error) {
	if ext := strings.ToLower(filepath.Ext(p)); ext != "" {
		for _, e := range exts {
			if e == ext && isFile(p) {
				return p, nil
			}
		}
	}
	for _, e := range exts {
		if isFile(p + e) {
			return p + e, nil
		}
	}
	return "", os.ErrNotExist
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
