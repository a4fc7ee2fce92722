package backend_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxFuncLines is the longest a production function may be, counted from
// its func keyword to its closing brace (STYLE.md: functions under ~100
// lines; issue 39).
const maxFuncLines = 100

// longFuncAllowed lists the production functions, as "dir/file.go Name"
// relative to the module root, still allowed over maxFuncLines, each with
// the reason. An entry that no longer exceeds the limit fails the check, so
// the list only shrinks.
var longFuncAllowed = map[string]string{}

// longFuncs returns every function declared in the non-test files named,
// under dir, that is longer than limit lines, as "file Name" mapped to its
// length (file relative to root).
func longFuncs(t *testing.T, root, dir string, files []string, limit int) map[string]int {
	t.Helper()
	found := map[string]int{}
	fset := token.NewFileSet()
	for _, name := range files {
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		path := filepath.Join(dir, name)
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if n > limit {
				found[filepath.ToSlash(rel)+" "+fd.Name.Name] = n
			}
		}
	}
	return found
}

// TestNoProductionFunctionOver100Lines walks every package of the module,
// the files of every build tag included, and fails on any function of a
// non-test file longer than maxFuncLines that is not in longFuncAllowed,
// and on any allowed entry that is no longer needed.
func TestNoProductionFunctionOver100Lines(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]int{}
	for _, p := range listSources(t) {
		for k, n := range longFuncs(t, root, p.Dir, slices.Concat(p.GoFiles, p.CgoFiles, p.IgnoredGoFiles), maxFuncLines) {
			found[k] = n
		}
	}
	var bad []string
	for k, n := range found {
		if _, ok := longFuncAllowed[k]; !ok {
			bad = append(bad, fmt.Sprintf("%s: %d lines (limit %d)", k, n, maxFuncLines))
		}
	}
	for k := range longFuncAllowed {
		if _, ok := found[k]; !ok {
			bad = append(bad, fmt.Sprintf("%s: allowed over %d lines but no longer is (or is gone): remove it from longFuncAllowed", k, maxFuncLines))
		}
	}
	slices.Sort(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// TestFuncLengthCheckCatchesALongFunction proves the check can fail: a
// function of 101 lines is found, one of exactly 100 is not, and a test
// file is never read.
func TestFuncLengthCheckCatchesALongFunction(t *testing.T) {
	dir := t.TempDir()
	body := func(name string, lines int) string {
		// func line + (lines-2) statements + closing brace
		return "func " + name + "() {\n" + strings.Repeat("\t_ = 0\n", lines-2) + "}\n"
	}
	src := "package probe\n\n" + body("long", 101) + "\n" + body("exact", 100) + "\n" +
		"func (probe) method() {\n" + strings.Repeat("\t_ = 0\n", 150) + "}\n\ntype probe struct{}\n"
	if err := os.WriteFile(filepath.Join(dir, "probe.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "probe_test.go"), []byte("package probe\n\n"+body("longTest", 300)), 0o600); err != nil {
		t.Fatal(err)
	}
	got := longFuncs(t, dir, dir, []string{"probe.go", "probe_test.go"}, maxFuncLines)
	want := map[string]int{"probe.go long": 101, "probe.go method": 152}
	if len(got) != len(want) || got["probe.go long"] != 101 || got["probe.go method"] != 152 {
		t.Fatalf("long functions found %v, want %v", got, want)
	}
}
