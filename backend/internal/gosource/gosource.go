// Package gosource reads the repository's own Go sources for the tests
// that hold the code to a rule (no rename outside atomicfile, no blocking
// read outside userfile): the production files, and the uses of chosen
// functions in them however a file names their package.
package gosource

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// ProductionFiles calls fn with the slash path (relative to root) and the
// content of every non-test Go file below root, leaving out node_modules,
// testdata and hidden folders.
func ProductionFiles(root string, fn func(rel string, src []byte) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "node_modules" || name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		src, err := userfile.ReadKept(path)
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(rel), src)
	})
}

// Uses lists the uses in the Go source src of file rel of the functions
// funcs names by import path ({"os": {"Rename"}}), as "rel:line: pkg.Func"
// with the name the file gives the package.
func Uses(rel string, src []byte, funcs map[string][]string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", rel, err)
	}
	local := map[string][]string{} // the name a file gives a package → its functions
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		fs, ok := funcs[p]
		if !ok {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = fs
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && slices.Contains(local[id.Name], sel.Sel.Name) {
			out = append(out, rel+":"+strconv.Itoa(fset.Position(sel.Pos()).Line)+": "+id.Name+"."+sel.Sel.Name)
		}
		return true
	})
	return out, nil
}

// Audit finds every use of funcs in the production files below root,
// leaving out the files skip names. found lists the uses in files not in
// allowed; stale lists the allowed files that use none (to be removed
// from the list).
func Audit(root string, funcs map[string][]string, skip func(rel string) bool, allowed map[string]string) (found, stale []string, err error) {
	seen := map[string]bool{}
	err = ProductionFiles(root, func(rel string, src []byte) error {
		if skip(rel) {
			return nil
		}
		uses, err := Uses(rel, src, funcs)
		if err != nil {
			return err
		}
		if len(uses) > 0 {
			seen[rel] = true
		}
		if _, ok := allowed[rel]; !ok {
			found = append(found, uses...)
		}
		return nil
	})
	for rel := range allowed {
		if !seen[rel] {
			stale = append(stale, rel)
		}
	}
	return found, stale, err
}
