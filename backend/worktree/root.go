package worktree

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// ResolveRoot turns the worktree.root setting into an absolute directory:
// "" is <workDir>/.boof-runner-worktrees, a relative path resolves against
// workDir, and a leading "~/" (or a lone "~") expands to the home
// directory. "~user" forms and control characters are refused with an
// error wrapping ErrBadRoot.
func (m *Manager) ResolveRoot(workDir, root string) (string, error) {
	for _, r := range root {
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("root %q holds a control character: %w", root, ErrBadRoot)
		}
	}
	switch {
	case root == "":
		return filepath.Join(workDir, DefaultRootName), nil
	case root == "~" || strings.HasPrefix(root, "~/"):
		home, err := m.home()
		if err != nil || home == "" {
			return "", fmt.Errorf("root %q: no home directory: %w", root, ErrBadRoot)
		}
		return filepath.Join(home, strings.TrimPrefix(root[1:], "/")), nil
	case strings.HasPrefix(root, "~"):
		return "", fmt.Errorf("root %q: only ~/ is expanded: %w", root, ErrBadRoot)
	case filepath.IsAbs(root):
		return filepath.Clean(root), nil
	}
	return filepath.Join(workDir, root), nil
}

// realPath resolves symlinks in the longest existing prefix of p, so paths
// can be compared with the real paths git prints.
func realPath(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// within reports whether p is dir or below it, and p's path relative to dir.
func within(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// checkRootPlace refuses a root that is the repository top itself or lies
// inside its git directory.
func checkRootPlace(root, top, commonDir string) error {
	if rel, ok := within(top, root); ok && rel == "." {
		return fmt.Errorf("root %s is the repository itself: %w", root, ErrBadRoot)
	}
	if _, ok := within(commonDir, root); ok {
		return fmt.Errorf("root %s is inside the git directory: %w", root, ErrBadRoot)
	}
	return nil
}

// ensureExcluded adds the root to .git/info/exclude when it lies inside the
// repository's working tree, so the user's `git status` never shows it.
// It returns the pattern added ("" when none was needed).
func ensureExcluded(root, top, commonDir string) (string, error) {
	rel, ok := within(top, root)
	if !ok {
		return "", nil
	}
	pattern := "/" + escapeIgnore(filepath.ToSlash(rel)) + "/"
	path := filepath.Join(commonDir, "info", "exclude")
	data, err := userfile.ReadKept(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("read exclude: %w", err)
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if string(bytes.TrimRight(line, "\r")) == pattern {
			return "", nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("write exclude: %w", err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return "", fmt.Errorf("write exclude: %w", err)
	}
	add := "# Boof Runner task worktrees\n" + pattern + "\n"
	if len(data) > 0 && data[len(data)-1] != '\n' {
		add = "\n" + add
	}
	if _, err := f.WriteString(add); err != nil {
		f.Close()
		return "", fmt.Errorf("write exclude: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("write exclude: %w", err)
	}
	return pattern, nil
}

// escapeIgnore backslash-escapes the characters gitignore treats as
// pattern syntax. A leading '!' or '#' needs none: the pattern starts "/".
func escapeIgnore(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case strings.ContainsRune(`\*?[]`, r),
			r == ' ' && strings.TrimRight(s[i:], " ") == "":
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
