package worktree_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/worktree"
)

func TestChangePatchIgnoringWhitespace(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	write(t, filepath.Join(repo, "code.go"), "func f() {\n\treturn 1\n}\n")
	base := commitAll(t, repo, "code")
	write(t, filepath.Join(repo, "code.go"), "func f() {\n        return 1\n}\n// new\n")
	head := commitAll(t, repo, "reindent and add")
	m := newManager()
	files, err := m.Files(t.Context(), repo, base, head)
	if err != nil || len(files) != 1 {
		t.Fatalf("files %v %v", files, err)
	}
	full, err := m.ChangePatch(t.Context(), repo, base, head, files[0])
	if err != nil || !strings.Contains(full, "-\treturn 1") || !strings.Contains(full, "+// new") {
		t.Fatalf("full patch %q %v", full, err)
	}
	ws, err := m.ChangePatchWith(t.Context(), repo, base, head, files[0], worktree.PatchOptions{IgnoreWhitespace: true})
	if err != nil || strings.Contains(ws, "return 1\n-") || strings.Contains(ws, "-\treturn 1") || !strings.Contains(ws, "+// new") {
		t.Fatalf("whitespace-insensitive patch %q %v", ws, err)
	}
}
