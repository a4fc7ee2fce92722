package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// enums finds the values of Go's string "enums": the string constants
// declared with a named string type (task.Status's StatusDraft, ...), read
// from the source of the type's package in declaration order.
type enums struct {
	dir    func(pkg string) (string, error)
	consts map[string]map[string][]string // package path → type name → values
}

func newEnums(dir func(pkg string) (string, error)) *enums {
	return &enums{dir: dir, consts: map[string]map[string][]string{}}
}

// values returns the constants declared with the named type t; none for a
// type without constants (then it is any string).
func (e *enums) values(t reflect.Type) ([]string, error) {
	pkg := t.PkgPath()
	byType, ok := e.consts[pkg]
	if !ok {
		dir, err := e.dir(pkg)
		if err != nil {
			return nil, fmt.Errorf("find package %s: %w", pkg, err)
		}
		if byType, err = stringConsts(dir); err != nil {
			return nil, fmt.Errorf("read package %s: %w", pkg, err)
		}
		e.consts[pkg] = byType
	}
	return byType[t.Name()], nil
}

// goListDir is the directory of a package of this module, as go list finds it.
func goListDir(pkg string) (string, error) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %w", pkg, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// stringConsts parses the Go files of dir (tests left out) and returns, by
// type name, the values of the string constants declared with that type,
// in file and declaration order, each once.
func stringConsts(dir string) (map[string][]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	fset := token.NewFileSet()
	out := map[string][]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range af.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				typ, ok := vs.Type.(*ast.Ident)
				if !ok {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					val, err := strconv.Unquote(lit.Value)
					if err != nil {
						return nil, err
					}
					if !slices.Contains(out[typ.Name], val) {
						out[typ.Name] = append(out[typ.Name], val)
					}
				}
			}
		}
	}
	return out, nil
}
